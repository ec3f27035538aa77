package dev.wayfinder.app.ui

import android.Manifest
import android.os.Build

/**
 * The runtime permissions Wayfinder asks for, one after the other (two
 * system dialogs at once would show only one): notifications first (API
 * 33+: the agent's progress and its questions while it works in another
 * app), then the microphone (spoken commands).
 */
object PermissionSequence {
    fun all(sdk: Int = Build.VERSION.SDK_INT): List<String> =
        if (sdk >= Build.VERSION_CODES.TIRAMISU) listOf(Manifest.permission.POST_NOTIFICATIONS, Manifest.permission.RECORD_AUDIO)
        else listOf(Manifest.permission.RECORD_AUDIO)

    /** The next permission to ask for: the first neither granted nor already asked in this sequence. */
    fun next(granted: (String) -> Boolean, asked: Set<String>, sdk: Int = Build.VERSION.SDK_INT): String? =
        all(sdk).firstOrNull { !granted(it) && it !in asked }
}

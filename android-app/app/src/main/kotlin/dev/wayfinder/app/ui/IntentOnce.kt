package dev.wayfinder.app.ui

import android.content.Intent
import android.os.Bundle

/**
 * An intent that starts work (replay, listen, assist, share) is handled
 * once: in the onCreate of a fresh start or in onNewIntent, never when the
 * activity is recreated (rotation, theme, locale: [savedInstanceState] is
 * not null) nor when it is reopened from Recents, which redelivers the
 * task's original intent with FLAG_ACTIVITY_LAUNCHED_FROM_HISTORY.
 */
object IntentOnce {
    fun fromHistory(intent: Intent?): Boolean =
        intent != null && intent.flags and Intent.FLAG_ACTIVITY_LAUNCHED_FROM_HISTORY != 0

    /** In onCreate: whether [intent] is new work. */
    fun onCreate(intent: Intent?, savedInstanceState: Bundle?): Boolean =
        intent != null && savedInstanceState == null && !fromHistory(intent)

    /** In onNewIntent: whether [intent] is new work. */
    fun onNewIntent(intent: Intent?): Boolean = intent != null && !fromHistory(intent)
}

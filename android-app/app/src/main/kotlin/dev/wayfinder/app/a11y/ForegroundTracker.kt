package dev.wayfinder.app.a11y

import android.content.ComponentName

/**
 * Remembers the foreground activity from TYPE_WINDOW_STATE_CHANGED events.
 * Such events also come from dialogs, menus and toasts whose class is not
 * an activity, so a class counts only when [isActivity] says so (the
 * service asks PackageManager; answers are cached). Thread-safe.
 */
class ForegroundTracker(private val isActivity: (ComponentName) -> Boolean) {
    private val known = HashMap<ComponentName, Boolean>()

    @Volatile
    private var current: ComponentName? = null

    fun onWindowStateChanged(packageName: CharSequence?, className: CharSequence?) {
        if (packageName.isNullOrEmpty() || className.isNullOrEmpty()) return
        val c = ComponentName(packageName.toString(), className.toString())
        val activity = synchronized(known) { known.getOrPut(c) { isActivity(c) } }
        if (activity) current = c
    }

    /** The activity as `package/.Class` (ComponentName short form), or "" when unknown. */
    fun activity(): String = current?.flattenToShortString().orEmpty()
}

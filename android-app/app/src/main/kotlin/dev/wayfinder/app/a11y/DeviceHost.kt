package dev.wayfinder.app.a11y

import android.accessibilityservice.AccessibilityService
import android.accessibilityservice.GestureDescription
import android.view.accessibility.AccessibilityNodeInfo
import android.view.accessibility.AccessibilityWindowInfo
import dev.wayfinder.app.model.Bounds

/** A launchable app: package name and user-visible label. */
data class LaunchableApp(val packageName: String, val label: String)

/**
 * What [ServiceDevice] needs from the platform. Implemented by
 * [WayfinderAccessibilityService]; every method may be called from any thread.
 */
interface DeviceHost {
    /** AccessibilityService.getWindows(): every window on the default display. */
    fun captureWindows(): List<AccessibilityWindowInfo>

    /** The display in px, [0, 0, width, height]. */
    fun screenBounds(): Bounds

    /** The foreground activity as `package/.Class`, or "". */
    fun foregroundActivity(): String

    /** AccessibilityService.performGlobalAction. */
    fun performGlobal(action: Int): Boolean

    /** AccessibilityService.dispatchGesture with the callback on the main thread. */
    fun dispatch(g: GestureDescription, cb: AccessibilityService.GestureResultCallback): Boolean

    /** The node holding input focus, if any. */
    fun focusedInput(): AccessibilityNodeInfo?

    /** Starts [packageName]'s launch activity; false when it has none. */
    fun launchPackage(packageName: String): Boolean

    /** Puts [text] on the clipboard, or clears it for null; false when refused. */
    fun setClipboard(text: String?): Boolean

    /** Apps with a launcher activity, excluding this app. */
    fun launchableApps(): List<LaunchableApp>
}

package dev.wayfinder.app.a11y

import android.accessibilityservice.AccessibilityService
import android.accessibilityservice.GestureDescription
import android.content.ActivityNotFoundException
import android.content.ClipData
import android.content.ClipboardManager
import android.content.ComponentName
import android.content.Intent
import android.content.pm.PackageManager
import android.graphics.Point
import android.hardware.display.DisplayManager
import android.os.Build
import android.view.Display
import android.view.WindowManager
import android.view.accessibility.AccessibilityEvent
import android.view.accessibility.AccessibilityNodeInfo
import android.view.accessibility.AccessibilityWindowInfo
import android.view.View
import dev.wayfinder.app.daemon.AskRequest
import dev.wayfinder.app.model.Bounds
import dev.wayfinder.app.ui.AskOverlay
import dev.wayfinder.app.ui.MainActivity
import dev.wayfinder.app.ui.QuestionHost
import dev.wayfinder.app.ui.StepFrame
import dev.wayfinder.app.ui.StepHost
import dev.wayfinder.app.ui.StepOverlay
import dev.wayfinder.app.ui.StepView

/**
 * The accessibility service: wires events into [SettleDetector] and
 * [ForegroundTracker], implements [DeviceHost] with platform calls, and
 * publishes its [ServiceDevice] in [DeviceRegistry] while connected.
 * Configuration: res/xml/accessibility_service_config.xml.
 */
class WayfinderAccessibilityService : AccessibilityService(), DeviceHost, QuestionHost, StepHost {
    private var question: View? = null // main thread
    private var frame: StepFrame? = null // main thread: the step overlay's window
    private val settle = SettleDetector(MonotonicClock)
    private val tracker = ForegroundTracker(::isActivity)
    lateinit var device: ServiceDevice
        private set

    override fun onCreate() {
        super.onCreate()
        device = ServiceDevice(this, settle)
    }

    override fun onServiceConnected() {
        super.onServiceConnected()
        DeviceRegistry.attach(device)
        QuestionHost.current = this
        StepHost.current = this
    }

    /** Main thread. The window is added once, then redrawn step by step. */
    override fun showStep(view: StepView) {
        val wm = getSystemService(WindowManager::class.java) ?: return
        try {
            val f = frame ?: StepFrame(this).also { wm.addView(it, StepOverlay.params()); frame = it }
            f.step = view
        } catch (e: RuntimeException) { // the window token went away with the connection
            frame = null
        }
    }

    /** Main thread. */
    override fun hideStep() {
        removeOverlay(frame)
        frame = null
    }

    /** Removes overlay window [v], when there is one. Main thread. */
    private fun removeOverlay(v: View?) {
        if (v != null) runCatching { getSystemService(WindowManager::class.java)?.removeView(v) }
    }

    /** Main thread. Replaces any question shown. */
    override fun showQuestion(ask: AskRequest, step: String, onAnswer: (String) -> Unit, onStop: () -> Unit) {
        hideQuestion()
        val open = {
            hideQuestion()
            startActivity(Intent(this, MainActivity::class.java).addFlags(Intent.FLAG_ACTIVITY_NEW_TASK))
        }
        val v = AskOverlay.view(this, ask, step, { hideQuestion(); onAnswer(it) }, open, { hideQuestion(); onStop() })
        try {
            getSystemService(WindowManager::class.java)?.addView(v, AskOverlay.params())
            question = v
        } catch (e: RuntimeException) { // the window token went away with the connection
            question = null
        }
    }

    /** Main thread. */
    override fun hideQuestion() {
        removeOverlay(question)
        question = null
    }

    override fun onAccessibilityEvent(event: AccessibilityEvent) {
        // Wayfinder's own UI (progress list, notification) must not keep the target app from settling
        if (event.packageName == packageName) return
        settle.onEvent(event.eventType, MonotonicClock.nowMs(), event.windowId, event.packageName?.toString().orEmpty())
        if (event.eventType == AccessibilityEvent.TYPE_WINDOW_STATE_CHANGED) {
            tracker.onWindowStateChanged(event.packageName, event.className)
        }
    }

    override fun onInterrupt() = Unit

    override fun onUnbind(intent: Intent?): Boolean {
        DeviceRegistry.detach(device)
        if (QuestionHost.current === this) QuestionHost.current = null
        if (StepHost.current === this) StepHost.current = null
        hideQuestion()
        hideStep()
        return super.onUnbind(intent)
    }

    override fun onDestroy() {
        DeviceRegistry.detach(device)
        if (QuestionHost.current === this) QuestionHost.current = null
        if (StepHost.current === this) StepHost.current = null
        hideQuestion()
        hideStep()
        super.onDestroy()
    }

    override fun captureWindows(): List<AccessibilityWindowInfo> = windows.orEmpty()

    override fun screenBounds(): Bounds {
        if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.R) {
            getSystemService(WindowManager::class.java)?.maximumWindowMetrics?.bounds?.let {
                return Bounds(0, 0, it.width(), it.height())
            }
        } else {
            val display = getSystemService(DisplayManager::class.java)?.getDisplay(Display.DEFAULT_DISPLAY)
            if (display != null) {
                val p = Point()
                @Suppress("DEPRECATION")
                display.getRealSize(p)
                return Bounds(0, 0, p.x, p.y)
            }
        }
        val m = resources.displayMetrics
        return Bounds(0, 0, m.widthPixels, m.heightPixels)
    }

    override fun foregroundActivity(): String = tracker.activity()

    override fun performGlobal(action: Int): Boolean = performGlobalAction(action)

    override fun dispatch(g: GestureDescription, cb: GestureResultCallback): Boolean = dispatchGesture(g, cb, null)

    override fun focusedInput(): AccessibilityNodeInfo? = findFocus(AccessibilityNodeInfo.FOCUS_INPUT)

    override fun launchPackage(packageName: String): Boolean {
        val intent = packageManager.getLaunchIntentForPackage(packageName) ?: return false
        intent.addFlags(Intent.FLAG_ACTIVITY_NEW_TASK or Intent.FLAG_ACTIVITY_RESET_TASK_IF_NEEDED)
        return try {
            startActivity(intent)
            true
        } catch (e: ActivityNotFoundException) {
            false
        } catch (e: SecurityException) {
            false
        }
    }

    override fun setClipboard(text: String?): Boolean {
        val cm = getSystemService(ClipboardManager::class.java) ?: return false
        return try {
            if (text == null) {
                if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.P) cm.clearPrimaryClip()
                else cm.setPrimaryClip(ClipData.newPlainText("", ""))
            } else {
                cm.setPrimaryClip(ClipData.newPlainText("Wayfinder", text))
            }
            true
        } catch (e: SecurityException) {
            false
        }
    }

    override fun launchableApps(): List<LaunchableApp> {
        val pm = packageManager
        val main = Intent(Intent.ACTION_MAIN).addCategory(Intent.CATEGORY_LAUNCHER)
        return pm.queryIntentActivities(main, 0)
            .map { it.activityInfo.packageName to it.loadLabel(pm).toString() }
            .filter { it.first != packageName }
            .distinctBy { it.first }
            .map { LaunchableApp(it.first, it.second) }
    }

    private fun isActivity(c: ComponentName): Boolean = try {
        packageManager.getActivityInfo(c, 0)
        true
    } catch (e: PackageManager.NameNotFoundException) {
        false
    }
}

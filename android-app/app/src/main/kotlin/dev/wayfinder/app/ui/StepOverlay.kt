package dev.wayfinder.app.ui

import android.content.Context
import android.graphics.Canvas
import android.graphics.Color
import android.graphics.Paint
import android.graphics.PixelFormat
import android.view.Gravity
import android.view.View
import android.view.WindowManager
import dev.wayfinder.app.daemon.DaemonEvent
import dev.wayfinder.app.model.Bounds

/*
 * What the agent is doing, shown over the app it operates while a command
 * runs (the idea of DroidRun Portal's overlay): the step about to be taken
 * as a caption, and a frame around the element it acts on. It is one
 * accessibility overlay window (TYPE_ACCESSIBILITY_OVERLAY) that takes no
 * touches: a tap, the agent's gesture fallbacks included, goes through it
 * to the app. The daemon never reads such a window as the app's screen, nor
 * lets the device press it (daemon/screen drops it; ActionPerformer
 * refuses it), so showing the agent's choice cannot steer it. A screen
 * reader speaks the caption (a live region). Stop is in the notification
 * and the app.
 */

/** What the step overlay shows: [caption], and the element's [bounds] (px, screen coordinates) when known. */
data class StepView(val caption: String, val bounds: Bounds?)

/**
 * Follows the daemon's events: the last screen's elements (SNAPSHOT), the
 * action about to be taken on one of them (CHOSEN, sent before the device
 * acts), the end of the run (RUN_FINISHED). Main thread.
 */
class StepTracker {
    private var elements: Map<Int, Pair<String, Bounds>> = emptyMap()

    /** The view for [e]: what to show, [HIDE], or null when [e] changes nothing shown. */
    fun onEvent(e: DaemonEvent): StepView? {
        val d = e.data
        return when (e.type) {
            DaemonEvent.RUN_STARTED -> {
                elements = emptyMap()
                StepView("Wayfinder: ${short(d.optString("command"))}", null)
            }
            DaemonEvent.SNAPSHOT -> {
                val out = HashMap<Int, Pair<String, Bounds>>()
                val els = d.optJSONArray("elements")
                for (i in 0 until (els?.length() ?: 0)) {
                    val el = els!!.optJSONObject(i) ?: continue
                    val b = el.optJSONArray("bounds") ?: continue
                    if (b.length() != 4) continue
                    out[el.optInt("index", i)] = el.optString("label") to Bounds(b.optInt(0), b.optInt(1), b.optInt(2), b.optInt(3))
                }
                elements = out
                null
            }
            DaemonEvent.CHOSEN -> {
                val el = elements[d.optInt("element", -1)]
                val label = d.optString("label").ifEmpty { el?.first.orEmpty() }
                StepView(caption(d.optInt("step"), d.optString("action"), label), el?.second?.takeUnless { it.isEmpty() })
            }
            DaemonEvent.RUN_FINISHED -> HIDE
            else -> null
        }
    }

    companion object {
        /** Hides the overlay. */
        val HIDE = StepView("", null)

        /** The most characters of a label or command shown. */
        const val MAX_CHARS = 48

        /** "Step 3: tap “Dark theme”"; typed text is never shown, only the field. */
        fun caption(step: Int, action: String, label: String): String {
            val what = when (action) {
                "tap" -> "tap"
                "long_press" -> "long-press"
                "input" -> "type into"
                "ime_enter" -> "press Enter in"
                "scroll" -> "scroll"
                "ensure_on" -> "switch on"
                "ensure_off" -> "switch off"
                "back" -> "go back"
                "home" -> "go home"
                "launch" -> "open the app"
                else -> action
            }
            val target = if (label.isBlank() || action == "back" || action == "home" || action == "launch") "" else " “${short(label)}”"
            return "Step $step: $what$target"
        }

        private fun short(s: String): String {
            val t = s.replace('\n', ' ').trim()
            return if (t.length <= MAX_CHARS) t else t.take(MAX_CHARS - 1) + "…"
        }
    }
}

/**
 * Draws the step: a frame around the element's bounds (screen px: the
 * window spans the screen from its top-left corner) and the caption on a
 * band at the top of the screen, or at the bottom when the element is in
 * the top third, so that it never hides the element.
 */
class StepFrame(context: Context) : View(context) {
    var step: StepView = StepTracker.HIDE
        set(value) {
            field = value
            // the caption is what a screen reader says: a polite live region
            // speaks each new step once, after what it is saying (TalkBack
            // reads a live region's changes in any window it can see)
            contentDescription = value.caption.ifEmpty { null }
            invalidate()
        }

    private val frame = Paint(Paint.ANTI_ALIAS_FLAG).apply {
        style = Paint.Style.STROKE
        strokeWidth = context.dp(3).toFloat()
        color = Color.rgb(0xff, 0x9f, 0x1c)
    }
    private val band = Paint().apply { color = Color.argb(0xcc, 0x20, 0x24, 0x28) }
    private val text = Paint(Paint.ANTI_ALIAS_FLAG).apply {
        color = Color.WHITE
        textSize = context.dp(14).toFloat()
    }

    init {
        // one node, the caption, for screen readers; the agent never reads
        // it (an accessibility overlay is no part of the app's screen), nor
        // waits on its changes (the service ignores its own package's events)
        importantForAccessibility = IMPORTANT_FOR_ACCESSIBILITY_YES
        accessibilityLiveRegion = ACCESSIBILITY_LIVE_REGION_POLITE
    }

    /** Whether the caption goes at the bottom: the element is in the screen's top third. */
    fun captionAtBottom(): Boolean {
        val b = step.bounds ?: return false
        return height > 0 && b.centerY < height / 3
    }

    override fun onDraw(canvas: Canvas) {
        super.onDraw(canvas)
        step.bounds?.let { b -> canvas.drawRect(b.left.toFloat(), b.top.toFloat(), b.right.toFloat(), b.bottom.toFloat(), frame) }
        if (step.caption.isEmpty()) return
        val pad = context.dp(8).toFloat()
        val h = text.textSize + 2 * pad
        val top = if (captionAtBottom()) height - h - context.dp(48) else context.dp(32).toFloat()
        canvas.drawRect(0f, top, width.toFloat(), top + h, band)
        canvas.drawText(step.caption, pad, top + pad - text.ascent(), text)
    }
}

/** The step overlay's window. */
object StepOverlay {
    /**
     * The whole screen from its top-left corner, so that an element's screen
     * bounds are the frame's coordinates; no touches, no key focus.
     */
    fun params(): WindowManager.LayoutParams = WindowManager.LayoutParams(
        WindowManager.LayoutParams.MATCH_PARENT,
        WindowManager.LayoutParams.MATCH_PARENT,
        WindowManager.LayoutParams.TYPE_ACCESSIBILITY_OVERLAY,
        WindowManager.LayoutParams.FLAG_NOT_FOCUSABLE or WindowManager.LayoutParams.FLAG_NOT_TOUCHABLE or
            WindowManager.LayoutParams.FLAG_LAYOUT_IN_SCREEN or WindowManager.LayoutParams.FLAG_LAYOUT_NO_LIMITS,
        PixelFormat.TRANSLUCENT,
    ).apply { gravity = Gravity.TOP or Gravity.START }
}

/**
 * Shows and hides the step overlay; implemented by the accessibility
 * service while it is connected (StepHost.current), used by DaemonService.
 * Main thread.
 */
interface StepHost {
    fun showStep(view: StepView)
    fun hideStep()

    companion object {
        @Volatile
        var current: StepHost? = null
    }
}

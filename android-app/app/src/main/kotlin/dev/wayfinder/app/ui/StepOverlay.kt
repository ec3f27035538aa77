package dev.wayfinder.app.ui

import android.content.Context
import android.graphics.Canvas
import android.graphics.Color
import android.graphics.Paint
import android.graphics.PixelFormat
import android.view.Gravity
import android.view.View
import android.view.WindowManager
import android.widget.LinearLayout
import android.widget.TextView
import dev.wayfinder.app.daemon.DaemonEvent
import dev.wayfinder.app.model.Bounds

/*
 * What the agent is doing, shown over the app it operates while a command
 * runs (the idea of DroidRun Portal's overlay): a banner at the top with
 * the step about to be taken and a Stop button, and a frame around the
 * element that step acts on. Both are accessibility overlays
 * (TYPE_ACCESSIBILITY_OVERLAY), which the daemon never reads as the app's
 * screen nor lets the device press (daemon/screen drops such windows;
 * ActionPerformer refuses them), so showing the agent's choice cannot steer
 * it. The frame's window takes no touches.
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

/** The frame drawn around the element a step acts on; [bounds] null draws nothing. */
class StepFrame(context: Context) : View(context) {
    var bounds: Bounds? = null
        set(value) {
            field = value
            invalidate()
        }

    private val paint = Paint(Paint.ANTI_ALIAS_FLAG).apply {
        style = Paint.Style.STROKE
        strokeWidth = context.dp(3).toFloat()
        color = Color.rgb(0xff, 0x9f, 0x1c)
    }

    init {
        // a drawing, not content: nothing here for screen readers or the agent
        importantForAccessibility = IMPORTANT_FOR_ACCESSIBILITY_NO_HIDE_DESCENDANTS
    }

    override fun onDraw(canvas: Canvas) {
        super.onDraw(canvas)
        val b = bounds ?: return
        canvas.drawRect(b.left.toFloat(), b.top.toFloat(), b.right.toFloat(), b.bottom.toFloat(), paint)
    }
}

/** The banner and frame windows of the step overlay. */
object StepOverlay {
    /** The banner: [caption] and Stop; [caption] is its first child, a TextView. */
    fun banner(context: Context, caption: String, onStop: () -> Unit): LinearLayout {
        val pad = context.dp(8)
        return LinearLayout(context).apply {
            orientation = LinearLayout.HORIZONTAL
            gravity = Gravity.CENTER_VERTICAL
            setBackgroundColor(Color.argb(0xdd, 0x20, 0x24, 0x28))
            setPadding(pad, pad, pad, pad)
            addView(TextView(context).apply { text = caption; setTextColor(Color.WHITE) }.weighted(1f))
            addView(context.button("Stop") { onStop() })
        }
    }

    /** Shows [caption] on a banner made by [banner]. */
    fun setCaption(banner: LinearLayout, caption: String) {
        (banner.getChildAt(0) as? TextView)?.text = caption
    }

    /** The banner's window: full width at the top, touchable (Stop), never taking key focus. */
    fun bannerParams(): WindowManager.LayoutParams = overlayParams(Gravity.TOP)

    /**
     * The frame's window: the whole screen from its top-left corner, so that
     * an element's screen bounds are the frame's coordinates, and touches go
     * through to the app.
     */
    fun frameParams(): WindowManager.LayoutParams = WindowManager.LayoutParams(
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
    fun showStep(view: StepView, onStop: () -> Unit)
    fun hideStep()

    companion object {
        @Volatile
        var current: StepHost? = null
    }
}

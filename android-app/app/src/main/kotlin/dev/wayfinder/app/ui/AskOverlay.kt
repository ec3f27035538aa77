package dev.wayfinder.app.ui

import android.content.Context
import android.graphics.Color
import android.graphics.PixelFormat
import android.view.Gravity
import android.view.View
import android.view.WindowManager
import android.widget.LinearLayout
import android.widget.TextView
import dev.wayfinder.app.daemon.AskRequest

/**
 * The agent's question drawn over whatever app it is operating, as an
 * accessibility overlay (TYPE_ACCESSIBILITY_OVERLAY: only the connected
 * accessibility service may add one; it needs no permission, so it shows
 * even when notifications are denied). A button per option (all of them,
 * up to MAX_BUTTONS; a longer list, such as the options of a choice slot,
 * is one "Choose…" button that opens the app's scrolling list), "Answer…"
 * (opens the app) for a free-text question, and Stop.
 */
object AskOverlay {
    /**
     * The most options drawn as buttons over the app; more would push the app off the screen. Seven
     * fits the longest "did you mean" (three flows, each also "— with other values", and "none of these").
     */
    const val MAX_BUTTONS = 7

    /** The overlay's content for [ask] during [step]; callbacks run on the main thread. */
    fun view(context: Context, ask: AskRequest, step: String, onAnswer: (String) -> Unit, onOpen: () -> Unit, onStop: () -> Unit): View {
        val pad = context.dp(12)
        return LinearLayout(context).apply {
            orientation = LinearLayout.VERTICAL
            setBackgroundColor(Color.argb(0xee, 0x20, 0x24, 0x28))
            setPadding(pad, pad, pad, pad)
            addView(TextView(context).apply { text = "Wayfinder asks: ${ask.question}"; setTextColor(Color.WHITE); textSize = 16f })
            if (step.isNotEmpty()) addView(TextView(context).apply { text = "Now at: $step"; setTextColor(Color.LTGRAY) })
            val buttons = LinearLayout(context).apply { orientation = LinearLayout.VERTICAL }
            when {
                ask.options.isEmpty() -> buttons.addView(context.button("Answer…") { onOpen() })
                ask.options.size > MAX_BUTTONS -> buttons.addView(context.button("Choose… (${ask.options.size} options)") { onOpen() })
                else -> for (o in ask.options) buttons.addView(context.button(o) { onAnswer(o) })
            }
            buttons.addView(context.button("Stop") { onStop() })
            addView(buttons)
        }
    }

    /** Layout of the overlay: full width at the bottom, touchable, never taking key focus. */
    fun params(): WindowManager.LayoutParams = WindowManager.LayoutParams(
        WindowManager.LayoutParams.MATCH_PARENT,
        WindowManager.LayoutParams.WRAP_CONTENT,
        WindowManager.LayoutParams.TYPE_ACCESSIBILITY_OVERLAY,
        WindowManager.LayoutParams.FLAG_NOT_FOCUSABLE or WindowManager.LayoutParams.FLAG_NOT_TOUCH_MODAL,
        PixelFormat.TRANSLUCENT,
    ).apply { gravity = Gravity.BOTTOM }
}

/**
 * Shows and hides the question overlay; implemented by the accessibility
 * service while it is connected (QuestionHost.current), used by DaemonService.
 */
interface QuestionHost {
    fun showQuestion(ask: AskRequest, step: String, onAnswer: (String) -> Unit, onStop: () -> Unit)
    fun hideQuestion()

    companion object {
        @Volatile
        var current: QuestionHost? = null
    }
}

package dev.wayfinder.app.a11y

import android.accessibilityservice.AccessibilityService
import android.accessibilityservice.GestureDescription
import android.graphics.Path
import dev.wayfinder.app.model.Bounds
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicReference

/** Builds the gestures the fallback path dispatches. Durations in ms, coordinates in px. */
object Gestures {
    const val TAP_MS = 60L
    const val LONG_PRESS_MS = 1_000L
    const val SWIPE_MS = 350L

    fun tap(x: Int, y: Int): GestureDescription = stroke(point(x, y), TAP_MS)

    fun longPress(x: Int, y: Int): GestureDescription = stroke(point(x, y), LONG_PRESS_MS)

    /**
     * A vertical swipe inside [b] that scrolls its content: forward (towards
     * the end of a list) drags the finger up, backward drags it down. Uses
     * the middle 50% of the box so the stroke starts inside the scrollable.
     */
    fun scroll(b: Bounds, forward: Boolean): GestureDescription {
        val x = b.centerX.toFloat()
        val low = (b.top + b.height * 3 / 4).toFloat()
        val high = (b.top + b.height / 4).toFloat()
        val p = Path()
        if (forward) {
            p.moveTo(x, low); p.lineTo(x, high)
        } else {
            p.moveTo(x, high); p.lineTo(x, low)
        }
        return stroke(p, SWIPE_MS)
    }

    private fun point(x: Int, y: Int): Path = Path().apply { moveTo(x.toFloat(), y.toFloat()) }

    private fun stroke(p: Path, ms: Long): GestureDescription =
        GestureDescription.Builder()
            .addStroke(GestureDescription.StrokeDescription(p, 0, ms))
            .build()
}

/**
 * Dispatches a gesture and waits for its GestureResultCallback, up to
 * [timeoutMs]. [dispatch] is AccessibilityService.dispatchGesture (callback
 * delivered on the main thread), so [run] belongs on a worker thread: on
 * the main thread it could only end by timing out. The daemon calls
 * Device.perform on its own (Go-owned) threads.
 */
class GestureRunner(
    private val dispatch: (GestureDescription, AccessibilityService.GestureResultCallback) -> Boolean,
    private val timeoutMs: Long = 5_000,
) {
    enum class Outcome { COMPLETED, CANCELLED, REJECTED, TIMED_OUT }

    fun run(g: GestureDescription): Outcome {
        val done = CountDownLatch(1)
        val result = AtomicReference<Outcome?>(null)
        val cb = object : AccessibilityService.GestureResultCallback() {
            override fun onCompleted(gestureDescription: GestureDescription?) {
                result.compareAndSet(null, Outcome.COMPLETED); done.countDown()
            }

            override fun onCancelled(gestureDescription: GestureDescription?) {
                result.compareAndSet(null, Outcome.CANCELLED); done.countDown()
            }
        }
        if (!dispatch(g, cb)) return Outcome.REJECTED
        done.await(timeoutMs, TimeUnit.MILLISECONDS)
        result.compareAndSet(null, Outcome.TIMED_OUT)
        return result.get()!!
    }
}

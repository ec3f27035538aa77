package dev.wayfinder.app

import android.accessibilityservice.AccessibilityService
import android.accessibilityservice.GestureDescription
import dev.wayfinder.app.a11y.GestureRunner
import dev.wayfinder.app.a11y.GestureRunner.Outcome
import dev.wayfinder.app.a11y.Gestures
import dev.wayfinder.app.model.Bounds
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.annotation.GraphicsMode
import kotlin.concurrent.thread

// native graphics: gesture paths are real Skia paths (the legacy shadow has no geometry)
@GraphicsMode(GraphicsMode.Mode.NATIVE)
@RunWith(RobolectricTestRunner::class)
class GestureRunnerTest {
    private fun runner(timeoutMs: Long = 2_000, dispatch: (GestureDescription, AccessibilityService.GestureResultCallback) -> Boolean) =
        GestureRunner(dispatch, timeoutMs)

    @Test
    fun reportsHowTheGestureEnded() {
        val g = Gestures.tap(10, 20)
        assertEquals(Outcome.COMPLETED, runner { d, cb -> cb.onCompleted(d); true }.run(g))
        assertEquals(Outcome.CANCELLED, runner { d, cb -> cb.onCancelled(d); true }.run(g))
        assertEquals(Outcome.REJECTED, runner { _, _ -> false }.run(g))
        assertEquals(Outcome.TIMED_OUT, runner(timeoutMs = 30) { _, _ -> true }.run(g))
    }

    @Test
    fun waitsForACallbackFromAnotherThread() {
        val o = runner { d, cb ->
            thread { Thread.sleep(50); cb.onCompleted(d) }
            true
        }.run(Gestures.longPress(5, 5))
        assertEquals(Outcome.COMPLETED, o)
    }

    @Test
    fun lateCallbackAfterTimeoutDoesNotFlipTheOutcome() {
        var late: (() -> Unit)? = null
        val o = runner(timeoutMs = 20) { d, cb -> late = { cb.onCompleted(d) }; true }.run(Gestures.tap(1, 1))
        late!!()
        assertEquals(Outcome.TIMED_OUT, o)
    }

    @Test
    fun gestureShapes() {
        val tap = Gestures.tap(100, 200)
        assertEquals(1, tap.strokeCount)
        assertEquals(Gestures.TAP_MS, tap.getStroke(0).duration)
        assertEquals(Gestures.LONG_PRESS_MS, Gestures.longPress(1, 1).getStroke(0).duration)
        val b = Bounds(0, 400, 1080, 1200)
        val fwd = Gestures.scroll(b, forward = true).getStroke(0).path
        val bwd = Gestures.scroll(b, forward = false).getStroke(0).path
        val fb = android.graphics.RectF()
        fwd.computeBounds(fb)
        // the swipe stays inside the scrollable's bounds
        assertTrue("forward swipe inside bounds: $fb", fb.top >= 400 && fb.bottom <= 1200 && fb.height() > 0)
        val bb = android.graphics.RectF()
        bwd.computeBounds(bb)
        assertEquals(fb, bb)
    }
}

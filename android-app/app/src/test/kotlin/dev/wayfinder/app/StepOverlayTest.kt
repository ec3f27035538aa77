package dev.wayfinder.app

import android.view.WindowManager
import android.view.WindowManagerImpl
import android.widget.Button
import android.widget.LinearLayout
import android.widget.TextView
import dev.wayfinder.app.a11y.WayfinderAccessibilityService
import dev.wayfinder.app.daemon.DaemonEvent
import dev.wayfinder.app.model.Bounds
import dev.wayfinder.app.ui.StepFrame
import dev.wayfinder.app.ui.StepTracker
import dev.wayfinder.app.ui.StepView
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNull
import org.junit.Assert.assertSame
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.shadow.api.Shadow
import org.robolectric.shadows.ShadowWindowManagerImpl

/** The step overlay: what the agent is about to do, over the app it operates. */
@RunWith(RobolectricTestRunner::class)
class StepOverlayTest {
    private fun event(type: String, data: String) =
        DaemonEvent.parse("""{"seq":1,"time_ms":0,"run_id":"r1","type":"$type","data":$data}""")!!

    @Test
    fun trackerCaptionsTheChosenStepAndFramesItsElement() {
        val t = StepTracker()
        assertEquals(StepView("Wayfinder: turn on the dark theme", null), t.onEvent(event("run_started", """{"command":"turn on the dark theme"}""")))
        assertNull("a screen changes nothing shown",
            t.onEvent(event("snapshot", """{"step":1,"elements":[{"index":0,"kind":"button","label":"Settings","bounds":[900,80,1080,200]},{"index":1,"kind":"switch","label":"Dark theme","bounds":[0,400,1080,520]},{"index":2,"kind":"input","label":"Name","bounds":[0,600,1080,700]}]}""")))
        assertEquals(StepView("Step 2: tap “Dark theme”", Bounds(0, 400, 1080, 520)),
            t.onEvent(event("chosen", """{"step":2,"mode":"graph","action":"tap","element":1,"label":"Dark theme","ok":false}""")))
        val typed = t.onEvent(event("chosen", """{"step":3,"mode":"replay","action":"input","element":2,"label":"Name","text":"Ezra Pike","ok":false}"""))!!
        assertEquals("Step 3: type into “Name”", typed.caption)
        assertFalse("typed text is never shown", typed.caption.contains("Ezra"))
        assertEquals(StepView("Step 4: go back", null), t.onEvent(event("chosen", """{"step":4,"action":"back","element":-1,"ok":false}""")))
        assertNull(t.onEvent(event("log", """{"level":"info","text":"x"}""")))
        assertSame(StepTracker.HIDE, t.onEvent(event("run_finished", """{"outcome":"success"}""")))
    }

    @Test
    fun captionsAreShort() {
        val c = StepTracker.caption(1, "tap", "x".repeat(200))
        assertTrue(c, c.length < StepTracker.MAX_CHARS + 20)
        assertTrue(c.endsWith("…”"))
    }

    private fun views(service: WayfinderAccessibilityService) =
        Shadow.extract<ShadowWindowManagerImpl>(service.getSystemService(WindowManager::class.java) as WindowManagerImpl).views

    @Test
    fun serviceShowsABannerWithStopAndAFrameThatTakesNoTouches() {
        val service = Robolectric.setupService(WayfinderAccessibilityService::class.java)
        var stopped = 0
        service.showStep(StepView("Step 1: tap “Settings”", Bounds(900, 80, 1080, 200))) { stopped++ }
        val vs = views(service)
        assertEquals(2, vs.size)
        for (v in vs) assertEquals(WindowManager.LayoutParams.TYPE_ACCESSIBILITY_OVERLAY, (v.layoutParams as WindowManager.LayoutParams).type)
        val frame = vs.filterIsInstance<StepFrame>().single()
        assertTrue("touches go through the frame to the app",
            (frame.layoutParams as WindowManager.LayoutParams).flags and WindowManager.LayoutParams.FLAG_NOT_TOUCHABLE != 0)
        assertEquals(Bounds(900, 80, 1080, 200), frame.bounds)
        val banner = vs.filterIsInstance<LinearLayout>().single()
        assertEquals("Step 1: tap “Settings”", (banner.getChildAt(0) as TextView).text.toString())

        // the next step updates the same windows
        service.showStep(StepView("Step 2: switch on “Dark theme”", null)) { stopped++ }
        assertEquals(2, views(service).size)
        assertEquals("Step 2: switch on “Dark theme”", (banner.getChildAt(0) as TextView).text.toString())
        assertNull(frame.bounds)

        (banner.getChildAt(1) as Button).performClick()
        assertEquals(1, stopped)
        assertEquals("stopped: the overlay is gone", 0, views(service).size)

        service.showStep(StepView("Wayfinder: open the notes", null)) {}
        assertEquals(2, views(service).size)
        service.hideStep()
        assertEquals(0, views(service).size)
    }
}

package dev.wayfinder.app

import android.view.View
import android.view.WindowManager
import android.view.WindowManagerImpl
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
    fun serviceDrawsTheStepInOneWindowThatTakesNoTouches() {
        val service = Robolectric.setupService(WayfinderAccessibilityService::class.java)
        service.showStep(StepView("Step 1: tap “Settings”", Bounds(900, 80, 1080, 200)))
        val frame = views(service).single() as StepFrame
        val p = frame.layoutParams as WindowManager.LayoutParams
        assertEquals(WindowManager.LayoutParams.TYPE_ACCESSIBILITY_OVERLAY, p.type)
        assertTrue("touches go through to the app, the agent's gestures too", p.flags and WindowManager.LayoutParams.FLAG_NOT_TOUCHABLE != 0)
        assertTrue("no key focus", p.flags and WindowManager.LayoutParams.FLAG_NOT_FOCUSABLE != 0)
        assertEquals("Step 1: tap “Settings”", frame.step.caption)

        // the next step redraws the same window
        service.showStep(StepView("Step 2: switch on “Dark theme”", null))
        assertSame(frame, views(service).single())
        assertEquals(StepView("Step 2: switch on “Dark theme”", null), frame.step)

        service.hideStep()
        assertEquals(0, views(service).size)
        service.hideStep() // twice is fine
    }

    @Test
    fun captionNeverHidesTheElement() {
        val f = StepFrame(Robolectric.setupService(WayfinderAccessibilityService::class.java))
        f.layout(0, 0, 1080, 2400)
        f.step = StepView("Step 1: tap “More options”", Bounds(960, 90, 1080, 200))
        assertTrue("an element at the top: the caption goes to the bottom", f.captionAtBottom())
        f.step = StepView("Step 2: tap “Save”", Bounds(40, 2000, 520, 2100))
        assertFalse(f.captionAtBottom())
    }

    @Test
    fun aScreenReaderSpeaksEachStep() {
        val f = StepFrame(Robolectric.setupService(WayfinderAccessibilityService::class.java))
        assertEquals(View.IMPORTANT_FOR_ACCESSIBILITY_YES, f.importantForAccessibility)
        assertEquals("each new caption is announced once, politely", View.ACCESSIBILITY_LIVE_REGION_POLITE, f.accessibilityLiveRegion)
        f.step = StepView("Step 1: tap “More options”", Bounds(960, 90, 1080, 200))
        assertEquals("Step 1: tap “More options”", f.contentDescription)
        f.step = StepTracker.HIDE
        assertNull("nothing is said once the run ends", f.contentDescription)
    }
}

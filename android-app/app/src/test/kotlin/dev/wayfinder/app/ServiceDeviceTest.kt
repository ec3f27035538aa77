package dev.wayfinder.app

import android.accessibilityservice.AccessibilityService
import android.content.ComponentName
import android.content.Intent
import android.content.IntentFilter
import android.view.accessibility.AccessibilityEvent
import android.view.accessibility.AccessibilityNodeInfo
import dev.wayfinder.app.a11y.ServiceDevice
import dev.wayfinder.app.a11y.SettleDetector
import dev.wayfinder.app.a11y.WayfinderAccessibilityService
import dev.wayfinder.app.model.BadActionException
import org.json.JSONArray
import org.json.JSONObject
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Before
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.Shadows.shadowOf
import kotlin.concurrent.thread

/** ServiceDevice on the real WayfinderAccessibilityService (Robolectric) as its DeviceHost. */
@RunWith(RobolectricTestRunner::class)
class ServiceDeviceTest {
    private lateinit var service: WayfinderAccessibilityService
    private lateinit var clock: ScriptedClock
    private lateinit var settle: SettleDetector
    private lateinit var device: ServiceDevice
    private val screen = Fixtures.NotesScreen()
    private val results = StringBuilder()

    @Before
    fun setUp() {
        service = Robolectric.setupService(WayfinderAccessibilityService::class.java)
        shadowOf(service).setWindows(screen.windows)
        clock = ScriptedClock()
        settle = SettleDetector(clock, quietMs = 300, maxWaitMs = 3_000)
        device = ServiceDevice(service, settle, clock, gestureTimeoutMs = 2_000, pause = {})
    }

    @After
    fun writeResults() {
        if (results.isNotEmpty()) Fixtures.contract("service-${System.nanoTime()}.result.json", results.toString())
    }

    private fun perform(json: String): JSONObject {
        val r = device.perform(json)
        results.append(r).append('\n')
        return JSONObject(r)
    }

    @Test
    fun snapshotSerialisesTheServiceWindows() {
        val json = device.snapshot()
        Fixtures.contract("service.snapshot.json", json)
        val o = JSONObject(json)
        val b = service.screenBounds()
        assertTrue("display size from the platform: $b", b.width > 0 && b.height > 0)
        assertEquals(b.width, o.getInt("width"))
        assertEquals(b.height, o.getInt("height"))
        assertEquals(3, o.getJSONArray("windows").length())
        assertEquals(13, device.lastCapture().nodes().size)
        assertFalse(json.contains("hunter2"))
    }

    @Test
    fun snapshotWithoutWindowsIsAnError() {
        shadowOf(service).setWindows(emptyList())
        try {
            device.snapshot()
            fail("no error")
        } catch (e: IllegalStateException) {
            assertTrue(e.message!!.contains("no accessibility windows"))
        }
    }

    @Test
    fun performResolvesIdsOfTheLastSnapshot() {
        device.snapshot()
        val r = perform("""{"type":"tap","node":4,"bounds":[40,340,520,460],"label":"Save"}""")
        assertEquals(listOf(AccessibilityNodeInfo.ACTION_CLICK), shadowOf(device.lastCapture().handle(4)!!).performedActions)
        assertTrue(r.getBoolean("ok"))
        assertFalse("no UI event arrived", r.getBoolean("changed"))
        assertEquals("clicked node 4", r.getString("message"))
        assertEquals(300, r.getLong("duration_ms"))
    }

    @Test
    fun changedWhenTheUiReacts() {
        device.snapshot()
        val content = AccessibilityEvent.TYPE_WINDOW_CONTENT_CHANGED
        clock.at(clock.now + 40) {
            screen.save.text = "Saved" // what the app shows after the tap
            settle.onEvent(AccessibilityEvent.TYPE_WINDOW_STATE_CHANGED, clock.now)
        }
        clock.at(clock.now + 90) { settle.onEvent(content, clock.now, 42, Fixtures.PKG) }
        val r = perform("""{"type":"tap","node":6}""")
        assertTrue(r.getBoolean("changed"))
        assertEquals(390, r.getLong("duration_ms"))
    }

    /** 12.3 c: the status bar's and other windows' events neither delay settling nor count as a change. */
    @Test
    fun otherWindowsDoNotDelaySettlingNorCountAsAChange() {
        device.snapshot()
        val content = AccessibilityEvent.TYPE_WINDOW_CONTENT_CHANGED
        for (t in 1..100) clock.at(clock.now + t * 50L) {
            settle.onEvent(content, clock.now, 44, "com.android.systemui") // status bar (known window, not the target)
            settle.onEvent(content, clock.now, 43, "com.example.ime") // the keyboard
            settle.onEvent(content, clock.now, -1, "com.android.systemui")
        }
        val r = perform("""{"type":"tap","node":4}""")
        assertTrue(r.getBoolean("ok"))
        assertFalse("nothing in the target window changed", r.getBoolean("changed"))
        assertEquals(300, r.getLong("duration_ms"))
        assertFalse(r.getString("message").contains("still changing"))
    }

    /** A window that opened after the snapshot (a dialog, a new activity) is waited for. */
    @Test
    fun aNewWindowIsWaitedFor() {
        device.snapshot()
        val content = AccessibilityEvent.TYPE_WINDOW_CONTENT_CHANGED
        clock.at(clock.now + 200) { settle.onEvent(content, clock.now, 77, "com.example.dialog") }
        val r = perform("""{"type":"tap","node":4}""")
        assertEquals(500, r.getLong("duration_ms"))
    }

    @Test
    fun reportsAUiThatNeverSettles() {
        device.snapshot()
        for (t in 1..100) clock.at(clock.now + t * 50L) {
            settle.onEvent(AccessibilityEvent.TYPE_WINDOW_CONTENT_CHANGED, clock.now, 42, Fixtures.PKG)
        }
        val r = perform("""{"type":"tap","node":4}""")
        assertTrue(r.getBoolean("ok"))
        assertTrue(r.getString("message"), r.getString("message").contains("UI still changing after 3000 ms"))
    }

    /** 12.3 i: an action resolves its ids against the capture it echoes, not a later one. */
    @Test
    fun actionsResolveAgainstTheCaptureTheyEcho() {
        val first = JSONObject(device.snapshot()).getString("capture_id")
        val cap1 = device.lastCapture()
        val second = JSONObject(device.snapshot()).getString("capture_id") // e.g. the inspector's
        val cap2 = device.lastCapture()
        assertTrue(first.isNotEmpty() && first != second)
        assertTrue(perform("""{"type":"tap","node":4,"capture_id":"$first"}""").getBoolean("ok"))
        assertEquals(listOf(AccessibilityNodeInfo.ACTION_CLICK), shadowOf(cap1.handle(4)!!).performedActions)
        assertEquals(emptyList<Int>(), shadowOf(cap2.handle(4)!!).performedActions)
        perform("""{"type":"tap","node":4}""") // no capture id: the last one
        assertEquals(listOf(AccessibilityNodeInfo.ACTION_CLICK), shadowOf(cap2.handle(4)!!).performedActions)
        val gone = perform("""{"type":"tap","node":4,"capture_id":"nope-1"}""")
        assertFalse(gone.getBoolean("ok"))
        assertTrue(gone.getString("message").contains("no longer kept"))
        for (i in 1..ServiceDevice.KEEP_CAPTURES) device.snapshot()
        val old = perform("""{"type":"tap","node":4,"capture_id":"$first"}""")
        assertFalse("the first capture is no longer kept", old.getBoolean("ok"))
    }

    @Test
    fun gestureFallbackGoesThroughTheServiceDispatcher() {
        // no snapshot yet: the id is unknown, so the bounds are tapped
        val done = thread {
            val deadline = System.currentTimeMillis() + 2_000
            while (System.currentTimeMillis() < deadline) {
                val d = shadowOf(service).gesturesDispatched.firstOrNull()
                if (d != null) {
                    d.callback().onCompleted(d.description()); return@thread
                }
                Thread.sleep(5)
            }
        }
        val r = perform("""{"type":"tap","node":3,"bounds":[0,0,200,100]}""")
        done.join()
        assertTrue(r.toString(), r.getBoolean("ok"))
        assertTrue(r.getString("message").contains("tapped (100,50)"))
        assertEquals(1, shadowOf(service).gesturesDispatched.size)
    }

    @Test
    fun globalActions() {
        assertTrue(perform("""{"type":"back","node":-1}""").getBoolean("ok"))
        assertTrue(perform("""{"type":"home","node":-1}""").getBoolean("ok"))
        assertEquals(
            listOf(AccessibilityService.GLOBAL_ACTION_BACK, AccessibilityService.GLOBAL_ACTION_HOME),
            shadowOf(service).globalActionsPerformed,
        )
    }

    @Test
    fun badActionJsonIsAnError() {
        try {
            device.perform("""{"type":"teleport"}""")
            fail("no error")
        } catch (e: BadActionException) {
            assertTrue(e.message!!.contains("unknown action type"))
        }
    }

    private fun install(pkg: String, label: String) {
        val pm = shadowOf(service.packageManager)
        val c = ComponentName(pkg, "$pkg.Main")
        pm.addActivityIfNotPresent(c).nonLocalizedLabel = label
        pm.addIntentFilterForActivity(c, IntentFilter(Intent.ACTION_MAIN).apply { addCategory(Intent.CATEGORY_LAUNCHER) })
    }

    @Test
    fun installedAppsListsLauncherActivities() {
        install("com.example.notes", "Notes")
        install("com.example.clock", "Clock")
        install(service.packageName, "Wayfinder")
        val arr = JSONArray(device.installedApps())
        val got = (0 until arr.length()).map { arr.getJSONObject(it).let { o -> o.getString("package") to o.getString("label") } }
        assertEquals(listOf("com.example.clock" to "Clock", "com.example.notes" to "Notes"), got)
    }

    @Test
    fun launchStartsTheLaunchActivity() {
        install("com.example.notes", "Notes")
        val ok = perform("""{"type":"launch","node":-1,"package":"com.example.notes"}""")
        assertTrue(ok.toString(), ok.getBoolean("ok"))
        val started = shadowOf(service).nextStartedActivity
        assertEquals("com.example.notes", started.component?.packageName)
        assertTrue(started.flags and Intent.FLAG_ACTIVITY_NEW_TASK != 0)
        val missing = perform("""{"type":"launch","node":-1,"package":"com.example.none"}""")
        assertFalse(missing.getBoolean("ok"))
        assertEquals("no launch intent for com.example.none", missing.getString("message"))
    }
}

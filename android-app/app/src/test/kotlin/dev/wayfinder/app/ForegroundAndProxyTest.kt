package dev.wayfinder.app

import android.content.ComponentName
import dev.wayfinder.app.a11y.ForegroundTracker
import dev.wayfinder.app.daemon.DeviceProxy
import dev.wayfinder.bridge.Device
import org.junit.Assert.assertEquals
import org.junit.Assert.fail
import org.junit.Test

class ForegroundAndProxyTest {
    @Test
    fun tracksOnlyActivities() {
        val asked = ArrayList<ComponentName>()
        val t = ForegroundTracker { c -> asked += c; c.className.endsWith("Activity") }
        assertEquals("", t.activity())
        t.onWindowStateChanged("com.example.notes", "com.example.notes.EditActivity")
        assertEquals("com.example.notes/.EditActivity", t.activity())
        t.onWindowStateChanged("com.example.notes", "android.app.AlertDialog") // a dialog: keep the activity
        t.onWindowStateChanged(null, "x")
        t.onWindowStateChanged("com.example.notes", "com.example.notes.EditActivity")
        assertEquals("com.example.notes/.EditActivity", t.activity())
        t.onWindowStateChanged("com.other", "org.lib.ShareActivity")
        assertEquals("com.other/org.lib.ShareActivity", t.activity())
        assertEquals("answers are cached", 3, asked.size)
    }

    @Test
    fun proxyForwardsOrExplains() {
        var current: Device? = null
        val proxy = DeviceProxy { current }
        try {
            proxy.snapshot()
            fail("no error while disconnected")
        } catch (e: IllegalStateException) {
            assertEquals(DeviceProxy.NOT_CONNECTED, e.message)
        }
        current = object : Device {
            override fun snapshot() = "S"
            override fun perform(actionJSON: String) = "P:$actionJSON"
            override fun installedApps() = "[]"
        }
        assertEquals("S", proxy.snapshot())
        assertEquals("P:{}", proxy.perform("{}"))
        assertEquals("[]", proxy.installedApps())
    }
}

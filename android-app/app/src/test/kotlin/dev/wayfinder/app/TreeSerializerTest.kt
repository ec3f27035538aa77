package dev.wayfinder.app

import android.graphics.Rect
import android.view.accessibility.AccessibilityWindowInfo
import dev.wayfinder.app.a11y.TreeSerializer
import dev.wayfinder.app.model.SnapshotJson
import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner

@RunWith(RobolectricTestRunner::class)
class TreeSerializerTest {
    private val activity = "${Fixtures.PKG}/.EditActivity"

    @Test
    fun serialisesAllWindowsInPreOrderWithDenseIds() {
        val s = Fixtures.NotesScreen()
        val cap = TreeSerializer().serialize(s.windows, 1080, 2400, activity)
        val json = SnapshotJson.write(cap.snapshot)
        Fixtures.contract("notes.snapshot.json", json)
        val o = JSONObject(json)
        assertEquals(1, o.getInt("schema"))
        assertEquals(1080, o.getInt("width"))
        assertEquals(2400, o.getInt("height"))
        assertEquals(Fixtures.PKG, o.getString("package"))
        assertEquals(activity, o.getString("activity"))
        val wins = o.getJSONArray("windows")
        assertEquals(3, wins.length())
        val types = (0 until 3).map { wins.getJSONObject(it).getString("type") }
        assertEquals(listOf("application", "input_method", "system"), types)
        val app = wins.getJSONObject(0)
        assertEquals(42, app.getInt("id"))
        assertEquals("Notes", app.getString("title"))
        assertEquals(1, app.getInt("layer"))
        assertTrue(app.getBoolean("focused"))
        assertEquals(Fixtures.PKG, app.getString("package"))
        assertEquals("[0,0,1080,2400]", app.getJSONArray("bounds").toString())

        // ids: a running counter across windows, parents precede children
        val parents = ArrayList<Int>()
        val classes = ArrayList<String>()
        var expect = 0
        for (w in 0 until wins.length()) {
            val nodes = wins.getJSONObject(w).getJSONArray("nodes")
            for (i in 0 until nodes.length()) {
                val n = nodes.getJSONObject(i)
                assertEquals("node id", expect++, n.getInt("id"))
                parents += n.getInt("parent")
                classes += n.getString("class")
            }
        }
        assertEquals(listOf(-1, 0, 1, 1, 1, 1, 5, 6, 5, 8, -1, 10, 10), parents)
        assertEquals("android.widget.Button", classes[4])
        assertEquals("androidx.recyclerview.widget.RecyclerView", classes[5])
        assertEquals(0, wins.getJSONObject(2).getJSONArray("nodes").length())

        // node fields and flags; false flags are omitted
        val save = wins.getJSONObject(0).getJSONArray("nodes").getJSONObject(4)
        assertEquals("Save", save.getString("text"))
        assertEquals("${Fixtures.PKG}:id/save", save.getString("resource_id"))
        assertEquals("[40,340,520,460]", save.getJSONArray("bounds").toString())
        assertTrue(save.getBoolean("clickable"))
        assertTrue(save.getBoolean("enabled") && save.getBoolean("visible_to_user"))
        assertFalse(save.has("checked"))
        assertFalse(save.has("scrollable"))
        val title = wins.getJSONObject(0).getJSONArray("nodes").getJSONObject(2)
        assertEquals("Title", title.getString("hint"))
        assertTrue(title.getBoolean("editable") && title.getBoolean("focused"))
        assertTrue(wins.getJSONObject(0).getJSONArray("nodes").getJSONObject(5).getBoolean("scrollable"))
        assertEquals("q", wins.getJSONObject(1).getJSONArray("nodes").getJSONObject(1).getString("content_desc"))
    }

    @Test
    fun neverEmitsPasswordText() {
        val s = Fixtures.NotesScreen()
        val cap = TreeSerializer().serialize(s.windows, 1080, 2400)
        val json = SnapshotJson.write(cap.snapshot)
        assertFalse("password text leaked: $json", json.contains("hunter2"))
        val pin = JSONObject(json).getJSONArray("windows").getJSONObject(0).getJSONArray("nodes").getJSONObject(3)
        assertTrue(pin.getBoolean("password"))
        assertFalse(pin.has("text"))
        assertEquals("PIN", pin.getString("hint"))
        assertEquals("", cap.node(3)!!.text)
    }

    @Test
    fun keepsTheLiveNodeBehindEveryId() {
        val s = Fixtures.NotesScreen()
        val cap = TreeSerializer().serialize(s.windows, 1080, 2400)
        // getRoot()/getChild() return new objects (as on a phone): the handle
        // of an id is the node the walk visited at that position
        assertEquals("android.widget.FrameLayout", cap.handle(0)!!.className)
        assertEquals("Save", cap.handle(4)!!.text.toString())
        assertEquals("Groceries", cap.handle(7)!!.text.toString())
        assertEquals("q", cap.handle(11)!!.contentDescription.toString())
        assertEquals("hunter2", cap.handle(3)!!.text.toString()) // the live node still has it; the snapshot never does
        assertEquals(listOf(7, 6, 5, 1, 0), cap.ancestry(7).map { it.id })
        assertEquals(null, cap.handle(13))
    }

    @Test
    fun foregroundPackageAndActivity() {
        val s = Fixtures.NotesScreen()
        // the activity of another package (stale tracker) is not reported
        val cap = TreeSerializer().serialize(s.windows, 1080, 2400, "com.other/.Main")
        assertEquals(Fixtures.PKG, cap.snapshot.packageName)
        assertEquals("", cap.snapshot.activity)
        // the top-most application window wins
        val dialog = Fixtures.window(
            50, AccessibilityWindowInfo.TYPE_APPLICATION, 5,
            Fixtures.node("android.widget.FrameLayout", Rect(100, 800, 980, 1400), pkg = "com.example.dialog"),
            Rect(100, 800, 980, 1400),
        )
        val top = TreeSerializer().serialize(s.windows + dialog, 1080, 2400)
        assertEquals("com.example.dialog", top.snapshot.packageName)
    }

    @Test
    fun cutsRunawayTrees() {
        val s = Fixtures.NotesScreen()
        val cap = TreeSerializer(maxNodes = 4).serialize(s.windows, 1080, 2400)
        val all = cap.snapshot.allNodes()
        assertEquals(4, all.size)
        assertEquals(listOf(0, 1, 2, 3), all.map { it.id })
        Fixtures.contract("cut.snapshot.json", SnapshotJson.write(cap.snapshot))
        val shallow = TreeSerializer(maxDepth = 2).serialize(listOf(s.app), 1080, 2400)
        assertEquals(listOf(-1, 0), shallow.snapshot.allNodes().map { it.parent })
    }

    @Test
    fun windowTypeNames() {
        val names = mapOf(
            AccessibilityWindowInfo.TYPE_APPLICATION to "application",
            AccessibilityWindowInfo.TYPE_INPUT_METHOD to "input_method",
            AccessibilityWindowInfo.TYPE_SYSTEM to "system",
            AccessibilityWindowInfo.TYPE_ACCESSIBILITY_OVERLAY to "accessibility_overlay",
            AccessibilityWindowInfo.TYPE_SPLIT_SCREEN_DIVIDER to "split_screen_divider",
            AccessibilityWindowInfo.TYPE_MAGNIFICATION_OVERLAY to "magnification_overlay",
            999 to "unknown",
        )
        for ((t, name) in names) assertEquals(name, TreeSerializer.windowType(t))
    }
}

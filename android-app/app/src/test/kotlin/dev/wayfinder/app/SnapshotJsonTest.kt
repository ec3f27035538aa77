package dev.wayfinder.app

import dev.wayfinder.app.model.Bounds
import dev.wayfinder.app.model.SnapNode
import dev.wayfinder.app.model.SnapWindow
import dev.wayfinder.app.model.Snapshot
import dev.wayfinder.app.model.SnapshotJson
import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Test

/** The JSON writer alone, on the neutral node model (plain JVM, org.json from android-all). */
class SnapshotJsonTest {
    @Test
    fun writesSchemaOneAndOmitsEmptyFields() {
        val s = Snapshot(
            width = 720, height = 1600, activity = "", packageName = "p",
            windows = listOf(
                SnapWindow(
                    id = 7, type = "application", packageName = "p", layer = 0, bounds = Bounds(0, 0, 720, 1600),
                    nodes = listOf(
                        SnapNode(id = 0, parent = -1, className = "android.widget.FrameLayout", bounds = Bounds(0, 0, 720, 1600)),
                        SnapNode(
                            id = 1, parent = 0, text = "say \"hi\"\n/ünï", bounds = Bounds(1, 2, 3, 4),
                            checkable = true, checked = true, selected = true,
                        ),
                        SnapNode(id = 2, parent = 0, text = "secret", password = true, editable = true),
                    ),
                ),
            ),
        )
        val json = SnapshotJson.write(s)
        val o = JSONObject(json)
        assertEquals(1, o.getInt("schema"))
        assertFalse("empty activity omitted", o.has("activity"))
        val w = o.getJSONArray("windows").getJSONObject(0)
        assertFalse(w.has("focused"))
        assertFalse(w.has("title"))
        assertEquals(0, w.getInt("layer"))
        val nodes = w.getJSONArray("nodes")
        val root = nodes.getJSONObject(0)
        assertEquals(setOf("id", "parent", "class", "bounds"), root.keys().asSequence().toSet())
        val n1 = nodes.getJSONObject(1)
        assertEquals("say \"hi\"\n/ünï", n1.getString("text"))
        assertEquals(setOf("id", "parent", "text", "bounds", "checkable", "checked", "selected"), n1.keys().asSequence().toSet())
        val n2 = nodes.getJSONObject(2)
        assertFalse("password text is never written", n2.has("text"))
        assertFalse(json.contains("secret"))
        Fixtures.contract("model.snapshot.json", json)
    }

    @Test
    fun boundsHelpers() {
        val b = Bounds(10, 20, 110, 220)
        assertEquals(60, b.centerX)
        assertEquals(120, b.centerY)
        assertEquals(100, b.width)
        assertEquals(200, b.height)
        assertFalse(b.isEmpty())
        assertEquals(true, Bounds(5, 5, 5, 9).isEmpty())
        assertEquals(true, Bounds(5, 9, 8, 2).isEmpty())
        assertEquals(0, Bounds(5, 9, 8, 2).height)
    }
}

package dev.wayfinder.app

import dev.wayfinder.app.model.ActionJson
import dev.wayfinder.app.model.ActionResult
import dev.wayfinder.app.model.BadActionException
import dev.wayfinder.app.model.Bounds
import dev.wayfinder.app.model.DeviceAction
import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test
import java.io.File

class ActionJsonTest {
    @Test
    fun parsesEveryActionType() {
        val cases = mapOf(
            """{"type":"tap","node":3,"bounds":[10,20,110,220],"label":"Save"}""" to
                DeviceAction("tap", node = 3, bounds = Bounds(10, 20, 110, 220), label = "Save"),
            """{"type":"tap","node":-1,"x":540,"y":1200}""" to DeviceAction("tap", x = 540, y = 1200),
            """{"type":"long_press","node":0}""" to DeviceAction("long_press", node = 0),
            """{"type":"input","node":7,"text":"Alice"}""" to DeviceAction("input", node = 7, text = "Alice"),
            """{"type":"scroll","node":-1,"direction":"backward"}""" to DeviceAction("scroll", direction = "backward"),
            """{"type":"back","node":-1}""" to DeviceAction("back"),
            """{"type":"home"}""" to DeviceAction("home"),
            """{"type":"ime_enter","node":-1}""" to DeviceAction("ime_enter"),
            """{"type":"ime_enter","node":2,"capture_id":"ab-3"}""" to DeviceAction("ime_enter", node = 2, captureId = "ab-3"),
            """{"type":"launch","node":-1,"package":"com.example.notes","extra":1}""" to
                DeviceAction("launch", packageName = "com.example.notes"),
        )
        for ((json, want) in cases) {
            val got = ActionJson.parse(json)
            assertEquals(json, want, got)
            assertEquals("round trip of $json", got, ActionJson.parse(ActionJson.write(got)))
        }
    }

    @Test
    fun rejectsBadActionsWithTheReason() {
        val cases = mapOf(
            "not json" to "not a JSON object",
            "[1]" to "not a JSON object",
            """{"node":1}""" to "unknown action type \"\"",
            """{"type":"swipe","node":1}""" to "unknown action type \"swipe\"",
            """{"type":"tap","node":-1}""" to "tap needs a node or a point",
            """{"type":"input","node":-1,"text":"x"}""" to "input needs a node",
            """{"type":"scroll","node":1,"direction":"up"}""" to "scroll direction \"up\"",
            """{"type":"launch","node":-1}""" to "launch needs a package",
            """{"type":"tap","node":"3"}""" to "node: want an integer",
            """{"type":"tap","node":1.5}""" to "node: 1.5 is not a 32-bit integer",
            """{"type":"tap","node":1,"bounds":[1,2,3]}""" to "bounds: want 4 numbers",
            """{"type":"tap","node":1,"bounds":"x"}""" to "bounds: want [left, top, right, bottom]",
            """{"type":1}""" to "type: want a string",
        )
        for ((json, reason) in cases) {
            try {
                ActionJson.parse(json)
                fail("accepted $json")
            } catch (e: BadActionException) {
                assertTrue("$json: ${e.message} should contain $reason", e.message!!.contains(reason))
            }
        }
    }

    /** Actions marshalled by the Go daemon (device.Action) parse here iff Go's Validate accepts them. */
    @Test
    fun parsesWhatGoMarshals() {
        val dir = System.getProperty("wayfinder.contract.dir") ?: return
        val f = File(dir, "go-actions.jsonl")
        assertTrue("missing $f", f.exists())
        val lines = f.readLines().filter { it.isNotBlank() }
        assertTrue(lines.size >= 10)
        for (line in lines) {
            val o = JSONObject(line)
            val json = o.getJSONObject("action").toString()
            val valid = o.getBoolean("valid")
            val ok = try {
                ActionJson.parse(json)
                true
            } catch (e: BadActionException) {
                false
            }
            assertEquals("Go valid=$valid for $json", valid, ok)
            if (ok) {
                val a = ActionJson.parse(json)
                assertEquals("capture id of $json", o.getJSONObject("action").optString("capture_id"), a.captureId)
            }
        }
        assertTrue("Go marshals ime_enter", lines.any { it.contains("\"ime_enter\"") })
    }

    @Test
    fun resultJson() {
        val o = JSONObject(ActionResult(ok = true, changed = false, message = "clicked node 4", durationMs = 312).toJson())
        assertEquals(setOf("ok", "changed", "message", "duration_ms"), o.keys().asSequence().toSet())
        assertTrue(o.getBoolean("ok"))
        assertFalse(o.getBoolean("changed"))
        assertEquals(312, o.getLong("duration_ms"))
        assertFalse(JSONObject(ActionResult(false, false, "", 0).toJson()).has("message"))
    }

    @Test
    fun describeNeverShowsInputText() {
        assertEquals("input node 7", DeviceAction("input", node = 7, text = "secret").describe())
        assertEquals("launch p", DeviceAction("launch", packageName = "p").describe())
        assertEquals("tap (5,6)", DeviceAction("tap", x = 5, y = 6).describe())
    }
}

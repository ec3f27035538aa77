package dev.wayfinder.app

import dev.wayfinder.app.daemon.ContextEntry
import dev.wayfinder.app.daemon.ContextValue
import dev.wayfinder.app.daemon.FlowSummary
import dev.wayfinder.app.daemon.FlowVersion
import dev.wayfinder.app.daemon.Instruction
import dev.wayfinder.app.daemon.Requests
import dev.wayfinder.app.daemon.RunReply
import dev.wayfinder.app.daemon.SettingsView
import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test

/** The request and reply shapes of docs/bridge-api.md. */
class BridgeApiTest {
    private fun req(json: String): Pair<String, JSONObject> {
        val o = JSONObject(json)
        assertEquals(setOf("method", "params"), o.keys().asSequence().toSet())
        return o.getString("method") to o.getJSONObject("params")
    }

    @Test
    fun requestShapes() {
        val cases = listOf(
            Requests.run("text Alice hi") to ("run" to """{"command":"text Alice hi"}"""),
            Requests.runSteps("dark theme", "1. Open Settings\n2. Turn on Dark theme") to
                ("run" to """{"command":"dark theme","steps":"1. Open Settings\n2. Turn on Dark theme"}"""),
            Requests.stepsParse("1. Open Settings\n2. Tap Display") to ("steps.parse" to """{"steps":"1. Open Settings\n2. Tap Display"}"""),
            Requests.stepsParse("a\nb", "dark theme") to ("steps.parse" to """{"steps":"a\nb","command":"dark theme"}"""),
            Requests.replay(12, mapOf("name" to "Bob")) to ("replay" to """{"flow_id":12,"slots":{"name":"Bob"}}"""),
            Requests.replay(12) to ("replay" to """{"flow_id":12,"slots":{}}"""),
            Requests.replayToken("0123456789abcdef0123456789abcdef") to ("replay" to """{"token":"0123456789abcdef0123456789abcdef","slots":{}}"""),
            Requests.flowsAllowSensitive(3, true) to ("flows.allow_sensitive" to """{"id":3,"allow":true}"""),
            Requests.cancel() to ("cancel" to "{}"),
            Requests.answer("yes") to ("answer" to """{"text":"yes"}"""),
            Requests.flowsList() to ("flows.list" to "{}"),
            Requests.flowsGet(3) to ("flows.get" to """{"id":3}"""),
            Requests.flowsRename(3, "Call mum") to ("flows.rename" to """{"id":3,"name":"Call mum"}"""),
            Requests.flowsDelete(3) to ("flows.delete" to """{"id":3}"""),
            Requests.flowsPin(3, true) to ("flows.pin" to """{"id":3,"pinned":true}"""),
            Requests.flowsHistory(3) to ("flows.history" to """{"id":3}"""),
            Requests.flowsRollback(3, 2) to ("flows.rollback" to """{"id":3,"version":2}"""),
            Requests.contextList() to ("context.list" to "{}"),
            Requests.contextDelete(4) to ("context.delete" to """{"id":4}"""),
            Requests.contextSet(ContextEntry(0, "person", "Dora Pike", listOf("mum"), listOf(ContextValue("phone", "+1 555 0100", true)))) to
                ("context.set" to """{"entry":{"kind":"person","name":"Dora Pike","aliases":["mum"],"values":[{"field":"phone","value":"+1 555 0100","private":true,"allow_in_prompt":false}]}}"""),
            Requests.contextSet(ContextEntry(9, "place", "Home", emptyList(), emptyList())) to
                ("context.set" to """{"entry":{"kind":"place","name":"Home","aliases":[],"id":9,"values":[]}}"""),
            Requests.settingsSet(model = "m", confirmSensitive = false) to ("settings.set" to """{"model":"m","confirm_sensitive":false}"""),
            Requests.settingsSet(apiKey = "") to ("settings.set" to """{"api_key":""}"""),
            Requests.status() to ("status" to "{}"),
        )
        for ((json, want) in cases) {
            val (method, params) = req(json)
            assertEquals(want.first, method)
            assertEquals(json, JSONObject(want.second).toString(), params.toString())
        }
    }

    @Test
    fun runReply() {
        val r = RunReply.parse(
            """{"outcome":"success","steps":4,"llm_calls":0,"tokens":0,"ms":2310,"flow_id":9,"mode":"replay","cache_hits":4}""",
        )
        assertEquals(RunReply("success", "", 4, 0, 0, 2310, 9, "replay"), r)
        assertTrue(r.succeeded)
        val f = RunReply.parse("""{"outcome":"failure","error":"no route to \"Settings\"","steps":9,"llm_calls":3,"tokens":5120,"ms":40000,"mode":"llm"}""")
        assertFalse(f.succeeded)
        assertEquals(0, f.flowId)
        assertEquals("no route to \"Settings\"", f.error)
    }

    @Test
    fun flowsList() {
        val flows = FlowSummary.parseList(
            """{"flows":[
              {"id":1,"name":"Text someone","intent":"send a text to {name}","package":"com.example.sms","steps":5,"slots":["name","message"],"uses":7,"pinned":true},
              {"id":2,"name":"Alarm","intent":"set an alarm","package":"com.example.clock","steps":3,"uses":0,"pinned":false}
            ]}""",
        )
        assertEquals(2, flows.size)
        assertEquals(FlowSummary(1, "Text someone", "send a text to {name}", "com.example.sms", 5, listOf("name", "message"), 7, true), flows[0])
        assertEquals(emptyList<String>(), flows[1].slots)
        assertEquals(emptyList<FlowSummary>(), FlowSummary.parseList("""{"flows":[]}"""))
    }

    @Test
    fun settingsView() {
        val s = SettingsView.parse("""{"base_url":"https://llm.example/v1","model":"m","api_key_set":true,"confirm_sensitive":false}""")
        assertEquals(SettingsView("https://llm.example/v1", "m", true, false), s)
    }

    @Test
    fun flowSummaryTokenAndSensitivity() {
        val f = FlowSummary.parseOne(
            """{"flow":{"id":5,"name":"Empty trash","intent":"empty the trash","package":"p","steps":2,"slots":[],"uses":1,""" +
                """"pinned":true,"token":"00112233445566778899aabbccddeeff","sensitive":true,"allow_sensitive":false}}""",
        )
        assertEquals("00112233445566778899aabbccddeeff", f.token)
        assertTrue(f.sensitive)
        assertFalse(f.allowSensitive)
        val old = FlowSummary.parse(JSONObject("""{"id":6}"""))
        assertEquals("", old.token)
        assertFalse(old.sensitive)
    }

    @Test
    fun flowVersionsAndHealth() {
        // as daemon/api marshals flows.history: oldest first
        val vs = FlowVersion.parseList(
            """{"versions":[
              {"version":1,"reason":"learned","created_ms":1795872002965,"current":false,"actions":["tap \"More options\"","tap \"Settings\""]},
              {"version":2,"reason":"repaired","created_ms":1795872102965,"current":true,"actions":[]}
            ]}""",
        )
        assertEquals(
            listOf(
                FlowVersion(1, "learned", 1795872002965, false, listOf("tap \"More options\"", "tap \"Settings\"")),
                FlowVersion(2, "repaired", 1795872102965, true, emptyList()),
            ),
            vs,
        )
        assertEquals(emptyList<FlowVersion>(), FlowVersion.parseList("""{"versions":[]}"""))

        val f = FlowSummary.parse(JSONObject("""{"id":4,"name":"Dark theme","version":3,"healthy":false,"fail_streak":3}"""))
        assertEquals(3, f.version)
        assertFalse(f.healthy)
        assertEquals(3, f.failStreak)
        val old = FlowSummary.parse(JSONObject("""{"id":6}"""))
        assertEquals("an older daemon: one version, healthy", 1 to true, old.version to old.healthy)
    }

    @Test
    fun sharedStepsAsTheDaemonReadsThem() {
        // as daemon/api marshals steps.parse (daemon/steps.Instruction)
        val ins = Instruction.parseList(
            """{"instructions":[
              {"text":"Open Settings","op":"open","target":"Settings"},
              {"text":"Type your name","op":"input","target":"Name","value":"Dora"},
              {"text":"Turn on Dark theme","op":"turn_on","target":"Dark theme"},
              {"text":"Scroll down","op":"scroll","value":"down"},
              {"text":"Go back","op":"back"},
              {"text":"Jiggle it","op":"wiggle"}
            ]}""",
        )
        assertEquals(
            listOf("open “Settings”", "type “Dora” into “Name”", "switch on “Dark theme”", "scroll down", "go back", "Jiggle it"),
            ins.map { it.describe() },
        )
        assertEquals(emptyList<Instruction>(), Instruction.parseList("""{"instructions":[]}"""))
    }

    @Test
    fun contextEntriesNeverShowAPrivateValue() {
        // as docs/bridge-api.md's ContextEntry, listed: the private value comes back ""
        val es = ContextEntry.parseList(
            """{"entries":[
              {"id":3,"kind":"person","name":"Dora Pike","aliases":["mum"],
               "values":[{"field":"phone","value":"","private":true,"allow_in_prompt":false},{"field":"email","value":"dora@example.org"}]},
              {"id":4,"kind":"place","name":"Home","aliases":[],"values":[]}
            ]}""",
        )
        assertEquals(ContextEntry(3, "person", "Dora Pike", listOf("mum"), listOf(ContextValue("phone", "", true), ContextValue("email", "dora@example.org"))), es[0])
        assertEquals("Dora Pike (mum) — phone: private, email: dora@example.org", es[0].line())
        assertEquals("Home", es[1].line())
        val secret = ContextEntry(5, "person", "Ezra", emptyList(), listOf(ContextValue("phone", "+1 555 0199", private = true)))
        assertFalse(secret.line().contains("555"))
        assertEquals(emptyList<ContextEntry>(), ContextEntry.parseList("""{"entries":[]}"""))
    }
}

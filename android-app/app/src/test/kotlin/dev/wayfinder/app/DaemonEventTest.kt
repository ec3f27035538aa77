package dev.wayfinder.app

import dev.wayfinder.app.daemon.AskRequest
import dev.wayfinder.app.daemon.DaemonEvent
import dev.wayfinder.app.daemon.ProgressText
import org.junit.Assert.assertEquals
import org.junit.Assert.assertNull
import org.junit.Test

class DaemonEventTest {
    private fun ev(type: String, data: String?) =
        DaemonEvent.parse("""{"seq":5,"time_ms":1700000000000,"run_id":"r1","type":"$type"${if (data != null) ",\"data\":$data" else ""}}""")!!

    @Test
    fun parsesTheEnvelope() {
        val e = ev("log", """{"level":"info","text":"hello"}""")
        assertEquals(5, e.seq)
        assertEquals(1700000000000, e.timeMs)
        assertEquals("r1", e.runId)
        assertEquals("hello", e.data.getString("text"))
        assertEquals(0, ev("run_finished", null).data.length())
        assertNull(DaemonEvent.parse("nope"))
        assertNull(DaemonEvent.parse("""{"seq":1}"""))
    }

    @Test
    fun progressLines() {
        val cases = listOf(
            ev("run_started", """{"command":"set an alarm for 7","planner":"graph"}""") to "▶ set an alarm for 7",
            ev("app_chosen", """{"package":"com.example.clock","label":"Clock","score":0.9}""") to "app: Clock",
            ev("flow_matched", """{"flow_id":3,"name":"Alarm","score":0.95,"threshold":0.8,"replay":true}""") to "replaying saved flow \"Alarm\"",
            ev("flow_matched", """{"score":0.2,"threshold":0.8,"replay":false}""") to null,
            ev("flow_matched", """{"flow_id":4,"name":"Palette","score":0.2,"threshold":0.8,"replay":true,"anchor":"{palette} = \"deep blue\""}""") to
                "replaying saved flow \"Palette\" (you named {palette} = \"deep blue\")",
            ev("snapshot", """{"step":1,"fingerprint":"ab","width":1,"height":1,"elements":[],"capture_ms":3}""") to null,
            ev("prompt", """{"step":1,"kind":"next_action","text":"..."}""") to null,
            ev("llm_reply", """{"step":1,"text":"{}","prompt_tokens":900,"completion_tokens":40,"ms":1200}""") to "model replied (940 tokens, 1200 ms)",
            ev("llm_reply", """{"step":1,"text":"","prompt_tokens":0,"completion_tokens":0,"ms":5,"error":"401"}""") to "model error: 401",
            ev("action", """{"step":2,"mode":"graph","action":"tap \"Alarm\"","element":4,"ok":true,"changed":true,"ms":300,"tokens":0}""") to
                "2. ✓ tap \"Alarm\" [graph]",
            ev("action", """{"step":3,"mode":"llm","action":"tap \"+\"","element":9,"ok":false,"changed":false,"message":"node 9 is stale","ms":300,"tokens":0}""") to
                "3. ✗ tap \"+\" [llm] — node 9 is stale",
            ev("ask", """{"question":"Send the message to Bob?","options":["yes","no"]}""") to "? Send the message to Bob?",
            ev("flow_saved", """{"flow_id":4,"name":"Alarm","intent":"set an alarm for {time}","steps":4}""") to "saved flow \"Alarm\" (4 steps)",
            ev("run_finished", """{"outcome":"success","mode":"graph","steps":4,"llm_calls":0,"tokens":0,"ms":5200,"cache_hits":4}""") to
                "■ success — 4 steps, 0 model calls, 0 tokens, 5200 ms",
            ev("run_finished", """{"outcome":"error","error":"device disconnected","mode":"llm","steps":1,"llm_calls":1,"tokens":10,"ms":9}""") to
                "■ error: device disconnected — 1 steps, 1 model calls, 10 tokens, 9 ms",
            ev("log", """{"level":"debug","text":"x"}""") to null,
            ev("log", """{"level":"warn","text":"slow"}""") to "warn: slow",
            ev("dropped", """{"level":"warn","text":"lagging"}""") to "(some progress was dropped)",
            ev("something_new", "{}") to null,
        )
        for ((e, want) in cases) assertEquals(e.type + " " + e.data, want, ProgressText.line(e))
    }

    @Test
    fun askRequests() {
        assertEquals(AskRequest("Pay 12.50 EUR?", listOf("yes", "no")), AskRequest.from(ev("ask", """{"question":"Pay 12.50 EUR?","options":["yes","no"]}""")))
        assertEquals(AskRequest("Which Alice?", emptyList()), AskRequest.from(ev("ask", """{"question":"Which Alice?"}""")))
        assertNull(AskRequest.from(ev("log", "{}")))
    }
}

class EventHistoryTest {
    private var seq = 0L
    private fun ev(type: String) = DaemonEvent(++seq, 0, "r", type, org.json.JSONObject())

    @Test
    fun replaysTheCurrentRunAndOnlyTheOpenQuestion() {
        val h = dev.wayfinder.app.daemon.EventHistory(max = 5)
        val old = ev(DaemonEvent.RUN_FINISHED)
        h.add(old)
        val start = ev(DaemonEvent.RUN_STARTED)
        h.add(start)
        val ask1 = ev(DaemonEvent.ASK)
        h.add(ask1)
        assertEquals(listOf(start, ask1), h.replay())
        val act = ev(DaemonEvent.ACTION)
        h.add(act)
        assertEquals("an action after the question closes it", listOf(start, act), h.replay())
        val ask2 = ev(DaemonEvent.ASK)
        h.add(ask2)
        assertEquals(ask2, h.pendingAsk)
        h.answered()
        assertEquals(listOf(start, act), h.replay())
        val logs = (1..5).map { ev(DaemonEvent.LOG) }
        logs.forEach(h::add)
        assertEquals("capped at 5", logs, h.replay())
    }
}

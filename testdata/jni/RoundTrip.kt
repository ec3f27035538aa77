// Host-JVM round trip through the gomobile binding of ./bridge, run by
// scripts/jni-roundtrip.sh: the gobind-generated Java classes
// (dev.wayfinder.bridge.*) over a desktop libgojni.so, driven from Kotlin the
// way the Android app drives them, with a Kotlin Device (RecordedPhone) that
// replays the exported demo phone.
//
// Usage: RoundTripKt DEMO_DIR WORK_DIR   (DEMO_DIR from testdata/jni/exportdemo)
// Prints one line per check and "N passed, M failed"; exits 0 only when
// every check passed. Ends with System.exit: Go threads that called into
// the JVM stay attached as non-daemon threads, so returning from main would
// hang in DestroyJavaVM.

package dev.wayfinder.jnitest

import dev.wayfinder.bridge.Bridge
import dev.wayfinder.bridge.Daemon
import dev.wayfinder.bridge.Device
import dev.wayfinder.bridge.EventListener
import java.io.File
import java.lang.management.ManagementFactory
import java.util.Collections

var passed = 0
var failed = 0

fun check(cond: Boolean, what: String, detail: () -> String = { "" }) {
    if (cond) {
        passed++
        println("ok   $what")
    } else {
        failed++
        val d = detail()
        println("FAIL $what" + if (d.isEmpty()) "" else "\n     $d")
    }
}

// Runs body; a throwable is a failed check, never an abort of the suite.
fun section(name: String, body: () -> Unit) {
    println("-- $name")
    try {
        body()
    } catch (t: Throwable) {
        failed++
        println("FAIL $name: unexpected ${t.javaClass.name}: ${t.message}")
        t.printStackTrace(System.out)
    }
}

// The exception a Call threw, or null when it returned.
fun callError(d: Daemon, req: String): Exception? =
    try {
        d.call(req)
        null
    } catch (e: Exception) {
        e
    }

class Recorder : EventListener {
    val events: MutableList<Map<String, Any?>> = Collections.synchronizedList(ArrayList())
    val threads: MutableSet<String> = Collections.synchronizedSet(HashSet())

    override fun onEvent(eventJSON: String) {
        threads.add(Thread.currentThread().name)
        events.add(Json.parse(eventJSON).obj("event"))
    }

    fun types(): List<String> = synchronized(events) { events.map { it.str("type") ?: "?" } }

    // Events arrive on a Go goroutine after Call returned: wait for one.
    fun await(type: String, count: Int = 1, ms: Long = 5000): Boolean {
        val end = System.nanoTime() + ms * 1_000_000
        while (System.nanoTime() < end) {
            if (types().count { it == type } >= count) return true
            Thread.sleep(5)
        }
        return false
    }

    fun clear() = events.clear()
}

// Devices that fail the way a real AccessibilityService can.
class ThrowingPerform(private val p: RecordedPhone) : Device by p {
    override fun perform(actionJSON: String): String = throw IllegalStateException("node vanished")
}

class ThrowingBare(private val p: RecordedPhone) : Device by p {
    override fun perform(actionJSON: String): String = throw NullPointerException()
}

class ThrowingSnapshot(private val p: RecordedPhone) : Device by p {
    override fun snapshot(): String = throw IllegalStateException("window gone")
}

fun runResult(d: Daemon, command: String): Map<String, Any?> =
    Json.parse(d.call("""{"method":"run","params":{"command":${Json.quote(command)}}}""")).obj("run result")

fun inputs(p: RecordedPhone): List<String> =
    synchronized(p.performed) { p.performed.filter { it.str("type") == "input" }.map { it.str("text") ?: "" } }

fun main(args: Array<String>) {
    if (args.size != 2) {
        System.err.println("usage: RoundTripKt DEMO_DIR WORK_DIR")
        System.exit(2)
    }
    val demo = File(args[0])
    val work = File(args[1])
    val config = """{"planner":"graph"}"""

    section("demo phone in Kotlin") {
        val p = RecordedPhone(demo)
        check(p.stateCount > 1 && p.transitionCount > 0, "loaded ${p.stateCount} states, ${p.transitionCount} transitions, start ${p.start}")
        val snap = Json.parse(p.snapshot()).obj("snapshot")
        check(snap.long("schema") == 1L && snap["windows"].arr().isNotEmpty(), "start snapshot is schema-1 JSON")
        check(p.perform("""{"type":"tap","node":99999}""").contains("\"unexplored\""), "unknown action is unexplored")
    }

    section("bad input through the binding") {
        val e1 = try { Bridge.new_(File(work, "bad").path, "{", RecordedPhone(demo)); null } catch (e: Exception) { e }
        check(e1 != null && e1.message!!.contains("config JSON"), "Bridge.new_ with bad config throws") { "${e1?.message}" }
        val e2 = try { Bridge.new_(File(work, "nodev").path, "", null); null } catch (e: Exception) { e }
        check(e2 != null && e2.message!!.contains("Device"), "Bridge.new_ with a null Device throws") { "${e2?.message}" }
        // gobind also generates a public no-arg constructor for the Go
        // struct: a zero Daemon. It must fail cleanly, not crash the JVM.
        val zero = Daemon()
        val e3 = callError(zero, """{"method":"status"}""")
        check(e3 != null && e3.message!!.contains("Bridge.new_"), "zero-value Daemon() throws instead of crashing") { "${e3?.message}" }
    }

    section("run, events, flows, replay") {
        val phone = RecordedPhone(demo)
        val d = Bridge.new_(File(work, "main").path, config, phone)
        val rec = Recorder()
        d.subscribe(rec)

        // shapes of docs/bridge-api.md
        val status = Json.parse(d.call("""{"method":"status"}""")).obj("status")
        check(status.bool("running") == false && status.long("flows") == 0L && !status.str("version").isNullOrEmpty() &&
            status.bool("api_key_set") == false, "status: version ${status.str("version")}, idle, no flows, no key") { Json.write(status) }
        val settings = Json.parse(d.call("""{"method":"settings.get"}""")).obj("settings")
        check(settings.bool("api_key_set") == false && "api_key" !in settings, "settings.get: no key, key never shown") { Json.write(settings) }

        val r1 = runResult(d, "create a note called \"Milk\"")
        check(r1.str("outcome") == "success" && r1.bool("saved") == true, "run \"Milk\": success, flow saved (mode ${r1.str("mode")}, ${r1.long("steps")} steps, ${r1.long("ms")} ms)") { Json.write(r1) }
        check(r1.long("llm_calls") == 0L, "run used no LLM (graph planner)") { Json.write(r1) }
        check("Milk" in inputs(phone), "Kotlin device received input \"Milk\"") { "${phone.performed}" }
        check(phone.state() == "editor", "Kotlin phone ended on the editor") { phone.state() }

        check(rec.await("run_finished"), "run_finished event arrived") { "${rec.types()}" }
        val ty = rec.types()
        val last = ty.lastIndexOf("run_finished")
        check(ty.firstOrNull() == "run_started", "first event is run_started") { "$ty" }
        check(last == ty.size - 1, "last event is run_finished") { "$ty" }
        val firstAction = ty.indexOf("action")
        val saved = ty.indexOf("flow_saved")
        check(firstAction > 0 && saved > firstAction && saved < last, "action events, then flow_saved, before run_finished") { "$ty" }
        val seqs = synchronized(rec.events) { rec.events.map { it.long("seq") ?: -1 } }
        check(seqs.zipWithNext().all { (a, b) -> b == a + 1 }, "event seq numbers consecutive, in order (${seqs.size} events)") { "$seqs" }
        val finished = synchronized(rec.events) { rec.events.last { it.str("type") == "run_finished" } }
        check(finished["data"].obj().str("outcome") == "success", "run_finished carries the outcome") { Json.write(finished) }
        check(rec.threads.none { it == "main" }, "events delivered on Go-owned threads ${rec.threads}")
        println("     events: ${ty.joinToString(" ")}")

        val flows = Json.parse(d.call("""{"method":"flows.list"}""")).obj("flows.list")["flows"].arr("flows")
        val f = flows.singleOrNull()?.obj("flow")
        check(f != null && f.str("package") == "dev.wayfinder.demo.notebook" && (f.long("steps") ?: 0) > 0 && !f.str("intent").isNullOrEmpty(),
            "flows.list: one flow (${f?.str("name")}, intent ${f?.str("intent")}, slots ${f?.get("slots")})") { "$flows" }

        val st = Json.parse(d.call("""{"method":"status"}""")).obj("status")
        check(st.long("flows") == 1L && st.bool("running") == false, "status after the run: 1 flow, idle") { Json.write(st) }

        rec.clear()
        val r2 = runResult(d, "create a note called \"Eggs\"")
        check(r2.str("outcome") == "success" && r2.str("mode") == "replay" && r2.long("llm_calls") == 0L,
            "run \"Eggs\": replayed (mode ${r2.str("mode")}, ${r2.long("llm_calls")} llm calls, ${r2.long("steps")} steps, ${r2.long("ms")} ms)") { Json.write(r2) }
        check(r2.long("flow_id") == f?.long("id") && r2.long("cache_hits") == f?.long("steps"),
            "replay used the saved flow for each of its ${f?.long("steps")} steps (cache_hits ${r2.long("cache_hits")})") { Json.write(r2) }
        check(inputs(phone).lastOrNull() == "Eggs", "replay typed the new slot value \"Eggs\"") { "${inputs(phone)}" }
        check(rec.await("run_finished"), "replay events arrived") { "${rec.types()}" }
        val ty2 = rec.types()
        check(ty2.firstOrNull() == "run_started" && ty2.lastOrNull() == "run_finished" && "flow_matched" in ty2,
            "replay events: run_started, flow_matched, ..., run_finished") { "$ty2" }

        val e = callError(d, """{"method":"nope"}""")
        check(e != null && e.message!!.contains("unknown method"), "unknown method throws") { "${e?.message}" }
        val e2 = callError(d, "not json")
        check(e2 != null && e2.message!!.contains("bad_request"), "malformed request throws bad_request") { "${e2?.message}" }

        d.subscribe(null)
        d.close()
        check(true, "subscribe(null) and close()")
    }

    section("Kotlin exceptions become Go errors") {
        val phone = RecordedPhone(demo)
        val d = Bridge.new_(File(work, "throw-perform").path, config, ThrowingPerform(phone))
        var out: String? = null
        val e = try { out = d.call("""{"method":"run","params":{"command":"create a note called \"Milk\""}}"""); null } catch (x: Exception) { x }
        val msg = e?.message ?: out ?: ""
        check(msg.contains("node vanished"), "perform() throwing IllegalStateException -> " +
            (if (e != null) "Call throws" else "run result") + ": $msg")
        d.close()

        // gobind carries only Throwable.getMessage() across: a bare
        // exception arrives as an empty text, wrapped by the daemon's context
        val d1 = Bridge.new_(File(work, "throw-bare").path, config, ThrowingBare(RecordedPhone(demo)))
        var out1: String? = null
        val e1 = try { out1 = d1.call("""{"method":"run","params":{"command":"create a note called \"Milk\""}}"""); null } catch (x: Exception) { x }
        val msg1 = e1?.message ?: out1 ?: ""
        check(msg1.contains("device perform tap"), "perform() throwing NullPointerException() (no message) -> error names the action: [$msg1]")
        d1.close()

        val d2 = Bridge.new_(File(work, "throw-snapshot").path, config, ThrowingSnapshot(RecordedPhone(demo)))
        val e2 = callError(d2, """{"method":"snapshot"}""")
        check(e2 != null && e2.message!!.contains("window gone"), "snapshot() throwing -> Call throws: ${e2?.message}")
        var out3: String? = null
        val e3 = try { out3 = d2.call("""{"method":"run","params":{"command":"create a note called \"Milk\""}}"""); null } catch (x: Exception) { x }
        check((e3?.message ?: out3 ?: "").contains("window gone"), "run on a throwing snapshot() -> error, not a crash: ${e3?.message ?: out3}")
        val st = Json.parse(d2.call("""{"method":"status"}""")).obj()
        check(st.bool("running") == false, "daemon still answers after device errors")
        d2.close()
    }

    section("concurrent calls") {
        val d = Bridge.new_(File(work, "concurrent").path, config, RecordedPhone(demo))
        val errors = Collections.synchronizedList(ArrayList<String>())
        val threads = (1..4).map { k ->
            Thread {
                repeat(250) { i ->
                    try {
                        val req = if (i % 2 == 0) """{"method":"status"}""" else """{"method":"snapshot"}"""
                        if (d.call(req).isEmpty()) errors.add("t$k/$i: empty reply")
                    } catch (e: Exception) {
                        errors.add("t$k/$i: ${e.message}")
                    }
                }
            }.apply { start() }
        }
        threads.forEach { it.join() }
        check(errors.isEmpty(), "4 Kotlin threads x 250 calls (status, snapshot) at once") { errors.take(3).toString() }
        d.close()
    }

    section("round-trip cost") {
        val phone = RecordedPhone(demo)
        val d = Bridge.new_(File(work, "bench").path, config, phone)
        val n = 2000
        fun bench(name: String, req: String) {
            repeat(200) { d.call(req) } // warm up
            // wall time, and the CPU time of this thread: Go runs the call
            // (and the callback into Kotlin) on the calling thread, so the
            // latter is the cost without the waits of a busy machine
            val mx = ManagementFactory.getThreadMXBean()
            val c0 = mx.currentThreadCpuTime
            val t0 = System.nanoTime()
            var bytes = 0L
            repeat(n) { bytes += d.call(req).length }
            val us = (System.nanoTime() - t0) / 1000.0 / n
            val cpu = (mx.currentThreadCpuTime - c0) / 1000.0 / n
            println("     %-50s %7.1f µs/call wall, %7.1f µs CPU (%d calls, %d B/reply)".format(name, us, cpu, n, bytes / n))
            check(bytes > 0, "$name measured")
        }
        bench("Call {\"method\":\"settings.get\"} (Kotlin->Go)", """{"method":"settings.get"}""")
        bench("Call {\"method\":\"status\"} (Kotlin->Go, reads the store)", """{"method":"status"}""")
        val before = phone.snapshots.get()
        bench("Call {\"method\":\"snapshot\"} (Kotlin->Go->Kotlin)", """{"method":"snapshot"}""")
        check(phone.snapshots.get() - before == n + 200, "each snapshot call reached Device.snapshot() once") { "${phone.snapshots.get() - before}" }
        d.close()
    }

    println("$passed passed, $failed failed")
    System.exit(if (failed == 0) 0 else 1)
}

// RecordedPhone: a tiny deterministic phone in Kotlin, implementing the
// gobind interface dev.wayfinder.bridge.Device the way the Android
// AccessibilityService does (JSON strings in and out), but on top of the
// demo phone exported by testdata/jni/exportdemo (states/*.json,
// transitions.tsv, meta.tsv, apps.json). It has no simulator of its own: a
// performed action is looked up as (current state, type, node, package) in
// the exported transitions; anything not there is
// {"ok":false,"changed":false,"message":"unexplored"}. Text typed into an
// editable node stays visible in later snapshots of the same state, as on
// the simulator.

package dev.wayfinder.jnitest

import dev.wayfinder.bridge.Device
import java.io.File
import java.util.Collections
import java.util.concurrent.atomic.AtomicInteger

class RecordedPhone(dir: File) : Device {
    private data class Key(val from: String, val type: String, val node: Long, val pkg: String)
    private data class Edge(val to: String, val changed: Boolean)

    private val raw = HashMap<String, String>()         // state -> snapshot JSON as exported
    private val parsed = HashMap<String, Map<String, Any?>>()
    private val edges = HashMap<Key, Edge>()
    private val apps: String
    val start: String

    private val lock = Any()
    private var cur: String
    private val typed = HashMap<Long, String>()         // node id -> typed text, current state only
    private var shown: String? = null                   // snapshot JSON for (cur, typed)

    val snapshots = AtomicInteger()
    val performed: MutableList<Map<String, Any?>> =     // every action received, in order
        Collections.synchronizedList(ArrayList())

    init {
        val meta = File(dir, "meta.tsv").readLines().filter { it.isNotBlank() }
            .associate { l -> l.split('\t').let { it[0] to it.getOrElse(1) { "" } } }
        start = meta["start"] ?: throw JsonException("meta.tsv has no start state")
        apps = File(dir, "apps.json").readText().trim()
        File(dir, "states").listFiles { f -> f.name.endsWith(".json") }!!.forEach { f ->
            raw[f.name.removeSuffix(".json")] = f.readText()
        }
        for (line in File(dir, "transitions.tsv").readLines()) {
            if (line.isBlank() || line.startsWith("#")) continue
            val c = line.split('\t')
            if (c.size != 6) throw JsonException("transitions.tsv: want 6 fields: $line")
            edges[Key(c[0], c[1], c[2].toLong(), c[3])] = Edge(c[4], c[5] == "true")
        }
        if (start !in raw) throw JsonException("start state $start has no snapshot")
        cur = start
    }

    val stateCount get() = raw.size
    val transitionCount get() = edges.size
    fun state(): String = synchronized(lock) { cur }

    override fun snapshot(): String {
        snapshots.incrementAndGet()
        synchronized(lock) {
            shown?.let { return it }
            val s = if (typed.isEmpty()) raw.getValue(cur) else withTyped()
            shown = s
            return s
        }
    }

    // The current state's snapshot with the typed texts in their nodes.
    private fun withTyped(): String {
        val tree = parsed.getOrPut(cur) { Json.parse(raw.getValue(cur)).obj("snapshot") }
        val copy = Json.parse(Json.write(tree)).obj("snapshot") // deep copy
        for (w in copy["windows"].arr("windows")) {
            for (n in w.obj("window")["nodes"].arr("nodes")) {
                @Suppress("UNCHECKED_CAST")
                val node = n as MutableMap<String, Any?>
                val t = typed[node.long("id")]
                if (t != null && node.bool("editable") == true) node["text"] = t
            }
        }
        return Json.write(copy)
    }

    override fun perform(actionJSON: String): String {
        val a = Json.parse(actionJSON).obj("action")
        val type = a.str("type") ?: throw IllegalArgumentException("action has no type: $actionJSON")
        val node = a.long("node") ?: -1L
        synchronized(lock) {
            performed.add(a)
            val e = edges[Key(cur, type, node, if (type == "launch") a.str("package") ?: "" else "")]
                ?: return result(false, false, "unexplored")
            // as daemon/sim: any other action resets the screen's typed
            // text; an input keeps it and adds its own
            if (type != "input" || e.to != cur) typed.clear()
            cur = e.to
            if (type == "input") typed[node] = a.str("text") ?: ""
            shown = null
            return result(true, e.changed, "")
        }
    }

    override fun installedApps(): String = apps

    private fun result(ok: Boolean, changed: Boolean, message: String): String =
        """{"ok":$ok,"changed":$changed,"message":${Json.quote(message)},"duration_ms":0}"""
}

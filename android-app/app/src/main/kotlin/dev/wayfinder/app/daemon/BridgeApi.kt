package dev.wayfinder.app.daemon

import org.json.JSONArray
import org.json.JSONObject

/**
 * Builds the requests of Daemon.call and reads its replies: the contract of
 * docs/bridge-api.md. Every request is {"method": "...", "params": {...}}.
 */
object Requests {
    fun run(command: String): String = req("run", JSONObject().put("command", command))

    /**
     * Follows steps the owner shared (a tutorial, a friend's message) for
     * the goal [command]; a success is learned as a flow named by it.
     */
    fun runSteps(command: String, steps: String): String = req("run", JSONObject().put("command", command).put("steps", steps))

    /** The shared [steps] as the instructions the phone would follow, to show before running them. */
    fun stepsParse(steps: String, command: String = ""): String {
        val p = JSONObject().put("steps", steps)
        if (command.isNotEmpty()) p.put("command", command)
        return req("steps.parse", p)
    }

    fun replay(flowId: Long, slots: Map<String, String> = emptyMap()): String {
        val s = JSONObject()
        for ((k, v) in slots) s.put(k, v)
        return req("replay", JSONObject().put("flow_id", flowId).put("slots", s))
    }

    /**
     * Replays the flow whose unguessable token a pinned shortcut carries
     * (the daemon rejects an unknown token): the only replay the phone's
     * entry points make.
     */
    fun replayToken(token: String, slots: Map<String, String> = emptyMap()): String {
        val s = JSONObject()
        for ((k, v) in slots) s.put(k, v)
        return req("replay", JSONObject().put("token", token).put("slots", s))
    }

    /** Whether the flow's sensitive steps run without asking ("don't ask again"). */
    fun flowsAllowSensitive(id: Long, allow: Boolean): String =
        req("flows.allow_sensitive", JSONObject().put("id", id).put("allow", allow))

    fun cancel(): String = req("cancel")

    fun answer(text: String): String = req("answer", JSONObject().put("text", text))

    fun flowsList(): String = req("flows.list")

    fun flowsGet(id: Long): String = req("flows.get", JSONObject().put("id", id))

    fun flowsRename(id: Long, name: String): String = req("flows.rename", JSONObject().put("id", id).put("name", name))

    fun flowsDelete(id: Long): String = req("flows.delete", JSONObject().put("id", id))

    fun flowsPin(id: Long, pinned: Boolean): String = req("flows.pin", JSONObject().put("id", id).put("pinned", pinned))

    /** The flow's versions, oldest first (FlowVersion.parseList). */
    fun flowsHistory(id: Long): String = req("flows.history", JSONObject().put("id", id))

    /** Makes [version]'s steps current again, as a new version: nothing is deleted. */
    fun flowsRollback(id: Long, version: Int): String = req("flows.rollback", JSONObject().put("id", id).put("version", version))

    /** The context library's entries; private values come back as "" (the app never asks for them). */
    fun contextList(): String = req("context.list")

    /** Adds [entry] (id 0) or replaces the entry of its id: name, aliases and values. */
    fun contextSet(entry: ContextEntry): String = req("context.set", JSONObject().put("entry", entry.toJson()))

    fun contextDelete(id: Long): String = req("context.delete", JSONObject().put("id", id))

    fun settingsGet(): String = req("settings.get")

    /** Only non-null fields change; [apiKey] "" clears the key. */
    fun settingsSet(
        baseUrl: String? = null,
        model: String? = null,
        apiKey: String? = null,
        confirmSensitive: Boolean? = null,
    ): String {
        val p = JSONObject()
        baseUrl?.let { p.put("base_url", it) }
        model?.let { p.put("model", it) }
        apiKey?.let { p.put("api_key", it) }
        confirmSensitive?.let { p.put("confirm_sensitive", it) }
        return req("settings.set", p)
    }

    fun status(): String = req("status")

    private fun req(method: String, params: JSONObject = JSONObject()): String =
        JSONObject().put("method", method).put("params", params).toString()
}

/** The reply of run and replay. [ms] wall time; [flowId] 0 when no flow was saved or replayed. */
data class RunReply(
    val outcome: String,
    val error: String,
    val steps: Int,
    val llmCalls: Int,
    val tokens: Int,
    val ms: Long,
    val flowId: Long,
    val mode: String,
) {
    val succeeded: Boolean get() = outcome == "success"

    companion object {
        fun parse(json: String): RunReply {
            val o = JSONObject(json)
            return RunReply(
                outcome = o.getString("outcome"),
                error = o.optString("error"),
                steps = o.optInt("steps"),
                llmCalls = o.optInt("llm_calls"),
                tokens = o.optInt("tokens"),
                ms = o.optLong("ms"),
                flowId = o.optLong("flow_id"),
                mode = o.optString("mode"),
            )
        }
    }
}

/** One saved flow as flows.list reports it. */
data class FlowSummary(
    val id: Long,
    val name: String,
    val intent: String,
    val packageName: String,
    val steps: Int,
    val slots: List<String>,
    val uses: Int,
    val pinned: Boolean,
    /** The flow's unguessable replay token (128-bit hex); "" from an older daemon. */
    val token: String = "",
    /** Some step is a sensitive action (send, delete, pay, …). */
    val sensitive: Boolean = false,
    /** The owner said "don't ask again" for this flow's sensitive steps. */
    val allowSensitive: Boolean = false,
    /** The number of the flow's current version (flows.history); 1 from an older daemon. */
    val version: Int = 1,
    /**
     * False after several failed replays in a row ([failStreak] of them):
     * the flow is then never replayed because a command matched it, only
     * when the owner starts it.
     */
    val healthy: Boolean = true,
    val failStreak: Int = 0,
) {
    /** What the app calls the flow: its name, else its intent. */
    val title: String get() = name.ifBlank { intent }

    companion object {
        fun parse(o: JSONObject) = FlowSummary(
            id = o.getLong("id"),
            name = o.optString("name"),
            intent = o.optString("intent"),
            packageName = o.optString("package"),
            steps = o.optInt("steps"),
            slots = strings(o.optJSONArray("slots")),
            uses = o.optInt("uses"),
            pinned = o.optBoolean("pinned"),
            token = o.optString("token"),
            sensitive = o.optBoolean("sensitive"),
            allowSensitive = o.optBoolean("allow_sensitive"),
            version = o.optInt("version", 1),
            healthy = o.optBoolean("healthy", true),
            failStreak = o.optInt("fail_streak"),
        )

        /** Reads the steps of the reply of flows.get ({"flow": {..., "actions": [...]}}), as readable lines. */
        fun actionsOf(json: String): List<String> = strings(JSONObject(json).getJSONObject("flow").optJSONArray("actions"))

        /** Reads the reply of flows.rename / flows.pin / flows.allow_sensitive: {"flow": {...}}. */
        fun parseOne(json: String): FlowSummary = parse(JSONObject(json).getJSONObject("flow"))

        /** Reads the reply of flows.list: {"flows": [...]}. */
        fun parseList(json: String): List<FlowSummary> = objects(json, "flows", ::parse)
    }
}

/**
 * One version of a flow as flows.history reports it: why it was written
 * ("learned", "repaired", "rollback to version 2", …), when (Unix ms),
 * whether it is the current one, and its steps as readable lines.
 */
data class FlowVersion(
    val version: Int,
    val reason: String,
    val createdMs: Long,
    val current: Boolean,
    val actions: List<String>,
) {
    companion object {
        fun parse(o: JSONObject) = FlowVersion(
            version = o.getInt("version"),
            reason = o.optString("reason"),
            createdMs = o.optLong("created_ms"),
            current = o.optBoolean("current"),
            actions = strings(o.optJSONArray("actions")),
        )

        /** Reads the reply of flows.history: {"versions": [...]}, oldest first. */
        fun parseList(json: String): List<FlowVersion> = objects(json, "versions", ::parse)
    }
}

/**
 * One shared step as the daemon reads it (steps.parse): its [op] (open,
 * tap, long_press, turn_on, turn_off, input, scroll, back, home), the
 * [target] it names, the [value] to type or the scroll direction, and the
 * line it came from.
 */
data class Instruction(val text: String, val op: String, val target: String, val value: String) {
    /** "tap “Dark theme”", "type “Dora” into “Nickname field”", "switch on “Roaming”"; the line itself for anything else. */
    fun describe(): String {
        val t = if (target.isEmpty()) "" else " “$target”"
        return when (op) {
            "open" -> "open${t.ifEmpty { " “$value”" }}"
            "tap" -> "tap$t"
            "long_press" -> "long-press$t"
            "turn_on" -> "switch on$t"
            "turn_off" -> "switch off$t"
            "input" -> "type “$value”" + if (t.isEmpty()) "" else " into$t"
            "scroll" -> "scroll ${value.ifEmpty { "down" }}"
            "back" -> "go back"
            "home" -> "go home"
            else -> text
        }
    }

    companion object {
        /** Reads the reply of steps.parse: {"instructions": [...]}. */
        fun parseList(json: String): List<Instruction> =
            objects(json, "instructions") { o -> Instruction(o.optString("text"), o.optString("op"), o.optString("target"), o.optString("value")) }
    }
}

/**
 * One value of a context entry: its [field] ("phone", "email", "address",
 * …), the [value] ("" when private and listed), [private] (kept out of
 * events, logs and results) and [allowInPrompt] (a private value the model
 * may still see).
 */
data class ContextValue(val field: String, val value: String, val private: Boolean = false, val allowInPrompt: Boolean = false)

/**
 * An entry of the owner's context library (docs/context.md): a person,
 * place, account or preference, the words the owner uses for it
 * ([aliases]: "mom", "home") and its values. [id] 0: not stored yet.
 */
data class ContextEntry(val id: Long, val kind: String, val name: String, val aliases: List<String>, val values: List<ContextValue>) {
    fun toJson(): JSONObject {
        val o = JSONObject().put("kind", kind).put("name", name).put("aliases", JSONArray(aliases))
        if (id > 0) o.put("id", id)
        val vs = JSONArray()
        for (v in values) {
            vs.put(JSONObject().put("field", v.field).put("value", v.value).put("private", v.private).put("allow_in_prompt", v.allowInPrompt))
        }
        return o.put("values", vs)
    }

    /** "Mary Smith (mom) — phone: private, email: mary@example.org": a private value is never shown. */
    fun line(): String {
        val also = if (aliases.isEmpty()) "" else " (${aliases.joinToString()})"
        val vs = values.joinToString { "${it.field}: ${if (it.private) "private" else it.value}" }
        return "$name$also" + if (vs.isEmpty()) "" else " — $vs"
    }

    companion object {
        fun parse(o: JSONObject): ContextEntry {
            val values = objects(o.optJSONArray("values")) { v ->
                ContextValue(v.optString("field"), v.optString("value"), v.optBoolean("private"), v.optBoolean("allow_in_prompt"))
            }
            return ContextEntry(o.optLong("id"), o.optString("kind"), o.optString("name"), strings(o.optJSONArray("aliases")), values)
        }

        /** Reads the reply of context.list: {"entries": [...]}. */
        fun parseList(json: String): List<ContextEntry> = objects(json, "entries", ::parse)
    }
}

/** The reply of settings.get / settings.set. The API key itself never comes back. */
data class SettingsView(
    val baseUrl: String,
    val model: String,
    val apiKeySet: Boolean,
    val confirmSensitive: Boolean,
) {
    companion object {
        fun parse(json: String): SettingsView {
            val o = JSONObject(json)
            return SettingsView(
                baseUrl = o.optString("base_url"),
                model = o.optString("model"),
                apiKeySet = o.optBoolean("api_key_set"),
                confirmSensitive = o.optBoolean("confirm_sensitive", true),
            )
        }
    }
}

/** The objects of the array [key] of the reply [json], each read by [parse]; none when it is absent. */
internal fun <T> objects(json: String, key: String, parse: (JSONObject) -> T): List<T> = objects(JSONObject(json).optJSONArray(key), parse)

/** The objects of [arr], each read by [parse]; none when it is null. */
internal fun <T> objects(arr: JSONArray?, parse: (JSONObject) -> T): List<T> =
    if (arr == null) emptyList() else (0 until arr.length()).map { parse(arr.getJSONObject(it)) }

internal fun strings(arr: JSONArray?): List<String> =
    if (arr == null) emptyList() else (0 until arr.length()).map { arr.optString(it) }

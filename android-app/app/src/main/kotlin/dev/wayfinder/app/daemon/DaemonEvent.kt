package dev.wayfinder.app.daemon

import org.json.JSONException
import org.json.JSONObject

/**
 * A progress event from the daemon: {seq, time_ms, run_id, type, data}
 * (daemon/event/event.go). [data] is the type's payload, empty when absent.
 */
data class DaemonEvent(
    val seq: Long,
    val timeMs: Long,
    val runId: String,
    val type: String,
    val data: JSONObject,
) {
    companion object {
        const val RUN_STARTED = "run_started"
        const val APP_CHOSEN = "app_chosen"
        const val FLOW_MATCHED = "flow_matched"
        const val SNAPSHOT = "snapshot"
        const val PROMPT = "prompt"
        const val LLM_REPLY = "llm_reply"
        const val ACTION = "action"
        const val CHOSEN = "chosen"
        const val ASK = "ask"
        const val FLOW_SAVED = "flow_saved"
        const val FLOW_REPAIRED = "flow_repaired"
        const val RUN_FINISHED = "run_finished"
        const val LOG = "log"
        const val DROPPED = "dropped"

        /** Parses one event; null for JSON that is not an event object. */
        fun parse(json: String): DaemonEvent? = try {
            val o = JSONObject(json)
            DaemonEvent(
                seq = o.optLong("seq"),
                timeMs = o.optLong("time_ms"),
                runId = o.optString("run_id"),
                type = o.getString("type"),
                data = o.optJSONObject("data") ?: JSONObject(),
            )
        } catch (e: JSONException) {
            null
        }
    }
}

/** The agent asks the user to confirm or clarify (an "ask" event); reply with answer {text}. */
data class AskRequest(val question: String, val options: List<String>) {
    companion object {
        fun from(e: DaemonEvent): AskRequest? =
            if (e.type != DaemonEvent.ASK) null
            else AskRequest(e.data.optString("question"), strings(e.data.optJSONArray("options")))
    }
}

/** Turns events into the one-line progress entries MainActivity lists. */
object ProgressText {
    /** The line for [e], or null for events the progress list does not show. */
    fun line(e: DaemonEvent): String? {
        val d = e.data
        return when (e.type) {
            DaemonEvent.RUN_STARTED -> "▶ ${d.optString("command")}"
            DaemonEvent.APP_CHOSEN -> "app: ${d.optString("label").ifEmpty { d.optString("package") }}"
            DaemonEvent.FLOW_MATCHED ->
                if (!d.optBoolean("replay")) null
                else if (d.optString("anchor").isNotEmpty()) "replaying saved flow \"${d.optString("name")}\" (you named ${d.optString("anchor")})"
                else "replaying saved flow \"${d.optString("name")}\""
            DaemonEvent.SNAPSHOT -> null
            DaemonEvent.PROMPT -> null
            DaemonEvent.LLM_REPLY ->
                if (d.optString("error").isNotEmpty()) "model error: ${d.optString("error")}"
                else "model replied (${d.optInt("prompt_tokens") + d.optInt("completion_tokens")} tokens, ${d.optLong("ms")} ms)"
            DaemonEvent.ACTION -> {
                val mark = if (d.optBoolean("ok")) "✓" else "✗"
                val msg = d.optString("message").let { if (it.isEmpty() || d.optBoolean("ok")) "" else " — $it" }
                "${d.optInt("step")}. $mark ${d.optString("action")} [${d.optString("mode")}]$msg"
            }
            DaemonEvent.ASK -> "? ${d.optString("question")}"
            DaemonEvent.FLOW_SAVED -> "saved flow \"${d.optString("name")}\" (${d.optInt("steps")} steps)"
            DaemonEvent.FLOW_REPAIRED -> "repaired flow \"${d.optString("name")}\""
            DaemonEvent.RUN_FINISHED -> {
                val err = d.optString("error").let { if (it.isEmpty()) "" else ": $it" }
                "■ ${d.optString("outcome")}$err — ${d.optInt("steps")} steps, ${d.optInt("llm_calls")} model calls, " +
                    "${d.optInt("tokens")} tokens, ${d.optLong("ms")} ms"
            }
            DaemonEvent.LOG -> if (d.optString("level") == "debug") null else "${d.optString("level")}: ${d.optString("text")}"
            DaemonEvent.DROPPED -> "(some progress was dropped)"
            else -> null
        }
    }
}

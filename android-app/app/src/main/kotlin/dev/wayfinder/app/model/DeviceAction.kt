package dev.wayfinder.app.model

import org.json.JSONArray
import org.json.JSONException
import org.json.JSONObject
import org.json.JSONStringer

/**
 * One operation on the phone, as the daemon sends it to Device.perform: the
 * JSON of Go's device.Action (daemon/device/device.go). [node] is the id of
 * a node in the LAST snapshot this app emitted, -1 for none; [bounds] are
 * that node's bounds in px, used as a gesture fallback; [x], [y] in px.
 */
data class DeviceAction(
    val type: String,
    val node: Int = -1,
    val bounds: Bounds? = null,
    val label: String = "",
    val x: Int = 0,
    val y: Int = 0,
    val text: String = "",
    val direction: String = "",
    val packageName: String = "",
    /** The capture id of the snapshot the action was chosen on; "" = the last one. */
    val captureId: String = "",
) {
    companion object {
        const val TAP = "tap"
        const val LONG_PRESS = "long_press"
        const val INPUT = "input"
        const val SCROLL = "scroll"
        const val BACK = "back"
        const val HOME = "home"
        const val LAUNCH = "launch"
        /** The keyboard's Enter / submit in the input node [node], or the focused field when -1. */
        const val IME_ENTER = "ime_enter"
        const val FORWARD = "forward"
        const val BACKWARD = "backward"
    }

    /** Short description for result messages; never contains input text. */
    fun describe(): String = when (type) {
        BACK, HOME -> type
        IME_ENTER -> if (node >= 0) "$type node $node" else type
        LAUNCH -> "launch $packageName"
        else -> if (node >= 0) "$type node $node" else "$type ($x,$y)"
    }
}

/** Thrown for action JSON that is malformed or violates the action rules. */
class BadActionException(message: String) : IllegalArgumentException(message)

/** Parses and validates action JSON with the rules of Go's Action.Validate. */
object ActionJson {
    fun parse(json: String): DeviceAction {
        val o = try {
            JSONObject(json)
        } catch (e: JSONException) {
            throw BadActionException("action: not a JSON object: ${e.message}")
        }
        val a = DeviceAction(
            type = string(o, "type"),
            node = int(o, "node", -1),
            bounds = bounds(o),
            label = string(o, "label"),
            x = int(o, "x", 0),
            y = int(o, "y", 0),
            text = string(o, "text"),
            direction = string(o, "direction"),
            packageName = string(o, "package"),
            captureId = string(o, "capture_id"),
        )
        validate(a)
        return a
    }

    /** Writes [a] in the same JSON shape Go marshals (zero fields omitted, node always). */
    fun write(a: DeviceAction): String {
        val w = JSONStringer().`object`()
        w.key("type").value(a.type)
        w.key("node").value(a.node.toLong())
        a.bounds?.let { b ->
            w.key("bounds").array().value(b.left.toLong()).value(b.top.toLong())
                .value(b.right.toLong()).value(b.bottom.toLong()).endArray()
        }
        if (a.label.isNotEmpty()) w.key("label").value(a.label)
        if (a.x != 0) w.key("x").value(a.x.toLong())
        if (a.y != 0) w.key("y").value(a.y.toLong())
        if (a.text.isNotEmpty()) w.key("text").value(a.text)
        if (a.direction.isNotEmpty()) w.key("direction").value(a.direction)
        if (a.packageName.isNotEmpty()) w.key("package").value(a.packageName)
        if (a.captureId.isNotEmpty()) w.key("capture_id").value(a.captureId)
        return w.endObject().toString()
    }

    fun validate(a: DeviceAction) {
        when (a.type) {
            DeviceAction.TAP, DeviceAction.LONG_PRESS ->
                if (a.node < 0 && a.x <= 0 && a.y <= 0) bad("${a.type} needs a node or a point")
            DeviceAction.INPUT -> if (a.node < 0) bad("input needs a node")
            DeviceAction.SCROLL ->
                if (a.direction != DeviceAction.FORWARD && a.direction != DeviceAction.BACKWARD) {
                    bad("scroll direction \"${a.direction}\": want forward or backward")
                }
            DeviceAction.BACK, DeviceAction.HOME, DeviceAction.IME_ENTER -> Unit
            DeviceAction.LAUNCH -> if (a.packageName.isEmpty()) bad("launch needs a package")
            else -> bad("unknown action type \"${a.type}\"")
        }
    }

    private fun bad(msg: String): Nothing = throw BadActionException("action: $msg")

    private fun string(o: JSONObject, key: String): String {
        if (!o.has(key) || o.isNull(key)) return ""
        val v = o.get(key)
        if (v !is String) bad("$key: want a string, got ${v.javaClass.simpleName}")
        return v
    }

    private fun int(o: JSONObject, key: String, def: Int): Int {
        if (!o.has(key) || o.isNull(key)) return def
        val v = o.get(key)
        if (v !is Number) bad("$key: want an integer, got ${v.javaClass.simpleName}")
        val d = v.toDouble()
        if (d != Math.rint(d) || d < Int.MIN_VALUE || d > Int.MAX_VALUE) bad("$key: $v is not a 32-bit integer")
        return v.toInt()
    }

    private fun bounds(o: JSONObject): Bounds? {
        if (!o.has("bounds") || o.isNull("bounds")) return null
        val arr = o.get("bounds") as? JSONArray ?: bad("bounds: want [left, top, right, bottom]")
        if (arr.length() != 4) bad("bounds: want 4 numbers, got ${arr.length()}")
        val v = IntArray(4) { i ->
            val n = arr.get(i) as? Number ?: bad("bounds[$i]: want an integer")
            n.toInt()
        }
        return Bounds(v[0], v[1], v[2], v[3])
    }
}

/**
 * What the device reports once an action completed: Go's device.Result.
 * [ok] false means the action had no effect (not a device failure);
 * [changed] says whether the screen changed; [durationMs] in ms.
 */
data class ActionResult(
    val ok: Boolean,
    val changed: Boolean,
    val message: String,
    val durationMs: Long,
) {
    fun toJson(): String {
        val w = JSONStringer().`object`()
        w.key("ok").value(ok)
        w.key("changed").value(changed)
        if (message.isNotEmpty()) w.key("message").value(message)
        w.key("duration_ms").value(durationMs)
        return w.endObject().toString()
    }
}

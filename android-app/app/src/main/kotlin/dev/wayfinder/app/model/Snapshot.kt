package dev.wayfinder.app.model

import org.json.JSONStringer

/** A bounding box in screen px: [left, top, right, bottom]. */
data class Bounds(val left: Int, val top: Int, val right: Int, val bottom: Int) {
    val centerX: Int get() = left + (right - left) / 2
    val centerY: Int get() = top + (bottom - top) / 2
    val width: Int get() = maxOf(0, right - left)
    val height: Int get() = maxOf(0, bottom - top)

    /** True when the box covers no pixel (zero or inverted size). */
    fun isEmpty(): Boolean = right <= left || bottom <= top

    companion object {
        val EMPTY = Bounds(0, 0, 0, 0)
    }
}

/**
 * One accessibility node of a snapshot (docs/screen-schema.md, "Node").
 * [id] is unique within the snapshot and dense in document order; [parent]
 * is -1 for a window root. [text] is always empty for password fields.
 */
data class SnapNode(
    val id: Int,
    val parent: Int,
    val className: String = "",
    val packageName: String = "",
    val resourceId: String = "",
    val text: String = "",
    val contentDesc: String = "",
    val hint: String = "",
    val bounds: Bounds = Bounds.EMPTY,
    val clickable: Boolean = false,
    val longClickable: Boolean = false,
    val checkable: Boolean = false,
    val checked: Boolean = false,
    val editable: Boolean = false,
    val scrollable: Boolean = false,
    val focusable: Boolean = false,
    val focused: Boolean = false,
    val selected: Boolean = false,
    val enabled: Boolean = false,
    val visibleToUser: Boolean = false,
    val password: Boolean = false,
    /** getStateDescription() (API 30+): "On", "50 percent". */
    val stateDescription: String = "",
    /** getError(): the error a field shows. */
    val error: String = "",
    /** getPaneTitle() (API 28+). */
    val paneTitle: String = "",
    /** getInputType(): android.text.InputType bits, 0 for none. */
    val inputType: Int = 0,
    /** The node's accessibility actions by name (docs/screen-schema.md, "actions"). */
    val actions: List<String> = emptyList(),
)

/** One window (docs/screen-schema.md, "Window"); [nodes] are pre-order. */
data class SnapWindow(
    val id: Int,
    val type: String,
    val packageName: String = "",
    val title: String = "",
    val layer: Int = 0,
    val focused: Boolean = false,
    val bounds: Bounds = Bounds.EMPTY,
    val nodes: List<SnapNode> = emptyList(),
)

/** Everything on screen at one moment: snapshot JSON schema 1. */
data class Snapshot(
    val width: Int,
    val height: Int,
    val activity: String = "",
    val packageName: String = "",
    val windows: List<SnapWindow> = emptyList(),
    /** This capture's id; actions chosen on it echo it (`capture_id`). */
    val captureId: String = "",
) {
    /** All nodes of all windows, in document order (index == id). */
    fun allNodes(): List<SnapNode> = windows.flatMap { it.nodes }

    /**
     * A fingerprint of what the user sees, to tell whether an action
     * changed the screen: every node of the application, input-method and
     * unknown windows (not the status bar or other system windows, whose
     * clock and notifications change on their own, nor overlays) with its
     * class, id, text, description, state, error, flags and bounds. Window
     * and node ids are left out (they are handles, not content).
     */
    fun fingerprint(): String {
        val md = java.security.MessageDigest.getInstance("SHA-256")
        for (w in windows) {
            if (w.type != "application" && w.type != "input_method" && w.type != "unknown") continue
            md.update("${w.type}|${w.packageName}|${w.title}\u0000".toByteArray())
            for (n in w.nodes) {
                val b = n.bounds
                val flags = listOf(n.checked, n.selected, n.enabled, n.focused, n.visibleToUser, n.editable, n.clickable)
                    .joinToString("") { if (it) "1" else "0" }
                md.update(
                    ("${n.parent - n.id}|${n.className}|${n.resourceId}|${n.text}|${n.contentDesc}|${n.hint}|" +
                        "${n.stateDescription}|${n.error}|${n.paneTitle}|$flags|${b.left},${b.top},${b.right},${b.bottom}\u0000").toByteArray(),
                )
            }
        }
        return md.digest().take(16).joinToString("") { "%02x".format(it) }
    }

    companion object {
        const val SCHEMA = 1
    }
}

/**
 * Writes [Snapshot] as the snapshot JSON of docs/screen-schema.md. False
 * flags and empty strings are omitted (the schema reads absent as false or
 * empty); `parent` and `bounds` are always written. Password text is never
 * written, whatever the node model holds.
 */
object SnapshotJson {
    fun write(s: Snapshot): String {
        val w = JSONStringer()
        w.`object`()
        w.key("schema").value(Snapshot.SCHEMA.toLong())
        w.key("width").value(s.width.toLong())
        w.key("height").value(s.height.toLong())
        str(w, "activity", s.activity)
        str(w, "package", s.packageName)
        str(w, "capture_id", s.captureId)
        w.key("windows").array()
        for (win in s.windows) writeWindow(w, win)
        w.endArray()
        w.endObject()
        return w.toString()
    }

    private fun writeWindow(w: JSONStringer, win: SnapWindow) {
        w.`object`()
        w.key("id").value(win.id.toLong())
        w.key("type").value(win.type)
        str(w, "package", win.packageName)
        str(w, "title", win.title)
        w.key("layer").value(win.layer.toLong())
        flag(w, "focused", win.focused)
        bounds(w, win.bounds)
        w.key("nodes").array()
        for (n in win.nodes) writeNode(w, n)
        w.endArray()
        w.endObject()
    }

    private fun writeNode(w: JSONStringer, n: SnapNode) {
        w.`object`()
        w.key("id").value(n.id.toLong())
        w.key("parent").value(n.parent.toLong())
        str(w, "class", n.className)
        str(w, "package", n.packageName)
        str(w, "resource_id", n.resourceId)
        if (!n.password) str(w, "text", n.text)
        str(w, "content_desc", n.contentDesc)
        str(w, "hint", n.hint)
        bounds(w, n.bounds)
        flag(w, "clickable", n.clickable)
        flag(w, "long_clickable", n.longClickable)
        flag(w, "checkable", n.checkable)
        flag(w, "checked", n.checked)
        flag(w, "editable", n.editable)
        flag(w, "scrollable", n.scrollable)
        flag(w, "focusable", n.focusable)
        flag(w, "focused", n.focused)
        flag(w, "selected", n.selected)
        flag(w, "enabled", n.enabled)
        flag(w, "visible_to_user", n.visibleToUser)
        flag(w, "password", n.password)
        str(w, "state_description", n.stateDescription)
        str(w, "error", n.error)
        str(w, "pane_title", n.paneTitle)
        if (n.inputType != 0) w.key("input_type").value(n.inputType.toLong())
        if (n.actions.isNotEmpty()) {
            w.key("actions").array()
            for (a in n.actions) w.value(a)
            w.endArray()
        }
        w.endObject()
    }

    private fun str(w: JSONStringer, key: String, v: String) {
        if (v.isNotEmpty()) w.key(key).value(v)
    }

    private fun flag(w: JSONStringer, key: String, v: Boolean) {
        if (v) w.key(key).value(true)
    }

    private fun bounds(w: JSONStringer, b: Bounds) {
        w.key("bounds").array()
            .value(b.left.toLong()).value(b.top.toLong())
            .value(b.right.toLong()).value(b.bottom.toLong())
            .endArray()
    }
}

package dev.wayfinder.app.a11y

import android.graphics.Rect
import android.view.accessibility.AccessibilityNodeInfo
import android.view.accessibility.AccessibilityWindowInfo
import dev.wayfinder.app.model.Bounds
import dev.wayfinder.app.model.SnapNode
import android.os.Build
import android.view.accessibility.AccessibilityNodeInfo.AccessibilityAction
import dev.wayfinder.app.model.SnapWindow
import dev.wayfinder.app.model.Snapshot

/**
 * A captured snapshot plus the live node behind every node id, so that an
 * action naming an id of this snapshot reaches the same view.
 */
class Capture(val snapshot: Snapshot, private val handles: Map<Int, AccessibilityNodeInfo>) {
    private val byId: List<SnapNode> = snapshot.allNodes()
    private val windowOfNode: List<SnapWindow> = snapshot.windows.flatMap { w -> w.nodes.map { w } }

    /** This capture's id (Snapshot.captureId). */
    val id: String get() = snapshot.captureId

    /** What the user saw when it was taken (Snapshot.fingerprint), computed once. */
    val fingerprint: String by lazy { snapshot.fingerprint() }

    fun node(id: Int): SnapNode? = byId.getOrNull(id)

    /** The window node [id] belongs to. */
    fun windowOf(id: Int): SnapWindow? = windowOfNode.getOrNull(id)
    fun handle(id: Int): AccessibilityNodeInfo? = handles[id]

    /** [id] and its ancestors, nearest first. */
    fun ancestry(id: Int): List<SnapNode> {
        val out = ArrayList<SnapNode>()
        var n = node(id)
        while (n != null && out.size <= byId.size) {
            out += n
            n = if (n.parent >= 0) node(n.parent) else null
        }
        return out
    }

    fun nodes(): List<SnapNode> = byId

    companion object {
        val EMPTY = Capture(Snapshot(0, 0), emptyMap())
    }
}

/**
 * Turns the accessibility windows (AccessibilityService.getWindows()) into
 * snapshot JSON schema 1 (docs/screen-schema.md): every window, its tree in
 * pre-order, ids a running counter across windows so that they are dense in
 * document order (the daemon's parser renumbers ids that way, so the ids of
 * actions match). Password text is never copied. Trees are cut at
 * [maxNodes] nodes in total and [maxDepth] levels (guards against runaway
 * trees; real screens have < 2,000 nodes).
 */
class TreeSerializer(
    private val maxNodes: Int = 5_000,
    private val maxDepth: Int = 200,
    private val maxTextChars: Int = 10_000,
) {
    fun serialize(
        windows: List<AccessibilityWindowInfo>,
        width: Int,
        height: Int,
        activity: String = "",
        captureId: String = "",
    ): Capture {
        val handles = HashMap<Int, AccessibilityNodeInfo>()
        val outWindows = ArrayList<SnapWindow>(windows.size)
        var nextId = 0
        val rect = Rect()
        for (w in windows) {
            val nodes = ArrayList<SnapNode>()
            val root = w.root
            if (root != null && nextId < maxNodes) {
                // pre-order with an explicit stack of (node, parent id, depth)
                val stack = ArrayDeque<Triple<AccessibilityNodeInfo, Int, Int>>()
                stack.addLast(Triple(root, -1, 0))
                while (stack.isNotEmpty() && nextId < maxNodes) {
                    val (info, parent, depth) = stack.removeLast()
                    val id = nextId++
                    handles[id] = info
                    nodes += node(info, id, parent, rect)
                    if (depth + 1 >= maxDepth) continue
                    for (i in info.childCount - 1 downTo 0) {
                        val c = info.getChild(i) ?: continue
                        stack.addLast(Triple(c, id, depth + 1))
                    }
                }
            }
            w.getBoundsInScreen(rect)
            outWindows += SnapWindow(
                id = w.id,
                type = windowType(w.type),
                packageName = root?.packageName?.toString().orEmpty(),
                title = w.title?.toString().orEmpty(),
                layer = w.layer,
                focused = w.isFocused,
                bounds = Bounds(rect.left, rect.top, rect.right, rect.bottom),
                nodes = nodes,
            )
        }
        val pkg = foregroundPackage(outWindows)
        val act = if (activity.substringBefore('/') == pkg) activity else ""
        return Capture(Snapshot(width, height, act, pkg, outWindows, captureId), handles)
    }

    private fun node(info: AccessibilityNodeInfo, id: Int, parent: Int, rect: Rect): SnapNode {
        info.getBoundsInScreen(rect)
        val password = info.isPassword
        return SnapNode(
            id = id,
            parent = parent,
            className = cut(info.className),
            packageName = cut(info.packageName),
            resourceId = cut(info.viewIdResourceName),
            text = cut(shownText(info)),
            contentDesc = cut(info.contentDescription),
            hint = cut(info.hintText),
            bounds = Bounds(rect.left, rect.top, rect.right, rect.bottom),
            clickable = info.isClickable,
            longClickable = info.isLongClickable,
            checkable = info.isCheckable,
            checked = info.isChecked,
            editable = info.isEditable,
            scrollable = info.isScrollable,
            focusable = info.isFocusable,
            focused = info.isFocused,
            selected = info.isSelected,
            enabled = info.isEnabled,
            visibleToUser = info.isVisibleToUser,
            password = password,
            stateDescription = if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.R) cut(info.stateDescription) else "",
            error = cut(info.error),
            paneTitle = if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.P) cut(info.paneTitle) else "",
            inputType = info.inputType,
            actions = info.actionList.take(MAX_ACTIONS).map(::actionName),
        )
    }

    private fun cut(cs: CharSequence?): String {
        if (cs == null) return ""
        return if (cs.length > maxTextChars) cs.subSequence(0, maxTextChars).toString() else cs.toString()
    }

    companion object {
        /** At most this many actions are listed per node. */
        const val MAX_ACTIONS = 32

        /**
         * The text a user sees as the field's content: none for a password
         * field, none while the field shows its hint (isShowingHintText:
         * getText() then returns the hint, which is not content).
         */
        fun shownText(info: AccessibilityNodeInfo): CharSequence? =
            if (info.isPassword || info.isShowingHintText) null else info.text

        /**
         * Whether the live node still shows what snapshot node [n] showed:
         * the same class, resource-id, content-desc and (for nodes that are
         * not fields, whose text is typed content) the same text. A list
         * row re-bound to another item fails this.
         */
        fun sameTarget(n: SnapNode, info: AccessibilityNodeInfo): Boolean {
            if (n.className != info.className?.toString().orEmpty()) return false
            if (n.resourceId != info.viewIdResourceName.orEmpty()) return false
            if (!same(n.contentDesc, info.contentDescription)) return false
            return n.editable || n.password || same(n.text, shownText(info))
        }

        /** [snap] (possibly cut to the serialiser's limit) is what [live] shows. */
        private fun same(snap: String, live: CharSequence?): Boolean {
            val l = live?.toString().orEmpty()
            return snap == l || (snap.length >= 1_000 && l.startsWith(snap)) // long texts are cut
        }

        /**
         * The schema name of an accessibility action: a standard action by
         * its AccessibilityAction constant without ACTION_, lower case
         * ("click", "set_text", "ime_enter"); a custom one as "custom:" + label.
         */
        fun actionName(a: AccessibilityAction): String = STANDARD[a.id] ?: "custom:${a.label ?: a.id}"

        private val STANDARD: Map<Int, String> by lazy {
            val m = HashMap<Int, String>()
            for (f in AccessibilityAction::class.java.fields) {
                if (!f.name.startsWith("ACTION_") || f.type != AccessibilityAction::class.java) continue
                val act = f.get(null) as? AccessibilityAction ?: continue
                m[act.id] = f.name.removePrefix("ACTION_").lowercase()
            }
            m
        }

        /** Schema name of an AccessibilityWindowInfo.TYPE_* constant. */
        fun windowType(type: Int): String = when (type) {
            AccessibilityWindowInfo.TYPE_APPLICATION -> "application"
            AccessibilityWindowInfo.TYPE_INPUT_METHOD -> "input_method"
            AccessibilityWindowInfo.TYPE_SYSTEM -> "system"
            AccessibilityWindowInfo.TYPE_ACCESSIBILITY_OVERLAY -> "accessibility_overlay"
            AccessibilityWindowInfo.TYPE_SPLIT_SCREEN_DIVIDER -> "split_screen_divider"
            AccessibilityWindowInfo.TYPE_MAGNIFICATION_OVERLAY -> "magnification_overlay"
            else -> "unknown"
        }

        /** The package of the top-most (highest layer) application window that has a tree. */
        fun foregroundPackage(windows: List<SnapWindow>): String =
            windows.filter { it.type == "application" && it.nodes.isNotEmpty() }
                .maxByOrNull { it.layer }?.packageName.orEmpty()
    }
}

package dev.wayfinder.app.a11y

import android.accessibilityservice.AccessibilityService
import android.accessibilityservice.GestureDescription
import android.graphics.Rect
import android.os.Build
import android.os.Bundle
import android.view.accessibility.AccessibilityNodeInfo
import android.view.accessibility.AccessibilityNodeInfo.AccessibilityAction
import dev.wayfinder.app.model.Bounds
import dev.wayfinder.app.model.DeviceAction
import dev.wayfinder.app.model.SnapNode

/**
 * Carries out a [DeviceAction] on the phone. Node actions come first
 * (ACTION_CLICK on the node or its nearest clickable ancestor no larger
 * than [MAX_ANCESTOR_SCREEN_SHARE] of the screen, ACTION_LONG_CLICK,
 * ACTION_SET_TEXT with a paste fallback, ACTION_IME_ENTER with the
 * keyboard's Enter key as fallback, ACTION_SCROLL_FORWARD/BACKWARD).
 * Before acting on a node it checks that the live node still shows what
 * the snapshot showed (class, resource-id, description, text): a list row
 * re-bound to another item answers "target changed" instead of being
 * tapped. When the node is gone (refresh() fails), has no actionable
 * ancestor, or refuses, it falls back to a gesture on the part of the
 * action's bounds that no higher window (keyboard, dialog) covers, and says
 * so in the message. BACK/HOME are global actions; launch uses the
 * package's launch intent. Node ids refer to the [Capture] passed to
 * [perform]. A node on an accessibility overlay window is refused: it is
 * no part of the app (daemon/screen drops such windows from the screen
 * too). Messages never contain input text.
 */
class ActionPerformer(
    private val capture: () -> Capture,
    private val gestures: GestureRunner,
    private val globalAction: (Int) -> Boolean,
    private val launch: (String) -> Boolean,
    private val focusedInput: () -> AccessibilityNodeInfo?,
    private val screen: () -> Bounds,
    private val pause: (Long) -> Unit = { Thread.sleep(it) },
    /** Puts text on the clipboard (null clears it); false when refused. */
    private val clipboard: (String?) -> Boolean = { false },
) {
    /** Whether the action took effect, and how (or why not). */
    data class Outcome(val ok: Boolean, val message: String)

    /** A live node, or why there is none. */
    private sealed interface Live {
        data class Node(val info: AccessibilityNodeInfo) : Live
        data object Stale : Live
        data class Changed(val why: String) : Live
    }

    fun perform(a: DeviceAction, cap: Capture = capture()): Outcome =
        if (a.node >= 0 && cap.windowOf(a.node)?.type == OVERLAY_WINDOW) {
            // an accessibility service's overlay (Wayfinder's own question or
            // progress among them) is not the app: the agent never presses it
            Outcome(false, "refused: node ${a.node} is on an accessibility overlay, not the app")
        } else {
            act(a, cap)
        }

    private fun act(a: DeviceAction, cap: Capture): Outcome = when (a.type) {
        DeviceAction.TAP -> press(cap, a, long = false)
        DeviceAction.LONG_PRESS -> press(cap, a, long = true)
        DeviceAction.INPUT -> input(cap, a)
        DeviceAction.IME_ENTER -> imeEnter(cap, a)
        DeviceAction.SCROLL -> scroll(cap, a)
        DeviceAction.BACK -> global(AccessibilityService.GLOBAL_ACTION_BACK, "back")
        DeviceAction.HOME -> global(AccessibilityService.GLOBAL_ACTION_HOME, "home")
        DeviceAction.LAUNCH ->
            if (launch(a.packageName)) Outcome(true, "launched ${a.packageName}")
            else Outcome(false, "no launch intent for ${a.packageName}")
        else -> Outcome(false, "unknown action type ${a.type}")
    }

    private fun press(cap: Capture, a: DeviceAction, long: Boolean): Outcome {
        val verb = if (long) "long-pressed" else "clicked"
        if (a.node < 0) return gesture(cap, null, Bounds(a.x, a.y, a.x + 1, a.y + 1), long, "at (${a.x},${a.y})", point = true)
        val self = cap.node(a.node)
            ?: return fallbackPress(cap, a, null, long, "node ${a.node} is not in the last snapshot")
        when (val l = live(cap, a.node)) {
            is Live.Changed -> return Outcome(false, l.why)
            else -> Unit
        }
        val can = { n: SnapNode -> (if (long) n.longClickable else n.clickable) && n.enabled }
        val chain = cap.ancestry(a.node)
        val first = chain.firstOrNull(can)
        val target = chain.take(MAX_ANCESTOR_HOPS + 1).firstOrNull { can(it) && (it.id == a.node || smallEnough(it)) }
        if (target == null) {
            val h = (live(cap, a.node) as? Live.Node)?.info
            val b = h?.let(::boundsOf) ?: a.bounds ?: self.bounds
            val why = if (first == null) "node ${a.node} has no ${if (long) "long-" else ""}clickable ancestor"
            else "the ${if (long) "long-" else ""}clickable ancestor ${first.id} of node ${a.node} is too large or too far up to stand for it"
            return gesture(cap, self, b, long, "on bounds: $why")
        }
        val h = when (val l = live(cap, target.id)) {
            is Live.Node -> l.info
            is Live.Changed -> return Outcome(false, l.why)
            Live.Stale -> return fallbackPress(cap, a, self, long, "node ${target.id} is stale")
        }
        val via = if (target.id != a.node) " via ancestor ${target.id}" else ""
        val action = if (long) AccessibilityNodeInfo.ACTION_LONG_CLICK else AccessibilityNodeInfo.ACTION_CLICK
        if (h.performAction(action)) return Outcome(true, "$verb node ${a.node}$via")
        return gesture(cap, target, boundsOf(h), long, "on bounds: node ${target.id} refused the ${if (long) "long " else ""}click")
    }

    /** An ancestor may stand for the node only while it is no larger than a share of the screen. */
    private fun smallEnough(n: SnapNode): Boolean {
        val s = screen()
        val area = s.width.toLong() * s.height
        return area <= 0 || n.bounds.width.toLong() * n.bounds.height <= area * MAX_ANCESTOR_SCREEN_SHARE
    }

    private fun fallbackPress(cap: Capture, a: DeviceAction, self: SnapNode?, long: Boolean, why: String): Outcome {
        val b = a.bounds ?: self?.bounds
        if (b == null || b.isEmpty()) return Outcome(false, "$why and the action has no bounds")
        return gesture(cap, self, b, long, "on bounds: $why")
    }

    private fun input(cap: Capture, a: DeviceAction): Outcome {
        val self = cap.node(a.node)
        val target = if (self == null) null else editableAtOrBelow(cap, self)
        val live = target?.let { live(cap, it.id) }
        if (live is Live.Changed) return Outcome(false, live.why)
        val h = (live as? Live.Node)?.info
        if (h != null) {
            if (setText(h, a.text)) return Outcome(true, "set text of node ${target.id}")
            h.performAction(AccessibilityNodeInfo.ACTION_FOCUS)
            if (setText(h, a.text)) return Outcome(true, "set text of node ${target.id} after focusing it")
            if (!target.password && paste(h, a.text)) return Outcome(true, "pasted the text into node ${target.id} (it refused set-text)")
            return Outcome(false, "node ${target.id} refused the text")
        }
        val why = when {
            self == null -> "node ${a.node} is not in the last snapshot"
            target == null -> "node ${a.node} has no editable node"
            else -> "node ${target.id} is stale"
        }
        val b = a.bounds ?: target?.bounds ?: self?.bounds
        if (b == null || b.isEmpty()) return Outcome(false, "$why and the action has no bounds")
        val tap = gesture(cap, target ?: self, b, false, "to focus")
        if (!tap.ok) return Outcome(false, "$why; ${tap.message}")
        pause(FOCUS_WAIT_MS)
        val focused = focusedInput() ?: return Outcome(false, "$why; no input field focused after tapping its bounds")
        return if (setText(focused, a.text)) Outcome(true, "set text of the focused field: $why")
        else Outcome(false, "$why; the focused field refused the text")
    }

    /**
     * Replaces the field's text through the clipboard: put [text] on it,
     * focus, select everything, paste, then clear the clipboard again.
     * Never used for password fields (the clipboard is shared).
     */
    private fun paste(h: AccessibilityNodeInfo, text: String): Boolean {
        if (!clipboard(text)) return false
        try {
            h.performAction(AccessibilityNodeInfo.ACTION_FOCUS)
            val sel = Bundle()
            sel.putInt(AccessibilityNodeInfo.ACTION_ARGUMENT_SELECTION_START_INT, 0)
            sel.putInt(AccessibilityNodeInfo.ACTION_ARGUMENT_SELECTION_END_INT, h.text?.length ?: 0)
            h.performAction(AccessibilityNodeInfo.ACTION_SET_SELECTION, sel)
            return h.performAction(AccessibilityNodeInfo.ACTION_PASTE)
        } finally {
            clipboard(null)
        }
    }

    /**
     * The keyboard's Enter in a field: ACTION_IME_ENTER (API 30+) on the
     * field (the node, its editable descendant, or with no node the focused
     * field); when the field refuses it or the platform is older, a tap on
     * the keyboard's own Enter key if its window exposes one.
     */
    private fun imeEnter(cap: Capture, a: DeviceAction): Outcome {
        val h: AccessibilityNodeInfo
        val name: String
        if (a.node >= 0) {
            val self = cap.node(a.node) ?: return Outcome(false, "node ${a.node} is not in the last snapshot")
            val target = editableAtOrBelow(cap, self) ?: return Outcome(false, "node ${a.node} has no editable node")
            h = when (val l = live(cap, target.id)) {
                is Live.Node -> l.info
                is Live.Changed -> return Outcome(false, l.why)
                Live.Stale -> focusedInput() ?: return Outcome(false, "node ${target.id} is stale and no field has focus")
            }
            name = "node ${target.id}"
        } else {
            h = focusedInput() ?: return Outcome(false, "no input field has focus")
            name = "the focused field"
        }
        if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.R &&
            h.performAction(AccessibilityAction.ACTION_IME_ENTER.id)
        ) {
            return Outcome(true, "pressed enter in $name")
        }
        val key = keyboardEnterKey(cap)
            ?: return Outcome(false, "$name refused the IME enter action and the keyboard shows no enter key")
        val kh = (live(cap, key.id) as? Live.Node)?.info
        if (kh != null && kh.performAction(AccessibilityNodeInfo.ACTION_CLICK)) {
            return Outcome(true, "clicked the keyboard's enter key (node ${key.id}) for $name")
        }
        return gesture(cap, key, key.bounds, false, "on the keyboard's enter key (node ${key.id}) for $name")
    }

    /** The keyboard's Enter / submit key, when the input-method window exposes its keys. */
    private fun keyboardEnterKey(cap: Capture): SnapNode? {
        val ime = cap.snapshot.windows.filter { it.type == "input_method" }
        return ime.flatMap { it.nodes }.firstOrNull { n ->
            val label = (n.contentDesc.ifEmpty { n.text }).trim().lowercase()
            !n.bounds.isEmpty() && label in ENTER_KEY_LABELS
        }
    }

    private fun scroll(cap: Capture, a: DeviceAction): Outcome {
        val forward = a.direction == DeviceAction.FORWARD
        val target = if (a.node >= 0) {
            cap.ancestry(a.node).firstOrNull { it.scrollable }
        } else {
            cap.nodes().filter { it.scrollable && it.visibleToUser && !it.bounds.isEmpty() }
                .maxByOrNull { it.bounds.width.toLong() * it.bounds.height }
        }
        val live = target?.let { live(cap, it.id) }
        if (live is Live.Changed) return Outcome(false, live.why)
        val h = (live as? Live.Node)?.info
        if (h != null) {
            val action = if (forward) AccessibilityNodeInfo.ACTION_SCROLL_FORWARD else AccessibilityNodeInfo.ACTION_SCROLL_BACKWARD
            return if (h.performAction(action)) Outcome(true, "scrolled node ${target.id} ${a.direction}")
            else Outcome(false, "node ${target.id} cannot scroll ${a.direction} (end of content?)")
        }
        val why = when {
            target == null && a.node >= 0 -> "node ${a.node} has no scrollable ancestor"
            target == null -> "no scrollable node on screen"
            else -> "node ${target.id} is stale"
        }
        val b = (if (a.node >= 0) a.bounds else null) ?: target?.bounds ?: screen()
        if (b.isEmpty()) return Outcome(false, "$why and there are no bounds to swipe in")
        val free = visible(cap, target ?: cap.node(a.node), b)
            ?: return Outcome(false, "$why and other windows cover its bounds")
        return run(Gestures.scroll(free, forward), "swiped ${a.direction} on bounds: $why")
    }

    private fun global(action: Int, name: String): Outcome =
        if (globalAction(action)) Outcome(true, name) else Outcome(false, "global action $name refused")

    /**
     * A tap or long press at the centre of the part of [b] no window above
     * [n]'s window covers ([point]: at [b]'s corner, as given).
     */
    private fun gesture(cap: Capture, n: SnapNode?, b: Bounds, long: Boolean, how: String, point: Boolean = false): Outcome {
        val (x, y) = if (point) b.left to b.top else {
            val free = visible(cap, n, b) ?: return Outcome(false, "other windows cover the bounds to tap ${how.removePrefix("on bounds: ")}")
            free.centerX to free.centerY
        }
        if (x < 0 || y < 0) return Outcome(false, "point ($x,$y) is off screen")
        val g = if (long) Gestures.longPress(x, y) else Gestures.tap(x, y)
        return run(g, "${if (long) "long-pressed" else "tapped"} ($x,$y) $how")
    }

    /** The part of [b] that windows above [n]'s window (else above the top application window) leave free. */
    private fun visible(cap: Capture, n: SnapNode?, b: Bounds): Bounds? {
        val windows = cap.snapshot.windows
        val layer = n?.let { cap.windowOf(it.id)?.layer }
            ?: windows.filter { it.type == "application" }.maxOfOrNull { it.layer }
            ?: return b
        return Occlusion.visiblePart(b, layer, windows.filter { it.type != "accessibility_overlay" })
    }

    private fun run(g: GestureDescription, what: String): Outcome =
        when (val o = gestures.run(g)) {
            GestureRunner.Outcome.COMPLETED -> Outcome(true, what)
            else -> Outcome(false, "gesture ${o.name.lowercase()}: $what")
        }

    /** The live node behind [id], refreshed, if it still shows what the snapshot showed. */
    private fun live(cap: Capture, id: Int): Live {
        val h = cap.handle(id) ?: return Live.Stale
        if (!h.refresh()) return Live.Stale
        val n = cap.node(id) ?: return Live.Node(h)
        return if (TreeSerializer.sameTarget(n, h)) Live.Node(h)
        else Live.Changed("target changed: node $id no longer shows what the snapshot showed (a re-bound list row?); take a new snapshot")
    }

    private fun editableAtOrBelow(cap: Capture, self: SnapNode): SnapNode? {
        if (self.editable) return self
        return cap.nodes().firstOrNull { n ->
            n.id > self.id && n.editable && cap.ancestry(n.id).any { it.id == self.id }
        }
    }

    private fun setText(h: AccessibilityNodeInfo, text: String): Boolean {
        val args = Bundle()
        args.putCharSequence(AccessibilityNodeInfo.ACTION_ARGUMENT_SET_TEXT_CHARSEQUENCE, text)
        return h.performAction(AccessibilityNodeInfo.ACTION_SET_TEXT, args)
    }

    private fun boundsOf(h: AccessibilityNodeInfo): Bounds {
        val r = Rect()
        h.getBoundsInScreen(r)
        return Bounds(r.left, r.top, r.right, r.bottom)
    }

    companion object {
        /** The snapshot type of an accessibility overlay window (TreeSerializer). */
        const val OVERLAY_WINDOW = "accessibility_overlay"

        /** How long to let a tapped field take input focus, ms. */
        const val FOCUS_WAIT_MS = 300L

        /**
         * A clickable ancestor stands for a tapped node only while it covers
         * at most this share of the screen (a full-screen clickable container
         * is not the row the agent meant) ...
         */
        const val MAX_ANCESTOR_SCREEN_SHARE = 0.5

        /** ... and is at most this many levels above it. */
        const val MAX_ANCESTOR_HOPS = 6

        /** Labels (content-desc or text, lower case) of a keyboard's Enter / submit key. */
        val ENTER_KEY_LABELS = setOf("enter", "return", "search", "go", "send", "done", "↵", "⏎")
    }
}

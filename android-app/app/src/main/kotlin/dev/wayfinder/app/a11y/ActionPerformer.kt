package dev.wayfinder.app.a11y

import android.accessibilityservice.AccessibilityService
import android.accessibilityservice.GestureDescription
import android.graphics.Rect
import android.os.Bundle
import android.view.accessibility.AccessibilityNodeInfo
import dev.wayfinder.app.model.Bounds
import dev.wayfinder.app.model.DeviceAction
import dev.wayfinder.app.model.SnapNode

/**
 * Carries out a [DeviceAction] on the phone. Node actions come first
 * (ACTION_CLICK on the node or its nearest clickable ancestor,
 * ACTION_LONG_CLICK, ACTION_SET_TEXT, ACTION_SCROLL_FORWARD/BACKWARD); when
 * the node is gone (refresh() fails), has no actionable ancestor, or
 * refuses, it falls back to a gesture on the action's bounds and says so in
 * the message. BACK/HOME are global actions; launch uses the package's
 * launch intent. Node ids refer to [capture], the last snapshot emitted.
 * Messages never contain input text.
 */
class ActionPerformer(
    private val capture: () -> Capture,
    private val gestures: GestureRunner,
    private val globalAction: (Int) -> Boolean,
    private val launch: (String) -> Boolean,
    private val focusedInput: () -> AccessibilityNodeInfo?,
    private val screen: () -> Bounds,
    private val pause: (Long) -> Unit = { Thread.sleep(it) },
) {
    /** Whether the action took effect, and how (or why not). */
    data class Outcome(val ok: Boolean, val message: String)

    fun perform(a: DeviceAction): Outcome = when (a.type) {
        DeviceAction.TAP -> press(a, long = false)
        DeviceAction.LONG_PRESS -> press(a, long = true)
        DeviceAction.INPUT -> input(a)
        DeviceAction.SCROLL -> scroll(a)
        DeviceAction.BACK -> global(AccessibilityService.GLOBAL_ACTION_BACK, "back")
        DeviceAction.HOME -> global(AccessibilityService.GLOBAL_ACTION_HOME, "home")
        DeviceAction.LAUNCH ->
            if (launch(a.packageName)) Outcome(true, "launched ${a.packageName}")
            else Outcome(false, "no launch intent for ${a.packageName}")
        else -> Outcome(false, "unknown action type ${a.type}")
    }

    private fun press(a: DeviceAction, long: Boolean): Outcome {
        val verb = if (long) "long-pressed" else "clicked"
        if (a.node < 0) return gesture(a.x, a.y, long, "at (${a.x},${a.y})")
        val cap = capture()
        val self = cap.node(a.node)
            ?: return fallbackPress(a, null, long, "node ${a.node} is not in the last snapshot")
        val target = cap.ancestry(a.node).firstOrNull { (if (long) it.longClickable else it.clickable) && it.enabled }
        if (target == null) {
            val h = live(cap, a.node)
            val b = h?.let(::boundsOf) ?: a.bounds ?: self.bounds
            return gesture(b.centerX, b.centerY, long, "on bounds: node ${a.node} has no ${if (long) "long-" else ""}clickable ancestor")
        }
        val h = live(cap, target.id)
            ?: return fallbackPress(a, self, long, "node ${target.id} is stale")
        val via = if (target.id != a.node) " via ancestor ${target.id}" else ""
        val action = if (long) AccessibilityNodeInfo.ACTION_LONG_CLICK else AccessibilityNodeInfo.ACTION_CLICK
        if (h.performAction(action)) return Outcome(true, "$verb node ${a.node}$via")
        val b = boundsOf(h)
        return gesture(b.centerX, b.centerY, long, "on bounds: node ${target.id} refused the ${if (long) "long " else ""}click")
    }

    private fun fallbackPress(a: DeviceAction, self: SnapNode?, long: Boolean, why: String): Outcome {
        val b = a.bounds ?: self?.bounds
        if (b == null || b.isEmpty()) return Outcome(false, "$why and the action has no bounds")
        return gesture(b.centerX, b.centerY, long, "on bounds: $why")
    }

    private fun input(a: DeviceAction): Outcome {
        val cap = capture()
        val self = cap.node(a.node)
        val target = if (self == null) null else editableAtOrBelow(cap, self)
        val h = target?.let { live(cap, it.id) }
        if (h != null) {
            if (setText(h, a.text)) return Outcome(true, "set text of node ${target.id}")
            h.performAction(AccessibilityNodeInfo.ACTION_FOCUS)
            if (setText(h, a.text)) return Outcome(true, "set text of node ${target.id} after focusing it")
            return Outcome(false, "node ${target.id} refused the text")
        }
        val why = when {
            self == null -> "node ${a.node} is not in the last snapshot"
            target == null -> "node ${a.node} has no editable node"
            else -> "node ${target.id} is stale"
        }
        val b = a.bounds ?: target?.bounds ?: self?.bounds
        if (b == null || b.isEmpty()) return Outcome(false, "$why and the action has no bounds")
        val tap = gesture(b.centerX, b.centerY, false, "to focus")
        if (!tap.ok) return Outcome(false, "$why; ${tap.message}")
        pause(FOCUS_WAIT_MS)
        val focused = focusedInput() ?: return Outcome(false, "$why; no input field focused after tapping its bounds")
        return if (setText(focused, a.text)) Outcome(true, "set text of the focused field: $why")
        else Outcome(false, "$why; the focused field refused the text")
    }

    private fun scroll(a: DeviceAction): Outcome {
        val forward = a.direction == DeviceAction.FORWARD
        val cap = capture()
        val target = if (a.node >= 0) {
            cap.ancestry(a.node).firstOrNull { it.scrollable }
        } else {
            cap.nodes().filter { it.scrollable && it.visibleToUser && !it.bounds.isEmpty() }
                .maxByOrNull { it.bounds.width.toLong() * it.bounds.height }
        }
        val h = target?.let { live(cap, it.id) }
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
        return run(Gestures.scroll(b, forward), "swiped ${a.direction} on bounds: $why")
    }

    private fun global(action: Int, name: String): Outcome =
        if (globalAction(action)) Outcome(true, name) else Outcome(false, "global action $name refused")

    private fun gesture(x: Int, y: Int, long: Boolean, how: String): Outcome {
        if (x < 0 || y < 0) return Outcome(false, "point ($x,$y) is off screen")
        val g = if (long) Gestures.longPress(x, y) else Gestures.tap(x, y)
        return run(g, "${if (long) "long-pressed" else "tapped"} ($x,$y) $how")
    }

    private fun run(g: GestureDescription, what: String): Outcome =
        when (val o = gestures.run(g)) {
            GestureRunner.Outcome.COMPLETED -> Outcome(true, what)
            else -> Outcome(false, "gesture ${o.name.lowercase()}: $what")
        }

    private fun live(cap: Capture, id: Int): AccessibilityNodeInfo? {
        val h = cap.handle(id) ?: return null
        return if (h.refresh()) h else null
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
        /** How long to let a tapped field take input focus, ms. */
        const val FOCUS_WAIT_MS = 300L
    }
}

package dev.wayfinder.app

import android.accessibilityservice.AccessibilityService
import android.accessibilityservice.GestureDescription
import android.graphics.Rect
import android.graphics.RectF
import android.view.accessibility.AccessibilityNodeInfo
import android.view.accessibility.AccessibilityWindowInfo
import android.view.accessibility.AccessibilityNodeInfo.ACTION_CLICK
import android.view.accessibility.AccessibilityNodeInfo.ACTION_FOCUS
import android.view.accessibility.AccessibilityNodeInfo.ACTION_PASTE
import android.view.accessibility.AccessibilityNodeInfo.ACTION_SET_SELECTION
import android.view.accessibility.AccessibilityNodeInfo.ACTION_LONG_CLICK
import android.view.accessibility.AccessibilityNodeInfo.ACTION_SCROLL_BACKWARD
import android.view.accessibility.AccessibilityNodeInfo.ACTION_SCROLL_FORWARD
import android.view.accessibility.AccessibilityNodeInfo.ACTION_SET_TEXT
import dev.wayfinder.app.a11y.ActionPerformer
import dev.wayfinder.app.a11y.GestureRunner
import dev.wayfinder.app.a11y.Gestures
import dev.wayfinder.app.a11y.TreeSerializer
import dev.wayfinder.app.model.Bounds
import dev.wayfinder.app.model.DeviceAction
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.annotation.GraphicsMode
import org.robolectric.Shadows.shadowOf
import org.robolectric.shadows.ShadowAccessibilityNodeInfo

/** Everything an ActionPerformer talks to, recorded; fakes are function fields. */
class Rig(prepare: Fixtures.NotesScreen.() -> Unit = {}, extraWindows: List<AccessibilityWindowInfo> = emptyList()) {
    val s = Fixtures.NotesScreen().apply(prepare)
    val cap = TreeSerializer().serialize(s.windows + extraWindows, 1080, 2400)
    val clip = ArrayList<String?>()
    val gestures = ArrayList<GestureDescription>()
    var dispatch: (GestureDescription, AccessibilityService.GestureResultCallback) -> Boolean =
        { g, cb -> cb.onCompleted(g); true }
    val globals = ArrayList<Int>()
    var globalOk = true
    val launched = ArrayList<String>()
    var focused: AccessibilityNodeInfo? = null
    val pauses = ArrayList<Long>()
    val performer = ActionPerformer(
        capture = { cap },
        gestures = GestureRunner({ g, cb -> gestures += g; dispatch(g, cb) }, 200),
        globalAction = { globals += it; globalOk },
        launch = { launched += it; it == Fixtures.PKG },
        focusedInput = { focused },
        screen = { Bounds(0, 0, 1080, 2400) },
        pause = { pauses += it },
        clipboard = { clip += it; true },
    )

    /**
     * The live node behind snapshot id [id]. Like the platform, getChild()
     * and getRoot() hand out new AccessibilityNodeInfo objects, so the
     * handles (not the fixtures' originals) are what actions reach.
     */
    fun h(id: Int): AccessibilityNodeInfo = cap.handle(id)!!
    fun actions(id: Int): List<Int> = shadowOf(h(id)).performedActions
    fun stale(id: Int) = shadowOf(h(id)).setRefreshReturnValue(false)
    fun refuse(id: Int) =
        shadowOf(h(id)).setOnPerformActionListener(ShadowAccessibilityNodeInfo.OnPerformActionListener { _, _ -> false })
    fun refuseOnly(id: Int, action: Int) =
        shadowOf(h(id)).setOnPerformActionListener(ShadowAccessibilityNodeInfo.OnPerformActionListener { a, _ -> a != action })

    /** Where a gesture's stroke starts (a tap's point), px. */
    fun start(g: GestureDescription): Pair<Int, Int> {
        val r = RectF()
        g.getStroke(0).path.computeBounds(r)
        return r.left.toInt() to r.top.toInt()
    }

    fun textSet(id: Int): List<String> = shadowOf(h(id)).performedActionsWithArgs
        .filter { it.first == ACTION_SET_TEXT }
        .map { it.second.getCharSequence(AccessibilityNodeInfo.ACTION_ARGUMENT_SET_TEXT_CHARSEQUENCE).toString() }
}

// native graphics: gesture paths are real Skia paths (the legacy shadow has no geometry)
@GraphicsMode(GraphicsMode.Mode.NATIVE)
@RunWith(RobolectricTestRunner::class)
class ActionPerformerTest {
    private data class Case(
        val name: String,
        val action: DeviceAction,
        val ok: Boolean,
        val message: String,
        val setup: Rig.() -> Unit = {},
        val check: Rig.() -> Unit,
        val prepare: Fixtures.NotesScreen.() -> Unit = {},
    )

    private val saveBounds = Bounds(40, 340, 520, 460)

    private val cases = listOf(
        Case("tap clickable node", DeviceAction("tap", node = 4), true, "clicked node 4", check = {
            assertEquals(listOf(ACTION_CLICK), actions(4)); assertEquals(0, gestures.size)
        }),
        Case("tap text inside a clickable row clicks the row", DeviceAction("tap", node = 7), true, "clicked node 7 via ancestor 6", check = {
            assertEquals(listOf(ACTION_CLICK), actions(6)); assertEquals(emptyList<Int>(), actions(7))
        }),
        Case("stale node falls back to a tap on the action's bounds", DeviceAction("tap", node = 4, bounds = saveBounds), true, "node 4 is stale",
            setup = { stale(4) }, check = {
                assertEquals(emptyList<Int>(), actions(4)); assertEquals(listOf(280 to 400), gestures.map(::start))
            }),
        // the status bar (a higher window) covers y < 80: the part below it is tapped
        Case("id not in the last snapshot taps the bounds", DeviceAction("tap", node = 99, bounds = Bounds(0, 0, 100, 100)), true, "node 99 is not in the last snapshot",
            check = { assertEquals(listOf(50 to 90), gestures.map(::start)) }),
        Case("unknown id without bounds fails", DeviceAction("tap", node = 99), false, "has no bounds", check = { assertEquals(0, gestures.size) }),
        // the column is [0,0,1080,2000]; the keyboard covers y >= 1800 and the status bar y < 80
        Case("no clickable ancestor taps the node's uncovered bounds", DeviceAction("tap", node = 1), true, "has no clickable ancestor",
            check = { assertEquals(listOf(540 to 940), gestures.map(::start)) }),
        Case("refused click falls back to a gesture", DeviceAction("tap", node = 4), true, "refused the click",
            setup = { refuse(4) }, check = { assertEquals(listOf(ACTION_CLICK), actions(4)); assertEquals(listOf(280 to 400), gestures.map(::start)) }),
        Case("point tap", DeviceAction("tap", x = 300, y = 700), true, "tapped (300,700)", check = {
            assertEquals(listOf(300 to 700), gestures.map(::start)); assertEquals(Gestures.TAP_MS, gestures[0].getStroke(0).duration)
        }),
        Case("failed gesture is not ok", DeviceAction("tap", x = 300, y = 700), false, "gesture cancelled",
            setup = { dispatch = { g, cb -> cb.onCancelled(g); true } }, check = {}),
        Case("rejected gesture is not ok", DeviceAction("tap", x = 300, y = 700), false, "gesture rejected",
            setup = { dispatch = { _, _ -> false } }, check = {}),
        Case("long press a long-clickable node", DeviceAction("long_press", node = 9), true, "long-pressed node 9 via ancestor 8", check = {
            assertEquals(listOf(ACTION_LONG_CLICK), actions(8))
        }),
        Case("long press without long-clickable ancestor is a long gesture", DeviceAction("long_press", node = 4), true, "long-clickable ancestor", check = {
            assertEquals(Gestures.LONG_PRESS_MS, gestures.single().getStroke(0).duration)
        }),
        Case("input sets the text", DeviceAction("input", node = 2, text = "Groceries for Sunday"), true, "set text of node 2", check = {
            assertEquals(listOf("Groceries for Sunday"), textSet(2))
        }),
        Case("input on a container reaches its editable node", DeviceAction("input", node = 1, text = "Zebra42"), true, "set text of node 2", check = {
            assertEquals(listOf("Zebra42"), textSet(2))
        }),
        Case("input refused twice and paste refused fails", DeviceAction("input", node = 2, text = "Zebra42"), false, "refused the text", setup = { refuse(2) }, check = {
            assertEquals(
                listOf(ACTION_SET_TEXT, ACTION_FOCUS, ACTION_SET_TEXT, ACTION_FOCUS, ACTION_SET_SELECTION, ACTION_PASTE),
                actions(2),
            )
            assertEquals("the clipboard is cleared again", listOf("Zebra42", null), clip)
        }),
        Case("set-text refused: the text is pasted", DeviceAction("input", node = 2, text = "Zebra42"), true, "pasted the text into node 2",
            setup = { refuseOnly(2, ACTION_SET_TEXT) }, check = {
                assertEquals(ACTION_PASTE, actions(2).last()); assertEquals(listOf("Zebra42", null), clip)
            }),
        Case("a password field is never pasted into", DeviceAction("input", node = 3, text = "Zebra42"), false, "refused the text",
            setup = { refuseOnly(3, ACTION_SET_TEXT) }, check = {
                assertEquals(emptyList<String?>(), clip); assertTrue(ACTION_PASTE !in actions(3))
            }),
        // 12.3 b: a re-bound list row is not tapped
        Case("a row re-bound to another item answers target changed", DeviceAction("tap", node = 7, bounds = Bounds(0, 600, 1080, 700)), false, "target changed",
            setup = { h(7).text = "Packing list" }, check = {
                assertEquals(emptyList<Int>(), actions(6)); assertEquals(0, gestures.size)
            }),
        Case("a node whose class changed answers target changed", DeviceAction("tap", node = 4), false, "target changed",
            setup = { h(4).className = "android.widget.ImageButton" }, check = { assertEquals(emptyList<Int>(), actions(4)) }),
        Case("typed text in a field is not a change of target", DeviceAction("input", node = 2, text = "Zebra42"), true, "set text of node 2",
            setup = { h(2).text = "Shopping for Monday" }, check = { assertEquals(listOf("Zebra42"), textSet(2)) }),
        // 12.3 e: bounded escalation, gestures off the keyboard
        Case("a clickable ancestor covering most of the screen does not stand for the node", DeviceAction("tap", node = 5), true, "too large",
            prepare = { column.isClickable = true }, check = {
                assertEquals(emptyList<Int>(), actions(1)); assertEquals(listOf(540 to 1150), gestures.map(::start))
            }),
        Case("a stale row half under the keyboard is tapped where it shows", DeviceAction("tap", node = 6, bounds = Bounds(0, 1700, 1080, 1900)), true, "tapped (540,1750)",
            setup = { stale(6) }, check = { assertEquals(listOf(540 to 1750), gestures.map(::start)) }),
        Case("bounds the keyboard covers entirely are not tapped", DeviceAction("tap", node = 6, bounds = Bounds(0, 1900, 1080, 2000)), false, "other windows cover",
            setup = { stale(6) }, check = { assertEquals(0, gestures.size) }),
        // 12.3 d: ime_enter
        Case("enter in a field", DeviceAction("ime_enter", node = 2), true, "pressed enter in node 2", check = {
            assertEquals(listOf(android.R.id.accessibilityActionImeEnter), actions(2))
        }),
        Case("enter in the focused field", DeviceAction("ime_enter"), true, "pressed enter in the focused field",
            setup = { focused = h(2) }, check = { assertEquals(listOf(android.R.id.accessibilityActionImeEnter), actions(2)) }),
        Case("enter with no focused field", DeviceAction("ime_enter"), false, "no input field has focus", check = {}),
        Case("enter on a button", DeviceAction("ime_enter", node = 4), false, "has no editable node", check = { assertEquals(emptyList<Int>(), actions(4)) }),
        Case("field refuses enter: the keyboard's enter key is clicked", DeviceAction("ime_enter", node = 2), true, "keyboard's enter key (node 12)",
            setup = { refuse(2) }, check = { assertEquals(listOf(ACTION_CLICK), actions(12)) }),
        Case("stale input taps, then types into the focused field", DeviceAction("input", node = 2, text = "Late Night Snack", bounds = Bounds(40, 100, 1040, 200)), true, "focused field",
            setup = { stale(2); focused = h(3) }, check = {
                assertEquals(listOf(540 to 150), gestures.map(::start)); assertEquals(listOf("Late Night Snack"), textSet(3))
                assertEquals(listOf(ActionPerformer.FOCUS_WAIT_MS), pauses)
            }),
        Case("stale input with nothing focused fails", DeviceAction("input", node = 2, text = "Zebra42"), false, "no input field focused",
            setup = { stale(2) }, check = {}),
        Case("input on a node without editable fails over to its bounds", DeviceAction("input", node = 4, text = "Zebra42"), false, "has no editable node", check = {
            assertEquals(1, gestures.size)
        }),
        Case("scroll forward on a list item scrolls the list", DeviceAction("scroll", node = 7, direction = "forward"), true, "scrolled node 5 forward", check = {
            assertEquals(listOf(ACTION_SCROLL_FORWARD), actions(5))
        }),
        Case("scroll without node picks the largest scrollable", DeviceAction("scroll", direction = "backward"), true, "scrolled node 5 backward", check = {
            assertEquals(listOf(ACTION_SCROLL_BACKWARD), actions(5))
        }),
        Case("scroll at the end is not ok and makes no gesture", DeviceAction("scroll", node = 5, direction = "forward"), false, "cannot scroll forward",
            setup = { refuse(5) }, check = { assertEquals(0, gestures.size) }),
        Case("stale scrollable is swiped", DeviceAction("scroll", node = 5, direction = "forward"), true, "swiped forward on bounds: node 5 is stale",
            setup = { stale(5) }, check = {
                val r = RectF(); gestures.single().getStroke(0).path.computeBounds(r)
                assertTrue("swipe inside the list: $r", r.top >= 500 && r.bottom <= 2000)
            }),
        Case("no scrollable ancestor swipes the node's bounds", DeviceAction("scroll", node = 4, direction = "backward", bounds = saveBounds), true, "no scrollable ancestor",
            check = { assertEquals(1, gestures.size) }),
        Case("back", DeviceAction("back"), true, "back", check = { assertEquals(listOf(AccessibilityService.GLOBAL_ACTION_BACK), globals) }),
        Case("home", DeviceAction("home"), true, "home", check = { assertEquals(listOf(AccessibilityService.GLOBAL_ACTION_HOME), globals) }),
        Case("refused global action", DeviceAction("back"), false, "global action back refused", setup = { globalOk = false }, check = {}),
        Case("launch", DeviceAction("launch", packageName = Fixtures.PKG), true, "launched", check = { assertEquals(listOf(Fixtures.PKG), launched) }),
        Case("launch without launch intent", DeviceAction("launch", packageName = "com.none"), false, "no launch intent for com.none", check = {}),
    )

    @Test
    fun neverPressesAnAccessibilityOverlay() {
        // an assistant's overlay over the app: its "Stop" is no element of the app
        val stop = Fixtures.node("android.widget.Button", Rect(700, 100, 1000, 200), pkg = "com.example.assistant", text = "Stop") { isClickable = true }
        val root = Fixtures.node("android.widget.FrameLayout", Rect(0, 80, 1080, 240), pkg = "com.example.assistant", children = listOf(stop))
        val overlay = Fixtures.window(45, AccessibilityWindowInfo.TYPE_ACCESSIBILITY_OVERLAY, 4, root, Rect(0, 80, 1080, 240))
        val rig = Rig(extraWindows = listOf(overlay))
        val id = rig.cap.nodes().first { it.text == "Stop" }.id
        for (a in listOf(DeviceAction("tap", node = id), DeviceAction("long_press", node = id), DeviceAction("input", node = id, text = "x"))) {
            val out = rig.performer.perform(a)
            assertFalse("${a.type}: ${out.message}", out.ok)
            assertTrue(out.message, out.message.contains("overlay"))
        }
        assertEquals(emptyList<Int>(), rig.actions(id))
        assertEquals(0, rig.gestures.size)
        assertTrue("the app's own button is still pressed", rig.performer.perform(DeviceAction("tap", node = 4)).ok)
    }

    @Test
    fun mapsActionsToNodeActionsWithGestureFallback() {
        for (c in cases) {
            val rig = Rig(c.prepare)
            rig.apply(c.setup)
            val out = rig.performer.perform(c.action)
            assertEquals("${c.name}: ok (${out.message})", c.ok, out.ok)
            assertTrue("${c.name}: message \"${out.message}\" should contain \"${c.message}\"", out.message.contains(c.message))
            assertTrue("${c.name}: message leaks input text", c.action.text.isEmpty() || !out.message.contains(c.action.text))
            try {
                rig.apply(c.check)
            } catch (e: AssertionError) {
                throw AssertionError("${c.name}: ${e.message}", e)
            }
        }
    }
}

package dev.wayfinder.app

import android.view.accessibility.AccessibilityEvent
import dev.wayfinder.app.a11y.Clock
import dev.wayfinder.app.a11y.SettleDetector
import org.junit.Assert.assertEquals
import org.junit.Test

/**
 * A fake clock whose sleep advances time and fires the events scheduled
 * for the passed interval, in order.
 */
class ScriptedClock(start: Long = 10_000) : Clock {
    var now = start
    val sleeps = ArrayList<Long>()
    private val script = ArrayList<Pair<Long, () -> Unit>>()

    fun at(t: Long, f: () -> Unit) {
        script += t to f
        script.sortBy { it.first }
    }

    override fun nowMs(): Long = now

    override fun sleepMs(ms: Long) {
        require(ms > 0) { "sleep of $ms ms" }
        sleeps += ms
        val end = now + ms
        while (script.isNotEmpty() && script.first().first <= end) {
            val (t, f) = script.removeAt(0)
            now = maxOf(now, t)
            f()
        }
        now = end
    }
}

class SettleDetectorTest {
    private val content = AccessibilityEvent.TYPE_WINDOW_CONTENT_CHANGED
    private val state = AccessibilityEvent.TYPE_WINDOW_STATE_CHANGED
    private val windows = AccessibilityEvent.TYPE_WINDOWS_CHANGED
    private val click = AccessibilityEvent.TYPE_VIEW_CLICKED

    private data class Case(
        val name: String,
        val events: List<Pair<Long, Int>>, // ms after the mark, event type
        val settled: Boolean,
        val waited: Long,
        val seen: Long,
    )

    @Test
    fun settlesAfterQuietPeriodOrGivesUp() {
        val cases = listOf(
            Case("no events: one quiet period", emptyList(), true, 300, 0),
            Case("one event restarts the quiet period", listOf(100L to content), true, 400, 1),
            Case("burst then quiet", listOf(50L to state, 120L to content, 250L to windows, 400L to content), true, 700, 4),
            Case("irrelevant types are ignored", listOf(100L to click, 200L to click), true, 300, 0),
            Case(
                "never quiet: gives up at max wait",
                (1..40).map { it * 100L to content },
                false, 3_000, 30,
            ),
            Case("event exactly at the quiet boundary counts", listOf(300L to content), true, 600, 1),
        )
        for (c in cases) {
            val clock = ScriptedClock()
            val d = SettleDetector(clock, quietMs = 300, maxWaitMs = 3_000)
            val mark = d.mark()
            for ((t, type) in c.events) clock.at(mark.timeMs + t) { d.onEvent(type, clock.now) }
            val s = d.awaitSettled(mark)
            assertEquals(c.name + ": settled", c.settled, s.settled)
            assertEquals(c.name + ": waited", c.waited, s.waitedMs)
            assertEquals(c.name + ": events", c.seen, s.events)
        }
    }

    @Test
    fun eventsBeforeTheMarkAreNotCounted() {
        val clock = ScriptedClock()
        val d = SettleDetector(clock, quietMs = 300, maxWaitMs = 3_000)
        d.onEvent(content, clock.now)
        clock.now += 50
        val mark = d.mark()
        val s = d.awaitSettled(mark)
        assertEquals(0, s.events)
        // the earlier event is older than the mark, so one quiet period from the mark
        assertEquals(300, s.waitedMs)
    }

    @Test
    fun awaitIdleReturnsAtOnceWhenAlreadyQuiet() {
        val clock = ScriptedClock()
        val d = SettleDetector(clock, quietMs = 300, maxWaitMs = 3_000)
        d.onEvent(content, clock.now)
        clock.now += 1_000
        val s = d.awaitIdle()
        assertEquals(true, s.settled)
        assertEquals(0, s.waitedMs)
        assertEquals(emptyList<Long>(), clock.sleeps)
    }

    @Test
    fun awaitIdleWaitsOutARecentEvent() {
        val clock = ScriptedClock()
        val d = SettleDetector(clock, quietMs = 300, maxWaitMs = 3_000)
        d.onEvent(state, clock.now)
        clock.now += 100
        val s = d.awaitIdle()
        assertEquals(true, s.settled)
        assertEquals(200, s.waitedMs)
    }
}

/** 12.3 c: which events a target counts. */
class SettleTargetTest {
    private val content = AccessibilityEvent.TYPE_WINDOW_CONTENT_CHANGED
    private val state = AccessibilityEvent.TYPE_WINDOW_STATE_CHANGED

    @Test
    fun countsTheTargetWindowNewWindowsAndWindowChanges() {
        val t = SettleDetector.Target(windows = setOf(42), known = setOf(42, 43, 44), packageName = "com.example.notes")
        data class Case(val name: String, val type: Int, val window: Int, val pkg: String, val counts: Boolean)
        val cases = listOf(
            Case("the target window's content", content, 42, "com.example.notes", true),
            Case("the status bar's content", content, 44, "com.android.systemui", false),
            Case("the keyboard's content", content, 43, "com.example.ime", false),
            Case("a window opened since the snapshot", content, 77, "com.example.dialog", true),
            Case("a window change anywhere", state, 44, "com.android.systemui", true),
            Case("no window id, the target package", content, -1, "com.example.notes", true),
            Case("no window id, another package", content, -1, "com.android.systemui", false),
        )
        for (c in cases) assertEquals(c.name, c.counts, t.counts(c.type, c.window, c.pkg))
    }

    @Test
    fun awaitSettledIgnoresOtherWindows() {
        val clock = ScriptedClock()
        val d = SettleDetector(clock, quietMs = 300, maxWaitMs = 3_000)
        val t = SettleDetector.Target(setOf(42), setOf(42, 44), "com.example.notes")
        val mark = d.mark()
        for (i in 1..40) clock.at(mark.timeMs + i * 50L) { d.onEvent(content, clock.now, 44, "com.android.systemui") }
        clock.at(mark.timeMs + 120) { d.onEvent(content, clock.now, 42, "com.example.notes") }
        val s = d.awaitSettled(mark, t)
        assertEquals(true, s.settled)
        assertEquals(420, s.waitedMs)
        assertEquals(1, s.events)
    }
}

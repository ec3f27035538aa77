package dev.wayfinder.app.a11y

import android.view.accessibility.AccessibilityEvent

/** Time source in ms (monotonic) plus a way to wait; faked in tests. */
interface Clock {
    fun nowMs(): Long
    fun sleepMs(ms: Long)
}

/**
 * The JVM's monotonic clock (System.nanoTime). Events are stamped with it on
 * arrival, so its base does not matter; unlike SystemClock it also runs
 * under Robolectric's paused looper.
 */
object MonotonicClock : Clock {
    override fun nowMs(): Long = System.nanoTime() / 1_000_000
    override fun sleepMs(ms: Long) = Thread.sleep(maxOf(1L, ms))
}

/**
 * Decides when the UI has settled after an action: no UI-changing
 * accessibility event (TYPE_WINDOW_CONTENT_CHANGED, TYPE_WINDOW_STATE_CHANGED,
 * TYPE_WINDOWS_CHANGED) that the [Target] counts for [quietMs], or
 * [maxWaitMs] passed. Only the target's events count: content changes of
 * the status bar, of other apps' windows or of running animations elsewhere
 * would otherwise keep every action waiting the full timeout. Pure logic
 * over event timestamps from [clock]; the service feeds it with [onEvent].
 * Thread-safe: events arrive on the main thread, waits run on daemon threads.
 */
class SettleDetector(
    private val clock: Clock,
    val quietMs: Long = 300,
    val maxWaitMs: Long = 3_000,
    private val keep: Int = 1_024,
) {
    /** A point in the event stream, taken before an action. */
    data class Mark(val timeMs: Long, val seq: Long)

    /** How a wait ended: [settled] false means [maxWaitMs] ran out first. [events]: those counted. */
    data class Settle(val settled: Boolean, val waitedMs: Long, val events: Long)

    /**
     * Which events count. Window changes (a window or activity opening or
     * closing) always count. A content change counts when it comes from one
     * of [windows], or from a window the snapshot did not have ([known]
     * lacks it: it opened since), or, for events without a window id, from
     * [packageName]. [ANY] counts everything.
     */
    class Target(
        private val windows: Set<Int>,
        private val known: Set<Int>,
        private val packageName: String,
    ) {
        fun counts(type: Int, windowId: Int, pkg: String): Boolean = when {
            this === ANY -> true
            type and WINDOW_CHANGES != 0 -> true
            windowId >= 0 -> windowId in windows || windowId !in known
            else -> pkg.isNotEmpty() && pkg == packageName
        }

        companion object {
            val ANY = Target(emptySet(), emptySet(), "")
        }
    }

    private class Event(val seq: Long, val type: Int, val timeMs: Long, val window: Int, val pkg: String)

    private val lock = Any()
    private val events = ArrayDeque<Event>()
    private var seq = 0L

    /** Records an event of [type] from window [windowId] (-1: unknown) and package [pkg] at [timeMs]. */
    fun onEvent(type: Int, timeMs: Long, windowId: Int = -1, pkg: String = "") {
        if (type and UI_CHANGES == 0) return
        synchronized(lock) {
            events.addLast(Event(++seq, type, timeMs, windowId, pkg))
            while (events.size > keep) events.removeFirst()
        }
    }

    fun mark(): Mark = synchronized(lock) { Mark(clock.nowMs(), seq) }

    /**
     * Blocks until the UI settled after [since]: [quietMs] without an event
     * [target] counts, measured from the later of [since] and the last such
     * event; gives up [maxWaitMs] after [since]. Reports the events counted.
     */
    fun awaitSettled(since: Mark = mark(), target: Target = Target.ANY): Settle {
        while (true) {
            val now = clock.nowMs()
            var last = Long.MIN_VALUE
            var seen = 0L
            synchronized(lock) {
                for (e in events) {
                    if (e.seq <= since.seq || !target.counts(e.type, e.window, e.pkg)) continue
                    seen++
                    last = maxOf(last, e.timeMs)
                }
            }
            val quietFrom = maxOf(since.timeMs, last)
            val waited = now - since.timeMs
            if (now - quietFrom >= quietMs) return Settle(true, waited, seen)
            if (waited >= maxWaitMs) return Settle(false, waited, seen)
            clock.sleepMs(minOf(quietFrom + quietMs - now, since.timeMs + maxWaitMs - now))
        }
    }

    /**
     * Blocks until no event [target] counts arrived for [quietMs]: returns
     * at once when the UI has been quiet that long already. Used before a
     * snapshot; gives up after [maxWaitMs].
     */
    fun awaitIdle(target: Target = Target.ANY): Settle {
        val m = synchronized(lock) {
            val from = clock.nowMs() - quietMs
            // events from the last quietMs count too
            Mark(from, events.lastOrNull { it.timeMs < from }?.seq ?: (events.firstOrNull()?.seq?.minus(1) ?: seq))
        }
        val s = awaitSettled(m, target)
        return s.copy(waitedMs = maxOf(0, s.waitedMs - quietMs))
    }

    companion object {
        /** The event types that mean the screen changed. */
        const val UI_CHANGES = AccessibilityEvent.TYPE_WINDOW_CONTENT_CHANGED or
            AccessibilityEvent.TYPE_WINDOW_STATE_CHANGED or
            AccessibilityEvent.TYPE_WINDOWS_CHANGED

        /** Windows opening, closing or moving: these count whatever window sent them. */
        const val WINDOW_CHANGES = AccessibilityEvent.TYPE_WINDOW_STATE_CHANGED or AccessibilityEvent.TYPE_WINDOWS_CHANGED
    }
}

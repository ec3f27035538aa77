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
 * TYPE_WINDOWS_CHANGED) for [quietMs], or [maxWaitMs] passed. Pure logic over
 * event timestamps from [clock]; the service feeds it with [onEvent].
 * Thread-safe: events arrive on the main thread, waits run on daemon threads.
 */
class SettleDetector(
    private val clock: Clock,
    val quietMs: Long = 300,
    val maxWaitMs: Long = 3_000,
) {
    /** A point in the event stream, taken before an action. */
    data class Mark(val timeMs: Long, val events: Long)

    /** How a wait ended: [settled] false means [maxWaitMs] ran out first. */
    data class Settle(val settled: Boolean, val waitedMs: Long, val events: Long)

    private val lock = Any()
    private var lastEventMs = Long.MIN_VALUE
    private var count = 0L

    /** Records an accessibility event of [type] that arrived at [timeMs]; other types are ignored. */
    fun onEvent(type: Int, timeMs: Long) {
        if (type and UI_CHANGES == 0) return
        synchronized(lock) {
            count++
            lastEventMs = maxOf(lastEventMs, timeMs)
        }
    }

    fun mark(): Mark = synchronized(lock) { Mark(clock.nowMs(), count) }

    /**
     * Blocks until the UI settled after [since]: [quietMs] without a
     * UI-changing event, measured from the later of [since] and the last
     * event; gives up [maxWaitMs] after [since]. Reports the events seen.
     */
    fun awaitSettled(since: Mark = mark()): Settle {
        while (true) {
            val now = clock.nowMs()
            val last: Long
            val seen: Long
            synchronized(lock) {
                last = lastEventMs
                seen = count - since.events
            }
            val quietFrom = maxOf(since.timeMs, last)
            val waited = now - since.timeMs
            if (now - quietFrom >= quietMs) return Settle(true, waited, seen)
            if (waited >= maxWaitMs) return Settle(false, waited, seen)
            clock.sleepMs(minOf(quietFrom + quietMs - now, since.timeMs + maxWaitMs - now))
        }
    }

    /**
     * Blocks until no UI-changing event arrived for [quietMs]: returns at
     * once when the UI has been quiet that long already. Used before a
     * snapshot; gives up after [maxWaitMs].
     */
    fun awaitIdle(): Settle {
        val m = synchronized(lock) { Mark(clock.nowMs() - quietMs, count) }
        val s = awaitSettled(m)
        return s.copy(waitedMs = maxOf(0, s.waitedMs - quietMs))
    }

    companion object {
        /** The event types that mean the screen changed. */
        const val UI_CHANGES = AccessibilityEvent.TYPE_WINDOW_CONTENT_CHANGED or
            AccessibilityEvent.TYPE_WINDOW_STATE_CHANGED or
            AccessibilityEvent.TYPE_WINDOWS_CHANGED
    }
}

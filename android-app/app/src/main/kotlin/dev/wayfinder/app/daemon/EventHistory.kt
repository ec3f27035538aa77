package dev.wayfinder.app.daemon

/**
 * The events of the current run, so a screen that opens mid-run can show
 * its progress. A run_started event starts a new history; at most [max]
 * events are kept. Of the "ask" events only the one still unanswered is
 * replayed: one followed by an action, run_finished or [answered] is done.
 * Not thread-safe: the service uses it on the main thread.
 */
class EventHistory(private val max: Int = 200) {
    private val recent = ArrayDeque<DaemonEvent>()

    /** The question still waiting for an answer, if any. */
    var pendingAsk: DaemonEvent? = null
        private set

    fun add(e: DaemonEvent) {
        when (e.type) {
            DaemonEvent.RUN_STARTED -> {
                recent.clear()
                pendingAsk = null
            }
            DaemonEvent.ASK -> pendingAsk = e
            DaemonEvent.ACTION, DaemonEvent.RUN_FINISHED -> pendingAsk = null
        }
        recent.addLast(e)
        while (recent.size > max) recent.removeFirst()
    }

    /** The user answered the pending question. */
    fun answered() {
        pendingAsk = null
    }

    /** What a new listener should see, oldest first. */
    fun replay(): List<DaemonEvent> = recent.filter { it.type != DaemonEvent.ASK || it === pendingAsk }
}

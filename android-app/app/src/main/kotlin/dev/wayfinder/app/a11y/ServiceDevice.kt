package dev.wayfinder.app.a11y

import dev.wayfinder.app.model.ActionJson
import dev.wayfinder.app.model.ActionResult
import dev.wayfinder.app.model.DeviceAction
import dev.wayfinder.app.model.SnapshotJson
import dev.wayfinder.bridge.Device
import org.json.JSONStringer
import java.util.UUID
import java.util.concurrent.atomic.AtomicReference

/**
 * The phone as the Go daemon sees it: dev.wayfinder.bridge.Device on top
 * of the accessibility service. snapshot() waits for the UI to settle,
 * serialises every window under a new capture id and keeps the id -> node
 * map of the last [KEEP_CAPTURES] captures; perform() resolves node ids
 * against the capture the action echoes (`capture_id`; none: the last), so
 * a snapshot taken meanwhile by someone else (the inspector) cannot shift
 * them. It acts, waits until the target window settled and reports
 * {"ok","changed","message","duration_ms"}, `changed` meaning the tree the
 * user sees differs from the capture's (Snapshot.fingerprint). Calls are
 * serialised. Exceptions become Go errors: they mean the device failed or
 * the input was malformed, never that an action merely had no effect.
 */
class ServiceDevice(
    private val host: DeviceHost,
    private val settle: SettleDetector,
    private val clock: Clock = MonotonicClock,
    private val serializer: TreeSerializer = TreeSerializer(),
    gestureTimeoutMs: Long = 5_000,
    pause: (Long) -> Unit = { clock.sleepMs(it) },
) : Device {
    private val last = AtomicReference(Capture.EMPTY)
    private val recent = LinkedHashMap<String, Capture>() // guarded by lock
    private val prefix = UUID.randomUUID().toString().take(8)
    private var counter = 0L // guarded by lock
    private val lock = Any()
    private val performer = ActionPerformer(
        capture = { last.get() },
        gestures = GestureRunner(host::dispatch, gestureTimeoutMs),
        globalAction = host::performGlobal,
        launch = host::launchPackage,
        focusedInput = host::focusedInput,
        screen = host::screenBounds,
        pause = pause,
        clipboard = host::setClipboard,
    )

    /** The last snapshot emitted (ids of actions without a capture id refer to it). */
    fun lastCapture(): Capture = last.get()

    override fun snapshot(): String = synchronized(lock) {
        settle.awaitIdle(idleTarget(last.get()))
        val windows = host.captureWindows()
        if (windows.isEmpty()) {
            throw IllegalStateException("no accessibility windows: is the Wayfinder accessibility service enabled?")
        }
        val screen = host.screenBounds()
        val id = "$prefix-${++counter}"
        val cap = serializer.serialize(windows, screen.width, screen.height, host.foregroundActivity(), id)
        last.set(cap)
        recent[id] = cap
        while (recent.size > KEEP_CAPTURES) recent.remove(recent.keys.first())
        SnapshotJson.write(cap.snapshot)
    }

    override fun perform(actionJSON: String): String = synchronized(lock) {
        val a = ActionJson.parse(actionJSON)
        val start = clock.nowMs()
        val cap = if (a.captureId.isEmpty()) last.get() else recent[a.captureId]
            ?: return@synchronized ActionResult(
                false, false,
                "capture ${a.captureId} is no longer kept (only the last $KEEP_CAPTURES are): take a new snapshot",
                clock.nowMs() - start,
            ).toJson()
        val mark = settle.mark()
        val out = performer.perform(a, cap)
        val s = if (out.ok || a.type == DeviceAction.LAUNCH) settle.awaitSettled(mark, target(cap, a)) else null
        val changed = s != null && changedSince(cap)
        val note = if (s != null && !s.settled) " (UI still changing after ${settle.maxWaitMs} ms)" else ""
        ActionResult(out.ok, changed, out.message + note, clock.nowMs() - start).toJson()
    }

    /** Whether what the user sees now differs from [cap]. */
    private fun changedSince(cap: Capture): Boolean {
        val windows = host.captureWindows()
        if (windows.isEmpty()) return true
        val screen = host.screenBounds()
        return serializer.serialize(windows, screen.width, screen.height).fingerprint != cap.fingerprint
    }

    override fun installedApps(): String {
        val w = JSONStringer().array()
        for (app in host.launchableApps().sortedBy { it.label.lowercase() }) {
            w.`object`().key("package").value(app.packageName).key("label").value(app.label).endObject()
        }
        return w.endArray().toString()
    }

    companion object {
        /** Captures kept for actions that echo an older capture id. */
        const val KEEP_CAPTURES = 4

        /**
         * The events that tell whether [a] on [cap] settled: those of the
         * acted-on node's window, or with no node of the application
         * windows, plus any window the capture did not have.
         */
        fun target(cap: Capture, a: DeviceAction): SettleDetector.Target {
            val wins = cap.snapshot.windows
            val known = wins.map { it.id }.toSet()
            val own = if (a.node >= 0) cap.windowOf(a.node) else null
            val counted = own?.let { setOf(it.id) } ?: wins.filter { it.type == "application" }.map { it.id }.toSet()
            val pkg = if (a.type == DeviceAction.LAUNCH) a.packageName else own?.packageName ?: cap.snapshot.packageName
            return SettleDetector.Target(counted, known, pkg)
        }

        /** Before a snapshot: everything but the system windows (status bar) of the last capture. */
        fun idleTarget(cap: Capture): SettleDetector.Target {
            val wins = cap.snapshot.windows
            if (wins.isEmpty()) return SettleDetector.Target.ANY
            val known = wins.map { it.id }.toSet()
            val counted = wins.filter { it.type != "system" }.map { it.id }.toSet()
            return SettleDetector.Target(counted, known, cap.snapshot.packageName)
        }
    }
}

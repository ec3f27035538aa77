package dev.wayfinder.app.a11y

import dev.wayfinder.app.model.ActionJson
import dev.wayfinder.app.model.ActionResult
import dev.wayfinder.app.model.DeviceAction
import dev.wayfinder.app.model.SnapshotJson
import dev.wayfinder.bridge.Device
import org.json.JSONStringer
import java.util.concurrent.atomic.AtomicReference

/**
 * The phone as the Go daemon sees it: dev.wayfinder.bridge.Device on top
 * of the accessibility service. snapshot() waits for the UI to settle,
 * serialises every window and keeps the id -> node map of that snapshot;
 * perform() resolves node ids against it, acts, waits for the UI to settle
 * and reports {"ok","changed","message","duration_ms"}. Calls are
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
    private val lock = Any()
    private val performer = ActionPerformer(
        capture = { last.get() },
        gestures = GestureRunner(host::dispatch, gestureTimeoutMs),
        globalAction = host::performGlobal,
        launch = host::launchPackage,
        focusedInput = host::focusedInput,
        screen = host::screenBounds,
        pause = pause,
    )

    /** The last snapshot emitted (ids of actions refer to it). */
    fun lastCapture(): Capture = last.get()

    override fun snapshot(): String = synchronized(lock) {
        settle.awaitIdle()
        val windows = host.captureWindows()
        if (windows.isEmpty()) {
            throw IllegalStateException("no accessibility windows: is the Wayfinder accessibility service enabled?")
        }
        val screen = host.screenBounds()
        val cap = serializer.serialize(windows, screen.width, screen.height, host.foregroundActivity())
        last.set(cap)
        SnapshotJson.write(cap.snapshot)
    }

    override fun perform(actionJSON: String): String = synchronized(lock) {
        val a = ActionJson.parse(actionJSON)
        val start = clock.nowMs()
        val mark = settle.mark()
        val out = performer.perform(a)
        val s = if (out.ok || a.type == DeviceAction.LAUNCH) settle.awaitSettled(mark) else null
        val changed = (s?.events ?: 0L) > 0
        val note = if (s != null && !s.settled) " (UI still changing after ${settle.maxWaitMs} ms)" else ""
        ActionResult(out.ok, changed, out.message + note, clock.nowMs() - start).toJson()
    }

    override fun installedApps(): String {
        val w = JSONStringer().array()
        for (app in host.launchableApps().sortedBy { it.label.lowercase() }) {
            w.`object`().key("package").value(app.packageName).key("label").value(app.label).endObject()
        }
        return w.endArray().toString()
    }
}

package dev.wayfinder.app.daemon

import android.app.Notification
import android.app.NotificationChannel
import android.app.NotificationManager
import android.app.PendingIntent
import android.app.Service
import android.content.Context
import android.content.Intent
import android.content.pm.ApplicationInfo
import android.content.pm.ServiceInfo
import android.os.Binder
import android.os.Build
import android.os.Handler
import android.os.IBinder
import android.os.Looper
import android.util.Log
import dev.wayfinder.app.settings.Settings
import dev.wayfinder.app.settings.AppSettings
import dev.wayfinder.app.ui.MainActivity
import dev.wayfinder.app.ui.QuestionHost
import dev.wayfinder.app.ui.StepHost
import dev.wayfinder.app.ui.StepTracker
import dev.wayfinder.bridge.Bridge
import dev.wayfinder.bridge.Daemon
import dev.wayfinder.bridge.EventListener
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.cancel
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext
import java.io.File
import java.util.concurrent.CopyOnWriteArraySet
import kotlin.concurrent.thread

/**
 * Foreground service hosting the Go daemon (dev.wayfinder.bridge.Daemon)
 * for as long as the app needs it. Activities bind to it ([LocalBinder]) to
 * make calls and receive progress events on the main thread. The daemon
 * gets a [DeviceProxy], so it starts even before the accessibility service
 * is enabled. Foreground type: specialUse (declared in the manifest).
 */
class DaemonService : Service() {
    inner class LocalBinder : Binder() {
        val service: DaemonService get() = this@DaemonService
    }

    private val binder = LocalBinder()
    private val main = Handler(Looper.getMainLooper())
    private val ready = CompletableDeferred<Daemon>()
    private val listeners = CopyOnWriteArraySet<(DaemonEvent) -> Unit>()
    private val history = EventHistory(MAX_RECENT)

    private val lock = Any()
    private var daemon: Daemon? = null // guarded by lock
    private var destroyed = false // guarded by lock

    override fun onCreate() {
        super.onCreate()
        createChannel()
        val n = notification("starting")
        if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.UPSIDE_DOWN_CAKE) {
            startForeground(NOTIFICATION_ID, n, ServiceInfo.FOREGROUND_SERVICE_TYPE_SPECIAL_USE)
        } else {
            startForeground(NOTIFICATION_ID, n)
        }
        thread(name = "wayfinder-daemon-start") { startDaemon() }
    }

    private fun startDaemon() {
        try {
            val loaded = AppSettings.store(this).load()
            val debuggable = applicationInfo.flags and ApplicationInfo.FLAG_DEBUGGABLE != 0
            val dir = File(filesDir, "wayfinder").apply { mkdirs() }
            // the on-device sentence model, when the APK carries it: flow
            // matching then understands other words with no server
            val local = try {
                ModelInstaller.install(dir, { path -> runCatching { assets.open(path) }.getOrNull() },
                    { path -> runCatching { assets.openFd(path).use { it.length } }.getOrDefault(-1L) })
            } catch (e: java.io.IOException) {
                Log.w(TAG, "on-device model not installed: $e")
                false
            }
            val config = loaded.settings.toConfigJson(if (debuggable) DEBUG_ADDR else "", if (local) "local" else "")
            val d = Bridge.new_(dir.absolutePath, config, DeviceProxy())
            d.subscribe(object : EventListener {
                override fun onEvent(eventJSON: String) {
                    // must never throw: the JNI glue does not clear a pending
                    // exception after this call (checked JNI would abort)
                    try {
                        val e = DaemonEvent.parse(eventJSON) ?: return
                        main.post { deliver(e) }
                    } catch (t: Throwable) {
                        Log.w(TAG, "event dropped: $t")
                    }
                }
            })
            val alive = synchronized(lock) {
                if (!destroyed) daemon = d
                !destroyed
            }
            if (!alive) { // the service was destroyed while the daemon started
                d.close()
                return
            }
            ready.complete(d)
            main.post { updateNotification(if (loaded.keyUnreadable) "ready (API key unreadable: set it again)" else "ready") }
        } catch (e: Exception) {
            failed(e)
        } catch (e: LinkageError) { // libgojni.so missing or not loadable for this ABI
            failed(e)
        }
    }

    private fun failed(e: Throwable) {
        Log.e(TAG, "daemon failed to start", e)
        ready.completeExceptionally(e)
        main.post { updateNotification("failed to start: ${e.message}") }
    }

    /**
     * Work sent by this app's own components (the service is not exported):
     * a shortcut's replay (ReplayActivity), an answer or Stop from the
     * question notification, a pin confirmed by the launcher (AskReceiver).
     */
    override fun onStartCommand(intent: Intent?, flags: Int, startId: Int): Int {
        when (intent?.action) {
            ACTION_REPLAY -> intent.getStringExtra(EXTRA_TOKEN)?.let { token -> background("replay") { call(Requests.replayToken(token)) } }
            ACTION_ANSWER -> {
                val text = intent.getStringExtra(EXTRA_TEXT)
                val seq = intent.getLongExtra(EXTRA_ASK_SEQ, -1)
                val pending = history.pendingAsk
                // an answer to a question that is no longer pending is dropped
                if (text != null && pending != null && (seq < 0 || seq == pending.seq)) {
                    background("answer") { answer(text) }
                }
            }
            ACTION_CANCEL -> background("cancel") { call(Requests.cancel()) }
            ACTION_PINNED -> {
                val id = intent.getLongExtra(EXTRA_FLOW_ID, 0)
                if (id > 0) background("pin") { call(Requests.flowsPin(id, true)) }
            }
        }
        return START_STICKY
    }

    private val scope = kotlinx.coroutines.CoroutineScope(kotlinx.coroutines.SupervisorJob() + Dispatchers.Main)

    private fun background(what: String, work: suspend () -> Unit) {
        scope.launch {
            try {
                work()
            } catch (e: Exception) {
                Log.w(TAG, "$what: ${e.message}")
                updateNotification("$what failed: ${e.message}")
            }
        }
    }

    override fun onBind(intent: Intent?): IBinder = binder

    override fun onDestroy() {
        val d = synchronized(lock) {
            destroyed = true
            daemon.also { daemon = null }
        }
        ready.cancel()
        scope.cancel()
        if (d != null) {
            thread(name = "wayfinder-daemon-close") {
                runCatching { d.close() }.onFailure { Log.w(TAG, "close: ${it.message}") }
            }
        }
        super.onDestroy()
    }

    /** Runs one request on an IO thread; throws the daemon's error as an Exception. */
    suspend fun call(requestJson: String): String {
        val d = ready.await()
        return withContext(Dispatchers.IO) { d.call(requestJson) }
    }

    /**
     * Adds a main-thread listener; it first receives the recent events of
     * the current run (of its questions, only the one still unanswered).
     */
    fun addListener(l: (DaemonEvent) -> Unit) {
        listeners += l
        history.replay().forEach(l)
    }

    /** Replies to the pending question (answer {text}). Main thread. */
    suspend fun answer(text: String): String {
        history.answered()
        getSystemService(NotificationManager::class.java)?.cancel(AskNotification.ID)
        return call(Requests.answer(text))
    }

    fun removeListener(l: (DaemonEvent) -> Unit) {
        listeners -= l
    }

    /** Sends changed settings to the running daemon (docs/bridge-api.md settings.set). */
    suspend fun applySettings(s: Settings, keyChanged: Boolean): String = call(
        Requests.settingsSet(
            baseUrl = s.baseUrl,
            model = s.model,
            apiKey = if (keyChanged) s.apiKey else null,
            confirmSensitive = s.confirmSensitive,
        ),
    )

    private fun deliver(e: DaemonEvent) {
        history.add(e)
        // what the agent is about to do, over the app it operates
        steps.onEvent(e)?.let { v ->
            if (v === StepTracker.HIDE) StepHost.current?.hideStep()
            else StepHost.current?.showStep(v)
        }
        ProgressText.line(e)?.let { if (e.type != DaemonEvent.LOG) updateNotification(it) }
        if (e.type == DaemonEvent.ACTION || e.type == DaemonEvent.CHOSEN) ProgressText.line(e)?.let { step = it }
        if (e.type == DaemonEvent.RUN_STARTED) step = ""
        val ask = AskRequest.from(e)
        val nm = getSystemService(NotificationManager::class.java)
        when {
            ask != null -> {
                nm?.notify(AskNotification.ID, AskNotification.build(this, ask, e.seq, step))
                // over the app being operated, even with notifications denied
                QuestionHost.current?.showQuestion(ask, step, { text -> background("answer") { answer(text) } },
                    { background("cancel") { call(Requests.cancel()) } })
            }
            history.pendingAsk == null -> {
                nm?.cancel(AskNotification.ID)
                QuestionHost.current?.hideQuestion()
            }
        }
        listeners.forEach { it(e) }
    }

    /** The current step, for the question notification. Main thread. */
    private var step = ""

    /** The step overlay's view of the events. Main thread. */
    private val steps = StepTracker()

    private fun createChannel() {
        AskNotification.createChannel(this)
        val ch = NotificationChannel(CHANNEL, "Wayfinder agent", NotificationManager.IMPORTANCE_LOW)
        ch.description = "Shows what the agent is doing"
        getSystemService(NotificationManager::class.java)?.createNotificationChannel(ch)
    }

    private fun notification(text: String): Notification {
        val open = PendingIntent.getActivity(
            this, 0, Intent(this, MainActivity::class.java),
            PendingIntent.FLAG_IMMUTABLE or PendingIntent.FLAG_UPDATE_CURRENT,
        )
        return Notification.Builder(this, CHANNEL)
            .setSmallIcon(android.R.drawable.ic_menu_compass)
            .setContentTitle("Wayfinder")
            .setContentText(text)
            .setContentIntent(open)
            .setOngoing(true)
            .build()
    }

    private fun updateNotification(text: String) {
        getSystemService(NotificationManager::class.java)?.notify(NOTIFICATION_ID, notification(text))
    }

    companion object {
        private const val TAG = "WayfinderDaemon"
        private const val CHANNEL = "agent"
        private const val NOTIFICATION_ID = 1
        private const val MAX_RECENT = 200

        /** Debugging websocket address (debuggable builds only); `adb forward tcp:7777 tcp:7777`. */
        const val DEBUG_ADDR = "127.0.0.1:7777"

        const val ACTION_REPLAY = "dev.wayfinder.app.daemon.REPLAY"
        const val ACTION_ANSWER = "dev.wayfinder.app.daemon.ANSWER"
        const val ACTION_CANCEL = "dev.wayfinder.app.daemon.CANCEL"
        const val ACTION_PINNED = "dev.wayfinder.app.daemon.PINNED"
        const val EXTRA_TOKEN = "token"
        const val EXTRA_TEXT = "text"
        const val EXTRA_ASK_SEQ = "ask_seq"
        const val EXTRA_FLOW_ID = "flow_id"

        fun start(context: Context) {
            context.startForegroundService(Intent(context, DaemonService::class.java))
        }

        /** Replays the flow with [token] (a shortcut this app published). */
        fun replay(context: Context, token: String) {
            context.startForegroundService(Intent(context, DaemonService::class.java).setAction(ACTION_REPLAY).putExtra(EXTRA_TOKEN, token))
        }
    }
}

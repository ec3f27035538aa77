package dev.wayfinder.app.ui

import android.content.ComponentName
import android.content.Context
import android.content.Intent
import android.content.ServiceConnection
import android.os.IBinder
import dev.wayfinder.app.daemon.DaemonService

/**
 * Binds an activity to [DaemonService]. Work queued with [whenBound] runs
 * on the main thread once the service is connected. With [start] false the
 * connection only succeeds if the service is already running.
 */
class DaemonConnection(private val context: Context, private val start: Boolean = true) {
    var service: DaemonService? = null
        private set
    private val pending = ArrayList<(DaemonService) -> Unit>()
    private var onConnect: ((DaemonService) -> Unit)? = null
    private var onDisconnect: ((DaemonService) -> Unit)? = null
    private var bound = false

    private val conn = object : ServiceConnection {
        override fun onServiceConnected(name: ComponentName?, binder: IBinder?) {
            val s = (binder as? DaemonService.LocalBinder)?.service ?: return // not our service's binder
            service = s
            onConnect?.invoke(s)
            pending.toList().forEach { it(s) }
            pending.clear()
        }

        override fun onServiceDisconnected(name: ComponentName?) {
            service?.let { onDisconnect?.invoke(it) }
            service = null
        }
    }

    fun bind(onConnect: (DaemonService) -> Unit = {}, onDisconnect: (DaemonService) -> Unit = {}) {
        this.onConnect = onConnect
        this.onDisconnect = onDisconnect
        if (start) DaemonService.start(context)
        bound = context.bindService(Intent(context, DaemonService::class.java), conn, if (start) Context.BIND_AUTO_CREATE else 0)
    }

    fun unbind() {
        service?.let { onDisconnect?.invoke(it) }
        service = null
        pending.clear()
        if (bound) context.unbindService(conn)
        bound = false
    }

    /** Work waiting for the connection (requests the activity means to send). */
    val queued: Int get() = pending.size

    fun whenBound(work: (DaemonService) -> Unit) {
        val s = service
        if (s != null) work(s) else pending += work
    }
}

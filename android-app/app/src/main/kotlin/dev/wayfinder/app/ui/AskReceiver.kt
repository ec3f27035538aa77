package dev.wayfinder.app.ui

import android.app.RemoteInput
import android.content.BroadcastReceiver
import android.content.Context
import android.content.Intent
import dev.wayfinder.app.daemon.DaemonService

/**
 * Receives the answer buttons of the question notification (and of the
 * pin-shortcut result): not exported, so only this app's PendingIntents
 * reach it. It hands the answer, the stop or the pin result to the running
 * DaemonService.
 */
class AskReceiver : BroadcastReceiver() {
    override fun onReceive(context: Context, intent: Intent) {
        val forward = Intent(context, DaemonService::class.java)
        when (intent.action) {
            ACTION_ANSWER -> {
                val text = intent.getStringExtra(EXTRA_ANSWER)
                    ?: RemoteInput.getResultsFromIntent(intent)?.getCharSequence(REPLY_KEY)?.toString()
                    ?: return
                forward.setAction(DaemonService.ACTION_ANSWER).putExtra(DaemonService.EXTRA_TEXT, text)
                    .putExtra(DaemonService.EXTRA_ASK_SEQ, intent.getLongExtra(EXTRA_ASK_SEQ, -1))
            }
            ACTION_STOP -> forward.setAction(DaemonService.ACTION_CANCEL)
            ACTION_PINNED -> {
                val id = intent.getLongExtra(EXTRA_FLOW_ID, 0)
                if (id <= 0) return
                forward.setAction(DaemonService.ACTION_PINNED).putExtra(DaemonService.EXTRA_FLOW_ID, id)
            }
            else -> return
        }
        context.startService(forward)
    }

    companion object {
        const val ACTION_ANSWER = "dev.wayfinder.app.action.ANSWER"
        const val ACTION_STOP = "dev.wayfinder.app.action.STOP"
        const val ACTION_PINNED = "dev.wayfinder.app.action.PINNED"
        const val EXTRA_ANSWER = "dev.wayfinder.app.extra.ANSWER"
        const val EXTRA_ASK_SEQ = "dev.wayfinder.app.extra.ASK_SEQ"
        const val EXTRA_FLOW_ID = "dev.wayfinder.app.extra.FLOW_ID"
        const val REPLY_KEY = "reply"
    }
}

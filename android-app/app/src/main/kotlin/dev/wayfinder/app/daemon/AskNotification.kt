package dev.wayfinder.app.daemon

import android.app.Notification
import android.app.NotificationChannel
import android.app.NotificationManager
import android.app.PendingIntent
import android.app.RemoteInput
import android.content.Context
import android.content.Intent
import android.graphics.drawable.Icon
import android.os.Build
import dev.wayfinder.app.ui.AskReceiver
import dev.wayfinder.app.ui.MainActivity

/**
 * The agent's question as a high-importance notification, so it shows
 * (heads-up) while the agent works in another app and Wayfinder's own
 * screen is stopped. It names the current step and offers the answers as
 * actions: up to two options as buttons, a free-text reply when the
 * question has no options, "Answer…" (opens the app's dialog with every
 * option) when there are more; and always Stop. The actions go to
 * [AskReceiver], which is not exported.
 */
object AskNotification {
    const val CHANNEL = "questions"
    const val ID = 2

    fun createChannel(context: Context) {
        val ch = NotificationChannel(CHANNEL, "Wayfinder questions", NotificationManager.IMPORTANCE_HIGH)
        ch.description = "Questions the agent needs answered (confirm a sensitive step, clarify) and Stop"
        context.getSystemService(NotificationManager::class.java)?.createNotificationChannel(ch)
    }

    /** The notification for [ask] (event [seq]) during [step] ("" when no step ran yet). */
    fun build(context: Context, ask: AskRequest, seq: Long, step: String): Notification {
        val open = PendingIntent.getActivity(
            context, 1, Intent(context, MainActivity::class.java).addFlags(Intent.FLAG_ACTIVITY_NEW_TASK),
            PendingIntent.FLAG_IMMUTABLE or PendingIntent.FLAG_UPDATE_CURRENT,
        )
        val text = if (step.isEmpty()) ask.question else "${ask.question}\nNow at: $step"
        val b = Notification.Builder(context, CHANNEL)
            .setSmallIcon(android.R.drawable.ic_dialog_alert)
            .setContentTitle("Wayfinder asks")
            .setContentText(ask.question)
            .setStyle(Notification.BigTextStyle().bigText(text))
            .setContentIntent(open)
            .setCategory(Notification.CATEGORY_STATUS)
            .setOngoing(true)
            .setOnlyAlertOnce(false)
        val icon = Icon.createWithResource(context, android.R.drawable.ic_dialog_alert)
        val opts = ask.options
        when {
            opts.isEmpty() -> {
                val input = RemoteInput.Builder(AskReceiver.REPLY_KEY).setLabel(ask.question).build()
                // RemoteInput fills the intent in: it must be mutable (explicit, so safe)
                val flags = PendingIntent.FLAG_UPDATE_CURRENT or
                    (if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.S) PendingIntent.FLAG_MUTABLE else 0)
                val pi = PendingIntent.getBroadcast(context, REQ_REPLY, answerIntent(context, null, seq), flags)
                b.addAction(Notification.Action.Builder(icon, "Reply", pi).addRemoteInput(input).build())
            }
            opts.size <= 2 -> opts.forEachIndexed { i, o ->
                val pi = PendingIntent.getBroadcast(
                    context, REQ_OPTION + i, answerIntent(context, o, seq),
                    PendingIntent.FLAG_IMMUTABLE or PendingIntent.FLAG_UPDATE_CURRENT,
                )
                b.addAction(Notification.Action.Builder(icon, o, pi).build())
            }
            else -> b.addAction(Notification.Action.Builder(icon, "Answer…", open).build())
        }
        val stop = PendingIntent.getBroadcast(
            context, REQ_STOP, Intent(context, AskReceiver::class.java).setAction(AskReceiver.ACTION_STOP),
            PendingIntent.FLAG_IMMUTABLE or PendingIntent.FLAG_UPDATE_CURRENT,
        )
        b.addAction(Notification.Action.Builder(icon, "Stop", stop).build())
        return b.build()
    }

    private fun answerIntent(context: Context, answer: String?, seq: Long): Intent =
        Intent(context, AskReceiver::class.java).setAction(AskReceiver.ACTION_ANSWER)
            .putExtra(AskReceiver.EXTRA_ASK_SEQ, seq)
            .apply { if (answer != null) putExtra(AskReceiver.EXTRA_ANSWER, answer) }

    private const val REQ_REPLY = 10
    private const val REQ_STOP = 11
    private const val REQ_OPTION = 20
}

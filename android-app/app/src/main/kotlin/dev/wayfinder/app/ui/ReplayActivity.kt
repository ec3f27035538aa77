package dev.wayfinder.app.ui

import android.app.Activity
import android.content.Context
import android.content.Intent
import android.os.Bundle
import dev.wayfinder.app.daemon.DaemonService

/**
 * The target of the home-screen shortcuts this app publishes (ShortcutPinner).
 * Not exported: no other app can start it. Launchers start shortcut intents
 * as the publishing app (LauncherApps.startShortcut ->
 * LauncherAppsService.startShortcutIntentsAsPublisher ->
 * ActivityTaskManagerInternal.startActivitiesAsPackage(publisherPackage, …);
 * AOSP notes there that the target "doesn't have to be exported"). The
 * intent carries the flow's unguessable token, never its id; the daemon
 * replays only a flow with that token. The replay runs in DaemonService;
 * this activity then shows MainActivity (plain, no replay extras) for the
 * progress and finishes. Handled once (IntentOnce).
 */
class ReplayActivity : Activity() {
    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        val i = intent
        if (IntentOnce.onCreate(i, savedInstanceState) && i?.action == ACTION_REPLAY) {
            val token = i.getStringExtra(EXTRA_TOKEN)
            if (Tokens.valid(token)) {
                start(this, token!!)
                startActivity(Intent(this, MainActivity::class.java).addFlags(Intent.FLAG_ACTIVITY_NEW_TASK))
            }
        }
        finish()
    }

    companion object {
        const val ACTION_REPLAY = "dev.wayfinder.app.action.REPLAY"
        const val EXTRA_TOKEN = "dev.wayfinder.app.extra.FLOW_TOKEN"

        /** Starts the replay of the flow with this token; tests put a recorder here. */
        @Volatile
        var start: (Context, String) -> Unit = { c, token -> DaemonService.replay(c, token) }

        /** The intent a pinned shortcut of the flow with [token] carries. */
        fun intent(context: Context, token: String): Intent =
            Intent(context, ReplayActivity::class.java)
                .setAction(ACTION_REPLAY)
                .putExtra(EXTRA_TOKEN, token)
                .addFlags(Intent.FLAG_ACTIVITY_NEW_TASK or Intent.FLAG_ACTIVITY_CLEAR_TASK)
    }
}

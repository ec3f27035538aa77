package dev.wayfinder.app.ui

import android.app.Activity
import android.content.Intent
import android.os.Bundle

/**
 * Entry point for ACTION_ASSIST (long-press home / assist gesture, once
 * Wayfinder is chosen as the digital assistant app) and VOICE_COMMAND:
 * opens [MainActivity] listening for a spoken command.
 */
class AssistActivity : Activity() {
    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        if (!IntentOnce.onCreate(intent, savedInstanceState)) {
            finish()
            return
        }
        startActivity(
            Intent(this, MainActivity::class.java)
                .putExtra(MainActivity.EXTRA_LISTEN, true)
                .addFlags(Intent.FLAG_ACTIVITY_NEW_TASK or Intent.FLAG_ACTIVITY_CLEAR_TOP or Intent.FLAG_ACTIVITY_SINGLE_TOP),
        )
        finish()
    }
}

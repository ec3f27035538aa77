package dev.wayfinder.app.ui

import android.app.Activity
import android.os.Bundle
import android.text.InputType
import android.widget.CheckBox
import android.widget.EditText
import android.widget.ScrollView
import android.widget.Switch
import android.widget.TextView
import android.widget.Toast
import dev.wayfinder.app.settings.AppSettings
import dev.wayfinder.app.settings.Settings
import dev.wayfinder.app.settings.SettingsStore
import kotlinx.coroutines.MainScope
import kotlinx.coroutines.cancel
import kotlinx.coroutines.launch

/**
 * LLM endpoint (OpenAI-compatible base URL), model, API key (stored sealed
 * with an Android Keystore AES/GCM key, never shown again) and whether
 * sensitive actions need confirmation. Saving also updates the running
 * daemon (settings.set).
 */
class SettingsActivity : Activity() {
    private val scope = MainScope()
    private val daemon = DaemonConnection(this, start = false)
    private lateinit var store: SettingsStore
    private lateinit var current: Settings

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        title = "Wayfinder settings"
        store = AppSettings.store(this)
        val loaded = store.load()
        current = loaded.settings
        val baseUrl = EditText(this).apply {
            setText(current.baseUrl)
            inputType = InputType.TYPE_CLASS_TEXT or InputType.TYPE_TEXT_VARIATION_URI
        }
        val model = EditText(this).apply { setText(current.model); setSingleLine() }
        val key = EditText(this).apply {
            inputType = InputType.TYPE_CLASS_TEXT or InputType.TYPE_TEXT_VARIATION_PASSWORD
            hint = when {
                loaded.keyUnreadable -> "stored key unreadable: enter it again"
                current.apiKey.isNotEmpty() -> "key set: leave empty to keep it"
                else -> "API key"
            }
        }
        val clearKey = CheckBox(this).apply { text = "Remove the stored API key" }
        val confirm = Switch(this).apply {
            text = "Ask before sensitive actions (pay, send, delete, …)"
            isChecked = current.confirmSensitive
        }
        val root = ScrollView(this)
        root.addView(
            column(
                TextView(this).apply { text = "Endpoint base URL (OpenAI-compatible)" }, baseUrl,
                TextView(this).apply { text = "Model" }, model,
                TextView(this).apply { text = "API key" }, key, clearKey,
                confirm,
                button("Save") {
                    val newKey = key.text.toString().trim()
                    val keyChanged = clearKey.isChecked || newKey.isNotEmpty()
                    val next = Settings(
                        baseUrl = baseUrl.text.toString().trim().ifEmpty { Settings.DEFAULT_BASE_URL },
                        model = model.text.toString().trim().ifEmpty { Settings.DEFAULT_MODEL },
                        apiKey = when {
                            clearKey.isChecked -> ""
                            newKey.isNotEmpty() -> newKey
                            else -> current.apiKey
                        },
                        confirmSensitive = confirm.isChecked,
                    )
                    save(next, keyChanged)
                },
            ),
        )
        setContentView(root)
        root.padForSystemBars(0) // edge-to-edge (Android 15): clear of the bars and the keyboard
        daemon.bind()
    }

    private fun save(next: Settings, keyChanged: Boolean) {
        try {
            store.save(next)
        } catch (e: Exception) {
            Toast.makeText(this, "Could not save: ${e.message}", Toast.LENGTH_LONG).show()
            return
        }
        current = next
        val svc = daemon.service
        if (svc == null) {
            finish()
            return
        }
        scope.launch {
            try {
                svc.applySettings(next, keyChanged)
                finish()
            } catch (e: Exception) {
                Toast.makeText(this@SettingsActivity, "Saved, but the agent rejected it: ${e.message}", Toast.LENGTH_LONG).show()
            }
        }
    }

    override fun onDestroy() {
        daemon.unbind()
        scope.cancel()
        super.onDestroy()
    }
}

package dev.wayfinder.app.settings

import android.content.SharedPreferences
import org.json.JSONObject
import java.security.GeneralSecurityException

/** The user's settings. [apiKey] is plain text in memory only. */
data class Settings(
    val baseUrl: String = DEFAULT_BASE_URL,
    val model: String = DEFAULT_MODEL,
    val apiKey: String = "",
    val confirmSensitive: Boolean = true,
) {
    /**
     * The configJSON for Bridge.new_ (docs/bridge-api.md, "Config"): the
     * settings plus [debugAddr] for the debugging websocket ("" = off).
     */
    fun toConfigJson(debugAddr: String = "", embedModel: String = ""): String = JSONObject()
        .put("base_url", baseUrl)
        .put("model", model)
        .put("api_key", apiKey)
        .put("confirm_sensitive", confirmSensitive)
        .put("debug_addr", debugAddr)
        .apply { if (embedModel.isNotEmpty()) put("embed_model", embedModel) }
        .toString()

    /** For logs: never the key itself. */
    override fun toString(): String =
        "Settings(baseUrl=$baseUrl, model=$model, apiKeySet=${apiKey.isNotEmpty()}, confirmSensitive=$confirmSensitive)"

    companion object {
        const val DEFAULT_BASE_URL = "https://api.openai.com/v1"
        const val DEFAULT_MODEL = "gpt-4o-mini"
    }
}

/**
 * Persists [Settings] in SharedPreferences; the API key only in sealed form
 * ([SecretBox] under an Android Keystore key). A key that no longer opens
 * (Keystore reset, restored backup) reads as "not set" and is reported by
 * [load]'s result rather than thrown.
 */
class SettingsStore(private val prefs: SharedPreferences, private val box: SecretBox) {
    data class Loaded(val settings: Settings, val keyUnreadable: Boolean)

    fun load(): Loaded {
        val sealed = prefs.getString(K_API_KEY, null)
        var unreadable = false
        val key = if (sealed.isNullOrEmpty()) "" else try {
            box.open(sealed)
        } catch (e: GeneralSecurityException) {
            unreadable = true
            ""
        }
        val s = Settings(
            baseUrl = prefs.getString(K_BASE_URL, null) ?: Settings.DEFAULT_BASE_URL,
            model = prefs.getString(K_MODEL, null) ?: Settings.DEFAULT_MODEL,
            apiKey = key,
            confirmSensitive = prefs.getBoolean(K_CONFIRM, true),
        )
        return Loaded(s, unreadable)
    }

    /** Saves [s]; the API key is sealed, an empty key removes it. */
    fun save(s: Settings) {
        val e = prefs.edit()
            .putString(K_BASE_URL, s.baseUrl.trim())
            .putString(K_MODEL, s.model.trim())
            .putBoolean(K_CONFIRM, s.confirmSensitive)
        if (s.apiKey.isEmpty()) e.remove(K_API_KEY) else e.putString(K_API_KEY, box.seal(s.apiKey))
        e.apply()
    }

    companion object {
        const val PREFS = "wayfinder_settings"
        private const val K_BASE_URL = "base_url"
        private const val K_MODEL = "model"
        private const val K_CONFIRM = "confirm_sensitive"
        private const val K_API_KEY = "api_key_sealed"
    }
}

package dev.wayfinder.app.settings

import android.content.Context

/** The app's [SettingsStore]: private SharedPreferences + a Keystore-backed [SecretBox]. */
object AppSettings {
    fun store(context: Context): SettingsStore = SettingsStore(
        context.applicationContext.getSharedPreferences(SettingsStore.PREFS, Context.MODE_PRIVATE),
        SecretBox { KeystoreKey.getOrCreate() },
    )
}

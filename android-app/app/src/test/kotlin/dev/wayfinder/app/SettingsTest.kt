package dev.wayfinder.app

import android.content.Context
import org.robolectric.RuntimeEnvironment
import dev.wayfinder.app.settings.SecretBox
import dev.wayfinder.app.settings.Settings
import dev.wayfinder.app.settings.SettingsStore
import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNotEquals
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import java.security.GeneralSecurityException
import javax.crypto.KeyGenerator
import javax.crypto.SecretKey

/**
 * SecretBox with a software AES key (the Android Keystore provider does not
 * exist on the JVM; KeystoreKey only supplies the key) and SettingsStore on
 * Robolectric's SharedPreferences.
 */
@RunWith(RobolectricTestRunner::class)
class SettingsTest {
    private fun key(): SecretKey = KeyGenerator.getInstance("AES").apply { init(256) }.generateKey()

    @Test
    fun sealOpenRoundTripWithFreshIvs() {
        val k = key()
        val box = SecretBox { k }
        val a = box.seal("sk-test-123")
        val b = box.seal("sk-test-123")
        assertNotEquals("a fresh IV per seal", a, b)
        assertFalse(a.contains("sk-test"))
        assertEquals("sk-test-123", box.open(a))
        assertEquals("", box.open(box.seal("")))
        assertEquals("ünïcødé 🔑", box.open(box.seal("ünïcødé 🔑")))
    }

    @Test
    fun tamperedOrForeignSecretsDoNotOpen() {
        val k = key()
        val box = SecretBox { k }
        val sealed = box.seal("sk-test-123")
        val bytes = sealed.toCharArray()
        val i = bytes.size - 5
        bytes[i] = if (bytes[i] == 'A') 'B' else 'A'
        val cases = mapOf(
            "tampered" to (box to String(bytes)),
            "other key" to (SecretBox { key() } to sealed),
            "not sealed" to (box to "plain"),
            "bad base64" to (box to "v1:%%%"),
            "too short" to (box to "v1:AAAA"),
        )
        for ((name, c) in cases) {
            try {
                c.first.open(c.second)
                fail("$name opened")
            } catch (e: GeneralSecurityException) {
                // expected
            }
        }
    }

    @Test
    fun storeKeepsOnlyTheSealedKey() {
        val ctx = RuntimeEnvironment.getApplication()
        val prefs = ctx.getSharedPreferences("test-settings", Context.MODE_PRIVATE)
        val k = key()
        val store = SettingsStore(prefs, SecretBox { k })
        assertEquals(Settings(), store.load().settings)
        val s = Settings(baseUrl = "https://llm.example/v1 ", model = "small", apiKey = "sk-live-abc", confirmSensitive = false)
        store.save(s)
        val raw = prefs.all.values.joinToString()
        assertFalse("plain key in prefs: $raw", raw.contains("sk-live-abc"))
        val back = store.load()
        assertFalse(back.keyUnreadable)
        assertEquals(s.copy(baseUrl = "https://llm.example/v1"), back.settings)
        assertFalse("toString hides the key", back.settings.toString().contains("sk-live"))
        // a Keystore reset: the sealed key no longer opens
        val reset = SettingsStore(prefs, SecretBox { key() }).load()
        assertTrue(reset.keyUnreadable)
        assertEquals("", reset.settings.apiKey)
        // an empty key removes it
        store.save(s.copy(apiKey = ""))
        assertFalse(prefs.all.values.joinToString().contains("v1:"))
    }

    @Test
    fun configJson() {
        val o = JSONObject(Settings(apiKey = "sk-1").toConfigJson("127.0.0.1:7777"))
        assertEquals(setOf("base_url", "model", "api_key", "confirm_sensitive", "debug_addr"), o.keys().asSequence().toSet())
        assertEquals("sk-1", o.getString("api_key"))
        assertEquals(true, o.getBoolean("confirm_sensitive"))
        assertEquals("127.0.0.1:7777", o.getString("debug_addr"))
    }
}

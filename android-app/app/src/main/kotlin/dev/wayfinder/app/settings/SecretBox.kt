package dev.wayfinder.app.settings

import android.security.keystore.KeyGenParameterSpec
import android.security.keystore.KeyProperties
import java.security.GeneralSecurityException
import java.security.KeyStore
import java.util.Base64
import javax.crypto.Cipher
import javax.crypto.KeyGenerator
import javax.crypto.SecretKey
import javax.crypto.spec.GCMParameterSpec

/**
 * Encrypts small secrets (the LLM API key) with AES-256/GCM under [key]:
 * sealed form "v1:" + base64(12-byte IV || ciphertext || 128-bit tag). The
 * cipher picks a fresh random IV per seal (required by Android Keystore keys).
 */
class SecretBox(private val key: () -> SecretKey) {
    fun seal(plain: String): String {
        val c = Cipher.getInstance(TRANSFORMATION)
        c.init(Cipher.ENCRYPT_MODE, key())
        val iv = c.iv
        require(iv.size == IV_BYTES) { "unexpected GCM IV length ${iv.size}" }
        val body = c.doFinal(plain.toByteArray(Charsets.UTF_8))
        return PREFIX + Base64.getEncoder().encodeToString(iv + body)
    }

    /** Decrypts [sealed]; throws GeneralSecurityException when it was tampered with or the key changed. */
    fun open(sealed: String): String {
        if (!sealed.startsWith(PREFIX)) throw GeneralSecurityException("sealed secret: unknown format")
        val raw = try {
            Base64.getDecoder().decode(sealed.substring(PREFIX.length))
        } catch (e: IllegalArgumentException) {
            throw GeneralSecurityException("sealed secret: bad base64", e)
        }
        if (raw.size < IV_BYTES + TAG_BITS / 8) throw GeneralSecurityException("sealed secret: too short")
        val c = Cipher.getInstance(TRANSFORMATION)
        c.init(Cipher.DECRYPT_MODE, key(), GCMParameterSpec(TAG_BITS, raw, 0, IV_BYTES))
        return String(c.doFinal(raw, IV_BYTES, raw.size - IV_BYTES), Charsets.UTF_8)
    }

    companion object {
        const val TRANSFORMATION = "AES/GCM/NoPadding"
        const val IV_BYTES = 12
        const val TAG_BITS = 128
        private const val PREFIX = "v1:"
    }
}

/** The app's AES key in the Android Keystore (never leaves secure hardware/TEE where available). */
object KeystoreKey {
    private const val STORE = "AndroidKeyStore"
    const val ALIAS = "wayfinder.settings.v1"

    @Synchronized
    fun getOrCreate(alias: String = ALIAS): SecretKey {
        val ks = KeyStore.getInstance(STORE).apply { load(null) }
        (ks.getEntry(alias, null) as? KeyStore.SecretKeyEntry)?.let { return it.secretKey }
        val gen = KeyGenerator.getInstance(KeyProperties.KEY_ALGORITHM_AES, STORE)
        gen.init(
            KeyGenParameterSpec.Builder(alias, KeyProperties.PURPOSE_ENCRYPT or KeyProperties.PURPOSE_DECRYPT)
                .setBlockModes(KeyProperties.BLOCK_MODE_GCM)
                .setEncryptionPaddings(KeyProperties.ENCRYPTION_PADDING_NONE)
                .setKeySize(256)
                .build(),
        )
        return gen.generateKey()
    }
}

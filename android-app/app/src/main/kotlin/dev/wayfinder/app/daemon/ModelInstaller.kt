package dev.wayfinder.app.daemon

import java.io.File
import java.io.InputStream

/**
 * Puts the on-device sentence-embedding model that the APK carries in its
 * assets (assets/models/all-MiniLM-L6-v2/, placed there by the build) where
 * the daemon loads it: `<dataDir>/models/all-MiniLM-L6-v2/`, the directory
 * `embed_model: "local"` reads (docs/bridge-api.md). A file already there
 * with the asset's size is kept; others are copied to a temporary name and
 * renamed, so a killed copy never leaves a truncated model behind. The
 * weights are the int8 file (daemon/bert prefers it); the float32 weights an
 * older version installed are removed once the int8 ones are in place.
 */
object ModelInstaller {
    const val MODEL_DIR = "models/all-MiniLM-L6-v2"
    val FILES = listOf("config.json", "vocab.txt", "model.int8.safetensors")

    /** Files of earlier versions that the installed model replaces. */
    val OBSOLETE = listOf("model.safetensors")

    /**
     * Installs the model into [dataDir]. [open] opens an asset by path
     * (null when absent), [size] tells its length (-1 unknown). Returns true
     * when every file is in place: the daemon can then be started with
     * `embed_model: "local"`; false when the APK carries no model.
     */
    fun install(dataDir: File, open: (String) -> InputStream?, size: (String) -> Long): Boolean {
        val dir = File(dataDir, MODEL_DIR)
        for (name in FILES) {
            val asset = "$MODEL_DIR/$name"
            val want = size(asset)
            val dst = File(dir, name)
            if (dst.isFile && want >= 0 && dst.length() == want) continue
            val input = open(asset) ?: return false
            dir.mkdirs()
            val tmp = File(dir, "$name.part")
            input.use { src -> tmp.outputStream().use { out -> src.copyTo(out, 1 shl 16) } }
            if (want >= 0 && tmp.length() != want) {
                tmp.delete()
                return false
            }
            if (!tmp.renameTo(dst)) {
                tmp.delete()
                return false
            }
        }
        for (name in OBSOLETE) File(dir, name).delete()
        return true
    }
}

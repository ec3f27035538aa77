package dev.wayfinder.app

import dev.wayfinder.app.daemon.ModelInstaller
import dev.wayfinder.app.settings.Settings
import org.json.JSONObject
import org.junit.Assert.assertArrayEquals
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Rule
import org.junit.Test
import org.junit.rules.TemporaryFolder
import java.io.ByteArrayInputStream
import java.io.File

class ModelInstallerTest {
    @get:Rule val tmp = TemporaryFolder()

    private val assets = ModelInstaller.FILES.associate { "${ModelInstaller.MODEL_DIR}/$it" to "bytes of $it".toByteArray() }

    private fun install(dir: File, files: Map<String, ByteArray>, opened: MutableList<String> = mutableListOf()): Boolean =
        ModelInstaller.install(dir, { p -> files[p]?.let { opened += p; ByteArrayInputStream(it) } }, { p -> files[p]?.size?.toLong() ?: -1L })

    @Test fun copiesTheModelOnceAndKeepsItAfterwards() {
        val dir = tmp.newFolder()
        assertTrue(install(dir, assets))
        for (name in ModelInstaller.FILES) {
            assertArrayEquals(assets["${ModelInstaller.MODEL_DIR}/$name"], File(dir, "${ModelInstaller.MODEL_DIR}/$name").readBytes())
        }
        val opened = mutableListOf<String>()
        assertTrue(install(dir, assets, opened))
        assertEquals("files already in place are not copied again", emptyList<String>(), opened)
        assertFalse(File(dir, "${ModelInstaller.MODEL_DIR}/model.int8.safetensors.part").exists())
    }

    @Test fun theFloat32WeightsOfAnEarlierVersionAreRemoved() {
        val dir = tmp.newFolder()
        val old = File(dir, "${ModelInstaller.MODEL_DIR}/model.safetensors")
        old.parentFile.mkdirs()
        old.writeBytes(byteArrayOf(1, 2, 3))
        assertTrue(install(dir, assets))
        assertFalse(old.exists())
        assertTrue(File(dir, "${ModelInstaller.MODEL_DIR}/model.int8.safetensors").isFile)
    }

    @Test fun aTruncatedFileIsReplaced() {
        val dir = tmp.newFolder()
        assertTrue(install(dir, assets))
        val f = File(dir, "${ModelInstaller.MODEL_DIR}/model.int8.safetensors")
        f.writeBytes(byteArrayOf(1, 2))
        assertTrue(install(dir, assets))
        assertArrayEquals(assets["${ModelInstaller.MODEL_DIR}/model.int8.safetensors"], f.readBytes())
    }

    @Test fun anApkWithoutTheModelStartsWithoutIt() {
        assertFalse(install(tmp.newFolder(), emptyMap()))
        val cfg = JSONObject(Settings().toConfigJson("", ""))
        assertFalse(cfg.has("embed_model"))
        assertEquals("local", JSONObject(Settings().toConfigJson("", "local")).getString("embed_model"))
    }
}

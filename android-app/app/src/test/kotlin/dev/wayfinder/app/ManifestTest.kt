package dev.wayfinder.app

import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import org.w3c.dom.Element
import java.io.File
import javax.xml.parsers.DocumentBuilderFactory

/**
 * The manifest and the accessibility service configuration declare what the
 * code relies on (no aapt here, so these are read as XML). Paths are
 * relative to the app module, the working directory of Gradle's unit tests
 * and of scripts/android-check.sh.
 */
class ManifestTest {
    private val ns = "http://schemas.android.com/apk/res/android"

    private fun parse(path: String): Element {
        val f = File(path)
        assertTrue("${f.absolutePath} missing (run tests from android-app/app)", f.exists())
        val dbf = DocumentBuilderFactory.newInstance().apply { isNamespaceAware = true }
        return dbf.newDocumentBuilder().parse(f).documentElement
    }

    private fun Element.all(tag: String): List<Element> {
        val l = getElementsByTagName(tag)
        return (0 until l.length).map { l.item(it) as Element }
    }

    private fun Element.a(name: String): String = getAttributeNS(ns, name)

    @Test
    fun manifestDeclaresPermissionsComponentsAndFilters() {
        val m = parse("src/main/AndroidManifest.xml")
        val perms = m.all("uses-permission").map { it.a("name") }.toSet()
        for (p in listOf("INTERNET", "RECORD_AUDIO", "FOREGROUND_SERVICE", "FOREGROUND_SERVICE_SPECIAL_USE", "POST_NOTIFICATIONS")) {
            assertTrue("permission $p", "android.permission.$p" in perms)
        }
        val services = m.all("service").associateBy { it.a("name") }
        val a11y = services.getValue(".a11y.WayfinderAccessibilityService")
        assertEquals("android.permission.BIND_ACCESSIBILITY_SERVICE", a11y.a("permission"))
        assertEquals("@xml/accessibility_service_config", a11y.all("meta-data").single().a("resource"))
        val daemon = services.getValue(".daemon.DaemonService")
        assertEquals("specialUse", daemon.a("foregroundServiceType"))
        assertEquals("android.app.PROPERTY_SPECIAL_USE_FGS_SUBTYPE", daemon.all("property").single().a("name"))
        val activities = m.all("activity").associateBy { it.a("name") }
        val assistActions = activities.getValue(".ui.AssistActivity").all("action").map { it.a("name") }
        assertEquals(listOf("android.intent.action.ASSIST", "android.intent.action.VOICE_COMMAND"), assistActions)
        assertTrue(activities.getValue(".ui.MainActivity").all("category").any { it.a("name") == "android.intent.category.LAUNCHER" })
        assertEquals("the assistant runs in its own task", "", activities.getValue(".ui.AssistActivity").getAttributeNodeNS(ns, "taskAffinity")?.value)
    }

    /** Issue 10: no other app can start a replay or answer a question. */
    @Test
    fun replayAndAnswersAreNotExported() {
        val m = parse("src/main/AndroidManifest.xml")
        val activities = m.all("activity").associateBy { it.a("name") }
        val replay = activities.getValue(".ui.ReplayActivity")
        assertEquals("false", replay.a("exported"))
        assertEquals(emptyList<Element>(), replay.all("intent-filter"))
        assertEquals("false", m.all("receiver").single { it.a("name") == ".ui.AskReceiver" }.a("exported"))
        assertEquals("false", m.all("service").single { it.a("name") == ".daemon.DaemonService" }.a("exported"))
        // the exported activities accept no replay action
        for (a in activities.values.filter { it.a("exported") == "true" }) {
            val actions = a.all("action").map { it.a("name") }
            assertTrue("${a.a("name")}: $actions", actions.none { it.contains("REPLAY") })
        }
    }

    @Test
    fun accessibilityConfigAsksForWindowsIdsAndGestures() {
        val c = parse("src/main/res/xml/accessibility_service_config.xml")
        val flags = c.a("accessibilityFlags").split('|').toSet()
        for (f in listOf("flagRetrieveInteractiveWindows", "flagReportViewIds", "flagIncludeNotImportantViews")) {
            assertTrue("flag $f in $flags", f in flags)
        }
        assertEquals("true", c.a("canPerformGestures"))
        assertEquals("true", c.a("canRetrieveWindowContent"))
        assertEquals("typeAllMask", c.a("accessibilityEventTypes"))
        assertEquals("true", c.a("isAccessibilityTool"))
    }
}

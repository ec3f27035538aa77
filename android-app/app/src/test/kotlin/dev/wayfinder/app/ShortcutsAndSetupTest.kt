package dev.wayfinder.app

import android.Manifest
import android.content.pm.ShortcutManager
import android.content.pm.PackageManager
import android.graphics.Insets
import android.view.View
import android.view.WindowInsets
import dev.wayfinder.app.daemon.FlowSummary
import dev.wayfinder.app.ui.OnboardingActivity
import dev.wayfinder.app.ui.PermissionSequence
import dev.wayfinder.app.ui.ReplayActivity
import dev.wayfinder.app.ui.ShortcutPinner
import dev.wayfinder.app.ui.padForSystemBars
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import org.robolectric.Shadows.shadowOf
import org.robolectric.shadows.ShadowShortcutManager

/** 12.3 g (shortcuts) and i (onboarding, sequential permissions, insets). */
@RunWith(RobolectricTestRunner::class)
class ShortcutsAndSetupTest {
    private val app get() = RuntimeEnvironment.getApplication()
    private val token = "0123456789abcdef0123456789abcdef"
    private fun flow(name: String = "Clear the trash", t: String = token) =
        FlowSummary(7, name, "clear the trash", "com.example.files", 3, emptyList(), 2, false, token = t)

    @Test
    fun shortcutCarriesTheTokenToTheNonExportedActivity() {
        val info = ShortcutPinner.info(app, flow())
        val i = info.intent!!
        assertEquals(ReplayActivity::class.java.name, i.component?.className)
        assertEquals(ReplayActivity.ACTION_REPLAY, i.action)
        assertEquals(token, i.getStringExtra(ReplayActivity.EXTRA_TOKEN))
        assertEquals("the flow id is not in the intent", setOf(ReplayActivity.EXTRA_TOKEN), i.extras!!.keySet())
        assertFalse("no pin without a token", ShortcutPinner.pin(app, flow(t = "")))
    }

    @Test
    fun pinnedStateFollowsTheLauncher() {
        val sm = app.getSystemService(ShortcutManager::class.java)!!
        shadowOf(sm).setIsRequestPinShortcutSupported(true)
        assertTrue(ShortcutPinner.pin(app, flow()))
        // the request alone does not tell the daemon the flow is pinned: only the launcher's result does
        assertNull(shadowOf(app).nextStartedService)
        val pinned = sm.pinnedShortcuts.map { it.id }
        assertEquals(listOf("flow-7"), pinned)
        assertEquals(setOf(7L), ShortcutPinner.pinnedFlowIds(app))

        ShortcutPinner.renamed(app, flow("Empty the bin"))
        assertEquals("Empty the bin", sm.pinnedShortcuts.single().shortLabel.toString())

        ShortcutPinner.deleted(app, 7)
        // Robolectric's shadow moves a disabled pinned shortcut into its disabledPinnedShortcuts
        // (it does not flip ShortcutInfo.isEnabled as the platform does)
        val f = ShadowShortcutManager::class.java.getDeclaredField("disabledPinnedShortcuts").apply { isAccessible = true }
        assertEquals("a deleted flow's shortcut is disabled", setOf("flow-7"), (f.get(null) as Map<*, *>).keys)
    }

    @Test
    fun permissionsAreRequestedOneAfterTheOther() {
        val a = Robolectric.buildActivity(OnboardingActivity::class.java).setup().get()
        assertTrue(a.permissionStates().contains("post notifications: not granted"))
        a.askNext()
        assertEquals(listOf(Manifest.permission.POST_NOTIFICATIONS), shadowOf(a).lastRequestedPermission.requestedPermissions.toList())
        // the microphone is asked only once the notification question was answered
        shadowOf(app).grantPermissions(Manifest.permission.POST_NOTIFICATIONS)
        a.onRequestPermissionsResult(shadowOf(a).lastRequestedPermission.requestCode,
            arrayOf(Manifest.permission.POST_NOTIFICATIONS), intArrayOf(PackageManager.PERMISSION_GRANTED))
        assertEquals(listOf(Manifest.permission.RECORD_AUDIO), shadowOf(a).lastRequestedPermission.requestedPermissions.toList())
        assertTrue(a.permissionStates().contains("post notifications: granted"))
        assertEquals(
            listOf(Manifest.permission.RECORD_AUDIO),
            PermissionSequence.all(26),
        )
        assertNull(PermissionSequence.next({ true }, emptySet(), 35))
        assertEquals(Manifest.permission.RECORD_AUDIO, PermissionSequence.next({ false }, setOf(Manifest.permission.POST_NOTIFICATIONS), 35))
    }

    @Test
    fun accessibilitySettingsLinkNamesTheService() {
        val i = OnboardingActivity.accessibilitySettings(app)
        assertEquals(android.provider.Settings.ACTION_ACCESSIBILITY_SETTINGS, i.action)
        assertTrue(i.getStringExtra(":settings:fragment_args_key")!!.endsWith("WayfinderAccessibilityService"))
    }

    @Test
    fun contentIsPaddedBySystemBarsAndKeyboard() {
        val v = View(app)
        v.padForSystemBars(10)
        val insets = WindowInsets.Builder()
            .setInsets(WindowInsets.Type.systemBars(), Insets.of(0, 80, 0, 120))
            .setInsets(WindowInsets.Type.ime(), Insets.of(0, 0, 0, 900))
            .build()
        v.dispatchApplyWindowInsets(insets)
        assertEquals(listOf(10, 90, 10, 910), listOf(v.paddingLeft, v.paddingTop, v.paddingRight, v.paddingBottom))
    }
}

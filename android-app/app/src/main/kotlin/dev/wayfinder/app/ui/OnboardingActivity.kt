package dev.wayfinder.app.ui

import android.app.Activity
import android.content.ComponentName
import android.content.Context
import android.content.Intent
import android.content.pm.PackageManager
import android.net.Uri
import android.os.Build
import android.os.Bundle
import android.provider.Settings
import android.widget.ScrollView
import android.widget.TextView
import dev.wayfinder.app.a11y.DeviceRegistry
import dev.wayfinder.app.a11y.WayfinderAccessibilityService

/**
 * First run: why Wayfinder needs the accessibility service, a link straight
 * to its settings, the Android 13+ "restricted settings" step for an app
 * installed outside a store, and the state of each permission, with the
 * runtime permissions requested one after the other (PermissionSequence).
 */
class OnboardingActivity : Activity() {
    private lateinit var state: TextView
    private val asked = HashSet<String>()

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        title = "Set up Wayfinder"
        savedInstanceState?.getStringArrayList(KEY_ASKED)?.let { asked += it }
        state = TextView(this)
        val body = column(
            heading("Why Wayfinder needs accessibility"),
            TextView(this).apply { text = WHY },
            button("Open accessibility settings") { startActivity(accessibilitySettings(this@OnboardingActivity)) },
            TextView(this).apply { text = RESTRICTED; visibility = if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.TIRAMISU) TextView.VISIBLE else TextView.GONE },
            button("Open Wayfinder's app info") {
                startActivity(Intent(Settings.ACTION_APPLICATION_DETAILS_SETTINGS, Uri.fromParts("package", packageName, null)))
            },
            heading("Permissions"),
            state,
            button("Grant permissions") { askNext() },
            button("Done") {
                markOnboarded(this)
                finish()
            },
        )
        setContentView(ScrollView(this).apply { addView(body) })
        body.padForSystemBars(dp(12))
    }

    override fun onResume() {
        super.onResume()
        state.text = permissionStates()
    }

    override fun onSaveInstanceState(outState: Bundle) {
        super.onSaveInstanceState(outState)
        outState.putStringArrayList(KEY_ASKED, ArrayList(asked))
    }

    /** One line per permission: granted or not. */
    fun permissionStates(): String {
        val lines = ArrayList<String>()
        lines += "Accessibility service: ${if (DeviceRegistry.current != null) "on" else "off"}"
        for (p in PermissionSequence.all()) {
            val name = p.substringAfterLast('.').lowercase().replace('_', ' ')
            lines += "$name: ${if (granted(p)) "granted" else "not granted"}"
        }
        return lines.joinToString("\n")
    }

    private fun granted(p: String) = checkSelfPermission(p) == PackageManager.PERMISSION_GRANTED

    /** Requests the next permission of the sequence, if any. */
    fun askNext() {
        val p = PermissionSequence.next(::granted, asked) ?: return
        asked += p
        requestPermissions(arrayOf(p), REQ_PERMISSION)
    }

    override fun onRequestPermissionsResult(requestCode: Int, permissions: Array<out String>, grantResults: IntArray) {
        super.onRequestPermissionsResult(requestCode, permissions, grantResults)
        state.text = permissionStates()
        if (requestCode == REQ_PERMISSION) askNext() // the next one only after this one was answered
    }

    companion object {
        private const val REQ_PERMISSION = 3
        private const val KEY_ASKED = "asked"
        private const val PREFS = "onboarding"
        private const val KEY_DONE = "done"

        const val WHY = "Wayfinder carries out your commands by reading the screen and tapping, typing and " +
            "scrolling in apps, as you would. Android allows that only to an accessibility service you turn on " +
            "yourself: Settings > Accessibility > Wayfinder. Screen content stays on the phone unless no saved " +
            "route fits a command and you configured a language model; password fields are never read."
        const val RESTRICTED = "Android 13 and later block this setting for apps installed outside an app store " +
            "(\"Restricted setting\"). If the switch is greyed out: open Wayfinder's app info, tap ⋮ > " +
            "Allow restricted settings, then turn the service on."

        fun onboarded(context: Context): Boolean =
            context.getSharedPreferences(PREFS, Context.MODE_PRIVATE).getBoolean(KEY_DONE, false)

        fun markOnboarded(context: Context) {
            context.getSharedPreferences(PREFS, Context.MODE_PRIVATE).edit().putBoolean(KEY_DONE, true).apply()
        }

        /**
         * The accessibility settings, scrolled to Wayfinder's entry where the
         * Settings app supports it (":settings:fragment_args_key" with the
         * service's component; ignored elsewhere).
         */
        fun accessibilitySettings(context: Context): Intent {
            val c = ComponentName(context, WayfinderAccessibilityService::class.java).flattenToString()
            val args = Bundle().apply { putString(":settings:fragment_args_key", c) }
            return Intent(Settings.ACTION_ACCESSIBILITY_SETTINGS)
                .putExtra(":settings:fragment_args_key", c)
                .putExtra(":settings:show_fragment_args", args)
        }
    }
}

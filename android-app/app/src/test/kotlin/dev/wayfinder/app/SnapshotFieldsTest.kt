package dev.wayfinder.app

import android.graphics.Rect
import android.text.InputType
import android.view.accessibility.AccessibilityNodeInfo
import android.view.accessibility.AccessibilityNodeInfo.AccessibilityAction
import android.view.accessibility.AccessibilityWindowInfo
import dev.wayfinder.app.a11y.TreeSerializer
import dev.wayfinder.app.model.SnapshotJson
import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNotEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner

/** 12.3 f: the fields the snapshot gained, and the capture id (12.3 i). */
@RunWith(RobolectricTestRunner::class)
class SnapshotFieldsTest {
    private fun screen(wifiState: String = "On"): List<AccessibilityWindowInfo> {
        val search = Fixtures.node("android.widget.EditText", Rect(0, 100, 1080, 200), text = "Search notes", id = "${Fixtures.PKG}:id/q") {
            isEditable = true; isFocusable = true; hintText = "Search notes"; isShowingHintText = true
            inputType = InputType.TYPE_CLASS_TEXT
            addAction(AccessibilityAction.ACTION_SET_TEXT)
            addAction(AccessibilityAction.ACTION_IME_ENTER)
            addAction(AccessibilityAction(0x7f0a0001, "Clear query"))
        }
        val email = Fixtures.node("android.widget.EditText", Rect(0, 220, 1080, 320), text = "bob@") {
            isEditable = true; error = "Not an e-mail address"
            inputType = InputType.TYPE_CLASS_TEXT or InputType.TYPE_TEXT_VARIATION_EMAIL_ADDRESS
        }
        val pin = Fixtures.node("android.widget.EditText", Rect(0, 340, 1080, 440), text = "4711") {
            isEditable = true; isPassword = true
            inputType = InputType.TYPE_CLASS_NUMBER or InputType.TYPE_NUMBER_VARIATION_PASSWORD
        }
        val wifi = Fixtures.node("android.widget.Switch", Rect(0, 460, 1080, 560), text = "Wi-Fi") {
            isCheckable = true; isChecked = true; isClickable = true; stateDescription = wifiState
            addAction(AccessibilityAction.ACTION_CLICK)
        }
        val root = Fixtures.node("android.widget.FrameLayout", Rect(0, 0, 1080, 2400), children = listOf(search, email, pin, wifi)) {
            paneTitle = "Notes search"
        }
        return listOf(Fixtures.window(7, AccessibilityWindowInfo.TYPE_APPLICATION, 1, root, Rect(0, 0, 1080, 2400), focused = true))
    }

    @Test
    fun writesTheNewFields() {
        val cap = TreeSerializer().serialize(screen(), 1080, 2400, captureId = "ab12-3")
        val json = SnapshotJson.write(cap.snapshot)
        Fixtures.contract("fields.snapshot.json", json)
        val o = JSONObject(json)
        assertEquals("ab12-3", o.getString("capture_id"))
        val nodes = o.getJSONArray("windows").getJSONObject(0).getJSONArray("nodes")
        val root = nodes.getJSONObject(0)
        val search = nodes.getJSONObject(1)
        val email = nodes.getJSONObject(2)
        val pin = nodes.getJSONObject(3)
        val wifi = nodes.getJSONObject(4)
        assertEquals("Notes search", root.getString("pane_title"))
        assertFalse("text shown as hint is no content: $search", search.has("text"))
        assertEquals("Search notes", search.getString("hint"))
        assertEquals(InputType.TYPE_CLASS_TEXT, search.getInt("input_type"))
        val acts = search.getJSONArray("actions")
        assertEquals(listOf("set_text", "ime_enter", "custom:Clear query"), (0 until acts.length()).map { acts.getString(it) })
        assertEquals("Not an e-mail address", email.getString("error"))
        assertEquals("bob@", email.getString("text"))
        assertTrue(pin.getBoolean("password"))
        assertFalse(json.contains("4711"))
        assertEquals(InputType.TYPE_CLASS_NUMBER or InputType.TYPE_NUMBER_VARIATION_PASSWORD, pin.getInt("input_type"))
        assertEquals("On", wifi.getString("state_description"))
        assertEquals(listOf("click"), listOf(wifi.getJSONArray("actions").getString(0)))
    }

    @Test
    fun fingerprintFollowsWhatTheUserSees() {
        val a = TreeSerializer().serialize(screen(), 1080, 2400, captureId = "x-1")
        val b = TreeSerializer().serialize(screen(), 1080, 2400, captureId = "x-2")
        assertEquals("capture ids are not content", a.fingerprint, b.fingerprint)
        assertNotEquals(a.fingerprint, TreeSerializer().serialize(screen("Off"), 1080, 2400).fingerprint)
        // the status bar's clock is not what the action changed
        val bar = Fixtures.window(9, AccessibilityWindowInfo.TYPE_SYSTEM, 5,
            Fixtures.node("android.widget.TextView", Rect(0, 0, 200, 80), pkg = "com.android.systemui", text = "12:01"), Rect(0, 0, 1080, 80))
        assertEquals(a.fingerprint, TreeSerializer().serialize(screen() + bar, 1080, 2400).fingerprint)
    }

    @Test
    fun sameTargetComparesTextDescIdAndClass() {
        val cap = TreeSerializer().serialize(screen(), 1080, 2400)
        val wifi = cap.node(4)!!
        val live = AccessibilityNodeInfo().apply { className = "android.widget.Switch"; text = "Wi-Fi" }
        assertTrue(TreeSerializer.sameTarget(wifi, live))
        assertFalse(TreeSerializer.sameTarget(wifi, AccessibilityNodeInfo().apply { className = "android.widget.Switch"; text = "Bluetooth" }))
        assertFalse(TreeSerializer.sameTarget(wifi, AccessibilityNodeInfo().apply { className = "android.widget.CheckBox"; text = "Wi-Fi" }))
        assertFalse(TreeSerializer.sameTarget(wifi, AccessibilityNodeInfo().apply { className = "android.widget.Switch"; text = "Wi-Fi"; contentDescription = "x" }))
        assertFalse(TreeSerializer.sameTarget(wifi, AccessibilityNodeInfo().apply { className = "android.widget.Switch"; text = "Wi-Fi"; viewIdResourceName = "a:id/b" }))
        // a field's text is what was typed, not its identity
        val email = cap.node(2)!!
        assertTrue(TreeSerializer.sameTarget(email, AccessibilityNodeInfo().apply { className = "android.widget.EditText"; text = "bob@example.org" }))
    }
}

package dev.wayfinder.app

import android.graphics.Rect
import android.view.accessibility.AccessibilityNodeInfo
import android.view.accessibility.AccessibilityWindowInfo
import org.robolectric.Shadows.shadowOf
import java.io.File

/**
 * Builds real framework accessibility objects (AccessibilityNodeInfo,
 * AccessibilityWindowInfo) for the tests; Robolectric's shadows supply
 * the parts that normally come from the system (children, window roots).
 */
object Fixtures {
    const val PKG = "com.example.notes"

    fun node(
        cls: String,
        bounds: Rect,
        pkg: String = PKG,
        text: String? = null,
        desc: String? = null,
        id: String? = null,
        children: List<AccessibilityNodeInfo> = emptyList(),
        set: AccessibilityNodeInfo.() -> Unit = {},
    ): AccessibilityNodeInfo {
        val n = AccessibilityNodeInfo()
        n.className = cls
        n.packageName = pkg
        n.setBoundsInScreen(bounds)
        n.isEnabled = true
        n.isVisibleToUser = true
        text?.let { n.text = it }
        desc?.let { n.contentDescription = it }
        id?.let { n.viewIdResourceName = it }
        n.set()
        for (c in children) shadowOf(n).addChild(c)
        return n
    }

    fun window(
        id: Int,
        type: Int,
        layer: Int,
        root: AccessibilityNodeInfo?,
        bounds: Rect,
        focused: Boolean = false,
        title: String? = null,
    ): AccessibilityWindowInfo {
        @Suppress("DEPRECATION")
        val w = AccessibilityWindowInfo.obtain()
        val s = shadowOf(w)
        s.setId(id)
        s.setType(type)
        s.setLayer(layer)
        s.setBoundsInScreen(bounds)
        s.setFocused(focused)
        title?.let { s.setTitle(it) }
        if (root != null) s.setRoot(root)
        return w
    }

    /** The notes screen used across tests; node ids in pre-order are given in the comments. */
    class NotesScreen {
        val item1Text = node("android.widget.TextView", Rect(0, 600, 1080, 700), text = "Groceries")
        val item1 = node("android.widget.LinearLayout", Rect(0, 600, 1080, 700), children = listOf(item1Text)) { isClickable = true }
        val item2 = node("android.widget.LinearLayout", Rect(0, 700, 1080, 800), children = listOf(
            node("android.widget.TextView", Rect(0, 700, 1080, 800), text = "Packing list"),
        )) { isClickable = true; isLongClickable = true }
        val list = node("androidx.recyclerview.widget.RecyclerView", Rect(0, 500, 1080, 2000), id = "$PKG:id/list", children = listOf(item1, item2)) {
            isScrollable = true; isFocusable = true
        }
        val title = node("android.widget.EditText", Rect(40, 100, 1040, 200), text = "Shopping", id = "$PKG:id/title") {
            isEditable = true; isFocusable = true; isFocused = true; isClickable = true; hintText = "Title"
        }
        val password = node("android.widget.EditText", Rect(40, 220, 1040, 320), text = "hunter2", id = "$PKG:id/pin") {
            isEditable = true; isFocusable = true; isPassword = true; hintText = "PIN"
        }
        val save = node("android.widget.Button", Rect(40, 340, 520, 460), text = "Save", id = "$PKG:id/save") {
            isClickable = true; isFocusable = true
        }
        val column = node("android.widget.LinearLayout", Rect(0, 0, 1080, 2000), children = listOf(title, password, save, list))
        val root = node("android.widget.FrameLayout", Rect(0, 0, 1080, 2400), children = listOf(column))
        val key = node("android.inputmethodservice.Keyboard\$Key", Rect(0, 2000, 100, 2100), pkg = "com.example.ime", desc = "q") { isClickable = true }
        val enterKey = node("android.inputmethodservice.Keyboard\$Key", Rect(900, 2200, 1080, 2300), pkg = "com.example.ime", desc = "Search") { isClickable = true }
        val imeRoot = node("android.widget.FrameLayout", Rect(0, 1800, 1080, 2400), pkg = "com.example.ime", children = listOf(key, enterKey))

        val app = window(42, AccessibilityWindowInfo.TYPE_APPLICATION, 1, root, Rect(0, 0, 1080, 2400), focused = true, title = "Notes")
        val ime = window(43, AccessibilityWindowInfo.TYPE_INPUT_METHOD, 2, imeRoot, Rect(0, 1800, 1080, 2400))
        val statusBar = window(44, AccessibilityWindowInfo.TYPE_SYSTEM, 3, null, Rect(0, 0, 1080, 80))
        val windows = listOf(app, ime, statusBar)

        // pre-order ids: 0 root, 1 column, 2 title, 3 password, 4 save, 5 list,
        // 6 item1, 7 item1Text, 8 item2, 9 item2 text, 10 imeRoot, 11 key, 12 enterKey
    }

    /** Writes [json] for the Go contract check of android-check.sh (no-op under Gradle). */
    fun contract(name: String, json: String) {
        val dir = System.getProperty("wayfinder.contract.dir") ?: return
        File(dir, name).writeText(json)
    }
}

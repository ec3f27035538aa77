package dev.wayfinder.app.ui

import android.os.Build
import android.view.View
import android.view.WindowInsets

/**
 * Edge-to-edge (enforced for apps targeting Android 15): the content view
 * draws under the status and navigation bars, so it pads itself by the
 * system bars, the display cutout and the keyboard, keeping [base] px of
 * its own padding on every side. Before API 30 the platform still fits
 * the window to the bars (nothing to do).
 */
fun View.padForSystemBars(base: Int) {
    setPadding(base, base, base, base)
    if (Build.VERSION.SDK_INT < Build.VERSION_CODES.R) return
    setOnApplyWindowInsetsListener { v, insets ->
        val i = insets.getInsets(WindowInsets.Type.systemBars() or WindowInsets.Type.displayCutout() or WindowInsets.Type.ime())
        v.setPadding(base + i.left, base + i.top, base + i.right, base + i.bottom)
        insets
    }
    requestApplyInsets()
}

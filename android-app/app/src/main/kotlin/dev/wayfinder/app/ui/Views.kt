package dev.wayfinder.app.ui

import android.content.Context
import android.view.View
import android.view.ViewGroup
import android.widget.Button
import android.widget.LinearLayout
import android.widget.TextView

/** Small helpers for the programmatic layouts (the app has no XML layouts and no R class). */
internal fun Context.dp(v: Int): Int = (v * resources.displayMetrics.density + 0.5f).toInt()

internal fun Context.column(vararg children: View): LinearLayout = LinearLayout(this).apply {
    orientation = LinearLayout.VERTICAL
    val pad = dp(12)
    setPadding(pad, pad, pad, pad)
    children.forEach { addView(it) }
}

internal fun Context.row(vararg children: View): LinearLayout = LinearLayout(this).apply {
    orientation = LinearLayout.HORIZONTAL
    children.forEach { addView(it) }
}

internal fun Context.button(label: String, onClick: () -> Unit): Button = Button(this).apply {
    text = label
    setOnClickListener { onClick() }
}

internal fun Context.heading(label: String): TextView = TextView(this).apply {
    text = label
    textSize = 16f
    setPadding(0, dp(12), 0, dp(4))
}

internal fun View.weighted(weight: Float, vertical: Boolean = false): View = apply {
    layoutParams = if (vertical) {
        LinearLayout.LayoutParams(ViewGroup.LayoutParams.MATCH_PARENT, 0, weight)
    } else {
        LinearLayout.LayoutParams(0, ViewGroup.LayoutParams.WRAP_CONTENT, weight)
    }
}

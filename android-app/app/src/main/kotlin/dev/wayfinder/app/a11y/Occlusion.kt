package dev.wayfinder.app.a11y

import dev.wayfinder.app.model.Bounds
import dev.wayfinder.app.model.SnapWindow

/**
 * Where a gesture may land: the part of a box that windows above its own
 * window (the keyboard, a dialog, a bubble) do not cover. Pure geometry on
 * the snapshot's windows; px, right and bottom exclusive.
 */
object Occlusion {
    /** [b] minus [cut]: up to four boxes covering what of [b] lies outside [cut]. */
    fun subtract(b: Bounds, cut: Bounds): List<Bounds> {
        val l = maxOf(b.left, cut.left)
        val t = maxOf(b.top, cut.top)
        val r = minOf(b.right, cut.right)
        val bo = minOf(b.bottom, cut.bottom)
        if (l >= r || t >= bo) return if (b.isEmpty()) emptyList() else listOf(b) // no overlap
        return listOf(
            Bounds(b.left, b.top, b.right, t), // above the cut
            Bounds(b.left, bo, b.right, b.bottom), // below
            Bounds(b.left, t, l, bo), // left of it
            Bounds(r, t, b.right, bo), // right of it
        ).filter { !it.isEmpty() }
    }

    /**
     * The largest box of [b] that no window with a layer above [layer]
     * covers, or null when they cover all of it. Windows without area
     * (invisible) cover nothing.
     */
    fun visiblePart(b: Bounds, layer: Int, windows: List<SnapWindow>): Bounds? {
        var parts = if (b.isEmpty()) emptyList() else listOf(b)
        for (w in windows) {
            if (w.layer <= layer || w.bounds.isEmpty()) continue
            parts = parts.flatMap { subtract(it, w.bounds) }
            if (parts.isEmpty()) return null
        }
        return parts.maxByOrNull { it.width.toLong() * it.height }
    }
}

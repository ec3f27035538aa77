package dev.wayfinder.app

import dev.wayfinder.app.a11y.Occlusion
import dev.wayfinder.app.model.Bounds
import dev.wayfinder.app.model.SnapWindow
import org.junit.Assert.assertEquals
import org.junit.Test

/** 12.3 e: gestures land on the part of a box that higher windows leave free. */
class OcclusionTest {
    private fun win(layer: Int, b: Bounds, type: String = "input_method") = SnapWindow(id = layer, type = type, layer = layer, bounds = b)

    @Test
    fun visiblePart() {
        val field = Bounds(0, 1700, 1080, 1900)
        data class Case(val name: String, val b: Bounds, val layer: Int, val windows: List<SnapWindow>, val want: Bounds?)
        val keyboard = win(2, Bounds(0, 1800, 1080, 2400))
        val cases = listOf(
            Case("nothing above", field, 1, listOf(win(1, Bounds(0, 0, 1080, 2400), "application")), field),
            Case("keyboard covers the lower half", field, 1, listOf(keyboard), Bounds(0, 1700, 1080, 1800)),
            Case("a lower window covers nothing", field, 3, listOf(keyboard), field),
            Case("fully covered", Bounds(0, 1900, 1080, 2000), 1, listOf(keyboard), null),
            Case("a bubble in the middle leaves the larger side", Bounds(0, 0, 1000, 100), 1,
                listOf(win(4, Bounds(600, 0, 700, 100), "system")), Bounds(0, 0, 600, 100)),
            Case("invisible windows cover nothing", field, 1, listOf(win(5, Bounds(0, 0, 0, 0))), field),
            Case("empty box", Bounds(5, 5, 5, 5), 1, emptyList(), null),
        )
        for (c in cases) assertEquals(c.name, c.want, Occlusion.visiblePart(c.b, c.layer, c.windows))
    }

    @Test
    fun subtractSplitsIntoTheUncoveredBoxes() {
        val parts = Occlusion.subtract(Bounds(0, 0, 100, 100), Bounds(25, 25, 75, 75))
        assertEquals(4, parts.size)
        assertEquals(100 * 100 - 50 * 50, parts.sumOf { it.width * it.height })
        assertEquals(listOf(Bounds(0, 0, 10, 10)), Occlusion.subtract(Bounds(0, 0, 10, 10), Bounds(20, 20, 30, 30)))
        assertEquals(emptyList<Bounds>(), Occlusion.subtract(Bounds(0, 0, 10, 10), Bounds(-5, -5, 50, 50)))
    }
}

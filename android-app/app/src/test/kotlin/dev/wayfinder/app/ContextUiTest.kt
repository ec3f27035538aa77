package dev.wayfinder.app

import android.app.Activity
import android.app.AlertDialog
import android.content.DialogInterface
import android.os.Looper
import android.view.View
import android.view.ViewGroup
import android.widget.CheckBox
import android.widget.EditText
import dev.wayfinder.app.daemon.ContextEntry
import dev.wayfinder.app.daemon.ContextValue
import dev.wayfinder.app.ui.ContextActivity
import dev.wayfinder.app.ui.ContextDialogs
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.Shadows.shadowOf
import org.robolectric.shadows.ShadowAlertDialog

/** The people and places screen: the owner's context library on the phone. */
@RunWith(RobolectricTestRunner::class)
class ContextUiTest {
    private fun activity(): Activity = Robolectric.buildActivity(Activity::class.java).setup().get()

    private fun idle() = shadowOf(Looper.getMainLooper()).idle()

    private fun fields(v: View): List<View> = when (v) {
        is EditText, is CheckBox -> listOf(v)
        is ViewGroup -> (0 until v.childCount).flatMap { fields(v.getChildAt(it)) }
        else -> emptyList()
    }

    @Test
    fun addingAPersonNeedsANameAndKeepsTheValuePrivate() {
        val saved = ArrayList<ContextEntry>()
        val d = ContextDialogs.add(activity(), "person") { saved += it }
        val f = fields(d.window!!.decorView)
        val (name, aliases, field, value) = f.take(4).map { it as EditText }
        val private = f[4] as CheckBox
        assertEquals("phone", field.text.toString())
        assertTrue("private unless unticked", private.isChecked)

        value.setText("+1 555 0100")
        d.getButton(DialogInterface.BUTTON_POSITIVE).performClick()
        idle()
        assertEquals("no name, nothing stored", emptyList<ContextEntry>(), saved)
        assertTrue(d.isShowing)

        name.setText(" Dora Pike ")
        aliases.setText("mum, , Mother ")
        d.getButton(DialogInterface.BUTTON_POSITIVE).performClick()
        idle()
        assertEquals(listOf(ContextEntry(0, "person", "Dora Pike", listOf("mum", "Mother"), listOf(ContextValue("phone", "+1 555 0100", true)))), saved)

        val place = ContextDialogs.add(activity(), "place") { saved += it }
        val pf = fields(place.window!!.decorView)
        assertEquals("address", (pf[2] as EditText).text.toString())
        (pf[0] as EditText).setText("Home")
        place.getButton(DialogInterface.BUTTON_POSITIVE).performClick()
        idle()
        assertEquals("a place without a value", ContextEntry(0, "place", "Home", emptyList(), emptyList()), saved.last())
    }

    @Test
    fun deletingAnEntryIsConfirmedFirst() {
        var deleted = 0
        val e = ContextEntry(3, "person", "Dora Pike", listOf("mum"), listOf(ContextValue("phone", "", true)))
        val d = ContextDialogs.entry(activity(), e, onEdit = {}, onDelete = { deleted++ })
        assertEquals("person\nDora Pike (mum) — phone: private", shadowOf(d).message.toString())
        d.getButton(DialogInterface.BUTTON_NEUTRAL).performClick()
        idle()
        assertEquals("not before the owner confirms", 0, deleted)
        val confirm = ShadowAlertDialog.getLatestAlertDialog() as AlertDialog
        confirm.getButton(DialogInterface.BUTTON_POSITIVE).performClick()
        idle()
        assertEquals(1, deleted)
    }

    @Test
    fun editingKeepsAPrivateValueLeftEmptyAndTheOtherValues() {
        val e = ContextEntry(3, "person", "Dora Pike", listOf("mum"), listOf(ContextValue("phone", "", true), ContextValue("email", "dora@example.org")))
        val saved = ArrayList<ContextEntry>()
        val d = ContextDialogs.edit(activity(), e) { saved += it }
        val (name, aliases, field, value) = fields(d.window!!.decorView).take(4).map { it as EditText }
        assertEquals("Dora Pike", name.text.toString())
        assertEquals("mum", aliases.text.toString())
        assertEquals("phone", field.text.toString())
        assertEquals("a private value is never shown, even to edit it", "", value.text.toString())
        aliases.setText("mum, mother")
        d.getButton(DialogInterface.BUTTON_POSITIVE).performClick()
        idle()
        assertEquals(
            "the private phone goes back empty (the daemon keeps it), the email as it was",
            ContextEntry(3, "person", "Dora Pike", listOf("mum", "mother"), listOf(ContextValue("phone", "", true), ContextValue("email", "dora@example.org"))),
            saved.single(),
        )

        val moved = ContextDialogs.edit(activity(), e) { saved += it }
        val mf = fields(moved.window!!.decorView)
        (mf[2] as EditText).setText("mobile")
        moved.getButton(DialogInterface.BUTTON_POSITIVE).performClick()
        idle()
        assertEquals("an empty value under another field is dropped, not stored empty", listOf(ContextValue("email", "dora@example.org")), saved.last().values)
    }

    @Test
    fun theScreenOpensWithoutTheDaemonYet() {
        val c = Robolectric.buildActivity(ContextActivity::class.java).setup()
        for (label in listOf("Add a person", "Add a place")) {
            val found = ArrayList<View>()
            c.get().window.decorView.findViewsWithText(found, label, View.FIND_VIEWS_WITH_TEXT)
            assertEquals(label, 1, found.size)
        }
        c.destroy() // unbinds cleanly before any reply
    }
}

package dev.wayfinder.app.ui

import android.app.Activity
import android.app.AlertDialog
import android.content.Context
import android.os.Bundle
import android.text.InputType
import android.widget.ArrayAdapter
import android.widget.CheckBox
import android.widget.EditText
import android.widget.LinearLayout
import android.widget.ListView
import android.widget.TextView
import android.widget.Toast
import dev.wayfinder.app.daemon.ContextEntry
import dev.wayfinder.app.daemon.ContextValue
import dev.wayfinder.app.daemon.Requests
import kotlinx.coroutines.MainScope
import kotlinx.coroutines.cancel
import kotlinx.coroutines.launch

/**
 * The owner's context library (docs/context.md): the people and places
 * Wayfinder knows by the words the owner uses ("text mom I'm late"). Lists
 * them (a private value is never shown), adds a person or a place, edits
 * one (a private value left empty is kept) and forgets one. What a run
 * learned with the owner's consent ("Remember Jo's phone number?") shows
 * up here too.
 */
class ContextActivity : Activity() {
    private val scope = MainScope()
    private val daemon = DaemonConnection(this)
    private lateinit var status: TextView
    private lateinit var adapter: ArrayAdapter<String>
    private var entries: List<ContextEntry> = emptyList()

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        status = TextView(this)
        adapter = ArrayAdapter(this, android.R.layout.simple_list_item_1, ArrayList())
        val list = ListView(this).apply {
            adapter = this@ContextActivity.adapter
            setOnItemClickListener { _, _, i, _ ->
                entries.getOrNull(i)?.let { e ->
                    ContextDialogs.entry(
                        this@ContextActivity, e,
                        onEdit = { ContextDialogs.edit(this@ContextActivity, e) { send(Requests.contextSet(it)) } },
                        onDelete = { send(Requests.contextDelete(e.id)) },
                    )
                }
            }
        }
        val root = column(
            TextView(this).apply { text = "Whom and what Wayfinder knows by the words you use (\"mom\", \"home\"). Private values are never shown, logged or sent to a model." },
            row(
                button("Add a person") { ContextDialogs.add(this, "person") { send(Requests.contextSet(it)) } },
                button("Add a place") { ContextDialogs.add(this, "place") { send(Requests.contextSet(it)) } },
            ),
            status,
            list.weighted(1f, vertical = true),
        )
        setContentView(root)
        root.padForSystemBars(dp(12))
        daemon.bind(onConnect = { load() })
    }

    override fun onDestroy() {
        daemon.unbind()
        scope.cancel()
        super.onDestroy()
    }

    private fun load() {
        daemon.whenBound { svc ->
            scope.launch {
                try {
                    entries = ContextEntry.parseList(svc.call(Requests.contextList()))
                    adapter.clear()
                    adapter.addAll(entries.map { it.line() })
                    status.text = if (entries.isEmpty()) "Nobody yet. Add one, or answer \"remember it?\" when Wayfinder asks." else ""
                } catch (e: Exception) {
                    status.text = "Could not list them: ${e.message}"
                }
            }
        }
    }

    /** Sends a change, then lists again. */
    private fun send(request: String) {
        daemon.whenBound { svc ->
            scope.launch {
                try {
                    svc.call(request)
                    load()
                } catch (e: Exception) {
                    Toast.makeText(this@ContextActivity, e.message ?: "failed", Toast.LENGTH_LONG).show()
                }
            }
        }
    }
}

/** The context library's dialogs. Callbacks run on the main thread. */
object ContextDialogs {
    /** One entry, every value (private ones as "private"): Edit, or Forget after a confirmation. */
    fun entry(context: Context, e: ContextEntry, onEdit: () -> Unit, onDelete: () -> Unit): AlertDialog =
        AlertDialog.Builder(context)
            .setTitle(e.name)
            .setMessage("${e.kind}\n${e.line()}")
            .setPositiveButton("Edit") { _, _ -> onEdit() }
            .setNeutralButton("Forget") { _, _ -> Dialogs.confirm(context, "Forget \"${e.name}\" and everything stored with it?", onDelete) }
            .setNegativeButton("Close", null)
            .show()

    /**
     * A new person or place ([kind]): name, the words the owner uses for it
     * (comma-separated), and one value (a person's phone, a place's
     * address), private unless unticked. Save needs a name; [onSave] gets
     * the entry to store.
     */
    fun add(context: Context, kind: String, onSave: (ContextEntry) -> Unit): AlertDialog = form(context, ContextEntry(0, kind, "", emptyList(), emptyList()), onSave)

    /**
     * [e] to change: its name, words and first value (a private one shows
     * empty; left empty, the daemon keeps it: context.set); its other
     * values go back as they were.
     */
    fun edit(context: Context, e: ContextEntry, onSave: (ContextEntry) -> Unit): AlertDialog = form(context, e, onSave)

    private fun form(context: Context, e: ContextEntry, onSave: (ContextEntry) -> Unit): AlertDialog {
        val person = e.kind == "person"
        val first = e.values.firstOrNull()
        fun field(hint: String, text: String, type: Int = InputType.TYPE_CLASS_TEXT) = EditText(context).apply {
            this.hint = hint
            inputType = type
            setSingleLine()
            setText(text)
        }
        val name = field(if (person) "Name (Mary Smith)" else "Name (Home)", e.name)
        val aliases = field(if (person) "What you call them: mom, mum" else "What you call it: home", e.aliases.joinToString(", "))
        val key = field("Field", first?.field ?: if (person) "phone" else "address")
        val keepHint = if (first?.private == true) "private: leave empty to keep it" else if (person) "+1 555 0100" else "12 Elm Street"
        val value = field(keepHint, if (first?.private == true) "" else first?.value.orEmpty(), if (person) InputType.TYPE_CLASS_PHONE else InputType.TYPE_CLASS_TEXT)
        val private = CheckBox(context).apply {
            text = "Private: kept out of logs, events and prompts"
            isChecked = first?.private ?: true
        }
        val box = LinearLayout(context).apply {
            orientation = LinearLayout.VERTICAL
            listOf(name, aliases, key, value, private).forEach { addView(it) }
        }
        val title = when {
            e.id > 0 -> "Edit ${e.name}"
            person -> "Add a person"
            else -> "Add a place"
        }
        val b = AlertDialog.Builder(context).setTitle(title).setView(box).setNegativeButton("Cancel", null)
        // a missing name keeps the dialog open
        return Dialogs.showValidated(b, "Save") {
            val n = name.text.toString().trim()
            if (n.isEmpty()) {
                name.error = "A name is needed"
                return@showValidated false
            }
            val f = key.text.toString().trim().ifEmpty { "value" }
            val v = value.text.toString().trim()
            // an empty private value of the field it had is kept by the daemon; any other empty value is dropped
            val kept = v.isEmpty() && first != null && first.private && private.isChecked && f.equals(first.field, ignoreCase = true)
            val edited = if (v.isNotEmpty() || kept) listOf(ContextValue(f, v, private.isChecked, first?.allowInPrompt == true && private.isChecked)) else emptyList()
            val words = aliases.text.toString().split(',').map { it.trim() }.filter { it.isNotEmpty() }
            onSave(e.copy(name = n, aliases = words, values = edited + e.values.drop(1)))
            true
        }
    }
}

package dev.wayfinder.app.ui

import android.app.AlertDialog
import android.content.Context
import android.text.InputType
import android.widget.EditText
import android.widget.LinearLayout
import android.widget.TextView
import dev.wayfinder.app.daemon.AskRequest
import dev.wayfinder.app.daemon.FlowSummary
import dev.wayfinder.app.daemon.FlowVersion
import dev.wayfinder.app.daemon.Instruction
import java.text.DateFormat
import java.util.Date

/** The app's dialogs, built in code. Callbacks run on the main thread. */
object Dialogs {
    /**
     * Shows the agent's question with every option it offers: up to two
     * options become buttons, more become a list (["yes", "no", "always
     * for this flow"] shows all three); no options means a free-text
     * reply. Stop is always there: [onCancelRun] stops the run instead of
     * answering.
     */
    fun ask(context: Context, ask: AskRequest, onAnswer: (String) -> Unit, onCancelRun: () -> Unit): AlertDialog {
        val b = AlertDialog.Builder(context).setTitle("Wayfinder asks").setCancelable(false)
        val opts = ask.options
        when {
            opts.isEmpty() -> {
                val input = EditText(context)
                b.setMessage(ask.question).setView(input)
                    .setPositiveButton("Send") { _, _ -> onAnswer(input.text.toString()) }
            }
            opts.size <= 2 -> {
                b.setMessage(ask.question)
                b.setPositiveButton(opts[0]) { _, _ -> onAnswer(opts[0]) }
                if (opts.size > 1) b.setNeutralButton(opts[1]) { _, _ -> onAnswer(opts[1]) }
            }
            // a list has no room for a message: the question is the title
            else -> b.setTitle(ask.question).setItems(opts.toTypedArray()) { _, i -> onAnswer(opts[i]) }
        }
        b.setNegativeButton("Stop") { _, _ -> onCancelRun() }
        return b.show()
    }

    /**
     * Replay / steps / rename / pin / delete for one saved flow, "don't ask
     * again" for one with sensitive steps, and its earlier versions once it
     * has any (a repair or relearning wrote a new one: [onVersions]).
     */
    fun flowMenu(
        context: Context,
        flow: FlowSummary,
        onReplay: () -> Unit,
        onRename: () -> Unit,
        onPin: () -> Unit,
        onDelete: () -> Unit,
        onAllowSensitive: (Boolean) -> Unit = {},
        onVersions: () -> Unit = {},
        onSteps: () -> Unit = {},
    ): AlertDialog {
        val items = ArrayList<Pair<String, () -> Unit>>()
        items += "Replay" to onReplay
        items += "Steps" to onSteps
        items += "Rename" to onRename
        items += "Pin to home screen" to onPin
        if (flow.sensitive) {
            items += if (flow.allowSensitive) {
                "Ask me again before its sensitive steps" to { onAllowSensitive(false) }
            } else {
                "Don't ask again before its sensitive steps" to {
                    confirm(context, "Run the sensitive steps of \"${flow.name}\" (send, delete, pay, …) without asking?") { onAllowSensitive(true) }
                }
            }
        }
        if (flow.version > 1) items += "Earlier versions" to onVersions
        items += "Delete" to { confirm(context, "Delete \"${flow.name}\"?", onDelete) }
        return AlertDialog.Builder(context)
            .setTitle(flow.title)
            .setItems(items.map { it.first }.toTypedArray()) { _, i -> items[i].second() }
            .show()
    }

    /**
     * The flow's versions, newest first ("v3 · repaired · <date>", the
     * current one marked). Tapping one shows its steps; an earlier one can
     * be restored ([onRestore] with its number), which writes it again as
     * the newest version: nothing is deleted.
     */
    fun versions(context: Context, flow: FlowSummary, versions: List<FlowVersion>, onRestore: (Int) -> Unit): AlertDialog {
        val newest = versions.sortedByDescending { it.version }
        return AlertDialog.Builder(context)
            .setTitle("Versions of \"${flow.title}\"")
            .setItems(newest.map(::versionLine).toTypedArray()) { _, i -> version(context, newest[i], onRestore) }
            .setNegativeButton("Close", null)
            .show()
    }

    /** "v3 (current) · repaired · 28/11/2026 14:02" in the phone's date format. */
    fun versionLine(v: FlowVersion): String {
        val current = if (v.current) " (current)" else ""
        val at = if (v.createdMs > 0) " · " + DateFormat.getDateTimeInstance(DateFormat.SHORT, DateFormat.SHORT).format(Date(v.createdMs)) else ""
        return "v${v.version}$current · ${v.reason.ifBlank { "saved" }}$at"
    }

    /** A flow's steps as a replay takes them, numbered (flows.get's actions). */
    fun steps(context: Context, title: String, actions: List<String>): AlertDialog =
        AlertDialog.Builder(context).setTitle(title).setMessage(numbered(actions)).setNegativeButton("Close", null).show()

    /** "1. tap “Settings”\n2. …", or "(no steps)". */
    fun numbered(actions: List<String>): String = actions.mapIndexed { i, a -> "${i + 1}. $a" }.joinToString("\n").ifEmpty { "(no steps)" }

    private fun version(context: Context, v: FlowVersion, onRestore: (Int) -> Unit) {
        val b = AlertDialog.Builder(context).setTitle(versionLine(v)).setMessage(numbered(v.actions)).setNegativeButton("Close", null)
        if (!v.current) b.setPositiveButton("Restore this version") { _, _ -> onRestore(v.version) }
        b.show()
    }

    /**
     * Shared steps as the phone would follow them, before anything runs:
     * the instructions, numbered, and a field for the goal they reach (it
     * names the flow learned from them: [goal] prefilled from the share's
     * subject). Follow calls [onFollow] with the goal; "Use as a command"
     * calls [onCommand] (the text goes to the command box).
     */
    fun followSteps(context: Context, steps: List<Instruction>, goal: String, onFollow: (String) -> Unit, onCommand: () -> Unit): AlertDialog {
        val list = TextView(context).apply {
            text = steps.mapIndexed { i, s -> "${i + 1}. ${s.describe()}" }.joinToString("\n")
        }
        val field = EditText(context).apply {
            hint = "What do these steps do? (names the flow)"
            setText(goal)
            inputType = InputType.TYPE_CLASS_TEXT
        }
        val box = LinearLayout(context).apply {
            orientation = LinearLayout.VERTICAL
            addView(list)
            addView(field)
        }
        val b = AlertDialog.Builder(context)
            .setTitle("Follow these ${steps.size} steps?")
            .setView(box)
            .setNeutralButton("Use as a command") { _, _ -> onCommand() }
            .setNegativeButton("Cancel", null)
        // an empty goal keeps the dialog open
        return showValidated(b, "Follow") {
            val g = field.text.toString().trim()
            if (g.isEmpty()) field.error = "Say what the steps do" else onFollow(g)
            g.isNotEmpty()
        }
    }

    /**
     * Shows [b] with a positive button [label] that closes the dialog only
     * when [accept] says what was entered is complete (it marks what is
     * missing otherwise, and acts on it when complete).
     */
    fun showValidated(b: AlertDialog.Builder, label: String, accept: () -> Boolean): AlertDialog {
        val d = b.setPositiveButton(label, null).show()
        d.getButton(AlertDialog.BUTTON_POSITIVE).setOnClickListener { if (accept()) d.dismiss() }
        return d
    }

    /** Asks for slot values; empty fields keep the values recorded with the flow. */
    fun slots(context: Context, flow: FlowSummary, onValues: (Map<String, String>) -> Unit) {
        if (flow.slots.isEmpty()) {
            onValues(emptyMap())
            return
        }
        val fields = flow.slots.associateWith { slot -> EditText(context).apply { hint = slot } }
        val box = LinearLayout(context).apply {
            orientation = LinearLayout.VERTICAL
            fields.values.forEach { addView(it) }
        }
        AlertDialog.Builder(context)
            .setTitle("Replay \"${flow.name}\"")
            .setMessage("Empty fields keep the recorded values.")
            .setView(box)
            .setPositiveButton("Replay") { _, _ ->
                onValues(fields.mapValues { it.value.text.toString().trim() }.filterValues { it.isNotEmpty() })
            }
            .setNegativeButton("Cancel", null)
            .show()
    }

    fun text(context: Context, title: String, initial: String, onText: (String) -> Unit) {
        val input = EditText(context).apply {
            setText(initial)
            inputType = InputType.TYPE_CLASS_TEXT
        }
        AlertDialog.Builder(context).setTitle(title).setView(input)
            .setPositiveButton("OK") { _, _ -> input.text.toString().trim().takeIf { it.isNotEmpty() }?.let(onText) }
            .setNegativeButton("Cancel", null)
            .show()
    }

    fun confirm(context: Context, question: String, onYes: () -> Unit) {
        AlertDialog.Builder(context).setMessage(question)
            .setPositiveButton("Yes") { _, _ -> onYes() }
            .setNegativeButton("No", null)
            .show()
    }
}

package dev.wayfinder.app.ui

import android.Manifest
import android.app.Activity
import android.app.AlertDialog
import android.content.Intent
import android.content.pm.PackageManager
import android.os.Bundle
import android.view.KeyEvent
import android.view.inputmethod.EditorInfo
import android.widget.ArrayAdapter
import android.widget.EditText
import android.widget.ImageButton
import android.widget.ListView
import android.widget.TextView
import android.widget.Toast
import dev.wayfinder.app.a11y.DeviceRegistry
import dev.wayfinder.app.daemon.AskRequest
import dev.wayfinder.app.daemon.DaemonEvent
import dev.wayfinder.app.daemon.DaemonService
import dev.wayfinder.app.daemon.FlowSummary
import dev.wayfinder.app.daemon.FlowVersion
import dev.wayfinder.app.daemon.Instruction
import dev.wayfinder.app.daemon.ProgressText
import dev.wayfinder.app.daemon.Requests
import dev.wayfinder.app.daemon.RunReply
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.MainScope
import kotlinx.coroutines.cancel
import kotlinx.coroutines.launch

/**
 * The command screen: a command box with a microphone, live progress of the
 * running command, the agent's questions as dialogs, and the saved flows
 * (replay offline, rename, delete, pin to the home screen, "don't ask
 * again" for flows with sensitive steps). Exported (the launcher opens it),
 * so it starts no replay: shortcuts reach the non-exported ReplayActivity.
 * It handles the voice request of [AssistActivity] (EXTRA_LISTEN) and
 * shared text (ACTION_SEND: steps are shown as the phone would follow
 * them and run only on the owner's Follow; other text goes to the command
 * box, not run), each once
 * (IntentOnce). The first start opens [OnboardingActivity].
 */
class MainActivity : Activity() {
    private val scope: CoroutineScope = MainScope()
    private val daemon = DaemonConnection(this)
    private lateinit var command: EditText
    private lateinit var status: TextView
    private lateinit var progress: ArrayAdapter<String>
    private lateinit var flowsAdapter: ArrayAdapter<String>
    private lateinit var voice: VoiceInput
    private var flows: List<FlowSummary> = emptyList()
    private var askDialog: AlertDialog? = null
    private var running = false
    private val onEvent: (DaemonEvent) -> Unit = ::onDaemonEvent

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        voice = VoiceInput(this, onText = { command.setText(it); runCommand() }, onState = { status.text = it })
        command = EditText(this).apply {
            hint = "What should I do?"
            imeOptions = EditorInfo.IME_ACTION_GO
            setSingleLine()
            setOnEditorActionListener { _, id, ev ->
                val go = id == EditorInfo.IME_ACTION_GO || (ev?.keyCode == KeyEvent.KEYCODE_ENTER && ev.action == KeyEvent.ACTION_DOWN)
                if (go) runCommand()
                go
            }
        }
        val mic = ImageButton(this).apply {
            setImageResource(android.R.drawable.ic_btn_speak_now)
            contentDescription = "Speak a command"
            setOnClickListener { startVoice() }
        }
        status = TextView(this)
        progress = ArrayAdapter(this, android.R.layout.simple_list_item_1, ArrayList())
        flowsAdapter = ArrayAdapter(this, android.R.layout.simple_list_item_1, ArrayList())
        val progressList = ListView(this).apply { adapter = progress }
        val flowList = ListView(this).apply {
            adapter = flowsAdapter
            setOnItemClickListener { _, _, i, _ -> flows.getOrNull(i)?.let(::flowMenu) }
        }
        val root = column(
                row(command.weighted(1f), mic, button("Run") { runCommand() }),
                row(
                    button("Stop") { call(Requests.cancel()) },
                    button("People") { startActivity(Intent(this, ContextActivity::class.java)) },
                    button("Settings") { startActivity(Intent(this, SettingsActivity::class.java)) },
                    button("Setup") { startActivity(Intent(this, OnboardingActivity::class.java)) },
                ),
                status,
                heading("Progress"),
                progressList.weighted(1f, vertical = true),
                heading("Saved flows"),
                flowList.weighted(1f, vertical = true),
            )
        setContentView(root)
        root.padForSystemBars(dp(12))
        daemon.bind(onConnect = { it.addListener(onEvent); refreshFlows() }, onDisconnect = { it.removeListener(onEvent) })
        if (savedInstanceState == null && !OnboardingActivity.onboarded(this)) {
            startActivity(Intent(this, OnboardingActivity::class.java))
        }
        if (IntentOnce.onCreate(intent, savedInstanceState)) handle(intent)
    }

    override fun onResume() {
        super.onResume()
        status.text = if (DeviceRegistry.current == null) {
            "Accessibility service is off: tap Accessibility and enable Wayfinder."
        } else {
            "Ready."
        }
    }

    override fun onNewIntent(intent: Intent) {
        super.onNewIntent(intent)
        setIntent(intent)
        if (IntentOnce.onNewIntent(intent)) handle(intent)
    }

    override fun onDestroy() {
        askDialog?.dismiss()
        voice.release()
        daemon.unbind()
        scope.cancel()
        super.onDestroy()
    }

    /** New work from [intent]: listen for a command, or take shared text into the command box. */
    private fun handle(intent: Intent) {
        when {
            intent.getBooleanExtra(EXTRA_LISTEN, false) -> startVoice()
            intent.action == Intent.ACTION_SEND && intent.type == "text/plain" ->
                intent.getStringExtra(Intent.EXTRA_TEXT)?.takeIf { it.isNotBlank() }?.let { shared(it.trim(), intent.getStringExtra(Intent.EXTRA_SUBJECT).orEmpty()) }
        }
    }

    /**
     * Shared text: steps (several lines, read by the daemon as two
     * instructions or more) are shown as the phone would follow them, and
     * run only when the owner says what they do and taps Follow; anything
     * else goes to the command box, not run.
     */
    private fun shared(text: String, subject: String) {
        val toBox = { command.setText(text.take(MAX_SHARED)) }
        if (!looksLikeSteps(text)) return toBox()
        val steps = text.take(MAX_STEPS)
        daemon.whenBound { svc ->
            scope.launch {
                val ins = try {
                    Instruction.parseList(svc.call(Requests.stepsParse(steps, subject)))
                } catch (e: Exception) {
                    emptyList()
                }
                if (ins.size < 2) return@launch toBox()
                Dialogs.followSteps(this@MainActivity, ins, subject.trim().take(MAX_SHARED), onFollow = { goal ->
                    if (running) toast("A command is running; stop it first.") else execute(Requests.runSteps(goal, steps))
                }, onCommand = toBox)
            }
        }
    }

    private fun runCommand() {
        val text = command.text.toString().trim()
        if (text.isEmpty()) return
        if (running) {
            toast("A command is running; stop it first.")
            return
        }
        execute(Requests.run(text))
    }

    private fun replay(f: FlowSummary, slots: Map<String, String>) =
        execute(if (f.token.isNotEmpty()) Requests.replayToken(f.token, slots) else Requests.replay(f.id, slots))

    /** Sends run/replay; progress arrives as events, the reply ends the run. */
    private fun execute(request: String) {
        running = true
        progress.clear()
        daemon.whenBound { svc ->
            scope.launch {
                try {
                    val r = RunReply.parse(svc.call(request))
                    status.text = "${r.outcome}${if (r.error.isNotEmpty()) ": ${r.error}" else ""} " +
                        "(${r.steps} steps, ${r.llmCalls} model calls, ${r.ms} ms)"
                } catch (e: Exception) {
                    status.text = "Error: ${e.message}"
                } finally {
                    running = false
                    refreshFlows()
                }
            }
        }
    }

    private fun onDaemonEvent(e: DaemonEvent) {
        ProgressText.line(e)?.let {
            progress.add(it)
        }
        AskRequest.from(e)?.let { ask ->
            askDialog?.dismiss()
            askDialog = Dialogs.ask(this, ask, onAnswer = ::answer, onCancelRun = { call(Requests.cancel()) })
        }
        // answered elsewhere (notification, overlay) or the run went on
        if (e.type == DaemonEvent.RUN_FINISHED || e.type == DaemonEvent.ACTION) askDialog?.dismiss()
    }

    private fun refreshFlows() {
        daemon.whenBound { svc ->
            scope.launch {
                try {
                    flows = FlowSummary.parseList(svc.call(Requests.flowsList()))
                    flowsAdapter.clear()
                    flowsAdapter.addAll(flows.map(::flowLine))
                    // a shortcut the owner removed from the home screen: the flow is no longer pinned
                    val onHome = ShortcutPinner.pinnedFlowIds(this@MainActivity)
                    for (f in flows) if (f.pinned && f.id !in onHome) svc.call(Requests.flowsPin(f.id, false))
                } catch (e: Exception) {
                    status.text = "Could not list flows: ${e.message}"
                }
            }
        }
    }

    private fun flowMenu(f: FlowSummary) = Dialogs.flowMenu(
        this, f,
        onReplay = { Dialogs.slots(this, f) { replay(f, it) } },
        onRename = {
            Dialogs.text(this, "Rename flow", f.name) {
                call(Requests.flowsRename(f.id, it), refresh = true) { reply -> ShortcutPinner.renamed(this, FlowSummary.parseOne(reply)) }
            }
        },
        // marked pinned when the launcher confirms (AskReceiver), not on the request
        onPin = { if (!ShortcutPinner.pin(this, f)) toast("This launcher cannot pin shortcuts.") },
        onDelete = { call(Requests.flowsDelete(f.id), refresh = true) { ShortcutPinner.deleted(this, f.id) } },
        onAllowSensitive = { allow -> call(Requests.flowsAllowSensitive(f.id, allow), refresh = true) },
        onSteps = { call(Requests.flowsGet(f.id)) { reply -> Dialogs.steps(this, f.title, FlowSummary.actionsOf(reply)) } },
        onVersions = {
            call(Requests.flowsHistory(f.id)) { reply ->
                Dialogs.versions(this, f, FlowVersion.parseList(reply)) { v ->
                    call(Requests.flowsRollback(f.id, v), refresh = true) { toast("Version $v restored") }
                }
            }
        },
    )

    private fun answer(text: String) {
        daemon.whenBound { svc ->
            scope.launch {
                try {
                    svc.answer(text)
                } catch (e: Exception) {
                    toast(e.message ?: "failed")
                }
            }
        }
    }

    /** A short call; [then] gets the reply when it succeeded. */
    private fun call(request: String, refresh: Boolean = false, then: (String) -> Unit = {}) {
        daemon.whenBound { svc ->
            scope.launch {
                try {
                    then(svc.call(request))
                    if (refresh) refreshFlows()
                } catch (e: Exception) {
                    toast(e.message ?: "failed")
                }
            }
        }
    }

    private fun startVoice() {
        if (checkSelfPermission(Manifest.permission.RECORD_AUDIO) == PackageManager.PERMISSION_GRANTED) {
            voice.listen()
        } else {
            requestPermissions(arrayOf(Manifest.permission.RECORD_AUDIO), REQ_AUDIO)
        }
    }

    override fun onRequestPermissionsResult(requestCode: Int, permissions: Array<out String>, grantResults: IntArray) {
        super.onRequestPermissionsResult(requestCode, permissions, grantResults)
        if (requestCode == REQ_AUDIO) {
            if (grantResults.firstOrNull() == PackageManager.PERMISSION_GRANTED) voice.listen()
            else status.text = "Microphone permission denied; type the command instead."
        }
    }

    private fun toast(msg: String) = Toast.makeText(this, msg, Toast.LENGTH_LONG).show()

    companion object {
        const val EXTRA_LISTEN = "dev.wayfinder.app.extra.LISTEN"
        private const val REQ_AUDIO = 1
        private const val MAX_SHARED = 2_000

        /** The most characters of shared steps sent to the daemon (its limit: 32 KiB of UTF-8). */
        private const val MAX_STEPS = 10_000

        /** Whether shared text may be steps to follow: two lines or more that are not blank. */
        fun looksLikeSteps(text: String): Boolean = text.lines().count { it.isNotBlank() } >= 2

        /** A saved flow's line in the list: 📌 pinned, ⚠ has sensitive steps (and whether they ask first). */
        fun flowLine(f: FlowSummary): String {
            val pin = if (f.pinned) "📌 " else ""
            val warn = when {
                !f.sensitive -> ""
                f.allowSensitive -> "⚠ (sensitive steps run without asking) "
                else -> "⚠ "
            }
            // paused: not replayed for a matching command until the owner starts it
            val paused = if (f.healthy) "" else "⏸ (paused after ${f.failStreak} failed replays) "
            val slots = if (f.slots.isEmpty()) "" else " (${f.slots.joinToString { "{$it}" }})"
            val version = if (f.version > 1) ", v${f.version}" else ""
            return "$pin$paused$warn${f.title}$slots — ${f.steps} steps, used ${f.uses}×$version"
        }
    }
}

package dev.wayfinder.app

import android.app.Activity
import android.app.AlertDialog
import android.app.Notification
import android.app.NotificationManager
import android.content.DialogInterface
import android.content.Intent
import android.os.Looper
import android.view.WindowManager
import android.view.WindowManagerImpl
import dev.wayfinder.app.a11y.WayfinderAccessibilityService
import dev.wayfinder.app.daemon.AskNotification
import dev.wayfinder.app.daemon.AskRequest
import dev.wayfinder.app.daemon.DaemonService
import dev.wayfinder.app.daemon.FlowSummary
import dev.wayfinder.app.daemon.FlowVersion
import dev.wayfinder.app.daemon.Instruction
import dev.wayfinder.app.ui.AskReceiver
import dev.wayfinder.app.ui.Dialogs
import dev.wayfinder.app.ui.MainActivity
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import org.robolectric.Shadows.shadowOf
import org.robolectric.shadows.ShadowAlertDialog
import org.robolectric.shadows.ShadowWindowManagerImpl
import org.robolectric.shadow.api.Shadow

/** 12.3 a and issue 10: the question reaches the owner wherever they are, with every option. */
@RunWith(RobolectricTestRunner::class)
class AskUiTest {
    private val app get() = RuntimeEnvironment.getApplication()

    private fun titles(n: Notification) = n.actions.map { it.title.toString() }

    private fun target(a: Notification.Action): Intent = shadowOf(a.actionIntent).savedIntent

    @Test
    fun questionNotificationIsHighImportanceWithAnswersAndStop() {
        AskNotification.createChannel(app)
        val ch = app.getSystemService(NotificationManager::class.java)!!.getNotificationChannel(AskNotification.CHANNEL)
        assertEquals(NotificationManager.IMPORTANCE_HIGH, ch.importance)

        val n = AskNotification.build(app, AskRequest("Send the message to Bob?", listOf("yes", "no")), 41, "3. ✓ tap [graph]")
        assertEquals(AskNotification.CHANNEL, n.channelId)
        assertEquals(listOf("yes", "no", "Stop"), titles(n))
        assertTrue(n.extras.getCharSequence(Notification.EXTRA_BIG_TEXT).toString().contains("Now at: 3. ✓ tap [graph]"))
        for (a in n.actions) {
            val i = target(a)
            assertEquals("every action goes to the non-exported receiver", AskReceiver::class.java.name, i.component?.className)
        }
        assertEquals("yes", target(n.actions[0]).getStringExtra(AskReceiver.EXTRA_ANSWER))
        assertEquals(41L, target(n.actions[1]).getLongExtra(AskReceiver.EXTRA_ASK_SEQ, -1))
        assertEquals(AskReceiver.ACTION_STOP, target(n.actions[2]).action)

        val three = AskNotification.build(app, AskRequest("Delete 3 items?", listOf("yes", "no", "always for this flow")), 42, "")
        assertEquals("more options than buttons: open the dialog that shows them all", listOf("Answer…", "Stop"), titles(three))
        val free = AskNotification.build(app, AskRequest("Which Bob?", emptyList()), 43, "")
        assertEquals(listOf("Reply", "Stop"), titles(free))
        assertEquals(1, free.actions[0].remoteInputs.size)
    }

    @Test
    fun receiverForwardsToTheService() {
        val r = AskReceiver()
        r.onReceive(app, Intent(AskReceiver.ACTION_ANSWER).putExtra(AskReceiver.EXTRA_ANSWER, "no").putExtra(AskReceiver.EXTRA_ASK_SEQ, 7L))
        val answer = shadowOf(app).nextStartedService
        assertEquals(DaemonService::class.java.name, answer.component?.className)
        assertEquals(DaemonService.ACTION_ANSWER, answer.action)
        assertEquals("no", answer.getStringExtra(DaemonService.EXTRA_TEXT))
        assertEquals(7L, answer.getLongExtra(DaemonService.EXTRA_ASK_SEQ, -1))
        r.onReceive(app, Intent(AskReceiver.ACTION_STOP))
        assertEquals(DaemonService.ACTION_CANCEL, shadowOf(app).nextStartedService.action)
        r.onReceive(app, Intent(AskReceiver.ACTION_PINNED).putExtra(AskReceiver.EXTRA_FLOW_ID, 9L))
        val pinned = shadowOf(app).nextStartedService
        assertEquals(DaemonService.ACTION_PINNED, pinned.action)
        assertEquals(9L, pinned.getLongExtra(DaemonService.EXTRA_FLOW_ID, 0))
        r.onReceive(app, Intent("something.else"))
        r.onReceive(app, Intent(AskReceiver.ACTION_ANSWER)) // no answer
        assertNull(shadowOf(app).nextStartedService)
    }

    private fun activity(): Activity = Robolectric.buildActivity(Activity::class.java).setup().get()

    @Test
    fun dialogShowsEveryOptionAndStop() {
        val answers = ArrayList<String>()
        var stopped = 0
        val d = Dialogs.ask(activity(), AskRequest("Delete 3 items?", listOf("yes", "no", "always for this flow")), { answers += it }, { stopped++ })
        val list = d.listView
        assertEquals(listOf("yes", "no", "always for this flow"), (0 until list.adapter.count).map { list.adapter.getItem(it).toString() })
        assertEquals("Stop", d.getButton(DialogInterface.BUTTON_NEGATIVE).text.toString())
        shadowOf(d).clickOnItem(2)
        shadowOf(Looper.getMainLooper()).idle()
        assertEquals(listOf("always for this flow"), answers)

        val two = Dialogs.ask(activity(), AskRequest("Send?", listOf("yes", "no")), { answers += it }, { stopped++ })
        assertEquals("yes", two.getButton(DialogInterface.BUTTON_POSITIVE).text.toString())
        assertEquals("no", two.getButton(DialogInterface.BUTTON_NEUTRAL).text.toString())
        two.getButton(DialogInterface.BUTTON_NEGATIVE).performClick()
        shadowOf(Looper.getMainLooper()).idle()
        assertEquals(1, stopped)
    }

    private fun flow(sensitive: Boolean, allow: Boolean = false) = FlowSummary(
        7, "Clear the trash", "clear the trash", "com.example.files", 3, emptyList(), 2, false,
        token = "0123456789abcdef0123456789abcdef", sensitive = sensitive, allowSensitive = allow,
    )

    @Test
    fun sensitiveFlowsAreMarkedAndTheOwnerCanStopBeingAsked() {
        assertTrue(MainActivity.flowLine(flow(true)).startsWith("⚠ "))
        assertTrue(MainActivity.flowLine(flow(true, allow = true)).contains("without asking"))
        assertFalse(MainActivity.flowLine(flow(false)).contains("⚠"))

        val allowed = ArrayList<Boolean>()
        val a = activity()
        val menu = Dialogs.flowMenu(a, flow(true), {}, {}, {}, {}, { allowed += it })
        val items = (0 until menu.listView.adapter.count).map { menu.listView.adapter.getItem(it).toString() }
        val i = items.indexOfFirst { it.startsWith("Don't ask again") }
        assertTrue("$items", i >= 0)
        shadowOf(menu).clickOnItem(i)
        shadowOf(Looper.getMainLooper()).idle()
        val confirm = ShadowAlertDialog.getLatestAlertDialog() as AlertDialog
        confirm.getButton(DialogInterface.BUTTON_POSITIVE).performClick()
        shadowOf(Looper.getMainLooper()).idle()
        assertEquals(listOf(true), allowed)

        val again = Dialogs.flowMenu(a, flow(true, allow = true), {}, {}, {}, {}, { allowed += it })
        val items2 = (0 until again.listView.adapter.count).map { again.listView.adapter.getItem(it).toString() }
        shadowOf(again).clickOnItem(items2.indexOfFirst { it.startsWith("Ask me again") })
        shadowOf(Looper.getMainLooper()).idle()
        assertEquals(listOf(true, false), allowed)

        val plain = Dialogs.flowMenu(a, flow(false), {}, {}, {}, {}, { allowed += it })
        assertEquals(5, plain.listView.adapter.count)
    }

    @Test
    fun theOwnerSeesAFlowsVersionsAndRestoresAnEarlierOne() {
        val a = activity()
        val repaired = flow(false).copy(version = 2)
        assertTrue(MainActivity.flowLine(repaired).endsWith(", v2"))
        assertTrue(MainActivity.flowLine(flow(false).copy(healthy = false, failStreak = 3)).startsWith("⏸ (paused after 3 failed replays) "))

        var opened = 0
        var shown = 0
        val menu = Dialogs.flowMenu(a, repaired, {}, {}, {}, {}, onVersions = { opened++ }, onSteps = { shown++ })
        val items = (0 until menu.listView.adapter.count).map { menu.listView.adapter.getItem(it).toString() }
        shadowOf(menu).clickOnItem(items.indexOf("Earlier versions"))
        shadowOf(Looper.getMainLooper()).idle()
        assertEquals(1, opened)
        shadowOf(menu).clickOnItem(items.indexOf("Steps"))
        shadowOf(Looper.getMainLooper()).idle()
        assertEquals("every flow's steps can be read before a replay", 1, shown)
        val steps = Dialogs.steps(a, "Clear the trash", FlowSummary.actionsOf("""{"flow":{"id":7,"actions":["tap “More options”","tap “Empty trash”"]}}"""))
        assertEquals("1. tap “More options”\n2. tap “Empty trash”", shadowOf(steps).message.toString())
        val first = Dialogs.flowMenu(a, flow(false), {}, {}, {}, {})
        val firstItems = (0 until first.listView.adapter.count).map { first.listView.adapter.getItem(it).toString() }
        assertFalse("a flow with one version has none earlier: $firstItems", firstItems.contains("Earlier versions"))

        val restored = ArrayList<Int>()
        val list = Dialogs.versions(
            a, repaired,
            listOf(
                FlowVersion(1, "learned", 1795872002965, false, listOf("tap “More options”", "tap “Settings”")),
                FlowVersion(2, "repaired", 1795872102965, true, listOf("tap “Settings”")),
            ),
        ) { restored += it }
        val lines = (0 until list.listView.adapter.count).map { list.listView.adapter.getItem(it).toString() }
        assertTrue("newest first, the current one marked: $lines", lines[0].startsWith("v2 (current) · repaired · ") && lines[1].startsWith("v1 · learned · "))

        shadowOf(list).clickOnItem(0)
        shadowOf(Looper.getMainLooper()).idle()
        val current = ShadowAlertDialog.getLatestAlertDialog() as AlertDialog
        assertEquals("the current version cannot be restored", android.view.View.GONE, current.getButton(DialogInterface.BUTTON_POSITIVE).visibility)
        current.dismiss()

        shadowOf(list).clickOnItem(1)
        shadowOf(Looper.getMainLooper()).idle()
        val older = ShadowAlertDialog.getLatestAlertDialog() as AlertDialog
        assertEquals("1. tap “More options”\n2. tap “Settings”", shadowOf(older).message.toString())
        older.getButton(DialogInterface.BUTTON_POSITIVE).performClick()
        shadowOf(Looper.getMainLooper()).idle()
        assertEquals(listOf(1), restored)
    }

    @Test
    fun sharedStepsRunOnlyOnFollowWithTheirGoal() {
        assertTrue(MainActivity.looksLikeSteps("1. Open Settings\n\n2. Turn on Dark theme"))
        assertFalse(MainActivity.looksLikeSteps("turn on dark mode\n  \n"))

        val steps = listOf(Instruction("Open Settings", "open", "Settings", ""), Instruction("Turn on Dark theme", "turn_on", "Dark theme", ""))
        val followed = ArrayList<String>()
        var toBox = 0
        val d = Dialogs.followSteps(activity(), steps, "", onFollow = { followed += it }, onCommand = { toBox++ })
        val texts = ArrayList<String>()
        fun collect(v: android.view.View) {
            if (v is android.widget.TextView && v !is android.widget.EditText && v !is android.widget.Button) texts += v.text.toString()
            if (v is android.view.ViewGroup) (0 until v.childCount).forEach { collect(v.getChildAt(it)) }
        }
        collect(d.window!!.decorView)
        assertTrue("$texts", texts.contains("1. open “Settings”\n2. switch on “Dark theme”"))

        d.getButton(DialogInterface.BUTTON_POSITIVE).performClick()
        shadowOf(Looper.getMainLooper()).idle()
        assertEquals("no goal, nothing runs", emptyList<String>(), followed)
        assertTrue("the dialog stays for the goal", d.isShowing)

        fun field(v: android.view.View): android.widget.EditText? = when (v) {
            is android.widget.EditText -> v
            is android.view.ViewGroup -> (0 until v.childCount).firstNotNullOfOrNull { field(v.getChildAt(it)) }
            else -> null
        }
        field(d.window!!.decorView)!!.setText("  use the dark theme ")
        d.getButton(DialogInterface.BUTTON_POSITIVE).performClick()
        shadowOf(Looper.getMainLooper()).idle()
        assertEquals(listOf("use the dark theme"), followed)
        assertFalse(d.isShowing)

        val other = Dialogs.followSteps(activity(), steps, "dark theme", onFollow = { followed += it }, onCommand = { toBox++ })
        other.getButton(DialogInterface.BUTTON_NEUTRAL).performClick()
        shadowOf(Looper.getMainLooper()).idle()
        assertEquals(1, toBox)
        assertEquals(1, followed.size)
    }

    private fun buttons(v: android.view.View): List<android.widget.Button> = when (v) {
        is android.widget.Button -> listOf(v)
        is android.view.ViewGroup -> (0 until v.childCount).flatMap { buttons(v.getChildAt(it)) }
        else -> emptyList()
    }

    /** 12.3 a: the question over the app being operated, which needs no notification permission. */
    @Test
    fun overlayShowsEveryOptionOverOtherApps() {
        val service = Robolectric.setupService(WayfinderAccessibilityService::class.java)
        val answers = ArrayList<String>()
        var stopped = 0
        service.showQuestion(AskRequest("Delete 3 items?", listOf("yes", "no", "always for this flow")), "2. ✓ tap [replay]",
            { answers += it }, { stopped++ })
        val wm: ShadowWindowManagerImpl = Shadow.extract(service.getSystemService(WindowManager::class.java) as WindowManagerImpl)
        val views = wm.views
        assertEquals(1, views.size)
        assertEquals(WindowManager.LayoutParams.TYPE_ACCESSIBILITY_OVERLAY, (views[0].layoutParams as WindowManager.LayoutParams).type)
        val b = buttons(views[0])
        assertEquals(listOf("yes", "no", "always for this flow", "Stop"), b.map { it.text.toString() })
        b[2].performClick()
        assertEquals(listOf("always for this flow"), answers)
        assertEquals("answered: the overlay is gone", 0, wm.views.size)

        service.showQuestion(AskRequest("Which Bob?", emptyList()), "", { answers += it }, { stopped++ })
        val free = buttons(wm.views.single())
        assertEquals(listOf("Answer…", "Stop"), free.map { it.text.toString() })
        free[1].performClick()
        assertEquals(1, stopped)
        assertEquals(0, wm.views.size)

        // the longest "did you mean": three flows, each also with other values, and none
        val offer = (1..3).flatMap { listOf("Flow $it", "Flow $it — with other values") } + "none of these"
        service.showQuestion(AskRequest("Did you mean one of these?", offer), "", { answers += it }, { stopped++ })
        assertEquals(offer + "Stop", buttons(wm.views.single()).map { it.text.toString() })
        buttons(wm.views.single()).last().performClick()

        // the options of a choice slot: too many for buttons over the app
        val many = (1..10).map { "Option $it" }
        service.showQuestion(AskRequest("Which option should I pick?", many), "", { answers += it }, { stopped++ })
        assertEquals(listOf("Choose… (10 options)", "Stop"), buttons(wm.views.single()).map { it.text.toString() })
    }
}

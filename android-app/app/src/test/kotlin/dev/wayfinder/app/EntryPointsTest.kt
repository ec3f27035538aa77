package dev.wayfinder.app

import android.Manifest
import android.content.Intent
import android.os.Bundle
import dev.wayfinder.app.daemon.DaemonService
import dev.wayfinder.app.ui.DaemonConnection
import dev.wayfinder.app.ui.MainActivity
import dev.wayfinder.app.ui.OnboardingActivity
import dev.wayfinder.app.ui.ReplayActivity
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertNull
import org.junit.Assert.assertTrue
import org.junit.Before
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import org.robolectric.Shadows.shadowOf

/**
 * Issue 10 item 3: a replay starts only from this app's shortcut (the
 * non-exported ReplayActivity with a token), once; nothing is redone on
 * recreate or when reopened from Recents.
 */
@RunWith(RobolectricTestRunner::class)
class EntryPointsTest {
    private val replays = ArrayList<String>()
    private val token = "0123456789abcdef0123456789abcdef"

    @Before
    fun hook() {
        ReplayActivity.start = { _, t -> replays += t }
        OnboardingActivity.markOnboarded(RuntimeEnvironment.getApplication())
    }

    @After
    fun unhook() {
        ReplayActivity.start = { c, t -> DaemonService.replay(c, t) }
    }

    private fun replayIntent(t: String = token) = ReplayActivity.intent(RuntimeEnvironment.getApplication(), t)

    @Test
    fun theShortcutIntentReplaysOnce() {
        val a = Robolectric.buildActivity(ReplayActivity::class.java, replayIntent()).setup().get()
        assertEquals(listOf(token), replays)
        assertTrue("it finishes at once", a.isFinishing)
        val shown = shadowOf(a).nextStartedActivity
        assertEquals(MainActivity::class.java.name, shown.component?.className)
        assertTrue("MainActivity gets no replay extras", shown.extras == null || shown.extras!!.isEmpty)
    }

    @Test
    fun foreignIntentsCannotStartAReplay() {
        // the old entry: MainActivity (exported) with the replay action and a flow id, or even a token
        val old = Intent(RuntimeEnvironment.getApplication(), MainActivity::class.java)
            .setAction(ReplayActivity.ACTION_REPLAY)
            .putExtra("dev.wayfinder.app.extra.FLOW_ID", 3L)
            .putExtra(ReplayActivity.EXTRA_TOKEN, token)
        val main = Robolectric.buildActivity(MainActivity::class.java, old).setup().get()
        assertEquals("MainActivity queued no request for the daemon", 0, connection(main).queued)
        val started = shadowOf(RuntimeEnvironment.getApplication()).allStartedServices
        assertTrue("nor asked the service to replay: $started", started.none { it.action == DaemonService.ACTION_REPLAY })
        // a malformed token or the wrong action on ReplayActivity
        Robolectric.buildActivity(ReplayActivity::class.java, replayIntent("3")).setup()
        Robolectric.buildActivity(ReplayActivity::class.java, replayIntent().setAction(Intent.ACTION_VIEW)).setup()
        assertEquals(emptyList<String>(), replays)
    }

    /** The daemon connection of [a], whose queue holds every request it means to send (none is sent under Robolectric). */
    private fun connection(a: MainActivity): DaemonConnection =
        MainActivity::class.java.getDeclaredField("daemon").apply { isAccessible = true }.get(a) as DaemonConnection

    @Test
    fun recreatingDoesNotReplayAgain() {
        // a recreate (rotation, theme, locale) passes the saved state
        Robolectric.buildActivity(ReplayActivity::class.java, replayIntent()).create(Bundle()).start().resume()
        assertEquals(emptyList<String>(), replays)
    }

    @Test
    fun reopenedFromRecentsDoesNothing() {
        val i = replayIntent().addFlags(Intent.FLAG_ACTIVITY_LAUNCHED_FROM_HISTORY)
        Robolectric.buildActivity(ReplayActivity::class.java, i).setup()
        assertEquals(emptyList<String>(), replays)
    }

    private fun listenIntent() = Intent(RuntimeEnvironment.getApplication(), MainActivity::class.java)
        .putExtra(MainActivity.EXTRA_LISTEN, true)

    @Test
    fun listenIsHandledOnceAcrossRotation() {
        val c = Robolectric.buildActivity(MainActivity::class.java, listenIntent()).setup()
        val asked = shadowOf(c.get()).lastRequestedPermission
        assertEquals(Manifest.permission.RECORD_AUDIO, asked?.requestedPermissions?.single())
        c.recreate()
        assertNull("the recreated activity does not listen again", shadowOf(c.get()).lastRequestedPermission)
    }

    @Test
    fun listenFromRecentsDoesNothing() {
        val i = listenIntent().addFlags(Intent.FLAG_ACTIVITY_LAUNCHED_FROM_HISTORY)
        val a = Robolectric.buildActivity(MainActivity::class.java, i).setup().get()
        assertNull(shadowOf(a).lastRequestedPermission)
    }

    @Test
    fun sharedTextFillsTheCommandBoxWithoutRunning() {
        val i = Intent(Intent.ACTION_SEND).setType("text/plain").putExtra(Intent.EXTRA_TEXT, "  turn on dark mode ")
            .setClass(RuntimeEnvironment.getApplication(), MainActivity::class.java)
        val c = Robolectric.buildActivity(MainActivity::class.java, i).setup()
        val box = findEditText(c.get().window.decorView)
        assertEquals("turn on dark mode", box?.text?.toString())
    }

    private fun findEditText(v: android.view.View): android.widget.EditText? {
        if (v is android.widget.EditText) return v
        if (v is android.view.ViewGroup) for (i in 0 until v.childCount) findEditText(v.getChildAt(i))?.let { return it }
        return null
    }

    @Test
    fun firstRunOpensOnboarding() {
        RuntimeEnvironment.getApplication().getSharedPreferences("onboarding", 0).edit().clear().commit()
        val a = Robolectric.buildActivity(MainActivity::class.java).setup().get()
        val started = generateSequence { shadowOf(a).nextStartedActivity }.map { it.component?.className }.toList()
        assertTrue("$started", OnboardingActivity::class.java.name in started)
    }
}

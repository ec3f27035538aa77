package dev.wayfinder.app.ui

import android.app.PendingIntent
import android.content.Context
import android.content.Intent
import android.content.pm.ShortcutInfo
import android.content.pm.ShortcutManager
import android.graphics.Bitmap
import android.graphics.Canvas
import android.graphics.Color
import android.graphics.Paint
import android.graphics.drawable.Icon
import dev.wayfinder.app.daemon.FlowSummary

/**
 * The home-screen shortcuts of saved flows (ShortcutManager). A shortcut
 * opens the non-exported [ReplayActivity] with the flow's token. A flow
 * counts as pinned only once the launcher confirms the pin (the result
 * intent of requestPinShortcut reaches [AskReceiver], which tells the
 * daemon flows.pin); deleting a flow disables its shortcut, renaming it
 * relabels the shortcut.
 */
object ShortcutPinner {
    fun shortcutId(flowId: Long) = "flow-$flowId"

    /**
     * Asks the launcher to pin [flow]; false when the launcher cannot pin
     * shortcuts or the flow has no token (an older daemon). The flow is
     * marked pinned only when the launcher reports success.
     */
    fun pin(context: Context, flow: FlowSummary): Boolean {
        val sm = context.getSystemService(ShortcutManager::class.java) ?: return false
        if (!sm.isRequestPinShortcutSupported || !Tokens.valid(flow.token)) return false
        val confirmed = PendingIntent.getBroadcast(
            context, flow.id.toInt(),
            Intent(context, AskReceiver::class.java).setAction(AskReceiver.ACTION_PINNED).putExtra(AskReceiver.EXTRA_FLOW_ID, flow.id),
            PendingIntent.FLAG_IMMUTABLE or PendingIntent.FLAG_UPDATE_CURRENT,
        )
        return sm.requestPinShortcut(info(context, flow), confirmed.intentSender)
    }

    /** After flows.rename: the pinned shortcut shows the new name. */
    fun renamed(context: Context, flow: FlowSummary) {
        val sm = context.getSystemService(ShortcutManager::class.java) ?: return
        if (sm.pinnedShortcuts.none { it.id == shortcutId(flow.id) } || !Tokens.valid(flow.token)) return
        sm.updateShortcuts(listOf(info(context, flow)))
    }

    /** After flows.delete: the pinned shortcut stays on the home screen, greyed out, and does nothing. */
    fun deleted(context: Context, flowId: Long) {
        val sm = context.getSystemService(ShortcutManager::class.java) ?: return
        sm.disableShortcuts(listOf(shortcutId(flowId)), "This saved flow was deleted")
    }

    /** Ids of flows whose shortcut the launcher shows pinned and enabled. */
    fun pinnedFlowIds(context: Context): Set<Long> {
        val sm = context.getSystemService(ShortcutManager::class.java) ?: return emptySet()
        return sm.pinnedShortcuts.filter { it.isEnabled && it.id.startsWith("flow-") }
            .mapNotNull { it.id.removePrefix("flow-").toLongOrNull() }.toSet()
    }

    fun info(context: Context, flow: FlowSummary): ShortcutInfo {
        val name = flow.title.ifBlank { "Flow ${flow.id}" }
        return ShortcutInfo.Builder(context, shortcutId(flow.id))
            .setShortLabel(name.take(24))
            .setLongLabel(name.take(64))
            .setIcon(Icon.createWithBitmap(letterIcon(name)))
            .setIntent(ReplayActivity.intent(context, flow.token))
            .build()
    }

    private fun letterIcon(name: String): Bitmap {
        val size = 108
        val bmp = Bitmap.createBitmap(size, size, Bitmap.Config.ARGB_8888)
        val c = Canvas(bmp)
        val p = Paint(Paint.ANTI_ALIAS_FLAG)
        p.color = Color.rgb(0x1e, 0x6f, 0x5c)
        c.drawCircle(size / 2f, size / 2f, size / 2f, p)
        p.color = Color.WHITE
        p.textSize = size * 0.5f
        p.textAlign = Paint.Align.CENTER
        val letter = name.trim().firstOrNull()?.uppercaseChar()?.toString() ?: "W"
        c.drawText(letter, size / 2f, size / 2f - (p.descent() + p.ascent()) / 2, p)
        return bmp
    }
}

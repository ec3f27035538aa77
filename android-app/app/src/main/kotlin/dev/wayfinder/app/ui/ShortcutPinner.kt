package dev.wayfinder.app.ui

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
 * Pins a saved flow to the home screen (ShortcutManager.requestPinShortcut).
 * The shortcut opens MainActivity with [MainActivity.ACTION_REPLAY] and the
 * flow id, which replays the flow offline.
 */
object ShortcutPinner {
    /** Asks the launcher to pin [flow]; false when the launcher cannot pin shortcuts. */
    fun pin(context: Context, flow: FlowSummary): Boolean {
        val sm = context.getSystemService(ShortcutManager::class.java) ?: return false
        if (!sm.isRequestPinShortcutSupported) return false
        val name = flow.name.ifBlank { flow.intent }.ifBlank { "Flow ${flow.id}" }
        val info = ShortcutInfo.Builder(context, "flow-${flow.id}")
            .setShortLabel(name.take(24))
            .setLongLabel(name.take(64))
            .setIcon(Icon.createWithBitmap(letterIcon(name)))
            .setIntent(replayIntent(context, flow.id))
            .build()
        return sm.requestPinShortcut(info, null)
    }

    fun replayIntent(context: Context, flowId: Long): Intent =
        Intent(context, MainActivity::class.java)
            .setAction(MainActivity.ACTION_REPLAY)
            .putExtra(MainActivity.EXTRA_FLOW_ID, flowId)
            .addFlags(Intent.FLAG_ACTIVITY_NEW_TASK or Intent.FLAG_ACTIVITY_CLEAR_TOP)

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

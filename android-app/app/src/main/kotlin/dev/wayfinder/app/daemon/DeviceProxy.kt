package dev.wayfinder.app.daemon

import dev.wayfinder.app.a11y.DeviceRegistry
import dev.wayfinder.bridge.Device

/**
 * The Device handed to the daemon at start: forwards to the accessibility
 * service's device while it is connected, and fails with a clear error
 * (a Go error on the daemon side) while it is not.
 */
class DeviceProxy(private val current: () -> Device? = { DeviceRegistry.current }) : Device {
    private fun device(): Device = current() ?: throw IllegalStateException(NOT_CONNECTED)

    override fun snapshot(): String = guard { device().snapshot() }
    override fun perform(actionJSON: String): String = guard { device().perform(actionJSON) }
    override fun installedApps(): String = guard { device().installedApps() }

    /**
     * gobind carries only an exception's message across to Go: a bare
     * NullPointerException would arrive as an empty error. Rethrow anything
     * without a message with its class name.
     */
    private inline fun <T> guard(block: () -> T): T = try {
        block()
    } catch (t: Throwable) {
        if (t.message.isNullOrBlank()) throw Exception(t.toString(), t) else throw t
    }

    companion object {
        const val NOT_CONNECTED =
            "accessibility service not connected: enable Wayfinder in Settings > Accessibility"
    }
}

package dev.wayfinder.app.a11y

/**
 * The connected accessibility service's device, for the daemon in the same
 * process. Set while the service is bound, null otherwise.
 */
object DeviceRegistry {
    @Volatile
    var current: ServiceDevice? = null
        private set

    fun attach(d: ServiceDevice) {
        current = d
    }

    fun detach(d: ServiceDevice) {
        if (current === d) current = null
    }
}

package dev.wayfinder.app.ui

/** Flow replay tokens: 128-bit random numbers in lower-case hex (32 digits). */
object Tokens {
    private val HEX = Regex("^[0-9a-f]{32}$")

    /** Whether [t] has the shape of a flow token (the daemon checks that it names a flow). */
    fun valid(t: String?): Boolean = t != null && HEX.matches(t)
}

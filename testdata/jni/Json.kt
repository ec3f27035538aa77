// Minimal JSON reader and writer for the host JNI round trip
// (scripts/jni-roundtrip.sh). org.json is Android-only and the test runs on
// a plain JVM with nothing but kotlin-stdlib, hence this file.
//
// Values: null, Boolean, Long (integers), Double (other numbers), String,
// List<Any?>, Map<String, Any?> (a LinkedHashMap: key order is kept, so a
// parsed snapshot written back differs only in string escaping).

package dev.wayfinder.jnitest

class JsonException(message: String) : Exception(message)

object Json {
    fun parse(text: String): Any? {
        val r = Reader(text)
        r.ws()
        val v = r.value()
        r.ws()
        if (r.i != text.length) throw JsonException("trailing data at offset ${r.i}")
        return v
    }

    fun write(v: Any?): String = StringBuilder().also { write(it, v) }.toString()

    fun write(sb: StringBuilder, v: Any?) {
        when (v) {
            null -> sb.append("null")
            is Boolean -> sb.append(v)
            is Long, is Int -> sb.append(v)
            is Double -> {
                if (v.isNaN() || v.isInfinite()) throw JsonException("$v is not a JSON number")
                if (v == Math.floor(v) && Math.abs(v) < 1e15) sb.append(v.toLong()) else sb.append(v)
            }
            is String -> quote(sb, v)
            is Map<*, *> -> {
                sb.append('{')
                var first = true
                for ((k, x) in v) {
                    if (!first) sb.append(',')
                    first = false
                    quote(sb, k as String)
                    sb.append(':')
                    write(sb, x)
                }
                sb.append('}')
            }
            is List<*> -> {
                sb.append('[')
                v.forEachIndexed { i, x ->
                    if (i > 0) sb.append(',')
                    write(sb, x)
                }
                sb.append(']')
            }
            else -> throw JsonException("cannot write ${v::class.java.name} as JSON")
        }
    }

    fun quote(s: String): String = StringBuilder().also { quote(it, s) }.toString()

    private fun quote(sb: StringBuilder, s: String) {
        sb.append('"')
        for (c in s) {
            when {
                c == '"' -> sb.append("\\\"")
                c == '\\' -> sb.append("\\\\")
                c == '\n' -> sb.append("\\n")
                c == '\r' -> sb.append("\\r")
                c == '\t' -> sb.append("\\t")
                c < ' ' -> sb.append(String.format("\\u%04x", c.code))
                else -> sb.append(c)
            }
        }
        sb.append('"')
    }

    private class Reader(val s: String) {
        var i = 0

        fun fail(what: String): Nothing = throw JsonException("$what at offset $i")

        fun ws() {
            while (i < s.length && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) i++
        }

        fun value(): Any? {
            if (i >= s.length) fail("unexpected end")
            return when (s[i]) {
                '{' -> obj()
                '[' -> arr()
                '"' -> str()
                't' -> lit("true", true)
                'f' -> lit("false", false)
                'n' -> lit("null", null)
                else -> num()
            }
        }

        fun lit(word: String, v: Any?): Any? {
            if (!s.startsWith(word, i)) fail("bad literal")
            i += word.length
            return v
        }

        fun obj(): Map<String, Any?> {
            val m = LinkedHashMap<String, Any?>()
            i++
            ws()
            if (i < s.length && s[i] == '}') { i++; return m }
            while (true) {
                ws()
                if (i >= s.length || s[i] != '"') fail("want a key")
                val k = str()
                ws()
                if (i >= s.length || s[i] != ':') fail("want ':'")
                i++
                ws()
                m[k] = value()
                ws()
                if (i >= s.length) fail("unexpected end in object")
                when (s[i++]) {
                    ',' -> continue
                    '}' -> return m
                    else -> { i--; fail("want ',' or '}'") }
                }
            }
        }

        fun arr(): List<Any?> {
            val l = ArrayList<Any?>()
            i++
            ws()
            if (i < s.length && s[i] == ']') { i++; return l }
            while (true) {
                ws()
                l.add(value())
                ws()
                if (i >= s.length) fail("unexpected end in array")
                when (s[i++]) {
                    ',' -> continue
                    ']' -> return l
                    else -> { i--; fail("want ',' or ']'") }
                }
            }
        }

        fun str(): String {
            i++ // opening quote
            val sb = StringBuilder()
            while (true) {
                if (i >= s.length) fail("unterminated string")
                val c = s[i++]
                when {
                    c == '"' -> return sb.toString()
                    c == '\\' -> {
                        if (i >= s.length) fail("unterminated escape")
                        when (val e = s[i++]) {
                            '"' -> sb.append('"')
                            '\\' -> sb.append('\\')
                            '/' -> sb.append('/')
                            'b' -> sb.append('\b')
                            'f' -> sb.append('\u000c')
                            'n' -> sb.append('\n')
                            'r' -> sb.append('\r')
                            't' -> sb.append('\t')
                            'u' -> {
                                if (i + 4 > s.length) fail("short \\u escape")
                                val h = s.substring(i, i + 4).toIntOrNull(16) ?: fail("bad \\u escape")
                                sb.append(h.toChar())
                                i += 4
                            }
                            else -> fail("bad escape \\$e")
                        }
                    }
                    c < ' ' -> fail("control character in string")
                    else -> sb.append(c)
                }
            }
        }

        fun num(): Any {
            val start = i
            if (i < s.length && s[i] == '-') i++
            while (i < s.length && (s[i].isDigit() || s[i] in ".eE+-")) i++
            val t = s.substring(start, i)
            if (t.isEmpty() || t == "-") fail("bad value")
            return t.toLongOrNull() ?: t.toDoubleOrNull() ?: fail("bad number $t")
        }
    }
}

// Typed access to parsed JSON, failing with the path on a wrong shape.
@Suppress("UNCHECKED_CAST")
fun Any?.obj(what: String = "value"): Map<String, Any?> =
    this as? Map<String, Any?> ?: throw JsonException("$what is not an object: ${Json.write(this)}")

@Suppress("UNCHECKED_CAST")
fun Any?.arr(what: String = "value"): List<Any?> =
    this as? List<Any?> ?: throw JsonException("$what is not an array: ${Json.write(this)}")

fun Map<String, Any?>.str(k: String): String? = this[k] as? String
fun Map<String, Any?>.long(k: String): Long? = (this[k] as? Number)?.toLong()
fun Map<String, Any?>.bool(k: String): Boolean? = this[k] as? Boolean

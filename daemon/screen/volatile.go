package screen

import (
	"regexp"
	"strings"
	"unicode"
)

// ---- volatile text ----

var (
	reDigits   = regexp.MustCompile(`\d+`)
	reVolatile = regexp.MustCompile(`(?i)\b(a\.?m\.?|p\.?m\.?|today|yesterday|tomorrow|` +
		`jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?|` +
		`mon(day)?|tue(s(day)?)?|wed(nesday)?|thu(rs(day)?)?|fri(day)?|sat(urday)?|sun(day)?)\b`)
)

// Normalize lower-cases s, folds whitespace and trims it.
func Normalize(s string) string {
	clean := true // already lower-case ASCII with single inner spaces
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return strings.Join(strings.FieldsFunc(strings.ToLower(s), unicode.IsSpace), " ")
		}
		if c >= 'A' && c <= 'Z' || asciiSpace(c) && (c != ' ' || i == 0 || i == len(s)-1 || asciiSpace(s[i+1])) {
			clean = false
		}
	}
	if clean {
		return s
	}
	// ASCII: the same as the Unicode path, in one pass
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if asciiSpace(c) {
			continue
		}
		if len(b) > 0 && asciiSpace(s[i-1]) {
			b = append(b, ' ')
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

// asciiSpace is unicode.IsSpace for ASCII bytes.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// MaskVolatile normalises s and replaces the parts that change while the
// screen stays the same — numbers (clock times, counters, dates, sizes),
// month and weekday names, am/pm — by '#'.
func MaskVolatile(s string) string {
	s = Normalize(s)
	if strings.ContainsRune(s, 'ſ') {
		// (?i) folds the long s (U+017F) onto 's', the only non-ASCII
		// letter that folds onto a letter of reVolatile: keep the
		// regexps' exact semantics for it.
		s = reDigits.ReplaceAllString(s, "#")
		return reVolatile.ReplaceAllString(s, "#")
	}
	return maskVolatileASCII(maskDigits(s))
}

// maskDigits replaces each run of ASCII digits by '#', as reDigits does.
func maskDigits(s string) string {
	i := strings.IndexAny(s, "0123456789")
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			if i == 0 || s[i-1] < '0' || s[i-1] > '9' {
				b.WriteByte('#')
			}
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// maskVolatileASCII is reVolatile.ReplaceAllString(s, "#") for s without
// ASCII digits, upper-case ASCII or 'ſ', without the regexp engine. It
// scans bytes: bytes of multi-byte runes are never word bytes, as non-ASCII
// runes are not \w for RE2's ASCII \b. A match starts at a
// word boundary before a letter; "a.m."/"p.m." forms are tried first,
// longest first, as the regexp's greedy `\.?` does; other alternatives are
// whole words (the \b after them ends a run of letters and '_').
func maskVolatileASCII(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !isWordByte(s[i]) {
			i++
			continue
		}
		// i starts a run of word bytes: the only place a match can start
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		n := 0
		if s[i] == 'a' || s[i] == 'p' {
			n = matchMeridiem(s, i)
		}
		if n == 0 && volatileWords[s[i:j]] {
			n = j - i
		}
		if n == 0 {
			i = j
			continue
		}
		if last == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:i])
		b.WriteByte('#')
		i += n
		last = i
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// matchMeridiem matches `[ap]\.?m\.?\b` at i, trying the optional dots
// greedily as the regexp does; it returns the match length or 0.
func matchMeridiem(s string, i int) int {
	for _, dots := range [4][2]bool{{true, true}, {true, false}, {false, true}, {false, false}} {
		j := i + 1
		if dots[0] {
			if j >= len(s) || s[j] != '.' {
				continue
			}
			j++
		}
		if j >= len(s) || s[j] != 'm' {
			continue
		}
		j++
		if dots[1] {
			if j >= len(s) || s[j] != '.' {
				continue
			}
			j++
		}
		if isWordByte(s[j-1]) != (j < len(s) && isWordByte(s[j])) { // \b
			return j - i
		}
	}
	return 0
}

// isWordByte is RE2's ASCII \w.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// volatileWords are reVolatile's whole-word alternatives.
var volatileWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("today yesterday tomorrow jan january feb february mar march apr april may " +
		"jun june jul july aug august sep sept september oct october nov november dec december " +
		"mon monday tue tues tuesday wed wednesday thu thurs thursday fri friday sat saturday sun sunday") {
		m[w] = true
	}
	return m
}()

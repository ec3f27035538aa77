package intent

import (
	"slices"
	"strings"
	"unicode"
)

// Says reports whether the words of name stand together in text, case
// folded, words being runs of letters and digits ("open the archive,
// please" says "Archive"; "remove contact Omar" says "omar" but not "Omar
// Lee"); false for a name of no words.
func Says(text, name string) bool {
	want, got := nameWords(name), nameWords(text)
	for i := 0; len(want) > 0 && i+len(want) <= len(got); i++ {
		if slices.Equal(got[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

// Names returns the values of text (Understand: a name, a quoted text, a
// number, a file name) as NameKey writes them, a possessive "'s" dropped
// ("Dora's" names Dora): the names a command gives, for comparing with
// a list row's name.
func Names(text string) []string {
	var out []string
	for _, v := range Understand(text).Values {
		if k := NameKey(Unpossessive(v.Text)); k != "" && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// Unpossessive is s without a possessive "'s" or "’s" at its end
// ("Dora's" → "Dora").
func Unpossessive(s string) string {
	return strings.TrimSuffix(strings.TrimSuffix(s, "'s"), "’s")
}

// NameKey is name's words (runs of letters and digits, as Says reads
// them) in lower case, joined by one space: "Memo7.m4a" is "memo7 m4a".
func NameKey(name string) string {
	return strings.Join(nameWords(name), " ")
}

// nameWords splits s into lower-case runs of letters and digits.
func nameWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

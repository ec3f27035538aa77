package intent

import (
	"slices"
	"strings"
	"unicode"
)

// Says reports whether the words of name stand together in text, case
// folded, words being runs of letters and digits ("open the archive,
// please" says "Archive"; "delete contact Jack" says "jack" but not "Jack
// Lee"); false for a name of no words.
func Says(text, name string) bool {
	split := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	}
	want, got := split(name), split(text)
	for i := 0; len(want) > 0 && i+len(want) <= len(got); i++ {
		if slices.Equal(got[i:i+len(want)], want) {
			return true
		}
	}
	return false
}

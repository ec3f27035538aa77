package graphplan

import (
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

// term is one unit of meaning used for matching: a stem, mapped to its
// synonym concept when the generic UI vocabulary knows it (so "remove"
// matches a "Delete" button).
type term string

// termsOf splits a UI text or command into terms: words are stemmed and
// mapped to concepts; numbers stay as they are; resource-id style words
// ("btn_add_note", "addNote") are split first.
func termsOf(s string) []term {
	s = splitIdentifier(s)
	var out []term
	for _, t := range intent.Tokenize(s) {
		switch t.Kind {
		case intent.KindQuoted:
			for _, inner := range intent.Tokenize(t.Orig) {
				out = append(out, termOfToken(inner)...)
			}
		default:
			out = append(out, termOfToken(t)...)
		}
	}
	return out
}

func termOfToken(t intent.Token) []term {
	if t.Kind == intent.KindSymbol {
		if c := intent.Concept(t.Text); c != "" {
			return []term{term("@" + c)}
		}
		return nil
	}
	if t.Kind != intent.KindWord {
		// numbers, times, dates: match their digits
		var out []term
		for _, f := range strings.FieldsFunc(t.Text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			out = append(out, term(f))
		}
		return out
	}
	w := t.Text
	if intent.IsStopword(w) {
		return nil
	}
	if c := intent.Concept(w); c != "" {
		return []term{term("@" + c)}
	}
	return []term{term(intent.Stem(w))}
}

// splitIdentifier turns "com.app:id/btn_add_note" or "addNote" into words.
func splitIdentifier(s string) string {
	if i := strings.Index(s, ":id/"); i >= 0 {
		s = s[i+4:]
	}
	var b strings.Builder
	prevLower := false
	for _, r := range s {
		switch {
		case r == '_' || r == '/' || r == '.':
			b.WriteRune(' ')
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			b.WriteRune(' ')
		}
		prevLower = unicode.IsLower(r)
		b.WriteRune(r)
	}
	return b.String()
}

// polarity of a command: +1 turn on / enable, -1 turn off / disable, 0
// neither.
func polarity(cmd string) int {
	p := 0
	for _, t := range intent.Tokenize(cmd) {
		switch intent.Concept(t.Text) {
		case "on":
			p = 1
		case "off":
			p = -1
		}
	}
	return p
}

// confirmConcepts label buttons that commit a form: save / ok / done /
// send / add / create / apply / set.
var confirmConcepts = map[string]bool{"save": true, "confirm": true, "send": true, "add": true}

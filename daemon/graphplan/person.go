// A person's name: a command that creates a record writes the name whole
// and unquoted ("create a new contact Ada Lovelace"), while a contact
// form asks for it in two fields, the given name and the family name (the
// parts of Android's ContactsContract.CommonDataKinds.StructuredName).

package graphplan

import (
	"slices"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// createdName reports whether value v of cmd (a proper-noun-like word
// value, or a quoted one) is the name of the thing the command creates:
// it follows that
// thing's noun right after a creating word ("create a new contact Ada
// Lovelace", "new contact Ada"), and no preposition after it sends an
// existing thing somewhere ("add contact Ada to favorites").
func createdName(cmd string, v intent.Value) bool {
	if v.Kind != intent.KindWord && v.Kind != intent.KindQuoted {
		return false
	}
	before := intent.Tokenize(cmd[:v.Start])
	if len(before) < 2 {
		return false
	}
	noun := before[len(before)-1]
	if noun.Kind != intent.KindWord || intent.IsStopword(noun.Text) || intent.ActionWord(noun.Text) {
		return false
	}
	creates := false
	for i := len(before) - 2; i >= 0 && i >= len(before)-4; i-- {
		w := before[i].Text
		if slices.Contains(intent.Concepts(w), "add") && intent.ActionWord(w) {
			creates = true
			break
		}
		if !intent.IsStopword(w) {
			break // another word between the creating word and the noun
		}
	}
	if !creates {
		return false
	}
	if after := intent.Tokenize(cmd[v.End:]); len(after) > 0 {
		switch after[0].Text {
		case "to", "into", "in", "on", "from", "onto":
			return false
		}
	}
	return true
}

// nameParts splits a person's name of two to four capitalised words into
// its given names and its family name (the last word); ok is false for
// any other text.
func nameParts(text string) (given, family string, ok bool) {
	ws := strings.Fields(text)
	if len(ws) < 2 || len(ws) > 4 {
		return "", "", false
	}
	for _, w := range ws {
		r := []rune(w)
		if !unicode.IsUpper(r[0]) || strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' && r != '\'' }) {
			return "", "", false
		}
	}
	return strings.Join(ws[:len(ws)-1], " "), ws[len(ws)-1], true
}

// Which part of a person's name a text field asks for.
const (
	wholeName = iota
	givenName
	familyName
)

// namePart returns the part of a person's name field e asks for, by the
// words it shows (shownName) and those of its resource-id, which still
// say it once the field holds a name: "First name" and "Given name" the
// given names, "Surname", "Last name" and "Family name" the family name.
func namePart(e *screen.Element) int {
	said := shownName(e) + " " + idWords(e.Resource)
	ws := strings.FieldsFunc(strings.ToLower(said), func(r rune) bool { return !unicode.IsLetter(r) })
	has := func(w string) bool { return slices.Contains(ws, w) }
	switch {
	case has("surname") || has("name") && (has("last") || has("family")):
		return familyName
	case has("name") && (has("first") || has("given")):
		return givenName
	}
	return wholeName
}

// splitName returns the text to type of value v into field e of a screen
// with the elements els: where the screen's text fields ask for the given
// and the family name apart and v is a person's name (nameParts), the
// part e asks for, false for a field that asks for neither or already
// holds its part; text (v as typed whole) elsewhere.
func splitName(els []screen.Element, e *screen.Element, v value, text string) (string, bool) {
	given, family, ok := nameParts(text)
	if !ok || !v.quoted {
		return text, true
	}
	parts := map[int]bool{}
	for i := range els {
		if els[i].Kind == screen.KindInput {
			parts[namePart(&els[i])] = true
		}
	}
	if !parts[givenName] || !parts[familyName] {
		return text, true
	}
	var part string
	switch namePart(e) {
	case givenName:
		part = given
	case familyName:
		part = family
	default:
		return "", false // the whole name into neither of its fields
	}
	if strings.EqualFold(strings.TrimSpace(e.Value), part) {
		return "", false
	}
	return part, true
}

// typedPart records that the part typed (text) of a pending person's name
// v was typed, and reports whether every part of it now is.
func (v *value) typedPart(text string) bool {
	given, family, ok := nameParts(v.text)
	if !ok {
		return false
	}
	switch {
	case strings.EqualFold(text, given):
		v.parts |= 1
	case strings.EqualFold(text, family):
		v.parts |= 2
	}
	return v.parts == 3
}

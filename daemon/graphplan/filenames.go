// File names in forms: a name as the command writes it against what a
// field holds, and what to type where a form keeps the extension or the
// folder in fields of their own.

package graphplan

import (
	"path/filepath"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// sameName reports whether held, a field's text, is the name want: the
// same text, case and surrounding space aside, or, when extAdded, want
// without its file extension ("Ledger" for "Ledger.json").
func sameName(held, want string, extAdded bool) bool {
	held, want = strings.TrimSpace(held), strings.TrimSpace(want)
	if held == "" {
		return false
	}
	if strings.EqualFold(held, want) {
		return true
	}
	base, _, ok := splitExt(want)
	return extAdded && ok && strings.EqualFold(held, base)
}

// splitExt splits a file name at its extension ("Ledger_backup.json":
// "Ledger_backup", "json"); ok is false when name has none (one to five
// letters or digits after its last dot).
func splitExt(name string) (base, ext string, ok bool) {
	dot := filepath.Ext(name)
	if len(dot) < 2 || len(dot) > 6 || strings.ContainsFunc(dot[1:], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		return name, "", false
	}
	return strings.TrimSuffix(name, dot), dot[1:], true
}

// fileText returns what to type for value v into field e of the current
// screen. A file name is typed without its extension where another field
// of the form holds that extension alone (a "Save as" dialog with the
// name, "jpg" and the folder in three fields) or where the field's name
// writes it (saysExt); ok is false for a field that holds a folder path
// ("Internal/Pictures/") while the form has another field for the name.
func fileText(st *daemon.PlanState, e *screen.Element, v value) (text string, ok bool) {
	if !v.file {
		return v.text, true
	}
	base, ext, hasExt := splitExt(v.text)
	isPath := func(f *screen.Element) bool { return strings.ContainsAny(f.Value, "/\\") }
	text, other := v.text, false
	for i := range st.Elements {
		f := &st.Elements[i]
		if f.Kind != screen.KindInput || f.NodeID == e.NodeID || isSearchField(f) {
			continue
		}
		if hasExt && strings.EqualFold(strings.TrimSpace(strings.TrimPrefix(f.Value, ".")), ext) {
			text = base
			continue
		}
		other = other || !isPath(f)
	}
	if isPath(e) && !strings.ContainsAny(v.text, "/\\") && other {
		return "", false
	}
	if hasExt && strings.EqualFold(strings.TrimSpace(strings.TrimPrefix(e.Value, ".")), ext) {
		return "", false // the extension's own field keeps it
	}
	if hasExt && saysExt(shownName(e), ext) {
		text = base // "Name (without .txt)": the app adds it
	}
	return text, true
}

// saysExt reports whether a field's shown name writes the extension ext
// with its dot ("File name (without .txt)", "Name.txt"): the app adds the
// extension to what is typed there.
func saysExt(name, ext string) bool {
	name = strings.ToLower(name)
	i := strings.Index(name, "."+strings.ToLower(ext))
	if i < 0 {
		return false
	}
	end := i + 1 + len(ext)
	return end == len(name) || !unicode.IsLetter(rune(name[end])) && !unicode.IsDigit(rune(name[end]))
}

// namesFile reports whether value v is a file name: written as one
// ("scan7.png"), or quoted as one word with an extension
// ('Backup_0701.json').
func namesFile(v value) bool {
	if v.file {
		return true
	}
	_, _, ok := splitExt(v.text)
	return ok && v.quoted && !strings.ContainsFunc(strings.TrimSpace(v.text), unicode.IsSpace)
}

// personFieldTerms: the terms that say a field is for a person, a
// number or a message (its label, hint or resource-id words).
var personFieldTerms = termsOf("contact message number")

// takesFileName reports whether text field e may take a file's name: a
// search field (a file is found by its name), a field holding a file
// name now (a save picker's "Untitled.txt"), and any field that is not
// for a recipient, a phone number or a message's text.
func takesFileName(e *screen.Element) bool {
	if isSearchField(e) {
		return true
	}
	if _, _, ok := splitExt(strings.TrimSpace(e.Value)); ok {
		return true
	}
	return overlap(personFieldTerms, elementTerms(e, "")) == 0
}

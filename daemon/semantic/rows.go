package semantic

import (
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Rows picked by name: a flow learned as "archive the thread with Dora"
// opened Dora's row of a list. "Dora" is no slot — a name in a flow's words is a
// requirement, and a flow whose names were slots would fill them with
// whatever a command says there (measured, stop 27: many wrong flows) —
// but the owner may have the flow pick another row ("archive Eli's thread"): such a
// flow is offered, never replayed on its own, and the owner names the
// row (the daemon's offer).

// RowNames returns, per step index of f, the name of the list row the
// step taps when f's intent says that name as a value (a proper noun or a
// quoted text): the part of the row's label before " · " is the name,
// word for word (case folded; a possessive "'s" in the intent aside). Nil
// when there is none. A tap bound to a slot (its text a slot reference),
// an input field and a tap that is no list row are never rows by name.
func RowNames(f *knowledge.Flow) map[int]string {
	if f == nil {
		return nil
	}
	names := IntentNames(f.Intent)
	if len(names) == 0 {
		return nil
	}
	var out map[int]string
	for i, s := range f.Steps {
		if s.Action != device.Tap || !s.Target.InList || s.Target.Editable || s.Text != "" {
			continue
		}
		head, _, _ := strings.Cut(s.Target.Label(), " · ")
		hw := strings.Join(labelWords(head), " ")
		for _, n := range names {
			if hw != "" && strings.Join(labelWords(n), " ") == hw {
				if out == nil {
					out = map[int]string{}
				}
				out[i] = head
				break
			}
		}
	}
	return out
}

// IntentNames returns the names an intent says as values, as a list row
// would show them: proper nouns and quoted texts (a possessive "'s"
// aside), and words of letters and digits ("track7.ogg", "scan2": a
// file's or an item's name).
func IntentNames(text string) []string {
	var names []string
	for _, v := range intent.Understand(text).Values {
		if v.Kind == intent.KindWord || v.Kind == intent.KindQuoted {
			names = append(names, possessive.ReplaceAllString(v.Text, ""))
		}
	}
	for _, w := range strings.Fields(text) {
		if w = strings.Trim(w, `'".,;:!?()`); hasDigit(w) && strings.ContainsFunc(w, unicode.IsLetter) {
			names = append(names, w)
		}
	}
	return names
}

// possessive is the "'s" of a name ("Dora's"), no part of it.
var possessive = regexp.MustCompile(`['’]s$`)

// Rebinds reports whether candidate c of command differs from flow f in
// the name of a row f picks by name (RowNames): a word of that name is
// one the command leaves unmatched (c.FlowUnmatched) and does not say,
// and c is not contradicted. Such a flow may be offered for the
// owner to name the row.
func Rebinds(command string, c intent.Candidate, f *knowledge.Flow) bool {
	if contradicted(c) {
		return false
	}
	rows := RowNames(f)
	if len(rows) == 0 {
		return false
	}
	var said []string
	for _, w := range strings.Fields(command) {
		said = append(said, labelWords(possessive.ReplaceAllString(w, ""))...)
	}
	var left []string
	for _, u := range c.FlowUnmatched {
		left = append(left, labelWords(possessive.ReplaceAllString(u, ""))...)
	}
	for _, name := range rows {
		if slices.ContainsFunc(labelWords(name), func(w string) bool { return slices.Contains(left, w) && !slices.Contains(said, w) }) {
			return true
		}
	}
	return false
}

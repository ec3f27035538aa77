package daemon

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

// TestNamedValue: a spoken command sets a name apart by a naming word that
// the name runs from to the command's end; quotes, a missing name and a
// sentence after the word do not make one.
func TestNamedValue(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"create a note called oat milk", "oat milk"},
		{"new folder named Trip 2024.", "Trip 2024"},
		{"text Sam saying running late, sorry!", "running late, sorry"},
		{"make a list titled weekend", "weekend"},
		{`create a note called "oat milk"`, ""},                // the quotes say where it is
		{"create a note called", ""},                           // no name
		{"rename the note to oat milk", ""},                    // "to" is no naming word here
		{"create a note called a b c d e f g", ""},             // a sentence, not a name
		{`a note named "x" and a folder named shots`, "shots"}, // the last naming word
		{"open the file called report.pdf", "report.pdf"},
		{"create a note called oat milk please", "oat milk"},            // a polite end is no part of a name
		{"text Sam saying call me back please", "call me back please"},  // a message keeps it
		{"new event titled vet appointment save it", "vet appointment"}, // a step said after the name
		{"a note called shopping and save", "shopping"},
		{"a folder named trips, then save it", "trips"},
		{"a note called plans and lock it", "plans and lock it"},       // another action: a requirement of its own
		{"a note called save it", "save it"},                           // one word of the name at least
		{"text Sam saying call me and save it", "call me and save it"}, // a message keeps it
		{"a note called rock and roll", "rock and roll"},
		{"crop the sketch and save it as sketch2", "sketch2"}, // the "as" of a save
		{"save a copy as moss", "moss"},
		{"save as draft please", "draft"},
		{"name it harbour", "harbour"},
		{"call it dune", "dune"},
		{"show it as a list", ""},   // "as" of no save
		{"save it to the desk", ""}, // "to" of a save: where
	} {
		v, ok := NamedValue(tc.cmd)
		if got := map[bool]string{true: v.Text, false: ""}[ok]; got != tc.want {
			t.Errorf("NamedValue(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
		if ok && tc.cmd[v.Start:v.End] != v.Text {
			t.Errorf("NamedValue(%q): offsets %d:%d do not hold %q", tc.cmd, v.Start, v.End, v.Text)
		}
	}
}

// FuzzNamedValue: any command is read without a panic; a name found is
// the command's own text at its offsets, ends the command (but for closing
// punctuation and polite words) and is at most maxNamedWords words.
func FuzzNamedValue(f *testing.F) {
	f.Add("create a note called oat milk")
	f.Add(`note named "x" called y`)
	f.Add("called")
	f.Add("saying ÉTÉ é\u0301!")
	f.Fuzz(func(t *testing.T, cmd string) {
		v, ok := NamedValue(cmd)
		if !ok {
			return
		}
		if v.Start < 0 || v.End > len(cmd) || v.Start >= v.End || cmd[v.Start:v.End] != v.Text {
			t.Fatalf("NamedValue(%q) = %+v: not the command's text", cmd, v)
		}
		rest := strings.TrimRightFunc(cmd[v.End:], func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(".!?", r) })
		for _, w := range strings.Fields(strings.ToLower(rest)) {
			w = strings.Trim(w, ".,!?;:")
			if !strings.Contains(" please pls plz thanks thx and then it them this that ", " "+w+" ") && !slices.Contains(intent.Concepts(w), "save") {
				t.Fatalf("NamedValue(%q) = %q leaves %q after it", cmd, v.Text, rest)
			}
		}
		if n := len(strings.Fields(v.Text)); n == 0 || n > maxNamedWords {
			t.Fatalf("NamedValue(%q) = %q: %d words", cmd, v.Text, n)
		}
	})
}

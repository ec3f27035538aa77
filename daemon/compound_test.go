package daemon

import (
	"strings"
	"testing"
)

func TestJoinCompounds(t *testing.T) {
	texts := []string{"Dialpad", "Autosave notes", "Back up now", "Backup settings", "Create the note 'NewCheckList'", "Sign in"}
	for _, tc := range []struct{ cmd, want string }{
		{"hide the digits on the dial pad", "hide the digits on the dialpad"},
		{"turn off auto save, please", "turn off autosave, please"},
		{"Dial Pad", "dialpad"},
		{"back up my notes", "back up my notes"},                         // the texts write both
		{"new checklist called todo", "new checklist called todo"},       // a name in CamelCase is no word
		{"sign in", "sign in"},                                           // "signin" is no word of the texts
		{"open the dial, pad the field", "open the dial, pad the field"}, // punctuation between
		{"dial", "dial"},
		{`type "auto save" in the dial pad`, `type "auto save" in the dialpad`}, // the owner's text stays
	} {
		got, changed := JoinCompounds(tc.cmd, texts)
		if got != tc.want || changed != (tc.want != tc.cmd) {
			t.Errorf("JoinCompounds(%q) = %q, %v; want %q", tc.cmd, got, changed, tc.want)
		}
	}
}

// FuzzJoinCompounds: any command against any text is read without a
// panic; a command left as it is comes back unchanged, and a joined one
// has fewer words.
func FuzzJoinCompounds(f *testing.F) {
	f.Add("the dial pad", "Dialpad")
	f.Add("AUTO save!", "Autosave notes")
	f.Add("ÉTÉ été", "Étéété")
	f.Add("İx y", "i̇xy")
	f.Fuzz(func(t *testing.T, command, text string) {
		got, ok := JoinCompounds(command, []string{text})
		if !ok && got != command {
			t.Fatalf("unchanged but returned %q for %q", got, command)
		}
		if ok && len(strings.Fields(got)) >= len(strings.Fields(command)) {
			t.Fatalf("joined %q into %q without fewer words", command, got)
		}
	})
}

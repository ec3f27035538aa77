package daemon

import "testing"

func TestReadCompounds(t *testing.T) {
	texts := []string{"Numberpad", "Autoplay videos", "Back up now", "Backup settings", "Create the list 'GroceryRun'", "Sign in", "Text size · 100%", "Wrap lines", "Wraplines help"}
	for _, tc := range []struct{ cmd, want string }{
		{"hide the digits on the number pad", "hide the digits on the numberpad"},
		{"turn off auto play, please", "turn off autoplay, please"},
		{"Number Pad", "numberpad"},
		{"back up my notes", "back up my notes"},                         // the texts write both
		{"new grocery run", "new grocery run"},                           // a name in CamelCase is no word
		{"sign in", "sign in"},                                           // "signin" is no word of the texts
		{"open the dial, pad the field", "open the dial, pad the field"}, // punctuation between
		{"dial", "dial"},
		{`type "auto play" in the number pad`, `type "auto play" in the numberpad`}, // the owner's text stays
		{"make the textsize bigger", "make the text size bigger"},                   // one word the texts write as two
		{"turn off wraplines", "turn off wraplines"},                                // the texts write both
		{`name it "textsize"`, `name it "textsize"`},                                // the owner's text stays
	} {
		got, changed := ReadCompounds(tc.cmd, texts)
		if got != tc.want || changed != (tc.want != tc.cmd) {
			t.Errorf("ReadCompounds(%q) = %q, %v; want %q", tc.cmd, got, changed, tc.want)
		}
	}
}

// FuzzReadCompounds: any command against any text is read without a
// panic; a command left as it is comes back unchanged, and a changed one
// differs from it.
func FuzzReadCompounds(f *testing.F) {
	f.Add("the number pad", "Numberpad")
	f.Add("AUTO play!", "Autoplay videos")
	f.Add("ÉTÉ été", "Étéété")
	f.Add("İx y", "i̇xy")
	f.Fuzz(func(t *testing.T, command, text string) {
		got, ok := ReadCompounds(command, []string{text})
		if !ok && got != command {
			t.Fatalf("unchanged but returned %q for %q", got, command)
		}
		if ok && got == command {
			t.Fatalf("changed %q without changing it", command)
		}
	})
}

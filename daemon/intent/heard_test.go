package intent

import "testing"

func TestHeard(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// hesitations
		{"change the ringtone to um marimba", "change the ringtone to marimba"},
		{"um open the uh settings", "open the settings"},
		{"set it to um, loud", "set it to loud"},
		{"name it 'um hello' please", "name it 'um hello' please"}, // the owner's text
		{"text theo 'see you' um", "text theo 'see you'"},
		{"uh 'draft' now?", "'draft' now?"},
		// what a request opens with that asks nothing
		{"okay so switch the planner to week view", "switch the planner to week view"},
		{"um okay, is there a way to show four columns", "show four columns"},
		{"would you mind calling dave?", "calling dave?"},
		{"do you mind if i call dave", "do you mind if i call dave"},
		{"so the font is too small", "the font is too small"},
		{"okay so", "okay so"},
		{"well done", "well done"},
		{"is there a way to", "is there a way to"},
		// self-repairs
		{"set the grid to 4 no 5 columns", "set the grid to 5 columns"},
		{"set quality to 60 no 90 percent", "set quality to 90 percent"},
		{"text carol um i mean dave that i'm late", "text dave that i'm late"},
		{"turn on hide the keypad wait no turn it off", "turn it off"},
		{"add the holidays of peru no actually chile", "add the holidays of chile"},
		{"sorry, open the archive", "open the archive"},
		{"hide the side panel no wait show it", "show it"},
		{"sort files by size no actually by date", "sort files by date"},
		{"set snooze to ten i mean fifteen minutes", "set snooze to fifteen minutes"},
		{"open the attic folder i mean", "open the attic folder"},
		{"say no to the invite", "say no to the invite"},                           // "no" between no numbers
		{"did my last clip actually upload?", "did my last clip actually upload?"}, // an adverb: no action before it
		{"mute the ringer actually silence everything", "silence everything"},
		// file names
		{"save it as notes dot txt", "save it as notes.txt"},
		{"put a dot on the map", "put a dot on the map"},
		{"make a folder called trip underscore photos", "make a folder called trip_photos"},
		{"name it a underscore b underscore c dot txt", "name it a_b_c.txt"},
		{"an underscore", "an underscore"},
		{"underscore it", "underscore it"},
		// nothing to read
		{"turn on dark mode", "turn on dark mode"},
		{"dial (five oh one)!", "dial (five oh one)!"},
		{"", ""},
		{"um uh", "um uh"},
	} {
		got, changed := Heard(tc.in)
		if got != tc.want || changed != (tc.want != tc.in) {
			t.Errorf("Heard(%q) = %q, %v; want %q", tc.in, got, changed, tc.want)
		}
	}
}

func FuzzHeard(f *testing.F) {
	for _, s := range []string{"set it to 4 no 5", "text 'a' um i mean b", "x dot pdf", "um", "i mean", "'q' sorry"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, changed := Heard(s)
		if !changed && got != s {
			t.Fatalf("Heard(%q) = %q unchanged", s, got)
		}
		if len(got) > len(s)+len(s)/2+8 {
			t.Fatalf("Heard(%q) grew to %q", s, got)
		}
		if again, _ := Heard(got); len(again) > len(got)+8 {
			t.Fatalf("Heard(%q) = %q, then %q", s, got, again)
		}
	})
}

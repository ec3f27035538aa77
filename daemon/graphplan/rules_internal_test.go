package graphplan

import "testing"

func TestViewingCommand(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"view favorite contacts", true},
		{"open the settings page", true},
		{"check the size of the last photo", true},
		{"go to recents and play video2.mp4", false}, // two clauses
		{"open 'android' folder, sort the files by extension", false},
		{"delete the note", false},
		{"turn on dark mode", false},
		{"", false},
	} {
		if got := viewingCommand(tc.cmd); got != tc.want {
			t.Errorf("viewingCommand(%q) = %v, want %v", tc.cmd, got, tc.want)
		}
	}
}

func TestNavAndSetTerms(t *testing.T) {
	for _, w := range []string{"open", "view", "page", "tab"} {
		for _, tm := range termsOf(w) {
			if tm[0] != '@' && !navTerms[tm] {
				t.Errorf("%q (term %q) is not a navigation term", w, tm)
			}
		}
	}
	for _, w := range []string{"delete", "favorite", "dark"} {
		for _, tm := range termsOf(w) {
			if tm[0] != '@' && navTerms[tm] {
				t.Errorf("%q (term %q) must not be a navigation term", w, tm)
			}
		}
	}
	for _, tc := range []struct {
		t    term
		want bool
	}{{"@add", true}, {"add", true}, {"remov", true}, {"@off", true}, {"favorit", false}, {"@open", false}} {
		if got := isSetVerb(tc.t); got != tc.want {
			t.Errorf("isSetVerb(%q) = %v, want %v", tc.t, got, tc.want)
		}
	}
}

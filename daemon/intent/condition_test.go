package intent

import (
	"slices"
	"testing"
)

func TestCondition(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want []string
	}{
		{"set the theme to light but only at night", []string{"night"}},
		{"make the alarm ring only on weekends", []string{"weekends"}},
		{"clear the call log for Theo only", []string{"theo"}},
		{"sort the folders by size, for this folder only", []string{"folder"}},
		{"delete every event except the birthdays", []string{"birthdays"}},
		{"mute the shutter unless I'm recording, then close it", []string{"recording"}},
		{"show previews but not for groups", []string{"groups"}},
		{"only export the current content", nil}, // "only" before a verb
		{"export it as a file, current content only", nil},
		{"change the visibility to sender only", nil},
		{"blur faces when sharing", nil}, // "when" alone is the setting's own
		{"only", nil},
		{"", nil},
	} {
		if got := Condition(tc.cmd); !slices.Equal(got, tc.want) {
			t.Errorf("Condition(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

// FuzzCondition: any text is read without a panic, and every word
// returned is one of the text's.
func FuzzCondition(f *testing.F) {
	for _, s := range []string{"set it only at night", "for Theo only", "all except, the", "but not", "only"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, w := range Condition(s) {
			if w == "" {
				t.Fatalf("Condition(%q): an empty word", s)
			}
		}
	})
}

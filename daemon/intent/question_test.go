package intent

import "testing"

// TestAsksState: yes/no questions about what the phone shows are told
// from commands, requests phrased as questions, and wh-questions that
// ask to be shown something.
func TestAsksState(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"is dark mode on?", true},
		{"are read receipts enabled", true},
		{"hey, is the vibration on", true},
		{"quick question: are hidden folders visible?", true},
		{"isn't the 24 hour clock on", true},
		{"does the morning alarm vibrate", true},
		{"do I have an alarm at 7", true},
		{"did my timer go off", true},
		{"turn on dark mode", false},
		{"do not show hidden folders", false},
		{"don't vibrate on alarms", false},
		{"do a backup of my notes", false},
		{"are you able to turn on dark mode", false},
		{"do you mind turning the alarm off", false},
		{"is there a way to hide the tab bar", false},
		{"is it possible to sort by size", false},
		{"can you turn on dark mode?", false},
		{"how big is my last photo", false},
		{"what is my snooze time", false},
		{"is", false},
		{"", false},
	} {
		if got := AsksState(tc.text); got != tc.want {
			t.Errorf("AsksState(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func FuzzAsksState(f *testing.F) {
	for _, s := range []string{"is dark mode on?", "do not", "are you", "is it possible", "\x00is"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// opening filler never turns a question into a command or back
		if AsksState(s) != AsksState("hey "+s) {
			t.Errorf("%q and %q differ", s, "hey "+s)
		}
	})
}

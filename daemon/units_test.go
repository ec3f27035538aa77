package daemon

import (
	"strings"
	"testing"
)

// TestExpandUnits: a number with a unit glued on is read as the one phrase
// of the flows' texts with that number and a word the letters abbreviate;
// no phrase, two phrases, or a longer tail leave it as said.
func TestExpandUnits(t *testing.T) {
	texts := []string{"keep 24 hour clocks on the planner", "set the snooze to 5 minutes", "resize the photo to {width}:480", "wait 10 seconds or 10 sets"}
	for _, tt := range []struct {
		cmd, want string
		ok        bool
	}{
		{"switch to 24h time", "switch to 24 hour time", true},
		{`name it "24h" and switch to 24h`, `name it "24h" and switch to 24 hour`, true}, // the owner's text stays
		{"snooze 5min please", "snooze 5 minutes please", true},
		{"snooze (5m)", "snooze (5 minutes)", true},
		{"snooze 7min", "snooze 7min", false},             // no flow says 7 minutes
		{"wait 10s", "wait 10s", false},                   // seconds or sets: two readings
		{"resize to 480px", "resize to 480px", false},     // 480 is followed by no word
		{"snooze 5minutes", "snooze 5minutes", false},     // a longer tail is a word
		{"rename to cal2024", "rename to cal2024", false}, // letters first: a name
		// a unit written apart: the one word after a number or a slot it abbreviates
		{"snooze 7 min", "snooze 7 minutes", true},
		{"a 12 hr day", "a 12 hour day", true},
		{"resize to 800 w", "resize to 800 w", false},                   // no word after a number starts so
		{"wait 10 s", "wait 10 s", false},                               // seconds or sets
		{"set the snooze to 5 to 6", "set the snooze to 5 to 6", false}, // a word the flows write
		{"the 2 of us", "the 2 of us", false},                           // no unit
		{"snooze 'me 5 min'", "snooze 'me 5 min'", false},
	} {
		got, ok := expandUnits(tt.cmd, texts)
		if got != tt.want || ok != tt.ok {
			t.Errorf("expandUnits(%q) = %q, %v; want %q, %v", tt.cmd, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzExpandUnits: any command is read without a panic, and a command
// left unchanged is reported so.
func FuzzExpandUnits(f *testing.F) {
	f.Add("switch to 24h time")
	f.Add("1.5h 2,5min 3px")
	f.Fuzz(func(t *testing.T, cmd string) {
		got, ok := expandUnits(cmd, []string{"keep 24 hour clocks", "a 1.5 hour nap", "3 pixels"})
		if !ok && got != cmd {
			t.Fatalf("unchanged reported, but %q became %q", cmd, got)
		}
		if ok && strings.Join(strings.Fields(got), " ") == strings.Join(strings.Fields(cmd), " ") {
			t.Fatalf("changed reported for %q, got the same", cmd)
		}
	})
}

package graphplan

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestAllButOneRow: a command asking for all of something whose run
// tapped one row of a list the command does not name ends unsure; a row
// it names, a command without a quantifier, or a tap outside a list does
// not.
func TestAllButOneRow(t *testing.T) {
	row := func(label string) daemon.StepRecord {
		return daemon.StepRecord{Action: device.Tap, Target: screen.Descriptor{Text: label, InList: true}}
	}
	button := daemon.StepRecord{Action: device.Tap, Target: screen.Descriptor{Text: "Delete all notes"}}
	for _, tt := range []struct {
		name, cmd string
		step      daemon.StepRecord
		want      bool
	}{
		{"all, one unnamed row tapped", "delete all notes", row("Groceries"), true},
		{"every, one unnamed row tapped", "remove every alarm", row("7:00 am"), true},
		{"all, the row named", "delete all messages from sam", row("Sam"), false},
		{"no quantifier", "delete the notes", row("Groceries"), false},
		{"all, a button outside a list", "delete all notes", button, false},
		{"a word holding 'all' is no quantifier", "install the update", row("Groceries"), false},
	} {
		rs := newRunState(tt.cmd, "")
		rs.foldStep(tt.step)
		if got := rs.unsure(0); got != tt.want {
			t.Errorf("%s: unsure = %v, want %v", tt.name, got, tt.want)
		}
	}
}

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
		if got := rs.unsure(0, nil); got != tt.want {
			t.Errorf("%s: unsure = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestUnsureWhileAWordIsUnknown: a "done" is unsure while a word of the
// command that no element of the app carries was not covered by meaning
// either; a navigation word the app never shows does not count, and once
// a step covered the word the done is sure again.
func TestUnsureWhileAWordIsUnknown(t *testing.T) {
	rs := newRunState("open the harp tab and record a clip", "")
	harp, tab := termsOf("harp")[0], termsOf("tab")[0]
	rs.unknownW = map[term]float64{harp: 1, tab: 1}
	if !rs.unsure(0, nil) {
		t.Error(`"harp" is unknown to the app and uncovered: the done must be unsure`)
	}
	rs.covered[harp] = true
	if rs.unsure(0, nil) {
		t.Error(`"harp" covered by meaning and only the navigation word "tab" unknown: the done is sure`)
	}
}

// TestUnsureNotForTheAppsName: the app's own name, which no element of
// the app need carry, leaves no word unknown: the app is open.
func TestUnsureNotForTheAppsName(t *testing.T) {
	rs := newRunState("open the drafts in quillpad", "Quillpad")
	rs.unknownW = map[term]float64{termsOf("quillpad")[0]: 1}
	if rs.unsure(0, nil) {
		t.Error(`only the app's name "quillpad" is unknown: the done is sure`)
	}
	// a word naming the app that the app also shows (a title) weighs in
	// what is left, but no step need cover it
	rs.unknownW = nil
	q := termsOf("quillpad")[0]
	w := map[term]float64{q: 0.9}
	if rs.unsure(0.9, w) {
		t.Error(`only the app's name "quillpad" is left: the done is sure`)
	}
	if !rs.unsure(1.5, w) {
		t.Error("more than the app's name is left: the done is unsure")
	}
}

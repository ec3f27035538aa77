package graphplan

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// tapOn is a history step tapping an element labelled label.
func tapOn(label string) daemon.StepRecord {
	return daemon.StepRecord{Action: device.Tap, OK: true, Label: label,
		Target: screen.Descriptor{Class: "android.widget.TextView", Text: label}}
}

// TestWordLeft: for the route check a word of the command must be covered
// by a step's own words; one the target covers only as the element
// meaning the whole command (semHit.whole) is left, one it means by
// itself is not, and the app's name is never asked for.
func TestWordLeft(t *testing.T) {
	export := tapOn("Export")
	cases := []struct {
		name  string
		steps []daemon.StepRecord
		sem   []term // what the last step's target covers by meaning
		whole bool   // … only as part of the whole command
		left  bool
	}{
		{"a word no step covers", []daemon.StepRecord{tapOn("Archive")}, nil, false, true},
		{"every word on a tapped label", []daemon.StepRecord{tapOn("Archive"), tapOn("Share")}, nil, false, false},
		{"covered by the word's own meaning", []daemon.StepRecord{tapOn("Archive"), export}, []term{"share", "@send"}, false, false},
		{"covered only by the whole command's meaning", []daemon.StepRecord{tapOn("Archive"), export}, []term{"share", "@send"}, true, true},
	}
	for _, tc := range cases {
		p := &Planner{}
		p.run = newRunState("open the archive in Notebook and share it", "Notebook")
		rs := p.run
		last := tc.steps[len(tc.steps)-1].Target.Key()
		rs.semCovers[last] = tc.sem
		if tc.whole {
			rs.semWhole[last] = tc.sem
		}
		for _, h := range tc.steps {
			rs.foldStep(h)
		}
		if got := p.wordLeft(); got != tc.left {
			t.Errorf("%s: wordLeft %v, want %v (worded %v)", tc.name, got, tc.left, rs.worded)
		}
	}
}

// TestOffUndone: a command that hides or turns something off is not done
// by steps that only open it or show it; a switch set off, a switch that
// was on and flipped, or a label that itself turns something off do it.
func TestOffUndone(t *testing.T) {
	flippedOff := tapOn("Archive")
	flippedOff.Toggle, flippedOff.Toggled = "on", true
	cases := []struct {
		name    string
		command string
		steps   []daemon.StepRecord
		undone  bool
	}{
		{"opened only", "hide the archive", []daemon.StepRecord{tapOn("Archive")}, true},
		{"the other way", "hide the archive", []daemon.StepRecord{tapOn("Show archive")}, true},
		{"a label that hides", "hide the archive", []daemon.StepRecord{tapOn("Hide archive")}, false},
		{"a switch set off", "hide the archive", []daemon.StepRecord{{Action: daemon.ActEnsureOff, OK: true, Label: "Archive"}}, false},
		{"a switch flipped off", "hide the archive", []daemon.StepRecord{flippedOff}, false},
		{"no off command", "open the archive", []daemon.StepRecord{tapOn("Archive")}, false},
	}
	for _, tc := range cases {
		p := &Planner{}
		p.run = newRunState(tc.command, "")
		if got := p.offUndone(&daemon.PlanState{History: tc.steps}); got != tc.undone {
			t.Errorf("%s: offUndone %v, want %v", tc.name, got, tc.undone)
		}
	}
}

package eval

import (
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
)

// TestStrayValues: a value the run typed counts as stray when no input
// step of the recording typed it (case and surrounding space aside); a
// typing step that failed or was undone does not count.
func TestStrayValues(t *testing.T) {
	task := &droidtask.Task{Steps: []droidtask.Step{
		{Input: "Chores", Action: droidtask.Action{Type: "input", Text: "Chores"}},
		{Action: droidtask.Action{Type: "click"}},
		{Action: droidtask.Action{Type: "done"}},
	}}
	typed := func(text string, ok, undone bool) daemon.StepRecord {
		return daemon.StepRecord{Action: device.Input, Text: text, OK: ok, Backtracked: undone}
	}
	for _, tc := range []struct {
		name string
		run  []daemon.StepRecord
		want []string
	}{
		{"the recording's value", []daemon.StepRecord{typed(" chores", true, false)}, nil},
		{"another value", []daemon.StepRecord{typed("5:00", true, false)}, []string{"5:00"}},
		{"typed, then undone", []daemon.StepRecord{typed("5:00", true, true)}, nil},
		{"typing had no effect", []daemon.StepRecord{typed("5:00", false, false)}, nil},
		{"a tap", []daemon.StepRecord{{Action: device.Tap, Label: "Chores", OK: true}}, nil},
	} {
		if got := strayValues(task, tc.run); !slices.Equal(got, tc.want) {
			t.Errorf("%s: stray %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestActedOn: a run acted on a recorded state when one of its logged
// actions was taken there; reaching it (as the state after) is not acting
// on it.
func TestActedOn(t *testing.T) {
	r := &recorder{log: []moved{{before: "home", after: "list", action: device.Tap}, {before: "list", after: "done", action: device.Tap}}}
	for _, tc := range []struct {
		state string
		want  bool
	}{{"home", true}, {"list", true}, {"done", false}, {"editor", false}} {
		if got := r.actedOn(tc.state); got != tc.want {
			t.Errorf("actedOn(%q) = %v, want %v", tc.state, got, tc.want)
		}
	}
}

package daemon

import (
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestShortestPathCutsDetours: taps that only opened screens, then BACK to
// where they began, are no part of the learned path; a detour through a
// tap that may have changed something (a toggle, a field, an option, a
// sensitive step, a tap that came back to a screen on the way) stays.
func TestShortestPathCutsDetours(t *testing.T) {
	tap := func(label, from, to string) StepRecord {
		return StepRecord{Action: device.Tap, Target: screen.Descriptor{Text: label}, Screen: from, After: to, OK: true}
	}
	back := func(from, to string) StepRecord {
		return StepRecord{Action: device.Back, Screen: from, After: to, OK: true}
	}
	toggle := tap("Silent mode", "B", "B2")
	toggle.Target.Checkable = true
	sensitive := tap("Delete", "B", "C")
	sensitive.Sensitive = true
	for _, tc := range []struct {
		name  string
		steps []StepRecord
		want  []string // labels (or "back") of the path kept
	}{
		{"one tap undone", []StepRecord{tap("Chat", "L", "A"), tap("Details", "A", "B"), back("B", "A"), tap("Call", "A", "D")},
			[]string{"Chat", "Call"}},
		{"two taps, one back past a menu", []StepRecord{tap("Chat", "L", "A"), tap("More options", "A", "M"), tap("Details", "M", "B"), back("B", "A"), tap("Call", "A", "D")},
			[]string{"Chat", "Call"}},
		{"two taps, two backs", []StepRecord{tap("Settings", "A", "S"), tap("About", "S", "T"), back("T", "S"), back("S", "A"), tap("Call", "A", "D")},
			[]string{"Call"}},
		{"a toggle on the way", []StepRecord{tap("Alarm", "A", "B"), toggle, back("B2", "A"), tap("Call", "A", "D")},
			[]string{"Alarm", "Silent mode", "back", "Call"}},
		{"a sensitive tap on the way", []StepRecord{tap("Chat", "A", "B"), sensitive, back("C", "A")},
			[]string{"Chat", "Delete", "back"}},
		{"a tap back onto a screen on the way", []StepRecord{tap("Chat", "A", "B"), tap("More options", "B", "M"), tap("Mark unread", "M", "B"), back("B", "A"), tap("Call", "A", "D")},
			[]string{"Chat", "More options", "Mark unread", "back", "Call"}},
		{"back lands elsewhere", []StepRecord{tap("Chat", "A", "B"), back("B", "Z"), tap("Call", "Z", "D")},
			[]string{"Chat", "back", "Call"}},
		{"the screen changed before back", []StepRecord{tap("Chat", "A", "B"), back("B9", "A"), tap("Call", "A", "D")},
			[]string{"Chat", "back", "Call"}},
	} {
		var got []string
		for _, s := range shortestPath(tc.steps) {
			if s.Action == device.Back {
				got = append(got, "back")
			} else {
				got = append(got, s.Target.Text)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: path %v, want %v", tc.name, got, tc.want)
		}
	}
}

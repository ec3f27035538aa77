package graphplan

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestFailedTapRetriedAfterChangeInPlace: a tap the device could not
// perform is penalised (backtracking and repetition), unless a tap on
// another group of the same screen changed it in place since (a sort key
// picked before its direction). Not after a change in its own group (it
// would undo that choice), not after typing, not when it failed again
// after the change, and never the penalty of a refusal.
func TestFailedTapRetriedAfterChangeInPlace(t *testing.T) {
	down := screen.Descriptor{Class: "android.widget.RadioButton", Text: "Newest first", Checkable: true}
	key := screen.Descriptor{Class: "android.widget.RadioButton", Text: "Rating", Checkable: true, Path: []string{"RadioGroup#keys"}}
	up := screen.Descriptor{Class: "android.widget.RadioButton", Text: "Oldest first", Checkable: true}
	field := screen.Descriptor{Class: "android.widget.EditText", Hint: "Alias", Editable: true}
	failed := daemon.StepRecord{Screen: "dlg", After: "dlg", Action: device.Tap, Target: down, Label: "Newest first", Backtracked: true}
	keyPicked := daemon.StepRecord{Screen: "dlg", After: "dlg", Action: device.Tap, Target: key, Label: "Rating", OK: true, Changed: true, Group: []string{"Rating", "Length"}}
	sibling := daemon.StepRecord{Screen: "dlg", After: "dlg", Action: device.Tap, Target: up, Label: "Oldest first", OK: true, Changed: true, Group: []string{"Oldest first", "Newest first"}}
	typed := daemon.StepRecord{Screen: "dlg", After: "dlg", Action: device.Input, Target: field, Text: "x", OK: true, Changed: true}
	elsewhere := keyPicked
	elsewhere.Screen, elsewhere.After = "list", "list"
	done := failed
	done.OK, done.Backtracked = true, false
	op := daemon.OperationKey("dlg", device.Tap, down)
	tests := []struct {
		name    string
		history []daemon.StepRecord
		pen     float64 // st.Penalties of the operation
		want    float64
	}{
		{"failed, then another group changed", []daemon.StepRecord{failed, keyPicked}, NoEffectPenalty, 0},
		{"failed, nothing since", []daemon.StepRecord{failed}, NoEffectPenalty, NoEffectPenalty + RepeatPenalty},
		{"failed, then its own group changed", []daemon.StepRecord{failed, sibling}, NoEffectPenalty, NoEffectPenalty + RepeatPenalty},
		{"failed, then typed", []daemon.StepRecord{failed, typed}, NoEffectPenalty, NoEffectPenalty + RepeatPenalty},
		{"failed, changed on another screen", []daemon.StepRecord{failed, elsewhere}, NoEffectPenalty, NoEffectPenalty + RepeatPenalty},
		{"failed again after the change", []daemon.StepRecord{failed, keyPicked, failed}, 2 * NoEffectPenalty, 2*NoEffectPenalty + RepeatPenalty},
		{"failed twice, a change after each", []daemon.StepRecord{failed, keyPicked, failed, keyPicked}, 2 * NoEffectPenalty, 0},
		{"performed before", []daemon.StepRecord{done, keyPicked}, 0, RepeatPenalty},
		{"a refusal stays", []daemon.StepRecord{failed, keyPicked}, NoEffectPenalty + 3, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := &daemon.PlanState{Print: "dlg", History: tc.history, Penalties: map[string]float64{op: tc.pen}}
			if got := penalty(st, device.Tap, down); got != tc.want {
				t.Errorf("penalty = %v, want %v", got, tc.want)
			}
		})
	}
}

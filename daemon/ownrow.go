package daemon

import (
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// promisedRow returns the row name a flow's own words promise where its
// recording tapped another row: step is a plain tap on a list row whose
// name neither the flow's intent nor the command says, while the intent
// names a value (semantic.IntentNames: "play clip2.mp4", "the holidays
// of Atlantis") that the command says too and that no step of the flow
// taps or types. The recording then did not do what its words say — a
// slip of the demonstration (DroidTask's README counts about 8% of its
// recorded actions as noise) — and where the row named is a row of the
// same list on the screen, the replay taps it (groundStep): the recorded
// one is a tap the command never asked for. A value no row of that list
// shows ("Atlantis" beyond the fold) is left to the recorded step as
// before: without the peers' check, popup menus and tabs whose rows are
// no value were taken for slips (measured: 96 right replays lost on the
// tuning sets). The very words the flow was learned or replayed for
// replay the demonstration as it was given (and confirmed). False when
// the step is no such tap.
func promisedRow(f *knowledge.Flow, command string, step knowledge.Step) (string, bool) {
	if f == nil || step.Action != device.Tap || !step.Target.InList || step.Target.Editable || step.Text != "" {
		return "", false
	}
	if strings.EqualFold(strings.TrimSpace(f.Intent), strings.TrimSpace(command)) || slices.ContainsFunc(f.Commands, func(c string) bool { return strings.EqualFold(strings.TrimSpace(c), strings.TrimSpace(command)) }) {
		return "", false // the very words it was shown with: the demonstration as the owner gave it
	}
	head := screen.RowName(step.Target.Label())
	if head == "" || intent.Says(command, head) || intent.Says(f.Intent, head) {
		return "", false
	}
	for _, v := range semantic.IntentNames(f.Intent) {
		if !intent.Says(command, v) || slices.ContainsFunc(f.Steps, func(s knowledge.Step) bool { return intent.Says(s.Target.Label(), v) || intent.Says(s.Text, v) }) {
			continue
		}
		return v, true
	}
	return "", false
}

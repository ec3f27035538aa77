package intent_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestSwitchPattern: a flow that only sets one switch is also matched by
// the switch's own label with the state it sets ("turn off <label>"), so
// a command in the screen's words finds a flow learned in other words;
// the other state is an opposite, and a flow that does more, or takes
// values, gets no such pattern.
func TestSwitchPattern(t *testing.T) {
	steps := func(last knowledge.Step) []knowledge.Step {
		return []knowledge.Step{{Action: "tap", Target: screen.Descriptor{Text: "Settings"}}, last}
	}
	off := knowledge.Step{Action: knowledge.StepSwitchOff, Target: screen.Descriptor{Text: "Click noise", Checkable: true}}
	flows := []knowledge.Flow{
		{ID: 1, Package: "p", Intent: "silence the capture", Steps: steps(off)},
		{ID: 2, Package: "q", Intent: "silence the capture", Steps: append(steps(off), knowledge.Step{Action: "tap", Target: screen.Descriptor{Text: "Gallery"}})},
		{ID: 4, Package: "s", Intent: "silence the capture", Steps: steps(knowledge.Step{Action: knowledge.StepSwitchOff, Target: screen.Descriptor{Text: "Click noise ON"}})},
		{ID: 3, Package: "r", Intent: "silence the capture for {n} days", Slots: []knowledge.Slot{{Name: "n", Example: "3"}}, Steps: steps(off)},
	}
	m := intent.NewMatcher(flows)
	tests := []struct {
		cmd, pkg string
		replay   bool
		veto     string
	}{
		{"disable the click noise", "p", true, ""},
		{"turn the click noise off", "p", true, ""},
		{"turn on the click noise", "p", false, intent.VetoOpposite},
		{"disable the click noise", "q", false, ""}, // the flow goes on to the gallery
		{"disable the click noise", "r", false, ""}, // the flow takes a value
		{"disable the click noise", "s", true, ""},  // its label shows the state it was in
	}
	for _, tt := range tests {
		t.Run(tt.cmd+"/"+tt.pkg, func(t *testing.T) {
			cs := m.Rank(tt.cmd, tt.pkg, 3)
			var top intent.Candidate
			if len(cs) > 0 {
				top = cs[0]
			}
			if got := top.Score >= intent.DefaultThreshold; got != tt.replay {
				t.Errorf("top %+v: replay %v, want %v", top, got, tt.replay)
			}
			if tt.veto != "" && !slices.Contains(top.Vetoes, tt.veto) {
				t.Errorf("top %+v lacks veto %s", top, tt.veto)
			}
		})
	}
}

// TestSwitchPatternNeverTies: a flow whose only switch reads like another
// flow's intent scores below it by more than the engine's ambiguity margin
// (0.05), so the owner's own words win without a question.
func TestSwitchPatternNeverTies(t *testing.T) {
	off := knowledge.Step{Action: knowledge.StepSwitchOff, Target: screen.Descriptor{Text: "Click noise", Checkable: true}}
	m := intent.NewMatcher([]knowledge.Flow{
		{ID: 1, Package: "p", Intent: "turn off click noise", Steps: []knowledge.Step{off}},
		{ID: 2, Package: "p", Intent: "set the capture delay", Steps: []knowledge.Step{{Action: "tap", Target: screen.Descriptor{Text: "Delay"}}, off}},
	})
	cs := m.Rank("turn off click noise", "p", 3)
	if len(cs) < 2 || cs[0].FlowID != 1 || cs[0].Score-cs[1].Score <= 0.05 {
		t.Fatalf("candidates %+v: want flow 1 first by more than 0.05", cs)
	}
}

// FuzzSwitchPattern: any screen label on a learned switch step and any
// command are indexed and ranked without a panic, scores stay in [0, 1],
// and the switch pattern, when there is one, names the state set.
func FuzzSwitchPattern(f *testing.F) {
	f.Add("Click noise ON", "disable the click noise")
	f.Add(" OFF", "turn on")
	f.Add("Ünïcode ✓ label", "turn off ünïcode")
	f.Fuzz(func(t *testing.T, label, cmd string) {
		fl := knowledge.Flow{ID: 1, Package: "p", Intent: "silence the capture",
			Steps: []knowledge.Step{{Action: knowledge.StepSwitchOff, Target: screen.Descriptor{Text: label}}}}
		if st := intent.SwitchText(&fl); st != "" && !strings.HasPrefix(st, "turn off ") {
			t.Fatalf("switch text %q", st)
		}
		m := intent.NewMatcher([]knowledge.Flow{fl})
		for _, c := range m.Rank(cmd, "p", 3) {
			if c.Score < 0 || c.Score > 1+1e-9 {
				t.Fatalf("score %v for %q against label %q", c.Score, cmd, label)
			}
		}
	})
}

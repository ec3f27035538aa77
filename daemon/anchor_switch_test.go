package daemon

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// switchApp is a made-up e-reader whose settings screen shows switches;
// the owner's flows set three of them.
func switchApp() map[int64]*knowledge.Flow {
	const pkg = "org.example.reader"
	settings := &knowledge.Goal{Labels: []string{"Use side buttons as turner", "Turner sound", "Show a ruler", "Keep book metadata", "Book quality", "Keep screen on"}}
	flow := func(id int64, intent, label, act string) *knowledge.Flow {
		return &knowledge.Flow{ID: id, Package: pkg, Name: intent, Intent: intent, Commands: []string{intent},
			Steps: []knowledge.Step{{Action: device.Tap, Target: descriptorOf("Settings")},
				{Action: act, Target: descriptorOf(label), Where: settings}}}
	}
	return map[int64]*knowledge.Flow{
		1: flow(1, "use side button as turner", "Use side buttons as turner", knowledge.StepSwitchOn),
		2: flow(2, "turn off the turner sound", "Turner sound", knowledge.StepSwitchOff),
		3: flow(3, "keep the metadata of books", "Keep book metadata", knowledge.StepSwitchOn),
	}
}

func TestSwitchAnchors(t *testing.T) {
	flows := switchApp()
	for _, tt := range []struct {
		name, command string
		want          int64
	}{
		{"the label's words, no state word: on", "side buttons as turner please", 1},
		{"an on word of other words", "enable the side buttons for flipping pages", 1},
		{"an off word", "turn the turner sound off", 2},
		{"the other state", "turn on the turner sound", 0},
		{"a negation of the on state", "don't use the side buttons as turner", 0},
		{"stopping the on state", "stop using side buttons as turner", 0},
		{"a negation, the flow's off state", "no more turner sound please", 2},
		{"stopping, the flow's off state", "stop the turner sound", 2},
		{"a verb of its own says no state", "record the turner sound", 0},
		{"a verb of its own, the flow's on state", "mute side buttons as turner", 0},
		{"too few of the label's words", "side please", 0},
		{"a word of another element", "side buttons as turner and a ruler", 0},
		{"a value left over", "use side buttons as turner 3 times", 0},
		{"a word another element shares", "turn the turner off", 0},
		{"one word of two", "turn off the sound", 0},
		{"every word said labels other elements too", "keep book on", 0},
		{"a word only the switch has", "book metadata on please", 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			all, why := switchAnchors(tt.command, "org.example.reader", appWords(tt.command, "Reader"), flows, semantic.NewGrounding(flows))
			as, _ := passing(all)
			switch {
			case tt.want == 0 && len(as) > 0:
				t.Fatalf("anchored flow %d, want none", as[0].cand.FlowID)
			case tt.want != 0 && (len(as) != 1 || as[0].cand.FlowID != tt.want):
				t.Fatalf("anchors %+v, want flow %d; refused: %q", as, tt.want, why)
			}
		})
	}
}

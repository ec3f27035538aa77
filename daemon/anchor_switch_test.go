package daemon

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// switchApp is a made-up camera whose settings screen shows four
// switches; the owner's flows set two of them.
func switchApp() map[int64]*knowledge.Flow {
	const pkg = "org.example.camera"
	settings := &knowledge.Goal{Labels: []string{"Use volume buttons as shutter", "Shutter sound", "Show a grid", "Keep photo metadata", "Photo quality", "Keep screen on"}}
	flow := func(id int64, intent, label, act string) *knowledge.Flow {
		return &knowledge.Flow{ID: id, Package: pkg, Name: intent, Intent: intent, Commands: []string{intent},
			Steps: []knowledge.Step{{Action: device.Tap, Target: descriptorOf("Settings")},
				{Action: act, Target: descriptorOf(label), Where: settings}}}
	}
	return map[int64]*knowledge.Flow{
		1: flow(1, "use volume button as shutter", "Use volume buttons as shutter", knowledge.StepSwitchOn),
		2: flow(2, "turn off the shutter sound", "Shutter sound", knowledge.StepSwitchOff),
		3: flow(3, "keep the metadata of photos", "Keep photo metadata", knowledge.StepSwitchOn),
	}
}

func TestSwitchAnchors(t *testing.T) {
	flows := switchApp()
	for _, tt := range []struct {
		name, command string
		want          int64
	}{
		{"the label's words, no state word: on", "volume buttons as shutter please", 1},
		{"an on word of other words", "enable the volume buttons for taking pictures", 1},
		{"an off word", "turn the shutter sound off", 2},
		{"the other state", "turn on the shutter sound", 0},
		{"a negation of the on state", "don't use the volume buttons as shutter", 0},
		{"stopping the on state", "stop using volume buttons as shutter", 0},
		{"a negation, the flow's off state", "no more shutter sound please", 2},
		{"stopping, the flow's off state", "stop the shutter sound", 2},
		{"a verb of its own says no state", "record the shutter sound", 0},
		{"too few of the label's words", "volume please", 0},
		{"a word of another element", "volume buttons as shutter and a grid", 0},
		{"a value left over", "use volume buttons as shutter 3 times", 0},
		{"a word another element shares", "turn the shutter off", 0},
		{"one word of two", "turn off the sound", 0},
		{"every word said labels other elements too", "keep photo on", 0},
		{"a word only the switch has", "photo metadata on please", 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			all, why := switchAnchors(tt.command, "org.example.camera", appWords(tt.command, "Camera"), flows, semantic.NewGrounding(flows))
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

package daemon

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func TestTapAnchors(t *testing.T) {
	const pkg = "org.example.mail"
	menu := &knowledge.Goal{Labels: []string{"Flag as urgent", "Flag as done", "Archive", "Delete", "Pin to top"}}
	tap := func(label string, where *knowledge.Goal) knowledge.Step {
		return knowledge.Step{Action: device.Tap, Target: descriptorOf(label), Where: where}
	}
	flows := map[int64]*knowledge.Flow{
		1: {ID: 1, Package: pkg, Intent: "flag the thread with Ben as urgent",
			Steps: []knowledge.Step{tap("Ben · Hi · 12:00", nil), tap("More options", nil), tap("Flag as urgent", menu)}},
		2: {ID: 2, Package: pkg, Intent: "delete the thread with Ben",
			Steps: []knowledge.Step{tap("Ben · Hi · 12:00", nil), tap("Delete", menu), tap("Yes", nil)}},
	}
	for _, f := range flows {
		f.Name, f.Commands = f.Intent, []string{f.Intent}
	}
	m := intent.NewMatcher(flowList(flows))
	for _, tt := range []struct {
		name, command string
		want          int64
	}{
		{"the key tap named", "flag ben's thread urgent", 1},
		{"a state asked", "ben's thread flag urgent on", 0},
		{"a word of another element", "flag ben's thread urgent at the top", 0},
		{"another action", "delete and flag ben urgent", 0},
		{"another value", "flag ann's thread urgent", 0},
		{"a one-word key tap is never named", "delete ben's thread", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			as, why := tapAnchors(tt.command, pkg, nil, m, flows, semantic.NewGrounding(flows))
			switch {
			case tt.want == 0 && len(as) > 0:
				t.Fatalf("offered flow %d, want none", as[0].cand.FlowID)
			case tt.want != 0 && (len(as) != 1 || as[0].cand.FlowID != tt.want || !as[0].near):
				t.Fatalf("anchors %+v, want flow %d offered; refused: %q", as, tt.want, why)
			}
		})
	}
}

// flowList lists flows' values.
func flowList(flows map[int64]*knowledge.Flow) []knowledge.Flow {
	var out []knowledge.Flow
	for _, f := range flows {
		out = append(out, *f)
	}
	return out
}

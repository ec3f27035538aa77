package daemon

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func TestTapAnchors(t *testing.T) {
	const pkg = "org.example.chat"
	menu := &knowledge.Goal{Labels: []string{"Mark as unread", "Mark as read", "Archive", "Delete", "Pin to top"}}
	tap := func(label string, where *knowledge.Goal) knowledge.Step {
		return knowledge.Step{Action: device.Tap, Target: descriptorOf(label), Where: where}
	}
	flows := map[int64]*knowledge.Flow{
		1: {ID: 1, Package: pkg, Intent: "mark the chat with Bob as unread",
			Steps: []knowledge.Step{tap("Bob · Hi · 12:00", nil), tap("More options", nil), tap("Mark as unread", menu)}},
		2: {ID: 2, Package: pkg, Intent: "delete the chat with Bob",
			Steps: []knowledge.Step{tap("Bob · Hi · 12:00", nil), tap("Delete", menu), tap("Yes", nil)}},
	}
	for _, f := range flows {
		f.Name, f.Commands = f.Intent, []string{f.Intent}
	}
	m := intent.NewMatcher(flowList(flows))
	for _, tt := range []struct {
		name, command string
		want          int64
	}{
		{"the key tap named", "mark bob's chat unread", 1},
		{"a state asked", "bob's chat mark unread on", 0},
		{"a word of another element", "mark bob's chat unread at the top", 0},
		{"another action", "delete and mark bob unread", 0},
		{"another value", "mark alice's chat unread", 0},
		{"a one-word key tap is never named", "delete bob's chat", 0},
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

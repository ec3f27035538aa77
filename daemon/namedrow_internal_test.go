package daemon

import (
	"context"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestNamedRowIsThatRow: a replayed flow whose intent names the list row it
// opens taps a row with that name wherever the list puts it, and no other
// row when none has it, however alike their labels ("Trip ideas 2").
func TestNamedRowIsThatRow(t *testing.T) {
	learned, err := demo.Snapshot("home", demo.Variant{})
	if err != nil {
		t.Fatal(err)
	}
	var target screen.Descriptor
	for _, e := range screen.Elements(learned) {
		if e.Label == "Trip ideas" {
			target = screen.Describe(learned, e.NodeID)
		}
	}
	if !target.InList {
		t.Fatalf("the demo's row is no list row: %+v", target)
	}
	f := &knowledge.Flow{Intent: `open the note "Trip ideas"`, Package: demo.Package,
		Steps: []knowledge.Step{{Action: device.Tap, Target: target, Screen: "other"}}}
	for _, tt := range []struct {
		notes []string
		want  string // "" for no tap
	}{
		{[]string{"Books to read", "Shopping list", "Trip ideas"}, "Trip ideas"},
		{[]string{"Shopping list", "Trip ideas 2", "Books to read"}, ""},
		{[]string{"Shopping list", "Trip notes", "Books to read"}, ""},
	} {
		s, err := demo.Snapshot("home", demo.Variant{Notes: tt.notes})
		if err != nil {
			t.Fatal(err)
		}
		r := &run{flow: f}
		_, el, ok := r.groundStep(context.Background(), s, "home", f.Steps[0])
		got := ""
		if ok && el != nil {
			got = el.Label
		}
		if got != tt.want {
			t.Errorf("notes %q: tapped %q, want %q", tt.notes, got, tt.want)
		}
	}
}

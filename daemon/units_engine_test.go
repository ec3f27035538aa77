package daemon_test

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestUnitReplay: on the demo phone, a saved flow that says a number and
// its unit in full ("font size 18 points") is replayed, with no model, for
// a command that glues an abbreviation of the unit to the number ("font
// size 18pt"); without the reading the flow's literal counts as left out
// and nothing replays.
func TestUnitReplay(t *testing.T) {
	r := newRig(t, nil)
	g := fontSizeSaying(t, r, "set the font size to 18 points")
	res := r.run(t, "set the font size to 18pt", daemon.Options{NoPlanner: true})
	if !res.Matched || res.FlowID != g.ID || res.Outcome != knowledge.OutcomeSuccess {
		t.Fatalf("unit replay: %+v", res)
	}
	if res := r.run(t, "set the font size to 20pt", daemon.Options{NoPlanner: true}); res.Matched {
		t.Errorf("another number replayed the flow: %+v", res)
	}
}

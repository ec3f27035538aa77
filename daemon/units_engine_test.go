package daemon_test

import (
	"context"
	"slices"
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
	ctx := context.Background()
	f := learnFontSize(t, r)
	g := *f
	g.ID, g.Token, g.Slots, g.Intent, g.Commands = 0, "", nil, "set the font size to 18 points", []string{"set the font size to 18 points"}
	g.Steps = slices.Clone(f.Steps)
	for i := range g.Steps {
		g.Steps[i].Text, g.Steps[i].Choices = "", nil // the learned option, no slot
	}
	if err := r.store.DeleteFlow(ctx, f.ID); err != nil {
		t.Fatal(err)
	}
	if err := r.store.SaveFlow(ctx, &g); err != nil {
		t.Fatal(err)
	}
	r.eng.InvalidateFlows()
	res := r.run(t, "set the font size to 18pt", daemon.Options{NoPlanner: true})
	if !res.Matched || res.FlowID != g.ID || res.Outcome != knowledge.OutcomeSuccess {
		t.Fatalf("unit replay: %+v", res)
	}
	if res := r.run(t, "set the font size to 20pt", daemon.Options{NoPlanner: true}); res.Matched {
		t.Errorf("another number replayed the flow: %+v", res)
	}
}

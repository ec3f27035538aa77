package daemon_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestAcronymReplay: on the demo phone, a command saying the initials of
// a saved flow's words ("lfs" for "large font size") replays that flow
// with no model, and the log says how the command was read; initials two
// flows share replay nothing.
func TestAcronymReplay(t *testing.T) {
	r := newRig(t, nil)
	ctx := context.Background()
	g := *fontSizeSaying(t, r, "large font size")
	// another flow with the same initials: which one is meant is a guess
	h := g
	h.ID, h.Token, h.Name, h.Intent, h.Commands = 0, "", "Lock file sharing", "lock file sharing", []string{"lock file sharing"}
	if err := r.store.SaveFlow(ctx, &h); err != nil {
		t.Fatal(err)
	}
	r.eng.InvalidateFlows()
	if res := r.run(t, "LFS please", daemon.Options{NoPlanner: true}); res.Matched {
		t.Errorf("initials of two flows replayed one: %+v", res)
	}
	if err := r.store.DeleteFlow(ctx, h.ID); err != nil {
		t.Fatal(err)
	}
	r.eng.InvalidateFlows()
	res, evs := r.runEvents(t, "LFS please", daemon.Options{NoPlanner: true})
	if !res.Matched || res.FlowID != g.ID || res.Outcome != knowledge.OutcomeSuccess {
		t.Fatalf("acronym replay: %+v", res)
	}
	if !slices.ContainsFunc(evs, func(ev event.Event) bool {
		return ev.Type == event.Log && strings.Contains(string(ev.Data), `read \"LFS please\" as \"large font size please\"`)
	}) {
		t.Error("no log line says how the command was read")
	}
}

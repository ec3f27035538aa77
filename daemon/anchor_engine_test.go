package daemon_test

import (
	"context"
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestAnchoredReplay: a command that names another option of a learned
// choice ("font small" after "set the font size to large") and no other
// element replays the flow on its own, with no model, tapping the option
// it names; the command is not taught to the flow (the anchor shows the
// route, not the owner's wording), and a command naming another element
// of the same screen is not replayed.
func TestAnchoredReplay(t *testing.T) {
	r := newRig(t, nil)
	learn := r.run(t, "set the font size to large", daemon.Options{})
	if !learn.Saved {
		t.Fatalf("learn: %+v", learn)
	}
	f, err := r.store.Flow(context.Background(), learn.FlowID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(f.Steps, func(s knowledge.Step) bool { return len(s.Choices) >= 3 }) {
		t.Fatalf("the learned flow has no choice step: %+v", f.Steps)
	}
	res := r.run(t, "font small please", daemon.Options{NoPlanner: true})
	if !res.Anchored || res.FlowID != f.ID || res.Outcome != knowledge.OutcomeSuccess {
		t.Fatalf("anchored replay: %+v", res)
	}
	if got := r.phone.State(); got != "settings_small" {
		t.Errorf("screen after the replay = %q, want settings_small", got)
	}
	f, err = r.store.Flow(context.Background(), f.ID)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(f.Commands, "font small please") {
		t.Errorf("flow commands %q keep the anchored command", f.Commands)
	}
	if res := r.run(t, "show word count in small font", daemon.Options{NoPlanner: true}); res.Matched {
		t.Errorf("a command naming another switch of the screen replayed: %+v", res)
	}
}

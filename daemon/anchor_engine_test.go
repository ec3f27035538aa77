package daemon_test

import (
	"context"
	"slices"
	"strings"
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
	f := learnFontSize(t, r)
	if !slices.ContainsFunc(f.Steps, func(s knowledge.Step) bool { return len(s.Choices) >= 3 }) {
		t.Fatalf("the learned flow has no choice step: %+v", f.Steps)
	}
	res, evs := r.runEvents(t, "font small please", daemon.Options{NoPlanner: true})
	if !res.Anchored || res.FlowID != f.ID || res.Outcome != knowledge.OutcomeSuccess {
		t.Fatalf("anchored replay: %+v", res)
	}
	if fm := flowMatch(t, evs); !strings.Contains(fm.Anchor, `"small"`) || !fm.Replay {
		t.Errorf("the flow_matched event does not say what the command named: %+v", fm)
	}
	if got := r.phone.State(); got != "settings_small" {
		t.Errorf("screen after the replay = %q, want settings_small", got)
	}
	f, err := r.store.Flow(context.Background(), f.ID)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(f.Commands, "font small please") {
		t.Errorf("flow commands %q keep the anchored command", f.Commands)
	}
	const near = "small font for the word count"
	if res := r.run(t, near, daemon.Options{NoPlanner: true}); res.Matched {
		t.Errorf("a command naming another switch of the screen replayed: %+v", res)
	}
	// the owner is offered the flow whose option it names, and chooses it
	owner := &answer{text: "1"}
	r.eng.SetAsker(owner)
	defer r.eng.SetAsker(nil)
	res = r.run(t, near, daemon.Options{NoPlanner: true})
	if owner.asked() != 1 || !res.Chosen || !res.Anchored || res.FlowID != f.ID || r.phone.State() != "settings_small" {
		t.Errorf("offered to the owner: asked %d times, %+v on %s", owner.asked(), res, r.phone.State())
	}
}

// optionTapFlow learns "set the font size to large" on the demo phone and
// saves the same route as a flow learned from intent, a command that
// named no value: its option tap is no slot and keeps its group
// (Step.Options).
func optionTapFlow(t *testing.T, r *rig, intent string) *knowledge.Flow {
	t.Helper()
	return r.rewrite(t, learnFontSize(t, r), intent, func(s knowledge.Step) (knowledge.Step, bool) {
		if len(s.Choices) == 0 {
			return s, false
		}
		s.Text, s.Options, s.Choices = "", s.Choices, nil
		return s, true
	})
}

// rewrite replaces flow f in r's store by a copy with intent as its
// intent and only command, no slots, and exactly one step changed by
// step (which reports whether it changed one), and returns the copy: a
// flow as another learning would have saved it.
func (r *rig) rewrite(t *testing.T, f *knowledge.Flow, intent string, step func(knowledge.Step) (knowledge.Step, bool)) *knowledge.Flow {
	t.Helper()
	ctx := context.Background()
	g := *f
	g.ID, g.Token, g.Slots, g.Intent, g.Name, g.Commands = 0, "", nil, intent, intent, []string{intent}
	g.Steps = slices.Clone(f.Steps)
	changed := 0
	for i := range g.Steps {
		if s, ok := step(g.Steps[i]); ok {
			g.Steps[i] = s
			changed++
		}
	}
	if changed != 1 {
		t.Fatalf("want one step rewritten, got %d: %+v", changed, f.Steps)
	}
	if err := r.store.DeleteFlow(ctx, f.ID); err != nil {
		t.Fatal(err)
	}
	if err := r.store.SaveFlow(ctx, &g); err != nil {
		t.Fatal(err)
	}
	r.eng.InvalidateFlows()
	return &g
}

// TestAnchoredReplayOfAnOptionTap: a flow whose option tap is no slot
// (the learning command did not name it as a value) keeps the option's
// group (Step.Options); a command naming another option of it replays the
// flow tapping that option, and the flow's own command still taps the
// learned one.
func TestAnchoredReplayOfAnOptionTap(t *testing.T) {
	r := newRig(t, nil)
	g := optionTapFlow(t, r, "set the font size to large")
	res := r.run(t, "font small please", daemon.Options{NoPlanner: true})
	if !res.Anchored || res.FlowID != g.ID || res.Outcome != knowledge.OutcomeSuccess || r.phone.State() != "settings_small" {
		t.Fatalf("anchored replay: %+v on %s", res, r.phone.State())
	}
	res = r.run(t, "set the font size to large", daemon.Options{NoPlanner: true})
	if res.Anchored || res.FlowID != g.ID || res.Outcome != knowledge.OutcomeSuccess || r.phone.State() != "settings_large" {
		t.Fatalf("the flow's own command: %+v on %s", res, r.phone.State())
	}
}

// TestLexicalReplayPicksTheNamedOption: a flow learned from a command
// that named no option ("change the font size setting") replays, for a
// command its words match that also names another option of the group
// its tap picked, with that option tapped, never the learned one.
func TestLexicalReplayPicksTheNamedOption(t *testing.T) {
	r := newRig(t, nil)
	g := optionTapFlow(t, r, "change the font size setting")
	// a threshold the command's lexical score reaches (0.57: "small" is a
	// word the flow lacks), so that the lexical match, not an anchor,
	// replays it
	r.eng = daemon.New(r.phone, r.store, nil, nil, daemon.Config{ReplayThreshold: 0.5})
	res := r.run(t, "change the font size setting to small", daemon.Options{NoPlanner: true})
	if res.Anchored || res.FlowID != g.ID || res.Outcome != knowledge.OutcomeSuccess || r.phone.State() != "settings_small" {
		t.Fatalf("lexical replay (score %.2f): %+v on %s", res.Score, res, r.phone.State())
	}
}

// learnFontSize learns "set the font size to large" on the demo phone and
// returns the saved flow (its option tap a choice slot).
func learnFontSize(t *testing.T, r *rig) *knowledge.Flow {
	t.Helper()
	learn := r.run(t, "set the font size to large", daemon.Options{})
	if !learn.Saved {
		t.Fatalf("learn: %+v", learn)
	}
	f, err := r.store.Flow(context.Background(), learn.FlowID)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// fontSizeSaying replaces the learned font-size flow (learnFontSize) with
// one that says intent and taps the learned option, with no slot, and
// returns it.
func fontSizeSaying(t *testing.T, r *rig, intent string) *knowledge.Flow {
	t.Helper()
	ctx := context.Background()
	f := learnFontSize(t, r)
	g := *f
	g.ID, g.Token, g.Slots, g.Intent, g.Commands = 0, "", nil, intent, []string{intent}
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
	return &g
}

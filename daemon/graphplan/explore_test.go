package graphplan_test

import (
	"context"
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestExploresWhereTheGraphHasNoWay: the UI graph knows the About screen
// (its version line) but not the menu item that leads there. The planner
// explores: it opens the menu the graph knows and tries its items of
// unknown effect until one shows what the command asks, and stops there.
// Without exploration it gives up on the home screen. With the way known
// it takes it and stops on arrival: the version line is text to read, not
// to tap. Nothing it tries creates a note, opens one or changes a setting.
func TestExploresWhereTheGraphHasNoWay(t *testing.T) {
	ctx := context.Background()
	for _, hide := range []bool{true, false} {
		hidden := ""
		if hide {
			hidden = "About"
		}
		phone, eng := withoutWayIn(t, hidden)
		res, err := eng.Run(ctx, "check the app version", daemon.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Outcome != knowledge.OutcomeSuccess || phone.State() != "about" {
			t.Fatalf("hidden %v: outcome %s (%s) on %s; steps %+v", hide, res.Outcome, res.Error, phone.State(), res.Steps)
		}
		for _, s := range res.Steps {
			if slices.Contains([]string{"Create a new note", "Shopping list", "Trip ideas", "Books to read", "Dark mode", "Show word count", "Notebook 1.0"}, s.Label) {
				t.Errorf("hidden %v: tapped %q", hide, s.Label)
			}
		}
	}
}

// withoutWayIn returns the demo phone on its home screen and an engine
// whose graph planner knows the demo app's UI graph without the
// transitions taken by tapping an element labelled label ("": all of it).
func withoutWayIn(t *testing.T, label string) (*sim.Phone, *daemon.Engine) {
	t.Helper()
	phone, st := demotest.New(t, true)
	gp := graphplan.New(st)
	if label != "" {
		apps, err := st.Apps(context.Background())
		if err != nil || len(apps) != 1 {
			t.Fatalf("apps %v, %v", apps, err)
		}
		kg, err := st.Graph(context.Background(), apps[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		gp.Exclude(edgesTo(kg, label))
	}
	if err := phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	return phone, daemon.New(phone, st, gp, nil, daemon.Config{NoLearn: true})
}

// edgesTo returns the graphplan.EdgeKey of every transition of kg taken
// by tapping an element labelled label.
func edgesTo(kg *knowledge.Graph, label string) map[string]bool {
	prints, keys := map[int64]string{}, map[int64]string{}
	for _, s := range kg.Screens {
		prints[s.ID] = s.Fingerprint
	}
	for _, e := range kg.Elements {
		if e.Descriptor.Label() == label {
			keys[e.ID] = e.Key
		}
	}
	out := map[string]bool{}
	for _, tr := range kg.Transitions {
		if k, ok := keys[tr.ElementID]; ok {
			out[graphplan.EdgeKey(prints[tr.From], tr.Action, k, prints[tr.To])] = true
		}
	}
	return out
}

// TestCommitComesLast: "… and save it" is not a way to do the rest of the
// command. With the way into settings hidden from the UI graph, the only
// known path the command's words reach is a note's Save button; the
// planner must not open a note and save it, but find the dark-mode
// switch.
func TestCommitComesLast(t *testing.T) {
	ctx := context.Background()
	phone, eng := withoutWayIn(t, "Settings")
	res, err := eng.Run(ctx, "turn on dark mode and save it", daemon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Steps {
		if slices.Contains([]string{"Save", "Shopping list", "Trip ideas", "Books to read"}, s.Label) {
			t.Errorf("tapped %q", s.Label)
		}
	}
	if res.Outcome != knowledge.OutcomeSuccess || phone.State() != "settings_dark" {
		t.Fatalf("outcome %s (%s) on %s; steps %+v", res.Outcome, res.Error, phone.State(), res.Steps)
	}
}

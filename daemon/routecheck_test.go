package daemon_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// rewording is a command for the dark-mode flow that the lexical matcher
// leaves well below the replay threshold (no embedder in these tests).
const rewording = "put the app in dark mode"

// learnDarkMode plans "turn on dark mode" on the demo phone with the graph
// planner (the route checker set or not) and returns the engine's store.
func learnDarkMode(t *testing.T, check bool) (*sim.Phone, *knowledge.Store) {
	t.Helper()
	phone, st := demotest.New(t, true)
	cfg := daemon.Config{Unattended: true}
	if check {
		cfg.RouteCheck = graphplan.New(st)
	}
	eng := daemon.New(phone, st, graphplan.New(st), nil, cfg)
	res, err := eng.Run(context.Background(), "turn on dark mode", daemon.Options{})
	if err != nil || res.Outcome != knowledge.OutcomeSuccess || !res.Saved {
		t.Fatalf("learning: %+v %v", res, err)
	}
	return phone, st
}

// replayOnly runs command with no planner, after resetting the phone.
func replayOnly(t *testing.T, phone *sim.Phone, st *knowledge.Store, check bool, command string) *daemon.Result {
	t.Helper()
	if err := phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	cfg := daemon.Config{Unattended: true}
	if check {
		cfg.RouteCheck = graphplan.New(st)
	}
	res, err := daemon.New(phone, st, nil, nil, cfg).Run(context.Background(), command, daemon.Options{NoPlanner: true})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRouteCheckReplaysARewording: a wording the matcher leaves far below
// the threshold replays the flow once the graph planner, walked over the
// flow's recorded screens, takes its every step and stops on its end
// screen; without the route checker it is a miss.
func TestRouteCheckReplaysARewording(t *testing.T) {
	phone, st := learnDarkMode(t, true)
	res := replayOnly(t, phone, st, true, rewording)
	if !res.Matched || !res.Routed || res.Outcome != knowledge.OutcomeSuccess || res.Strategy != "replay" || phone.State() != "settings_dark" {
		t.Fatalf("routed replay: %+v on %s", res, phone.State())
	}
	if res.Score >= 0.5 {
		t.Fatalf("lexical score %.2f: the rewording does not test the route check", res.Score)
	}
	f, err := st.Flow(context.Background(), res.FlowID)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Commands {
		if c == rewording {
			t.Fatalf("a routed command was kept as lexical evidence: %q", f.Commands)
		}
	}
	if res := replayOnly(t, phone, st, false, rewording); res.Matched {
		t.Fatalf("without the route check: %+v", res)
	}
	// a command that asks for more than the flow does: the walk's end
	// screen leaves a word of it, an action, undone
	if res := replayOnly(t, phone, st, true, rewording+" and share it"); res.Matched {
		t.Fatalf("a command asking for more replayed: %+v", res)
	}
}

// TestRouteCheckNeedsKeptScreens: a flow learned while no screen was kept
// (an engine without a route checker keeps none) is not confirmed until a
// replay of it keeps them.
func TestRouteCheckNeedsKeptScreens(t *testing.T) {
	phone, st := learnDarkMode(t, false)
	if res := replayOnly(t, phone, st, true, rewording); res.Matched {
		t.Fatalf("confirmed without recorded screens: %+v", res)
	}
	// a replay step for step keeps them
	if res := replayOnly(t, phone, st, true, "turn on dark mode"); res.Strategy != "replay" || res.Outcome != knowledge.OutcomeSuccess {
		t.Fatalf("replay: %+v", res)
	}
	if res := replayOnly(t, phone, st, true, rewording); !res.Routed {
		t.Fatalf("after a replay kept its screens: %+v", res)
	}
}

// TestKeptScreensHoldNoTypedTextNorSecrets: a flow keeps the screens its
// steps acted on, a field as it was before the run typed into it, and
// never a secret of the command.
func TestKeptScreensHoldNoTypedTextNorSecrets(t *testing.T) {
	phone, st := demotest.New(t, true)
	ctx := context.Background()
	eng := daemon.New(phone, st, graphplan.New(st), nil, daemon.Config{Unattended: true, RouteCheck: graphplan.New(st)})
	first, err := eng.Run(ctx, `create a note called "Zanzibar"`, daemon.Options{})
	if err != nil || first.Outcome != knowledge.OutcomeSuccess || first.FlowID == 0 {
		t.Fatalf("%+v %v", first, err)
	}
	kept := keptScreens(t, st, first.FlowID)
	if len(kept) != len(first.Steps)+1 {
		t.Fatalf("%d screens kept for %d steps", len(kept), len(first.Steps))
	}
	for i, raw := range kept {
		if strings.Contains(raw, "Zanzibar") {
			t.Fatalf("screen %d kept the typed text: %s", i, raw)
		}
	}
	// a screen showing what the command gives as a password keeps it
	// redacted
	dev := &injector{Phone: phone, state: "home", views: []screen.Node{{Class: "android.widget.TextView", Text: "Pass: Mombasa"}}}
	if err := phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	eng = daemon.New(dev, st, &scripted{labels: []string{"More options", "Settings", "Dark mode"}}, nil, daemon.Config{Unattended: true, RouteCheck: graphplan.New(st)})
	second, err := eng.Run(ctx, "turn on dark mode, password Mombasa", daemon.Options{})
	if err != nil || second.FlowID == 0 {
		t.Fatalf("%+v %v", second, err)
	}
	if kept := keptScreens(t, st, second.FlowID); len(kept) == 0 || strings.Contains(kept[0], "Mombasa") || !strings.Contains(kept[0], "Pass: ") {
		t.Fatalf("screens kept as %q", kept)
	}
	// nor in the flow's steps (a tapped element's neighbours, a step's
	// screen) or the UI graph's elements
	f, err := st.Flow(ctx, second.FlowID)
	if err != nil {
		t.Fatal(err)
	}
	g, err := st.Graph(ctx, f.AppID)
	if err != nil {
		t.Fatal(err)
	}
	for what, v := range map[string]any{"flow": f, "graph": g} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.ToLower(string(b)), "mombasa") {
			t.Errorf("the %s keeps the secret: %s", what, b)
		}
	}
}

// keptScreens returns the snapshot JSON of the screens flow id keeps
// (gzipped in the store).
func keptScreens(t *testing.T, st *knowledge.Store, id int64) []string {
	t.Helper()
	screens, err := st.FlowScreens(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, sc := range screens {
		zr, err := gzip.NewReader(bytes.NewReader(sc.Snapshot))
		if err != nil {
			t.Fatalf("screen %d: %v", sc.Index, err)
		}
		raw, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(raw))
	}
	return out
}

// TestCheckRoute: the walk on its own says why a flow's route does not
// fit a command, and needs a route checker.
func TestCheckRoute(t *testing.T) {
	_, st := learnDarkMode(t, true)
	ctx := context.Background()
	flows, err := st.Flows(ctx, knowledge.FlowFilter{})
	if err != nil || len(flows) != 1 {
		t.Fatalf("flows %+v %v", flows, err)
	}
	// the run kept the app's label: a walk reads the app's name in the
	// command as no requirement (as the run that matched it did)
	app, err := st.AppByPackage(ctx, flows[0].Package)
	if err != nil || app.Label == "" {
		t.Fatalf("the app's label was not kept: %+v %v", app, err)
	}
	eng := daemon.New(nil, st, nil, nil, daemon.Config{RouteCheck: graphplan.New(st)})
	for _, tc := range []struct{ command, why string }{
		{rewording, ""},
		{"put " + strings.ToLower(app.Label) + " in dark mode", ""},
		{rewording + " and share it", "not sure"},
		{"create a note called \"Pears\"", "step 1"},
	} {
		_, why, err := eng.CheckRoute(ctx, tc.command, flows[0].ID)
		if err != nil || (tc.why == "") != (why == "") || !strings.Contains(why, tc.why) {
			t.Errorf("%q: why %q, %v; want %q", tc.command, why, err, tc.why)
		}
	}
	if _, _, err := daemon.New(nil, st, nil, nil, daemon.Config{}).CheckRoute(ctx, rewording, flows[0].ID); err == nil {
		t.Error("no route checker: no error")
	}
}

// TestRouteCheckSwitchAsAsked: with a flow that turns the switch on and one
// that turns it off, a command naming the setting without on or off asks
// for it on: the walk confirms the first, not the second, whose tap would
// turn it off.
func TestRouteCheckSwitchAsAsked(t *testing.T) {
	phone, st := learnDarkMode(t, true) // dark mode on: the phone stays so
	eng := daemon.New(phone, st, graphplan.New(st), nil, daemon.Config{Unattended: true, RouteCheck: graphplan.New(st)})
	off, err := eng.Run(context.Background(), "turn off dark mode", daemon.Options{})
	if err != nil || !off.Saved {
		t.Fatalf("learning the other way: %+v %v", off, err)
	}
	res := replayOnly(t, phone, st, true, rewording)
	if !res.Routed || res.FlowID == off.FlowID {
		t.Fatalf("routed %v to flow %d (the one turning it off is %d)", res.Routed, res.FlowID, off.FlowID)
	}
}

// TestRepairKeepsItsScreens: a flow repaired after a step broke keeps the
// screens of the run that repaired it — the replayed steps', then the
// planner's — so the route check still confirms it; without them (the
// old ones show the old route) it would have none until its next replay.
func TestRepairKeepsItsScreens(t *testing.T) {
	phone, st := learnDarkMode(t, true)
	ctx := context.Background()
	flows, err := st.Flows(ctx, knowledge.FlowFilter{})
	if err != nil || len(flows) != 1 || len(flows[0].Steps) < 2 {
		t.Fatalf("learned %+v %v", flows, err)
	}
	broken := flows[0]
	broken.Steps = append([]knowledge.Step(nil), broken.Steps...)
	broken.Steps[1].Target = screen.Descriptor{Class: "android.widget.LinearLayout", Text: "Preferences", ResourceID: "x:id/gone"}
	if err := st.UpdateFlow(ctx, &broken); err != nil {
		t.Fatal(err)
	}
	if err := phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	eng := daemon.New(phone, st, graphplan.New(st), nil, daemon.Config{Unattended: true, RouteCheck: graphplan.New(st)})
	res, err := eng.Run(ctx, "turn on dark mode", daemon.Options{})
	if err != nil || !res.Repaired || res.Outcome != knowledge.OutcomeSuccess {
		t.Fatalf("repair: %+v %v", res, err)
	}
	fixed, err := st.Flow(ctx, broken.ID)
	if err != nil {
		t.Fatal(err)
	}
	if kept := keptScreens(t, st, fixed.ID); len(kept) != len(fixed.Steps)+1 {
		t.Fatalf("%d screens kept for the repaired flow's %d steps", len(kept), len(fixed.Steps))
	}
	if _, why, err := eng.CheckRoute(ctx, rewording, fixed.ID); err != nil || why != "" {
		t.Fatalf("the repaired flow's route for %q: %q %v", rewording, why, err)
	}
}

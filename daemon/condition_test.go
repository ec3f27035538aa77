package daemon_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestConditionNotReplayed: a command that restricts its request to a
// case ("… but only at night") replays no flow that does the request for
// every case, whichever way the flow was found (its own words, the route
// check), and the graph planner does not carry out the rest of it where
// nothing of the app says the case; the request without the restriction
// still replays.
func TestConditionNotReplayed(t *testing.T) {
	phone, st := learnDarkMode(t, true)
	eng := daemon.New(phone, st, graphplan.New(st), nil, daemon.Config{Unattended: true, RouteCheck: graphplan.New(st)})
	for _, cmd := range []string{"turn on dark mode but only at night", "turn on dark mode only on weekdays", "turn on dark mode, for the gallery only"} {
		if err := phone.Reset("home"); err != nil {
			t.Fatal(err)
		}
		res, err := eng.Run(context.Background(), cmd, daemon.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Matched || res.Outcome == knowledge.OutcomeSuccess || phone.State() == "settings_dark" {
			t.Errorf("%q: %+v on %s", cmd, res, phone.State())
		}
		if len(res.Steps) > 0 {
			t.Errorf("%q: the planner acted: %+v", cmd, res.Steps)
		}
	}
	if err := phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	res, err := eng.Run(context.Background(), "please turn on dark mode", daemon.Options{})
	if err != nil || !res.Matched || res.Outcome != knowledge.OutcomeSuccess || phone.State() != "settings_dark" {
		t.Fatalf("the request alone: %+v %v on %s", res, err, phone.State())
	}
	if !strings.Contains(strings.ToLower(res.FlowName), "dark") {
		t.Errorf("replayed %q", res.FlowName)
	}
}

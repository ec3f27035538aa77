package graphplan_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func setup(t *testing.T, withGraph bool) (*sim.Phone, *daemon.Engine) {
	t.Helper()
	phone, st := demotest.New(t, withGraph)
	return phone, daemon.New(phone, st, graphplan.New(st), nil, daemon.Config{NoLearn: true})
}

func TestGraphPlanner(t *testing.T) {
	for _, tc := range []struct {
		name      string
		graph     bool
		start     string
		cmd       string
		wantState string
		wantSteps int
		wantTyped string
		wantFail  bool
	}{
		{"reaches a target two screens away through the UI graph", true, "home", "turn on dark mode", "settings_dark", 3, "", false},
		{"does not tap a toggle already in the wanted state", true, "settings_dark", "turn on dark mode", "settings_dark", 1, "", false},
		{"taps a toggle whose state differs", true, "settings_dark", "turn off dark mode", "settings", 1, "", false},
		{"types the value into the field and commits the form", true, "home", `create a note called "Milk"`, "editor", 3, "Milk", false},
		{"works from the screen alone without a graph", false, "home", `create a note called "Milk"`, "editor", 3, "Milk", false},
		{"types a spoken name set apart by its naming word", true, "home", "create a note called oat milk", "editor", 3, "oat milk", false},
		{"commits the name, then types the rest into the note it created", true, "home", `create a note called "Milk" and type "two bottles"`, "editor", 4, "two bottles", false},
		{"picks a choice in the dialog it opened", true, "settings", "set the font size to large", "settings_large", 2, "", false},
		{"gives up on a command nothing matches", true, "home", "order a pizza with extra cheese", "", 0, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			phone, eng := setup(t, tc.graph)
			if err := phone.Reset(tc.start); err != nil {
				t.Fatal(err)
			}
			res, err := eng.Run(context.Background(), tc.cmd, daemon.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantFail {
				if res.Outcome == knowledge.OutcomeSuccess {
					t.Fatalf("succeeded on an impossible command: %+v", res.Steps)
				}
				for _, s := range res.Steps {
					if s.Action == "tap" && s.OK && s.Changed {
						t.Fatalf("wandered: tapped %q for an impossible command", s.Label)
					}
				}
				return
			}
			if res.Outcome != knowledge.OutcomeSuccess || phone.State() != tc.wantState {
				t.Fatalf("outcome %s (%s) on %s, want %s; steps %+v", res.Outcome, res.Error, phone.State(), tc.wantState, res.Steps)
			}
			if tc.start == tc.wantState && len(res.Steps) == 1 {
				// the toggle was right already: one "ensure" step, no tap
				if s := res.Steps[0]; s.Action != daemon.ActEnsureOn || s.Changed || !strings.HasPrefix(s.Message, "already") {
					t.Fatalf("want an ensure_on step that did not act, got %+v", s)
				}
			}
			if len(res.Steps) != tc.wantSteps {
				t.Fatalf("%d steps, want %d (no overshoot): %+v", len(res.Steps), tc.wantSteps, res.Steps)
			}
			if tc.wantTyped != "" {
				typed := ""
				for _, s := range res.Steps {
					if s.Action == "input" {
						typed = s.Text
					}
				}
				if typed != tc.wantTyped {
					t.Fatalf("typed %q, want %q", typed, tc.wantTyped)
				}
			}
		})
	}
}

// TestOnOffNeedsASwitch: a command that turns something on or off is not
// done on a screen that merely shows what it names; with no switch or
// checkbox for it (nor an element whose label turns it on or off), the
// planner gives up rather than report a success it did not reach.
func TestOnOffNeedsASwitch(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want string
	}{
		{"turn off the settings", knowledge.OutcomeFailure},
		{"open the settings", knowledge.OutcomeSuccess},
		{"turn off dark mode", knowledge.OutcomeSuccess},
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			phone, eng := setup(t, true)
			if err := phone.Reset("home"); err != nil {
				t.Fatal(err)
			}
			res, err := eng.Run(context.Background(), tc.cmd, daemon.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != tc.want {
				t.Fatalf("outcome %s (%s), want %s; steps %+v", res.Outcome, res.Error, tc.want, res.Steps)
			}
		})
	}
}

package graphplan_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/embedtest"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestSemanticEvidence: with an embedder the planner reaches a target
// named in words the app never shows, and still refuses a command nothing
// on the phone means; without one it behaves as before.
func TestSemanticEvidence(t *testing.T) {
	same := map[string]string{"night": "dark", "theme": "mode", "typeface": "font", "scale": "size", "huge": "large"}
	for _, tc := range []struct {
		name      string
		embed     bool
		engine    bool // the engine's embedder (Config.Embedder), not UseEmbedder
		start     string
		cmd       string
		wantState string // "": must fail without a changing tap; "!s": must not end on s
	}{
		{"unknown words do not reach it without a model", false, false, "home", "switch on the night theme", "!settings_dark"},
		{"unknown words reach their meaning with a model", true, false, "home", "switch on the night theme", "settings_dark"},
		{"the engine's embedder serves the planner too", true, true, "home", "switch on the night theme", "settings_dark"},
		{"a toggle already on is left alone", true, false, "settings_dark", "switch on the night theme", "settings_dark"},
		{"a choice in a dialog in other words", true, false, "settings", "set the typeface scale to huge", "settings_large"},
		{"the same command in the app's words, no model", false, false, "home", "turn on dark mode", "settings_dark"},
		{"the same command in the app's words, model", true, false, "home", "turn on dark mode", "settings_dark"},
		{"nothing relevant: no tap with a model", true, false, "home", "order a pizza with extra cheese", ""},
		{"nothing relevant: no tap without a model", false, false, "home", "order a pizza with extra cheese", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			phone, st := demotest.New(t, true)
			gp := graphplan.New(st)
			var calls atomic.Int64
			cfg := daemon.Config{NoLearn: true}
			switch {
			case tc.engine:
				cfg.Embedder = embedtest.Bag(same, &calls)
			case tc.embed:
				gp.UseEmbedder(embedtest.Bag(same, &calls))
			}
			eng := daemon.New(phone, st, gp, nil, cfg)
			if err := phone.Reset(tc.start); err != nil {
				t.Fatal(err)
			}
			res, err := eng.Run(context.Background(), tc.cmd, daemon.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.embed && calls.Load() == 0 {
				t.Fatal("the embedder was never asked")
			}
			if not, ok := strings.CutPrefix(tc.wantState, "!"); ok {
				if phone.State() == not {
					t.Fatalf("reached %s: %+v", not, res.Steps)
				}
				return
			}
			if tc.wantState == "" {
				if res.Outcome == knowledge.OutcomeSuccess {
					t.Fatalf("succeeded on a command the app cannot do: %+v", res.Steps)
				}
				for _, s := range res.Steps {
					if s.Action == "tap" && s.OK && s.Changed {
						t.Fatalf("tapped %q for a command nothing means", s.Label)
					}
				}
				return
			}
			if res.Outcome != knowledge.OutcomeSuccess || phone.State() != tc.wantState {
				t.Fatalf("outcome %s (%s) on %s, want %s; steps %+v", res.Outcome, res.Error, phone.State(), tc.wantState, res.Steps)
			}
		})
	}
}

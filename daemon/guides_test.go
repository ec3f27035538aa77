package daemon_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/embedtest"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// guideRecorder is a planner that gives up at once, keeping the guides it
// was shown.
type guideRecorder struct{ guides []string }

func (g *guideRecorder) Name() string { return "recorder" }

func (g *guideRecorder) Next(_ context.Context, st *daemon.PlanState) (daemon.Decision, error) {
	g.guides = st.Guides
	return daemon.Decision{Action: daemon.ActFail, Element: -1, Reason: "recording guides"}, nil
}

// TestGuidesByMeaning: a saved flow the command shares no words with
// guides the planner when an embedder says they mean the same, and never
// without one or for an unrelated command.
func TestGuidesByMeaning(t *testing.T) {
	same := map[string]string{"night": "dark", "theme": "mode", "switch": "turn"}
	for _, tc := range []struct {
		name  string
		embed bool
		cmd   string
		want  bool // the dark mode flow is a guide
	}{
		{"no model: no guide for other words", false, "switch on the night theme", false},
		{"model: the flow that means it guides", true, "switch on the night theme", true},
		{"model: no guide for an unrelated command", true, "order a pizza", false},
		{"no model: the lexical guide as before", false, "please turn on dark mode now or later", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			phone, st := demotest.New(t, true)
			learn := daemon.New(phone, st, graphplan.New(st), nil, daemon.Config{})
			if res, err := learn.Run(context.Background(), "turn on dark mode", daemon.Options{}); err != nil || !res.Saved {
				t.Fatalf("learn: %+v, %v", res, err)
			}
			if err := phone.Reset("home"); err != nil {
				t.Fatal(err)
			}
			cfg := daemon.Config{NoLearn: true}
			if tc.embed {
				cfg.Embedder = embedtest.Bag(same, nil)
			}
			rec := &guideRecorder{}
			eng := daemon.New(phone, st, rec, nil, cfg)
			res, err := eng.Run(context.Background(), tc.cmd, daemon.Options{NoReplay: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome == knowledge.OutcomeSuccess {
				t.Fatalf("the recorder gave up, yet: %+v", res)
			}
			got := len(rec.guides) > 0 && strings.Contains(strings.ToLower(rec.guides[0]), "dark mode")
			if got != tc.want || len(rec.guides) > 1 {
				t.Fatalf("guides %q, want the dark mode flow: %v", rec.guides, tc.want)
			}
		})
	}
}

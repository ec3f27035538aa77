package daemon_test

import (
	"context"
	"errors"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// unsurePlanner taps the element labelled tap, then says done without
// being sure (Decision.Unsure).
type unsurePlanner struct {
	tap    string
	tapped bool
}

func (p *unsurePlanner) Name() string { return "graph" }

func (p *unsurePlanner) Next(_ context.Context, st *daemon.PlanState) (daemon.Decision, error) {
	if !p.tapped {
		for _, e := range st.Elements {
			if e.Label == p.tap {
				p.tapped = true
				return daemon.Decision{Action: device.Tap, Element: e.Index}, nil
			}
		}
	}
	return daemon.Decision{Action: daemon.ActDone, Element: -1, Unsure: true, Reason: "half the command is covered"}, nil
}

// TestUnsureDoneIsConfirmedBeforeLearning: a run the planner ended without
// being sure is learned only when the owner says it is done; "no" ends it
// as not done; with nobody to answer (or an asker that cannot) it ends as
// the planner said, and no flow is saved.
func TestUnsureDoneIsConfirmedBeforeLearning(t *testing.T) {
	for _, tt := range []struct {
		name      string
		asker     daemon.Asker
		wantOK    bool
		wantFlows int
		wantAsked int
	}{
		{"nobody to ask", nil, true, 0, 0},
		{"the asker cannot answer", &answer{err: errors.New("no terminal")}, true, 0, 1},
		{"the owner says it is done", &answer{text: daemon.AnswerDone}, true, 1, 1},
		{"the owner says it is not", &answer{text: daemon.AnswerNotDone}, false, 0, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			phone, st := demotest.New(t, true)
			eng := daemon.New(phone, st, &unsurePlanner{tap: "More options"}, nil, daemon.Config{})
			if tt.asker != nil {
				eng.SetAsker(tt.asker)
			}
			res, err := eng.Run(context.Background(), "open the hidden options", daemon.Options{Package: demo.Package})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Outcome == knowledge.OutcomeSuccess; got != tt.wantOK {
				t.Fatalf("outcome %s (%s), want success %v", res.Outcome, res.Error, tt.wantOK)
			}
			flows, err := st.Flows(context.Background(), knowledge.FlowFilter{})
			if err != nil {
				t.Fatal(err)
			}
			if len(flows) != tt.wantFlows {
				t.Errorf("%d flows saved, want %d", len(flows), tt.wantFlows)
			}
			if a, ok := tt.asker.(*answer); ok && a.asked() != tt.wantAsked {
				t.Errorf("asked %d times, want %d", a.asked(), tt.wantAsked)
			}
		})
	}
}

// TestUnsureDoneWithNoEffectAsksNobody: a "done" after steps that changed
// nothing is no end whatever the owner would say, so the owner is not
// asked to confirm it.
func TestUnsureDoneWithNoEffectAsksNobody(t *testing.T) {
	phone, st := demotest.New(t, true)
	eng := daemon.New(phone, st, &unsurePlanner{tap: "Notebook"}, nil, daemon.Config{})
	a := &answer{text: daemon.AnswerDone}
	eng.SetAsker(a)
	res, err := eng.Run(context.Background(), "open the hidden options", daemon.Options{Package: demo.Package})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome == knowledge.OutcomeSuccess {
		t.Fatalf("outcome %s, want not done: the one step had no effect", res.Outcome)
	}
	if a.asked() != 0 {
		t.Errorf("asked %d times, want 0", a.asked())
	}
}

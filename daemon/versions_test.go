package daemon_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// idler long-presses elements, which the simulated phone reports as
// doing nothing (no long press was recorded), n times, then says done.
type idler struct{ n, taps int }

func (p *idler) Name() string { return "idler" }

func (p *idler) Next(ctx context.Context, st *daemon.PlanState) (daemon.Decision, error) {
	if p.taps >= p.n || len(st.Elements) == 0 {
		return daemon.Decision{Action: daemon.ActDone, Element: -1}, nil
	}
	p.taps++
	return daemon.Decision{Action: device.LongPress, Element: p.taps % len(st.Elements), Reason: "idle"}, nil
}

// TestStepsWithoutEffectDoNotComplete: the engine, not a planner, refuses
// a "done" after steps that all did nothing; without steps, "done" (the
// command was already satisfied) stands.
func TestStepsWithoutEffectDoNotComplete(t *testing.T) {
	for _, tc := range []struct {
		taps int
		ok   bool
	}{{0, true}, {2, false}} {
		r := newRig(t, nil)
		r.eng.SetPlanner(&idler{n: tc.taps})
		res := r.run(t, "archive everything", daemon.Options{NoReplay: true})
		if (res.Outcome == knowledge.OutcomeSuccess) != tc.ok {
			t.Fatalf("%d taps without effect: outcome %s (%s), want success %v", tc.taps, res.Outcome, res.Error, tc.ok)
		}
		if !tc.ok && !strings.Contains(res.Error, "had any effect") {
			t.Fatalf("error %q", res.Error)
		}
		if flows, _ := r.store.Flows(context.Background(), knowledge.FlowFilter{}); len(flows) != 0 {
			t.Fatalf("a flow was learned from steps without effect: %+v", flows)
		}
	}
}

// TestRepairIsANewVersion: a verified repair writes version 2, version 1
// stays in the history with its steps, and a rollback brings it back as
// version 3.
func TestRepairIsANewVersion(t *testing.T) {
	r := newRig(t, nil)
	ctx := context.Background()
	f := r.learnThenBreakFirstStep(t) // the app changed (version 2)
	if f.Goal == nil || f.Goal.Screen == "" {
		t.Fatalf("a learned flow has no goal: %+v", f.Goal)
	}
	res := r.run(t, "turn on dark mode", daemon.Options{})
	if res.Outcome != knowledge.OutcomeSuccess || !res.Repaired {
		t.Fatalf("%+v", res)
	}
	h, err := r.store.FlowHistory(ctx, f.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 3 || !reflect.DeepEqual(h[0].Steps, f.Steps) || !strings.HasPrefix(h[2].Reason, knowledge.ReasonRepaired) || !h[2].Current {
		t.Fatalf("history %+v", h)
	}
	if h[2].Steps[0].Target.Text == "Hamburger" {
		t.Fatal("the broken step was kept")
	}
	if _, err := r.store.RollbackFlow(ctx, f.ID, 1); err != nil {
		t.Fatal(err)
	}
	r.eng.InvalidateFlows()
	back := r.run(t, "turn on dark mode", daemon.Options{NoPlanner: true})
	if back.Outcome != knowledge.OutcomeSuccess || back.Strategy != "replay" {
		t.Fatalf("version 1 rolled back does not replay: %+v", back)
	}
}

// TestUnhealthyFlowActsOnlyWhenNamed: after UnhealthyAfter failures a
// flow is not replayed because a command matched it, but still is when
// the owner names it.
func TestUnhealthyFlowActsOnlyWhenNamed(t *testing.T) {
	r := newRig(t, nil)
	ctx := context.Background()
	learned := r.run(t, "turn on dark mode", daemon.Options{})
	for i := 0; i < knowledge.UnhealthyAfter; i++ {
		if err := r.store.RecordFlowUse(ctx, learned.FlowID, false); err != nil {
			t.Fatal(err)
		}
	}
	r.eng.InvalidateFlows()
	res := r.run(t, "turn on dark mode", daemon.Options{NoPlanner: true})
	if res.Matched {
		t.Fatalf("an unhealthy flow was replayed by matching: %+v", res)
	}
	named := r.run(t, "", daemon.Options{FlowID: learned.FlowID, NoPlanner: true})
	if named.Outcome != knowledge.OutcomeSuccess || named.FlowID != learned.FlowID {
		t.Fatalf("the owner's explicit replay: %+v", named)
	}
	if f, _ := r.store.Flow(ctx, learned.FlowID); !f.Healthy() {
		t.Fatal("a success did not make the flow healthy again")
	}
}

// actionLog is the demo phone with every action it performs recorded.
type actionLog struct {
	*sim.Phone
	acts []device.Action
}

func (l *actionLog) Perform(ctx context.Context, a device.Action) (device.Result, error) {
	l.acts = append(l.acts, a)
	return l.Phone.Perform(ctx, a)
}

// TestReplayStaysOnTheScreenItsStepBelongsOn: a step whose element is gone
// from the very screen it was learned on is not "recovered" with back —
// from the app's first screen that leaves the app — but left to the
// planner, here on the screen it belongs on.
func TestReplayStaysOnTheScreenItsStepBelongsOn(t *testing.T) {
	var log *actionLog
	r := newRig(t, func(p *sim.Phone) device.Device { log = &actionLog{Phone: p}; return log })
	r.learnThenBreakFirstStep(t)
	log.acts = nil
	res := r.run(t, "turn on dark mode", daemon.Options{NoPlanner: true})
	if res.Outcome == knowledge.OutcomeSuccess {
		t.Fatalf("a broken flow replayed with no planner: %+v", res)
	}
	for _, a := range log.acts {
		if a.Type == device.Back {
			t.Errorf("back pressed on the step's own screen: %+v", log.acts)
		}
	}
	if got := r.phone.State(); got != "home" {
		t.Errorf("the replay left the screen its step belongs on: now on %q", got)
	}
}

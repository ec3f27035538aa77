package daemon_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge/knowledgetest"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/eval"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/shared"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// wanderer is the planner of issue 13's lost flow: it takes over a
// failed replay, taps one thing that leads somewhere else, then things
// that do nothing, and declares success. It knows what a tap does by
// trying it on a scratch copy of the simulated phone (it is a test
// double: a real planner would be mistaken, not malicious).
type wanderer struct {
	phone, probe *sim.Phone
	avoid        string // the state the task ends on: never go there
	taps         int
}

func (w *wanderer) Name() string { return "wanderer" }

func (w *wanderer) Next(ctx context.Context, st *daemon.PlanState) (daemon.Decision, error) {
	if w.taps >= 3 {
		return daemon.Decision{Action: daemon.ActDone, Element: -1, Reason: "looks done to me"}, nil
	}
	wantEffect := w.taps == 0
	fallback := -1
	for i, el := range st.Elements {
		if err := w.probe.Reset(w.phone.State()); err != nil {
			return daemon.Decision{}, err
		}
		res, err := w.probe.Perform(ctx, device.Action{Type: device.Tap, Node: el.NodeID, Bounds: el.Bounds})
		if err != nil {
			return daemon.Decision{}, err
		}
		if res.Changed && w.probe.State() == w.avoid {
			continue
		}
		if res.Changed == wantEffect {
			w.taps++
			return daemon.Decision{Action: device.Tap, Element: i, Reason: fmt.Sprintf("wander %d", w.taps)}, nil
		}
		if fallback < 0 && !res.Changed {
			fallback = i
		}
	}
	if fallback < 0 {
		return daemon.Decision{Action: daemon.ActDone, Element: -1, Reason: "nothing to tap"}, nil
	}
	w.taps++
	return daemon.Decision{Action: device.Tap, Element: fallback, Reason: fmt.Sprintf("wander %d", w.taps)}, nil
}

// deleteTasks picks the data set's delete-with-confirmation tasks: the
// command asks to delete, and the last step confirms in a dialog.
func deleteTasks(t *testing.T, d *droidtask.Dataset) []droidtask.Task {
	var out []droidtask.Task
	for _, task := range d.Tasks {
		acts := task.Actions()
		if !strings.HasPrefix(strings.ToLower(task.Instruction), "delete") || len(acts) < 2 {
			continue
		}
		last := acts[len(acts)-1]
		s, err := d.State(task.App, last.State)
		if err != nil || last.Action.Type != "click" || !screen.IsDialog(s) {
			continue
		}
		out = append(out, task)
	}
	return out
}

// TestLostFlowSequence reproduces issue 13 on the recorded apps: a
// learned delete-with-confirmation flow is replayed from a start screen
// that is not its first screen; its first step is not found, recovery
// (BACK) does not help, the planner takes over, taps one wrong thing and
// then things with no effect, and declares success. The run must fail,
// nothing may be "repaired", and the flow must still be intact: same
// steps, one version, and it still replays from its own start screen.
func TestLostFlowSequence(t *testing.T) {
	d, err := droidtask.Load(shared.Path(t, "droidtask"))
	if err != nil {
		t.Fatal(err)
	}
	tasks := deleteTasks(t, d)
	if len(tasks) == 0 {
		t.Skip("no delete-with-confirmation task in the data set")
	}
	ran := 0
	for _, task := range tasks {
		t.Run(task.ID, func(t *testing.T) {
			if lostFlowScenario(t, d, &task) {
				ran++
			}
		})
	}
	if ran == 0 {
		t.Fatalf("none of %d delete tasks had a start screen that reproduces the sequence", len(tasks))
	}
}

func lostFlowScenario(t *testing.T, d *droidtask.Dataset, task *droidtask.Task) bool {
	ctx := context.Background()
	phone, err := sim.New(d, task.App)
	if err != nil {
		t.Fatal(err)
	}
	probe, err := sim.New(d, task.App)
	if err != nil {
		t.Fatal(err)
	}
	st := knowledgetest.Open(t)
	// unattended: the command asks to delete, so the policy lets it
	eng := daemon.New(phone, st, nil, nil, daemon.Config{Unattended: true})
	pkg := phone.App().MainPackage

	// learn the flow with the ground truth
	if err := phone.Episode(task); err != nil {
		t.Fatal(err)
	}
	eng.SetPlanner(eval.NewOracle(task, phone))
	learned, err := eng.Run(ctx, task.Instruction, daemon.Options{Package: pkg, NoReplay: true})
	if err != nil || learned.Outcome != knowledge.OutcomeSuccess || !learned.Saved || phone.State() != task.FinalState() {
		t.Fatalf("learning %s: %+v %v on %s", task.ID, learned, err, phone.State())
	}
	orig, err := st.Flow(ctx, learned.FlowID)
	if err != nil {
		t.Fatal(err)
	}

	// a start screen of the app where step 1 is not found, before or
	// after BACK (recovery fails)
	start := wrongStart(t, d, task, probe, orig.Steps[0])
	if start == "" {
		t.Logf("%s: no recorded screen reproduces the sequence", task.ID)
		return false
	}
	if err := phone.Episode(task); err != nil {
		t.Fatal(err)
	}
	if err := phone.Reset(start); err != nil {
		t.Fatal(err)
	}
	eng.SetPlanner(&wanderer{phone: phone, probe: probe, avoid: task.FinalState()})
	res, err := eng.Run(ctx, task.Instruction, daemon.Options{Package: pkg})
	if err != nil {
		t.Fatal(err)
	}
	if res.Strategy != "replay+plan" || res.FlowID != orig.ID {
		t.Fatalf("the sequence did not happen: the flow was not replayed and handed to the planner: %+v", res)
	}
	noEffect := 0
	for _, s := range res.Steps {
		if s.Mode == "wanderer" && !s.Changed {
			noEffect++
		}
	}
	if noEffect == 0 {
		t.Fatalf("the planner took no step without effect: %+v", res.Steps)
	}
	if res.Outcome == knowledge.OutcomeSuccess || res.Repaired {
		t.Fatalf("a run that never reached the flow's end screen counted as success (repaired %v): %+v", res.Repaired, res)
	}

	// the flow is intact
	now, err := st.Flow(ctx, orig.ID)
	if err != nil {
		t.Fatalf("the flow is gone: %v", err)
	}
	if !reflect.DeepEqual(now.Steps, orig.Steps) || now.Version != 1 {
		t.Fatalf("the flow changed: version %d, steps %+v, want %+v", now.Version, now.Steps, orig.Steps)
	}
	if h, err := st.FlowHistory(ctx, orig.ID); err != nil || len(h) != 1 {
		t.Fatalf("history %+v %v", h, err)
	}
	if err := phone.Episode(task); err != nil {
		t.Fatal(err)
	}
	again, err := eng.Run(ctx, task.Instruction, daemon.Options{Package: pkg, NoPlanner: true})
	if err != nil || again.Outcome != knowledge.OutcomeSuccess || again.FlowID != orig.ID || phone.State() != task.FinalState() {
		t.Fatalf("the flow no longer replays from its own start: %+v %v on %s", again, err, phone.State())
	}
	return true
}

// wrongStart returns a recorded screen of the task's app (not a dialog,
// not the flow's first screen) where the flow's first step does not
// ground, and where BACK stays in the app on a screen where it does not
// ground either; "" when there is none.
func wrongStart(t *testing.T, d *droidtask.Dataset, task *droidtask.Task, probe *sim.Phone, first knowledge.Step) string {
	ctx := context.Background()
	ids, err := d.StateIDs(task.App)
	if err != nil {
		t.Fatal(err)
	}
	pkg := probe.App().MainPackage
	grounds := func(s *screen.Snapshot) bool {
		_, ok := screen.Ground(s, first.Target)
		return ok
	}
	for _, id := range ids {
		s, err := d.State(task.App, id)
		if err != nil || s.ForegroundPackage() != pkg || screen.IsDialog(s) || screen.Fingerprint(s) == first.Screen || grounds(s) {
			continue
		}
		if err := probe.Reset(id); err != nil {
			t.Fatal(err)
		}
		if res, err := probe.Perform(ctx, device.Action{Type: device.Back, Node: -1}); err != nil || !res.Changed {
			continue
		}
		after, err := probe.Snapshot(ctx)
		if err != nil || after.ForegroundPackage() != pkg || grounds(after) {
			continue
		}
		return id
	}
	return ""
}

package daemon_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

type rig struct {
	phone *sim.Phone
	store *knowledge.Store
	eng   *daemon.Engine
}

// newRig builds the demo phone, a store with its explored UI graph and an
// engine with the graph planner; wrap lets a test put a fake in front of
// the phone.
func newRig(t *testing.T, wrap func(*sim.Phone) device.Device) *rig {
	t.Helper()
	phone, st := demotest.New(t, true)
	var dev device.Device = phone
	if wrap != nil {
		dev = wrap(phone)
	}
	return &rig{phone: phone, store: st, eng: daemon.New(dev, st, graphplan.New(st), nil, daemon.Config{})}
}

// learnThenBreakFirstStep learns "turn on dark mode" and saves its flow
// again with a first step whose element no screen has (the app changed);
// it returns the flow as learned.
func (r *rig) learnThenBreakFirstStep(t *testing.T) *knowledge.Flow {
	t.Helper()
	ctx := context.Background()
	learned := r.run(t, "turn on dark mode", daemon.Options{})
	f, err := r.store.Flow(ctx, learned.FlowID)
	if err != nil {
		t.Fatal(err)
	}
	broken := *f
	broken.Steps = append([]knowledge.Step(nil), f.Steps...)
	broken.Steps[0].Target = screen.Descriptor{Class: "android.widget.Button", Text: "Hamburger", ResourceID: "x:id/gone"}
	if err := r.store.UpdateFlow(ctx, &broken); err != nil {
		t.Fatal(err)
	}
	r.eng.InvalidateFlows()
	return f
}

func (r *rig) run(t *testing.T, cmd string, opt daemon.Options) *daemon.Result {
	t.Helper()
	if err := r.phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	res, err := r.eng.Run(context.Background(), cmd, opt)
	if err != nil {
		t.Fatalf("%q: %v", cmd, err)
	}
	return res
}

func TestLearnThenReplayWithNewSlotValue(t *testing.T) {
	r := newRig(t, nil)
	first := r.run(t, `create a note called "Milk"`, daemon.Options{})
	if first.Outcome != knowledge.OutcomeSuccess || !first.Saved || r.phone.State() != "editor" {
		t.Fatalf("learn: %+v on %s", first, r.phone.State())
	}
	f, err := r.store.Flow(context.Background(), first.FlowID)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Slots) != 1 || f.Slots[0].Example != "Milk" || !strings.Contains(f.Intent, "{"+f.Slots[0].Name+"}") {
		t.Fatalf("flow slots %+v intent %q", f.Slots, f.Intent)
	}
	second := r.run(t, `create a note called "Eggs"`, daemon.Options{NoPlanner: true})
	if second.Outcome != knowledge.OutcomeSuccess || second.Strategy != "replay" || second.LLMCalls != 0 {
		t.Fatalf("replay: %+v", second)
	}
	if len(second.Typed) != 1 || second.Typed[0] != "Eggs" {
		t.Fatalf("replay typed %q, want the new slot value", second.Typed)
	}
	if r.phone.State() != "editor" {
		t.Fatalf("replay ended on %s", r.phone.State())
	}
}

func TestNoFlowAndNoPlannerFailsClearly(t *testing.T) {
	r := newRig(t, nil)
	res := r.run(t, "turn on dark mode", daemon.Options{NoPlanner: true})
	if res.Outcome == knowledge.OutcomeSuccess || !strings.Contains(res.Error, "no saved flow") {
		t.Fatalf("%+v", res)
	}
	runs, err := r.store.Runs(context.Background(), 1)
	if err != nil || len(runs) != 1 || runs[0].Outcome != knowledge.OutcomeFailure {
		t.Fatalf("run log %+v %v", runs, err)
	}
}

func TestOppositeCommandDoesNotReplay(t *testing.T) {
	r := newRig(t, nil)
	if res := r.run(t, "turn on dark mode", daemon.Options{}); res.Outcome != knowledge.OutcomeSuccess {
		t.Fatalf("%+v", res)
	}
	res := r.run(t, "turn off dark mode", daemon.Options{NoPlanner: true})
	if res.Matched {
		t.Fatalf("the 'turn on' flow replayed for 'turn off': score %.2f", res.Score)
	}
}

// TestReplayRepairsABrokenStep: a saved flow whose first step no longer
// matches anything on screen is finished by the planner, and only the
// broken part of the flow is replaced.
func TestReplayRepairsABrokenStep(t *testing.T) {
	r := newRig(t, nil)
	ctx := context.Background()
	f := r.learnThenBreakFirstStep(t)
	res := r.run(t, "turn on dark mode", daemon.Options{})
	if res.Outcome != knowledge.OutcomeSuccess || !res.Repaired || res.Strategy != "replay+plan" {
		t.Fatalf("%+v", res)
	}
	fixed, err := r.store.Flow(ctx, f.ID)
	if err != nil {
		t.Fatal(err)
	}
	if fixed.Steps[0].Target.Text == "Hamburger" {
		t.Fatal("the broken step was kept")
	}
	again := r.run(t, "turn on dark mode", daemon.Options{NoPlanner: true})
	if again.Outcome != knowledge.OutcomeSuccess || again.Strategy != "replay" {
		t.Fatalf("the repaired flow does not replay: %+v", again)
	}
}

// dialogOnce shows an unexpected dialog (a rating prompt) over the screen
// once, after the first action, until its "Not now" is tapped.
type dialogOnce struct {
	*sim.Phone
	actions int
	showing bool
	shown   bool
}

const dialogNode = 100000

func (d *dialogOnce) Snapshot(ctx context.Context) (*screen.Snapshot, error) {
	s, err := d.Phone.Snapshot(ctx)
	if err != nil || !d.showing {
		return s, err
	}
	b := []byte(`{"schema":1,"width":1080,"height":2280,"activity":"` + s.Activity + `","windows":[{"id":9,"type":"application","layer":5,"focused":true,"bounds":[90,900,990,1400],"nodes":[
	 {"id":0,"parent":-1,"class":"android.widget.FrameLayout","bounds":[90,900,990,1400],"enabled":true,"visible_to_user":true},
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"Enjoying the app? Rate us!","bounds":[120,950,960,1050],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.Button","text":"Not now","bounds":[120,1250,500,1350],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Rate","bounds":[560,1250,960,1350],"clickable":true,"enabled":true,"visible_to_user":true}]}]}`)
	return screen.ParseJSON(b)
}

func (d *dialogOnce) Perform(ctx context.Context, a device.Action) (device.Result, error) {
	if d.showing {
		if a.Type == device.Tap && a.Label == "Not now" {
			d.showing = false
			return device.Result{OK: true, Changed: true}, nil
		}
		return device.Result{Message: "the dialog is in the way"}, nil
	}
	res, err := d.Phone.Perform(ctx, a)
	d.actions++
	if d.actions == 1 && !d.shown && a.Type != device.Launch {
		d.showing, d.shown = true, true
	}
	return res, err
}

func TestReplayDismissesAnUnexpectedDialog(t *testing.T) {
	var dlg *dialogOnce
	r := newRig(t, func(p *sim.Phone) device.Device { dlg = &dialogOnce{Phone: p, shown: true}; return dlg })
	if res := r.run(t, "turn on dark mode", daemon.Options{}); res.Outcome != knowledge.OutcomeSuccess {
		t.Fatalf("learn: %+v", res)
	}
	dlg.shown, dlg.actions = false, 0 // now it will interrupt the replay
	res := r.run(t, "turn on dark mode", daemon.Options{NoPlanner: true})
	if res.Outcome != knowledge.OutcomeSuccess || r.phone.State() != "settings_dark" {
		t.Fatalf("%+v on %s", res, r.phone.State())
	}
	recovered := false
	for _, s := range res.Steps {
		recovered = recovered || (s.Mode == "recovery" && s.Label == "Not now")
	}
	if !recovered {
		t.Fatalf("no recovery step dismissed the dialog: %+v", res.Steps)
	}
}

// slowPhone makes every action take a while, so a run can be cancelled.
type slowPhone struct {
	*sim.Phone
	n atomic.Int32
}

func (s *slowPhone) Perform(ctx context.Context, a device.Action) (device.Result, error) {
	s.n.Add(1)
	select {
	case <-time.After(200 * time.Millisecond):
	case <-ctx.Done():
		return device.Result{}, ctx.Err()
	}
	return s.Phone.Perform(ctx, a)
}

func TestCancelStopsTheRun(t *testing.T) {
	var slow *slowPhone
	r := newRig(t, func(p *sim.Phone) device.Device { slow = &slowPhone{Phone: p}; return slow })
	done := make(chan *daemon.Result)
	go func() {
		res, err := r.eng.Run(context.Background(), "turn on dark mode", daemon.Options{})
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Error(err)
		}
		done <- res
	}()
	for slow.n.Load() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	if !r.eng.Cancel() {
		t.Fatal("nothing to cancel")
	}
	res := <-done
	if res == nil || res.Outcome != knowledge.OutcomeCancelled {
		t.Fatalf("%+v", res)
	}
	flows, _ := r.store.Flows(context.Background(), knowledge.FlowFilter{})
	if len(flows) != 0 {
		t.Fatal("a cancelled run saved a flow")
	}
}

// TestToggleFlowReplaysFromEitherState: a flow learned where the switch was
// already on still turns it on when replayed from the off state.
func TestToggleFlowReplaysFromEitherState(t *testing.T) {
	r := newRig(t, nil)
	if err := r.phone.Reset("settings_dark"); err != nil {
		t.Fatal(err)
	}
	learned, err := r.eng.Run(context.Background(), "turn on dark mode", daemon.Options{})
	if err != nil || learned.Outcome != knowledge.OutcomeSuccess || !learned.Saved {
		t.Fatalf("%+v %v", learned, err)
	}
	if err := r.phone.Reset("settings"); err != nil { // dark mode off now
		t.Fatal(err)
	}
	res, err := r.eng.Run(context.Background(), "turn on dark mode", daemon.Options{NoPlanner: true})
	if err != nil || res.Outcome != knowledge.OutcomeSuccess || res.Strategy != "replay" {
		t.Fatalf("%+v %v", res, err)
	}
	if r.phone.State() != "settings_dark" {
		t.Fatalf("replay from the off state ended on %s, want dark mode on", r.phone.State())
	}
}

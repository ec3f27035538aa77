package eval

import (
	"context"
	"fmt"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
)

// Oracle is a test double behind the daemon.Planner interface that
// answers from a task's ground truth: at each step it names the element
// the recorded demonstration acted on. It exercises the pipeline (grounding,
// learning, replay) and measures no intelligence.
type Oracle struct {
	task  *droidtask.Task
	phone *sim.Phone
	next  int
	steps []droidtask.Step
}

// NewOracle returns an oracle for one task on one simulated phone.
func NewOracle(task *droidtask.Task, phone *sim.Phone) *Oracle {
	return &Oracle{task: task, phone: phone, steps: task.Actions()}
}

// Name implements daemon.Planner.
func (o *Oracle) Name() string { return "oracle" }

// IgnoresGuides implements daemon.GuideFree: the oracle follows the
// recorded steps.
func (o *Oracle) IgnoresGuides() bool { return true }

// Next implements daemon.Planner.
func (o *Oracle) Next(ctx context.Context, st *daemon.PlanState) (daemon.Decision, error) {
	cur := o.phone.State()
	if o.next >= len(o.steps) {
		return daemon.Decision{Action: daemon.ActDone, Element: -1, Reason: "ground truth complete", Confidence: 1}, nil
	}
	gt := o.steps[o.next]
	if gt.State != cur {
		// resynchronise: a later step recorded on this screen
		found := false
		for j := o.next + 1; j < len(o.steps); j++ {
			if o.steps[j].State == cur {
				o.next, gt, found = j, o.steps[j], true
				break
			}
		}
		if !found {
			return daemon.Decision{}, fmt.Errorf("oracle: screen %s is off the ground-truth path of %s (want %s)", short(cur), o.task.ID, short(gt.State))
		}
	}
	d := daemon.Decision{Element: -1, Confidence: 1, Reason: fmt.Sprintf("ground truth step %d", gt.Index)}
	switch gt.Action.Type {
	case "key":
		d.Action = device.Back
		o.next++
		return d, nil
	case "click":
		d.Action = device.Tap
	case "input":
		d.Action = device.Input
		d.Text = gt.Action.Text
	default:
		return daemon.Decision{}, fmt.Errorf("oracle: unexpected ground-truth action %q", gt.Action.Type)
	}
	if gt.Action.Target != nil && gt.Action.Target.TempID != nil {
		d.Element = daemon.ElementIndex(st.Screen, st.Elements, *gt.Action.Target.TempID)
		if n := st.Screen.Node(*gt.Action.Target.TempID); n != nil && n.Bounds.Empty() {
			// the recording names an invisible view: act on its visible twin
			if m, ok := screen.Ground(st.Screen, screen.Describe(st.Screen, n.ID)); ok {
				d.Element = daemon.ElementIndex(st.Screen, st.Elements, m.NodeID)
			}
		}
		if d.Element < 0 {
			return daemon.Decision{}, fmt.Errorf("oracle: target node %d of %s step %d is not an element on screen", *gt.Action.Target.TempID, o.task.ID, gt.Index)
		}
		o.next++
		return d, nil
	}
	// below the fold: scroll until the label shows, then tap it
	if gt.TargetHTML != nil {
		want := droidtask.HTMLLabel(gt.TargetHTML.Inner)
		for i, e := range st.Elements {
			if e.Label == want {
				d.Element = i
				o.next++
				return d, nil
			}
		}
		return daemon.Decision{Action: device.Scroll, Element: -1, Direction: device.Forward, Confidence: 1,
			Reason: fmt.Sprintf("ground truth step %d is below the fold", gt.Index)}, nil
	}
	return daemon.Decision{}, fmt.Errorf("oracle: %s step %d has no target", o.task.ID, gt.Index)
}

func short(s string) string {
	if len(s) > 8 {
		return s[:8]
	}
	return s
}

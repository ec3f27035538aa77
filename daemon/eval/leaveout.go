package eval

import (
	"fmt"
	"slices"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// Leave-out: what of a task's own demonstration the graph planner may not
// see while solving it.

// LeaveOut names what a graph-planner evaluation hides from a task's
// knowledge (issue rule: a task's own demonstration is never knowledge for
// that task).
type LeaveOut string

const (
	// LeaveOutRecording hides the edges recorded only in the task's own
	// recording sessions (droidtask.Dataset.OwnTransitions). The default.
	LeaveOutRecording LeaveOut = "recording"
	// LeaveOutDemo also hides every edge that coincides with one of the
	// task's demonstrated steps, even when other sessions recorded it.
	LeaveOutDemo LeaveOut = "demo"
	// LeaveOutNone hides only the task_demo edges, which import never
	// loads; the task's own DroidBot recording stays in the graph.
	LeaveOutNone LeaveOut = "none"
)

// HiddenKeys returns the graphplan.EdgeKey set to hide while the graph
// planner solves task under rule. An own edge whose key some other
// recording also produces (screens merge by fingerprint) stays visible.
func HiddenKeys(d *droidtask.Dataset, task *droidtask.Task, rule LeaveOut) (map[string]bool, error) {
	switch rule {
	case LeaveOutNone:
		return nil, nil
	case LeaveOutRecording, LeaveOutDemo:
	default:
		return nil, fmt.Errorf("eval: unknown leave-out rule %q (recording, demo or none)", rule)
	}
	// addKey puts transition t's EdgeKey into m (edges that cannot be
	// placed have none)
	addKey := func(m map[string]bool, t droidtask.Transition) error {
		e, ok, err := d.ResolveEdge(task.App, t)
		if err != nil || !ok {
			return err
		}
		ek := ""
		if e.Element != nil {
			ek = e.Element.Key()
		}
		m[graphplan.EdgeKey(screen.Fingerprint(e.From), e.Action, ek, screen.Fingerprint(e.To))] = true
		return nil
	}
	own, ownTags := map[string]bool{}, map[string]bool{}
	for _, t := range d.OwnTransitions(task) {
		for _, tag := range t.EventTags {
			ownTags[tag] = true
		}
		if err := addKey(own, t); err != nil {
			return nil, err
		}
	}
	// keep what another recording also shows
	others := map[string]bool{}
	for _, t := range d.AppTransitions(task.App) {
		if !t.Exploration() || !slices.ContainsFunc(t.EventTags, func(tag string) bool { return !ownTags[tag] }) {
			continue
		}
		if err := addKey(others, t); err != nil {
			return nil, err
		}
	}
	hidden := map[string]bool{}
	for k := range own {
		if !others[k] {
			hidden[k] = true
		}
	}
	if rule == LeaveOutDemo {
		for k := range DemonstrationKeys(d, task) {
			hidden[k] = true
		}
	}
	return hidden, nil
}

// DemonstrationKeys returns the graphplan.EdgeKey of every step of a
// task's own ground-truth demonstration, so the graph planner can be kept
// from using it while solving that task (issue rule: a task's own
// demonstration is never knowledge for that task).
func DemonstrationKeys(d *droidtask.Dataset, task *droidtask.Task) map[string]bool {
	keys := map[string]bool{}
	for _, st := range task.Actions() {
		from, err1 := d.State(task.App, st.State)
		to, err2 := d.State(task.App, st.NextState)
		if err1 != nil || err2 != nil {
			continue
		}
		action, ek := "", ""
		switch st.Action.Type {
		case "click":
			action = device.Tap
		case "input":
			action = device.Input
		case "key":
			action = device.Back
		}
		if st.Action.Target != nil && st.Action.Target.TempID != nil && from.Node(*st.Action.Target.TempID) != nil {
			owner := from.ClickableAncestor(*st.Action.Target.TempID)
			ek = screen.Describe(from, owner.ID).Key()
		}
		keys[graphplan.EdgeKey(screen.Fingerprint(from), action, ek, screen.Fingerprint(to))] = true
	}
	return keys
}

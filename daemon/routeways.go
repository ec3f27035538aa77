package daemon

import (
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Another way to the same element: a saved flow reaches what the command
// asks by its own route ("More options", "Settings", "Manage favorites",
// "Add favorites"); the checker, on the flow's first screen, may prefer
// another way, or an element there that shares the command's words. The
// walk (walkRoute) accepts the flow's step all the same when the checker
// weighed it as a relevant step on its way, through the UI transition
// graph, to an element the flow itself taps later (WayTeller) — and then
// the checker must choose that element itself when the walk reaches it,
// and agree with every step after it and with the end, as always. Only a
// plain tap leads on this way: no step that types, picks a slot's value
// or sets a switch, and none on a screen that shows the element it leads
// to (a detour: "Video" on the way to the camera toggle shown beside it).

// onTheWay returns the flow's step i, a tap on screen s, as the walk
// takes it when the checker (p, asked with st) weighed it as on its way
// to the target of a later step of f; owed is the index of the step the
// walk owes the checker's own agreement (-1: none), set to that later
// step's. While one is owed, only a step on the way to it is let through
// (so never the owed step itself).
func onTheWay(p Planner, s *screen.Snapshot, st *PlanState, f *knowledge.Flow, i int, owed *int) (StepRecord, bool) {
	step := f.Steps[i]
	wt, ok := p.(WayTeller)
	if !ok || step.Action != device.Tap || step.Target.Password || step.Target.Editable {
		return StepRecord{}, false
	}
	if _, slot := knowledge.SlotRef(step.Text); slot {
		return StepRecord{}, false
	}
	m, ok := screen.Ground(s, step.Target)
	if !ok {
		return StepRecord{}, false
	}
	at := ElementIndex(s, st.Elements, m.NodeID)
	if at < 0 || toggleOf(s, &st.Elements[at]) != "" {
		return StepRecord{}, false
	}
	dest, ok := wt.WayTo(at)
	if !ok {
		return StepRecord{}, false
	}
	for k := range st.Elements {
		if screen.Describe(s, st.Elements[k].NodeID).Key() == dest {
			return StepRecord{}, false // what it leads to is here: the step is a detour
		}
	}
	for j := i + 1; j < len(f.Steps); j++ {
		if f.Steps[j].Target.Key() != dest {
			continue
		}
		if *owed >= 0 && j != *owed {
			return StepRecord{}, false
		}
		*owed = j
		return StepRecord{Action: device.Tap, Target: step.Target, Label: st.Elements[at].Label}, true
	}
	return StepRecord{}, false
}

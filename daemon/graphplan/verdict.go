// After a step: the checking module's verdict without a model (AutoTask
// §4.5: a step that changed nothing is wrong and penalised), what the
// run's steps set on or off, and the cached UI graph dropped when a step
// reached a screen it did not hold.

package graphplan

import (
	"context"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// switchSet reports whether a step of the run may have set what a command
// that turns something on or off asks: it acted on a toggle
// (runState.toggled: checkable, or "toggle" in its name) or set a switch
// (daemon.ActEnsureOn / ActEnsureOff, recorded even when it was already
// so; a tap on a row holding one, StepRecord.Toggle), or tapped the text
// of a switch still on screen or an element whose label turns something
// on or off itself ("Enable reports", "Show hidden files").
func (rs *runState) switchSet(st *daemon.PlanState) bool {
	if rs.toggled {
		return true
	}
	switches := map[string]bool{} // labels of the switches on screen now
	for _, e := range st.Elements {
		if e.Kind == screen.KindCheckbox && e.Label != "" {
			switches[e.Label] = true
		}
	}
	for _, h := range st.History {
		if h.Action == device.Tap && switches[h.Label] {
			return true // the text of a switch's row, tapped
		}
		if h.Action == daemon.ActEnsureOn || h.Action == daemon.ActEnsureOff || h.Toggle != "" || h.Label != "" && intent.Polarity(h.Label) != 0 {
			return true
		}
	}
	return false
}

// Check implements daemon.Checker without a model: a step that changed
// nothing (an unexplored tap) is wrong and penalised so it is not chosen
// again; completion is decided by Next.
func (p *Planner) Check(ctx context.Context, st *daemon.PlanState, last daemon.StepRecord) (daemon.Verdict, error) {
	// The device performed it (OK) even when the screen's structure stayed
	// (a toggle row, a setting that applies in place): that is progress.
	// An action the device could not perform is wrong.
	if !last.OK {
		return daemon.Verdict{Correct: false, Penalty: NoEffectPenalty, Reason: "the action had no effect: " + last.Message}, nil
	}
	if flippedToggle(st.Before, st.Elements) {
		p.state(st, nil).flipped = true
	}
	return daemon.Verdict{Correct: true}, nil
}

// flippedToggle reports whether an element of before (same kind, label
// and resource-id) shows the other checked state in after: the step set
// a setting, whatever element it tapped (a row whose switch is a sibling,
// or merged into it).
func flippedToggle(before, after []screen.Element) bool {
	type key struct{ kind, label, res string }
	was := map[key]bool{}
	for _, e := range before {
		was[key{e.Kind, e.Label, e.Resource}] = e.Checked
	}
	for _, e := range after {
		if c, ok := was[key{e.Kind, e.Label, e.Resource}]; ok && c != e.Checked {
			return true
		}
	}
	return false
}

// Observe implements daemon.Learner: a new screen makes the cached graph
// stale, so it is reloaded (with the learned transition) on the next step.
func (p *Planner) Observe(ctx context.Context, st *daemon.PlanState, rec daemon.StepRecord) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if g := p.graphs[st.AppID]; g != nil {
		if _, ok := g.byPrint[rec.After]; !ok {
			delete(p.graphs, st.AppID)
		}
	}
}

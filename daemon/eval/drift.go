package eval

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// DriftReport is the replay phase on a drifted copy of the data
// (Config.ReplayData, made by daemon/drift): the flows learned on the
// original app are replayed, by their tasks' commands, on the changed
// app. Every task gets one verdict:
//
//   - replayed: the replay alone (planner off) ended on the task's final
//     state in the drifted ground truth, with no wrong tap;
//   - wrong: some action of the replay, or of the repair run after it,
//     was a wrong tap (below), whatever the outcome;
//   - repaired: the replay failed cleanly (no wrong tap), the planner
//     finished the task from the start again, and the run ended on the
//     final state with no wrong tap (a verified repair is saved as a new
//     version of the flow);
//   - failed: none of these.
//
// A wrong tap is a tap, long press or typing on an element, that had an
// effect (the phone said the screen changed, or the recorded state
// changed), on a recorded state where the drifted ground truth of the
// task does not act on that element (the same node, a node with the same
// clickable owner, a node inside the other, or an invisible twin) and
// where the action did not lead to the ground truth's next state either
// (in the recorded app two elements that lead to the same screen cannot
// be told apart), or on a state the ground truth never visits. BACK is
// never a wrong tap, nor is a step that did nothing. Dismissing an
// injected dialog with its dismissing button is in the drifted ground
// truth.
//
// StepsRepaired counts the steps of repaired flows that the new version
// changed (from the first differing step on). FlowsLost counts learned
// flows that no longer exist or whose history lost the learned version.
type DriftReport struct {
	Tasks         int        `json:"tasks"`
	Replayed      int        `json:"replayed"`
	Repaired      int        `json:"repaired"`
	Wrong         int        `json:"wrong"`
	Failed        int        `json:"failed"`
	WrongTaps     int        `json:"wrong_taps"`
	StepsRepaired int        `json:"steps_repaired"`
	LLMCalls      int        `json:"llm_calls"`
	FlowsLost     int        `json:"flows_lost"`
	ReplayRate    float64    `json:"replay_rate"`  // replayed / tasks
	SuccessRate   float64    `json:"success_rate"` // (replayed + repaired) / tasks
	PerTask       []DriftRow `json:"per_task"`
}

// DriftRow is one task of the drifted replay phase.
type DriftRow struct {
	TaskID        string   `json:"task_id"`
	Verdict       string   `json:"verdict"` // replayed | repaired | wrong | failed
	WrongTaps     int      `json:"wrong_taps"`
	Wrong         []string `json:"wrong,omitempty"` // each wrong tap: state, action, node
	StepsRepaired int      `json:"steps_repaired,omitempty"`
	LLMCalls      int      `json:"llm_calls"`
	Error         string   `json:"error,omitempty"`
	Trace         []string `json:"trace,omitempty"`
}

// replayDrifted runs the drifted replay phase of one app (see
// DriftReport) and adds it to rep.Drift.
func replayDrifted(ctx context.Context, cfg Config, app string, rows []TaskRow, rep *Report) error {
	if rep.Drift == nil {
		rep.Drift = &DriftReport{}
	}
	dr := rep.Drift
	d := cfg.ReplayData
	if cfg.BeforeDrifted != nil {
		if err := cfg.BeforeDrifted(ctx, app); err != nil {
			return err
		}
	}
	phone, err := sim.New(d, app)
	if err != nil {
		return fmt.Errorf("eval: drifted data: %w", err)
	}
	dev := &recorder{Phone: phone}
	ecfg := cfg.Engine
	ecfg.Unattended = true
	eng := daemon.New(dev, cfg.Store, nil, nil, ecfg)
	byID := map[string]*droidtask.Task{}
	for _, t := range d.AppTasks(app) {
		byID[t.ID] = &t
	}
	learned := map[int64][]knowledge.Step{}
	for _, row := range rows {
		if row.FlowID == 0 {
			continue
		}
		if f, err := cfg.Store.Flow(ctx, row.FlowID); err == nil {
			learned[row.FlowID] = f.Steps
		}
	}
	pkg := phone.App().MainPackage
	for _, row := range rows {
		task := byID[row.TaskID]
		if task == nil {
			return fmt.Errorf("eval: drifted data has no task %s", row.TaskID)
		}
		out := DriftRow{TaskID: task.ID}
		run := func(opt daemon.Options) (*daemon.Result, int, bool, error) {
			if err := phone.Episode(task); err != nil {
				return nil, 0, false, err
			}
			dev.reset()
			res, err := eng.Run(ctx, task.Instruction, opt)
			if err != nil {
				return nil, 0, false, fmt.Errorf("eval: drifted replay %s: %w", task.ID, err)
			}
			dev.mu.Lock()
			bad := wrongTaps(d, task, dev.log)
			wrong := len(bad)
			out.Wrong = append(out.Wrong, bad...)
			dev.mu.Unlock()
			reached := res.Outcome == knowledge.OutcomeSuccess && sameScreen(d, app, phone.State(), task.FinalState())
			out.Trace = append(out.Trace, traceOf(res)...)
			return res, wrong, reached, nil
		}
		eng.SetPlanner(nil)
		res, wrong, reached, err := run(daemon.Options{Package: pkg, NoPlanner: true})
		if err != nil {
			return err
		}
		out.WrongTaps, out.Error = wrong, res.Error
		switch {
		case wrong > 0:
			out.Verdict = "wrong"
		case reached:
			out.Verdict = "replayed"
		case cfg.Planner == nil || res.FlowID == 0:
			out.Verdict = "failed"
		default:
			pl, err := cfg.Planner(task, phone, cfg.Store)
			if err != nil {
				return err
			}
			eng.SetPlanner(pl)
			before, _ := cfg.Store.Flow(ctx, res.FlowID)
			res, wrong, reached, err = run(daemon.Options{Package: pkg})
			if err != nil {
				return err
			}
			out.WrongTaps, out.Error, out.LLMCalls = wrong, res.Error, res.LLMCalls
			switch {
			case wrong > 0:
				out.Verdict = "wrong"
			case reached:
				out.Verdict = "repaired"
				if after, err := cfg.Store.Flow(ctx, res.FlowID); err == nil && before != nil && res.Repaired {
					out.StepsRepaired = changedSteps(before.Steps, after.Steps)
				}
			default:
				out.Verdict = "failed"
			}
		}
		dr.Tasks++
		dr.WrongTaps += out.WrongTaps
		dr.StepsRepaired += out.StepsRepaired
		dr.LLMCalls += out.LLMCalls
		switch out.Verdict {
		case "replayed":
			dr.Replayed++
		case "repaired":
			dr.Repaired++
		case "wrong":
			dr.Wrong++
		default:
			dr.Failed++
		}
		dr.PerTask = append(dr.PerTask, out)
		progress(cfg.Progress, "drift  %-22s %-8s wrong=%d repaired=%d llm=%d %s", task.ID, out.Verdict, out.WrongTaps, out.StepsRepaired, out.LLMCalls, out.Error)
	}
	for id, steps := range learned {
		hist, err := cfg.Store.FlowHistory(ctx, id)
		if err != nil || len(hist) == 0 || changedSteps(hist[0].Steps, steps) != 0 {
			dr.FlowsLost++
		}
	}
	dr.ReplayRate = ratio(dr.Replayed, dr.Tasks)
	dr.SuccessRate = ratio(dr.Replayed+dr.Repaired, dr.Tasks)
	return nil
}

// traceOf renders a run's steps for the report.
func traceOf(res *daemon.Result) []string {
	var out []string
	for _, s := range res.Steps {
		line := s.Mode + " " + s.Action
		if s.Label != "" {
			line += fmt.Sprintf(" %q", s.Label)
		}
		if !s.Changed {
			line += " (no effect)"
		}
		if strings.HasPrefix(s.Reason, "re-plan") {
			line += " (re-planned)"
		}
		out = append(out, line)
	}
	return append(out, "→ "+res.Outcome)
}

// changedSteps counts the steps of b from the first one that differs from
// a (action, element, text) to the end; 0 when b equals a.
func changedSteps(a, b []knowledge.Step) int {
	i := 0
	for i < len(a) && i < len(b) && a[i].Action == b[i].Action && a[i].Target.Key() == b[i].Target.Key() && a[i].Text == b[i].Text {
		i++
	}
	if i == len(a) && i == len(b) {
		return 0
	}
	return max(len(b)-i, 1)
}

// wrongTaps counts the wrong taps of a logged run against the task's
// drifted ground truth (DriftReport says exactly what is wrong).
func wrongTaps(d *droidtask.Dataset, task *droidtask.Task, log []moved) []string {
	const revealed = -3 // a below-the-fold target: a row the phone reveals
	want := map[string][]int{}
	next := map[string][]string{}
	for _, st := range task.Actions() {
		next[st.State] = append(next[st.State], st.NextState)
		switch {
		case st.Action.Target != nil && st.Action.Target.TempID != nil:
			want[st.State] = append(want[st.State], *st.Action.Target.TempID)
		case st.TargetHTML != nil:
			want[st.State] = append(want[st.State], revealed)
		}
	}
	var bad []string
	for _, m := range log {
		if m.action != device.Tap && m.action != device.LongPress && m.action != device.Input {
			continue
		}
		if !m.changed && m.after == m.before {
			continue // it did nothing
		}
		s, err := d.State(task.App, m.before)
		right := m.after != m.before && slices.Contains(next[m.before], m.after)
		for _, w := range want[m.before] {
			switch {
			case w == m.node, w == revealed && err == nil && m.node >= len(s.Nodes):
				right = true
			case w >= 0 && err == nil:
				right = right || sameTarget(s, w, m.node)
			}
		}
		if !right {
			label := ""
			if err == nil && s.Node(m.node) != nil {
				label = s.Node(m.node).Label()
			}
			bad = append(bad, fmt.Sprintf("%s %d %q on %s (ground truth %v)", m.action, m.node, label, short(m.before), want[m.before]))
		}
	}
	return bad
}

// sameTarget reports whether acting on node b is acting on the ground
// truth's node a: the same clickable owner, one inside the other, or a is
// an invisible twin of b (no area, same class and resource-id: the
// recording named a pager's off-screen copy, as daemon/sim accepts).
func sameTarget(s *screen.Snapshot, a, b int) bool {
	na, nb := s.Node(a), s.Node(b)
	if na == nil || nb == nil {
		return false
	}
	if na.Bounds.Empty() && na.ResourceID != "" && na.ResourceID == nb.ResourceID && na.Class == nb.Class {
		return true
	}
	oa, ob := s.ClickableAncestor(a), s.ClickableAncestor(b)
	if oa != nil && oa == ob {
		return true
	}
	for _, x := range s.Ancestors(a) {
		if x == b {
			return true
		}
	}
	for _, x := range s.Ancestors(b) {
		if x == a {
			return true
		}
	}
	return false
}

// WriteDrift prints the drifted replay phase's closing line.
func (r *Report) WriteDrift(w io.Writer) {
	d := r.Drift
	if d == nil {
		return
	}
	fmt.Fprintf(w, "drift: %d tasks, replayed %d (%.1f%%), repaired %d, success %.1f%%, wrong %d (%d wrong taps), failed %d, steps repaired %d, LLM calls %d, flows lost %d\n",
		d.Tasks, d.Replayed, 100*d.ReplayRate, d.Repaired, 100*d.SuccessRate, d.Wrong, d.WrongTaps, d.Failed, d.StepsRepaired, d.LLMCalls, d.FlowsLost)
}

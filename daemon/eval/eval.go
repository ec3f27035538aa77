// Package eval runs Wayfinder on every task of a DroidTask-format directory
// on the simulated phone and reports how it did, in three phases: learn
// (the planner solves each task and the engine saves flows), replay (each
// task's own command again with the planner off: the saved flow must be
// found and replayed to the task's final screen, with no LLM call), and
// commands (other wordings, other slot values, and commands that must
// match nothing; planner off).
//
// The package owns the evaluation protocol and its report; it must not
// change the engine's behaviour.
package eval

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/daemon/steps"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// PlannerFactory makes the planner for one task. It receives the task and
// the simulated phone (the oracle needs both; real planners need neither)
// and the engine's store.
type PlannerFactory func(task *droidtask.Task, phone *sim.Phone, store *knowledge.Store) (daemon.Planner, error)

// Config of an evaluation.
type Config struct {
	Data     *droidtask.Dataset
	Apps     []string // empty: all
	Store    *knowledge.Store
	Planner  PlannerFactory
	Name     string // planner name for the report
	Commands []CommandCase
	// BeforeApp runs once per app before its tasks (e.g. importing the
	// app's exploration graph).
	BeforeApp func(ctx context.Context, app string) error
	Progress  io.Writer // live lines; nil for none
	Engine    daemon.Config
	// Tutorials, when set, runs only the tasks it names, each following
	// its pasted steps (daemon/steps) with the planner as the steps
	// planner's inner planner; the goal stays the task's instruction, so
	// the learned flow is named by it and the replay phase is unchanged.
	Tutorials map[string]string
	// ParseSteps turns a tutorial into instructions and reports the LLM
	// calls it spent; nil: the rule-based steps.Parse.
	ParseSteps func(ctx context.Context, goal, text string) ([]steps.Instruction, int, error)
	// StepsOnly follows the tutorials with no inner planner: an
	// instruction that cannot be grounded fails the task.
	StepsOnly bool
	// ReplayData, when set, is a drifted copy of Data (daemon/drift): the
	// replay phase runs on it instead (see replayDrifted) and the report
	// gets a Drift section.
	ReplayData *droidtask.Dataset
	// BeforeDrifted runs once per app before its drifted replay phase
	// (e.g. importing the drifted app's exploration graph: the agent has
	// explored the updated app).
	BeforeDrifted func(ctx context.Context, app string) error
	// Instructions, when set, runs only the tasks it names (task id →
	// instruction), each given its instruction here instead of the
	// dataset's: a rewording the way a user would say it (Rewordings), so
	// the planner is measured on words it was not developed on. The task's
	// ground truth is unchanged, so only rewordings that fix no other
	// value belong here.
	Instructions map[string]string
	// Owner, when set, answers "did you mean …?" during the commands
	// phase as the command's writer would: the flow learned for the
	// command's task when it is offered, else "none of these" (a
	// must-not-match command declines every offer). Other questions go
	// unanswered. It measures how often offering the closest flows finds
	// the right one; the figures without it are the replay figures.
	// During the learn phase it answers a planner's unsure "done"
	// (daemon.Decision.Unsure) as the owner who sees the phone would: yes
	// on the task's final screen, no elsewhere.
	Owner bool
}

// parseLines decodes JSON lines of T (unknown fields refused), skipping
// blank lines and lines starting with #; check validates each. Errors name
// the file and line.
func parseLines[T any](b []byte, path string, check func(T) error) ([]T, error) {
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var v T
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if err := check(v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// recorder wraps the simulated phone and logs every action with the
// recorded state before and after, for step accuracy.
type recorder struct {
	*sim.Phone
	mu  sync.Mutex
	log []moved
}

type moved struct {
	before, after string
	action        string
	node          int  // acted-on node of the before state, -1 for none
	changed       bool // the phone said the action changed the screen
}

func (r *recorder) Perform(ctx context.Context, a device.Action) (device.Result, error) {
	before := r.Phone.State()
	res, err := r.Phone.Perform(ctx, a)
	r.mu.Lock()
	r.log = append(r.log, moved{before: before, after: r.Phone.State(), action: a.Type, node: a.Node, changed: res.Changed})
	r.mu.Unlock()
	return res, err
}

func (r *recorder) reset() {
	r.mu.Lock()
	r.log = nil
	r.mu.Unlock()
}

// matchedSteps counts the ground-truth steps the agent also took: an
// action of the same type on the same recorded screen that led to the same
// recorded next screen.
func (r *recorder) matchedSteps(task *droidtask.Task) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, st := range task.Actions() {
		want := map[string]string{"click": device.Tap, "input": device.Input, "key": device.Back}[st.Action.Type]
		for _, m := range r.log {
			if m.before == st.State && m.after == st.NextState && m.action == want {
				n++
				break
			}
		}
	}
	return n
}

// actedOn reports whether the logged run acted on recorded state st.
func (r *recorder) actedOn(st string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range r.log {
		if m.before == st {
			return true
		}
	}
	return false
}

// Run evaluates and returns the report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	start := time.Now()
	apps := cfg.Apps
	if len(apps) == 0 {
		apps = cfg.Data.AppNames()
	}
	rep := &Report{Planner: cfg.Name}
	flowTask := map[int64]string{} // flow -> task that learned it
	taskFlow := map[string]int64{}
	var gtSteps, matched int
	for _, app := range apps {
		if _, ok := cfg.Data.Apps[app]; !ok {
			return nil, fmt.Errorf("eval: no app %q in %s", app, cfg.Data.Dir)
		}
		if cfg.BeforeApp != nil {
			if err := cfg.BeforeApp(ctx, app); err != nil {
				return nil, err
			}
		}
		phone, err := sim.New(cfg.Data, app)
		if err != nil {
			return nil, err
		}
		dev := &recorder{Phone: phone}
		ecfg := cfg.Engine
		// a simulated phone and nobody to ask: sensitive actions the task
		// asks for proceed; those it does not ask for are still refused
		ecfg.Unattended = true
		eng := daemon.New(dev, cfg.Store, nil, nil, ecfg)
		ar := AppReport{App: app}
		var appGT, appMatched int
		tasks := cfg.Data.AppTasks(app)
		if cfg.Tutorials != nil {
			tasks = slices.DeleteFunc(slices.Clone(tasks), func(t droidtask.Task) bool { _, ok := cfg.Tutorials[t.ID]; return !ok })
			if len(tasks) == 0 {
				continue
			}
		}
		if cfg.Instructions != nil {
			tasks = reworded(tasks, cfg.Instructions)
			if len(tasks) == 0 {
				continue
			}
		}
		rows := make([]TaskRow, len(tasks))
		// phase learn
		for i := range tasks {
			task := &tasks[i]
			row := TaskRow{TaskID: task.ID, App: app, Command: task.Instruction, GroundTruth: len(task.Actions()), WantScreen: task.FinalState()}
			if err := phone.Episode(task); err != nil {
				return nil, err
			}
			dev.reset()
			pl, err := cfg.Planner(task, phone, cfg.Store)
			if err != nil {
				return nil, err
			}
			eng.SetPlanner(pl)
			opts := daemon.Options{Package: phone.App().MainPackage, NoReplay: true}
			var sp *steps.Planner
			parseCalls := 0
			t0 := time.Now()
			if text, ok := cfg.Tutorials[task.ID]; ok {
				if sp, parseCalls, err = tutorialPlanner(ctx, cfg, pl, task.Instruction, text); err != nil {
					return nil, fmt.Errorf("eval: %s: %w", task.ID, err)
				}
				opts.Planner = sp
			}
			var judge *doneOwner
			if cfg.Owner {
				judge = &doneOwner{state: phone.State, want: row.WantScreen}
				eng.SetAsker(judge)
			}
			res, err := eng.Run(ctx, task.Instruction, opts)
			eng.SetAsker(nil)
			if judge != nil {
				row.Confirmed = judge.said
			}
			row.LearnMS = time.Since(t0).Milliseconds()
			if err != nil {
				return nil, fmt.Errorf("eval: %s: %w", task.ID, err)
			}
			res.LLMCalls += parseCalls
			if sp != nil {
				row.Instructions = sp.Outcomes()
			}
			row.FinalScreen = phone.State()
			row.Succeeded = res.Outcome == knowledge.OutcomeSuccess && row.FinalScreen == row.WantScreen
			row.Steps, row.LLMCalls, row.Error = len(res.Steps), res.LLMCalls, res.Error
			if res.Outcome == knowledge.OutcomeSuccess && !row.Succeeded {
				row.Error = "planner declared done on the wrong screen"
			}
			row.MatchedSteps = dev.matchedSteps(task)
			row.StrayValues = strayValues(task, res.Steps)
			row.OtherRows = dev.otherRows(cfg.Data, app, task)
			row.StraySwitches = dev.straySwitches(cfg.Data, app, task)
			if len(row.StraySwitches) > 0 {
				rep.StraySwitch++
			}
			if acts := task.Actions(); len(acts) > 0 {
				row.EndedElsewhere = !dev.actedOn(acts[len(acts)-1].State)
			}
			for _, s := range res.Steps {
				line := s.Action
				if s.Label != "" {
					line += fmt.Sprintf(" %q", s.Label)
				}
				if s.Text != "" {
					line += fmt.Sprintf(" <- %q", s.Text)
				}
				if !s.OK {
					line += " (no effect)"
				}
				if s.Backtracked {
					line += " (backtracked)"
				}
				row.Trace = append(row.Trace, line)
				if s.Sensitive && s.OK {
					row.Sensitive = append(row.Sensitive, line)
				}
			}
			if res.FlowID != 0 {
				// the flow the engine saved for this task, even when the
				// evaluation judges the run wrong: matching is measured
				// against it, and its replay against the task's screen
				row.FlowID = res.FlowID
				flowTask[res.FlowID] = task.ID
				taskFlow[task.ID] = res.FlowID
			}
			rep.LLMCalls += res.LLMCalls
			rep.Tokens += res.Tokens
			appGT += row.GroundTruth
			appMatched += row.MatchedSteps
			if row.Succeeded {
				ar.Succeeded++
				if len(row.StrayValues) > 0 {
					rep.SucceededStray++
				}
				if row.EndedElsewhere {
					rep.SucceededElsewhere++
				}
				if len(row.OtherRows) > 0 {
					rep.SucceededOtherRow++
				}
			} else if len(row.Sensitive) > 0 {
				rep.FailedSensitive++
			}
			switch row.Confirmed {
			case "yes":
				rep.ConfirmedYes++
			case "no":
				rep.ConfirmedNo++
			}
			progress(cfg.Progress, "learn  %-22s %-4s steps=%-2d llm=%-2d %s", task.ID, okStr(row.Succeeded), row.Steps, row.LLMCalls, row.Error)
			rows[i] = row
		}
		// phase replay: planner off (on the drifted copy when there is one)
		eng.SetPlanner(nil)
		replayTasks := tasks
		if cfg.ReplayData != nil {
			if err := replayDrifted(ctx, cfg, app, rows, rep); err != nil {
				return nil, err
			}
			replayTasks = nil // the drifted phase replaced the replay phase
		}
		for i := range replayTasks {
			task := &tasks[i]
			row := &rows[i]
			if err := phone.Episode(task); err != nil {
				return nil, err
			}
			t0 := time.Now()
			res, err := eng.Run(ctx, task.Instruction, daemon.Options{Package: phone.App().MainPackage, NoPlanner: true})
			row.ReplayMS = time.Since(t0).Milliseconds()
			if err != nil {
				return nil, fmt.Errorf("eval: replay %s: %w", task.ID, err)
			}
			row.ReplayScreen = phone.State()
			row.ReplayFlow, row.ReplayLLM, row.ReplayError, row.ReplayTyped = res.FlowID, res.LLMCalls, res.Error, res.Typed
			row.Replayed = res.Outcome == knowledge.OutcomeSuccess && res.Matched && row.ReplayScreen == row.WantScreen && res.LLMCalls == 0
			rep.Replay.Tasks++
			rep.Replay.LLMCalls += res.LLMCalls
			if row.Replayed {
				rep.Replay.Succeeded++
				ar.Replayed++
			}
			if f, err := cfg.Store.Flow(ctx, row.FlowID); err == nil && row.FlowID != 0 {
				row.Intent = f.Intent
			}
			progress(cfg.Progress, "replay %-22s %-4s flow=%-3d llm=%d %s", task.ID, okStr(row.Replayed), res.FlowID, res.LLMCalls, res.Error)
		}
		ar.Tasks = len(tasks)
		ar.SuccessRate = ratio(ar.Succeeded, ar.Tasks)
		ar.StepAccuracy = ratio(appMatched, appGT)
		rep.PerApp = append(rep.PerApp, ar)
		rep.PerTask = append(rep.PerTask, rows...)
		rep.Tasks += ar.Tasks
		rep.Succeeded += ar.Succeeded
		gtSteps += appGT
		matched += appMatched
		// phase commands for this app
		for _, c := range cfg.Commands {
			if c.App != app {
				continue
			}
			row, err := runCommand(ctx, cfg, eng, phone, c, taskFlow, flowTask)
			if err != nil {
				return nil, err
			}
			rep.PerCommand = append(rep.PerCommand, row)
		}
	}
	rep.SuccessRate = ratio(rep.Succeeded, rep.Tasks)
	rep.StepAccuracy = ratio(matched, gtSteps)
	replays := 0
	for _, r := range rep.PerCommand {
		rep.Commands.Total++
		rep.Commands.LLMCalls += r.LLMCalls
		switch r.Verdict {
		case "correct":
			rep.Commands.Correct++
		case "wrong_flow":
			rep.Commands.WrongFlow++
		case "missed":
			rep.Commands.Missed++
		case "wrong_slot":
			rep.Commands.WrongSlot++
		case "bad_flow":
			rep.Commands.BadFlow++
		case "unverified":
			rep.Commands.Unverified++
		}
		if r.MatchedFlow != 0 {
			replays++
		}
		if r.Offered {
			rep.Commands.Offered++
		}
		if r.OfferedRight {
			rep.Commands.OfferedRight++
		}
		if r.GaveValues {
			rep.Commands.GaveValues++
		}
	}
	correctReplays, rightFlow := 0, 0
	for _, r := range rep.PerCommand {
		if r.MatchedFlow != 0 && r.Verdict == "correct" {
			correctReplays++
		}
		if r.MatchedFlow != 0 && (r.Verdict == "correct" || r.Verdict == "bad_flow" || r.Verdict == "wrong_slot" || r.Verdict == "unverified") {
			rightFlow++
		}
	}
	rep.Commands.Precision = ratio(correctReplays, replays)
	rep.Commands.MatchPrecision = ratio(rightFlow, replays)
	rep.Passed = rep.Succeeded + rep.Replay.Succeeded + rep.Commands.Correct
	rep.Failed = (rep.Tasks - rep.Succeeded) + (rep.Replay.Tasks - rep.Replay.Succeeded) + (rep.Commands.Total - rep.Commands.Correct)
	rep.Seconds = time.Since(start).Seconds()
	sort.SliceStable(rep.PerApp, func(i, j int) bool { return rep.PerApp[i].App < rep.PerApp[j].App })
	return rep, nil
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func okStr(ok bool) string {
	if ok {
		return "ok"
	}
	return "FAIL"
}

func progress(w io.Writer, f string, a ...any) {
	if w != nil {
		fmt.Fprintf(w, f+"\n", a...)
	}
}

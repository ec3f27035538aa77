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
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
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
	// Owner, when set, answers "did you mean …?" during the commands
	// phase as the command's writer would: the flow learned for the
	// command's task when it is offered, else "none of these" (a
	// must-not-match command declines every offer). Other questions go
	// unanswered. It measures how often offering the closest flows finds
	// the right one; the figures without it are the replay figures.
	Owner bool
}

// CommandCase is one line of a --commands file.
type CommandCase struct {
	TaskID        string   `json:"task_id,omitempty"`
	App           string   `json:"app"`
	Command       string   `json:"command"`
	ExpectTyped   []string `json:"expect_typed,omitempty"`
	ExpectNoMatch bool     `json:"expect_no_match,omitempty"`
	// ExpectPicked lists, in order, the labels of list or dialog options
	// the replay must tap for the choices the command fixes ("set snooze
	// to 10 minutes" taps "10 minutes"): they must appear, in this order,
	// among the labels of the replay's taps (case folded), or the command
	// counts as wrong_slot.
	ExpectPicked []string `json:"expect_picked,omitempty"`
}

// ReadCommands reads a JSON-lines commands file; errors name the line.
func ReadCommands(path string) ([]CommandCase, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseCommands(b, path)
}

// ParseCommands parses JSON lines of CommandCase; blank lines and lines
// starting with # are skipped; errors name the file and line.
func ParseCommands(b []byte, path string) ([]CommandCase, error) {
	return parseLines(b, path, func(c CommandCase) error {
		if c.App == "" || c.Command == "" {
			return errors.New("app and command are required")
		}
		return nil
	})
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

// Report is the evaluation report (JSON).
type Report struct {
	Planner      string         `json:"planner"`
	Tasks        int            `json:"tasks"`
	Succeeded    int            `json:"succeeded"`
	SuccessRate  float64        `json:"success_rate"`
	StepAccuracy float64        `json:"step_accuracy"`
	LLMCalls     int            `json:"llm_calls"`
	Tokens       int            `json:"tokens"`
	Replay       ReplayReport   `json:"replay"`
	Drift        *DriftReport   `json:"drift,omitempty"`
	Commands     CommandsReport `json:"commands"`
	PerApp       []AppReport    `json:"per_app"`
	PerTask      []TaskRow      `json:"per_task"`
	PerCommand   []CommandRow   `json:"per_command,omitempty"`
	Passed       int            `json:"passed"`
	Failed       int            `json:"failed"`
	Seconds      float64        `json:"seconds"`
}

// ReplayReport is the replay phase.
type ReplayReport struct {
	Tasks     int `json:"tasks"`
	Succeeded int `json:"succeeded"`
	LLMCalls  int `json:"llm_calls"`
}

// CommandsReport is the commands phase. Correct counts right flows with
// right slot values and expected non-matches; WrongFlow counts a flow
// replayed that should not have been (another task's flow, or any flow
// for a must-not-match command); Missed counts no flow where one was
// expected. Precision is correct replays / all replays.
type CommandsReport struct {
	Total     int `json:"total"`
	Correct   int `json:"correct"`
	WrongFlow int `json:"wrong_flow"`
	Missed    int `json:"missed"`
	WrongSlot int `json:"wrong_slot"`
	BadFlow   int `json:"bad_flow"` // the task's own flow matched, but it was learned wrong
	// Unverified: the right options were tapped up to one the recording
	// never picked, after which the simulator cannot follow the replay.
	Unverified int `json:"unverified,omitempty"`
	// MatchPrecision counts a replay as right when it chose the flow learned
	// from the same task, whatever that flow's quality.
	MatchPrecision float64 `json:"match_precision"`
	LLMCalls       int     `json:"llm_calls"`
	Precision      float64 `json:"precision"`
	// With Config.Owner: Offered counts commands whose owner was asked
	// "did you mean …?", OfferedRight those among them offered their
	// flow (the others were asked in vain).
	Offered      int `json:"offered,omitempty"`
	OfferedRight int `json:"offered_right,omitempty"`
}

// AppReport aggregates one app.
type AppReport struct {
	App          string  `json:"app"`
	Tasks        int     `json:"tasks"`
	Succeeded    int     `json:"succeeded"`
	SuccessRate  float64 `json:"success_rate"`
	StepAccuracy float64 `json:"step_accuracy"`
	Replayed     int     `json:"replayed"`
}

// TaskRow is one task of the learn and replay phases.
type TaskRow struct {
	TaskID       string   `json:"task_id"`
	App          string   `json:"app"`
	Command      string   `json:"command"`
	Succeeded    bool     `json:"succeeded"`
	Steps        int      `json:"steps"`
	GroundTruth  int      `json:"ground_truth_steps"`
	MatchedSteps int      `json:"matched_steps"`
	FinalScreen  string   `json:"final_screen"`
	WantScreen   string   `json:"want_screen"`
	FlowID       int64    `json:"flow_id,omitempty"`
	Intent       string   `json:"intent,omitempty"`
	LLMCalls     int      `json:"llm_calls"`
	Error        string   `json:"error,omitempty"`
	Replayed     bool     `json:"replayed"`
	ReplayFlow   int64    `json:"replay_flow,omitempty"`
	ReplayScreen string   `json:"replay_final_screen,omitempty"`
	ReplayLLM    int      `json:"replay_llm_calls"`
	ReplayError  string   `json:"replay_error,omitempty"`
	ReplayTyped  []string `json:"replay_typed,omitempty"`
	Trace        []string `json:"trace,omitempty"`
	LearnMS      int64    `json:"learn_ms"`
	ReplayMS     int64    `json:"replay_ms"`
	// Instructions: what became of each pasted step (tutorial runs only).
	Instructions []steps.Outcome `json:"instructions,omitempty"`
}

// CommandRow is one command of the commands phase.
type CommandRow struct {
	CommandCase
	Verdict     string   `json:"verdict"` // correct | wrong_flow | missed | wrong_slot | bad_flow | unverified
	MatchedFlow int64    `json:"matched_flow,omitempty"`
	WantFlow    int64    `json:"want_flow,omitempty"`
	Score       float64  `json:"score"`
	Typed       []string `json:"typed,omitempty"`
	Tapped      []string `json:"tapped,omitempty"` // labels of the replay's taps, in order
	Promoted    bool     `json:"promoted,omitempty"`
	// Semantic is what the embedding check compared, when it ran.
	Semantic *event.SemanticMatch `json:"semantic,omitempty"`
	// Offered: the owner was asked "did you mean …?"; OfferedRight: the
	// command's flow was among the flows offered.
	Offered      bool   `json:"offered,omitempty"`
	OfferedRight bool   `json:"offered_right,omitempty"`
	FinalScreen  string `json:"final_screen,omitempty"`
	LLMCalls     int    `json:"llm_calls"`
	Error        string `json:"error,omitempty"`
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
			res, err := eng.Run(ctx, task.Instruction, opts)
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

func runCommand(ctx context.Context, cfg Config, eng *daemon.Engine, phone *sim.Phone, c CommandCase, taskFlow map[string]int64, flowTask map[int64]string) (CommandRow, error) {
	row := CommandRow{CommandCase: c}
	var task *droidtask.Task
	if c.TaskID != "" {
		for i := range cfg.Data.Tasks {
			if cfg.Data.Tasks[i].ID == c.TaskID {
				task = &cfg.Data.Tasks[i]
			}
		}
		if task == nil {
			return row, fmt.Errorf("eval: commands: no task %q", c.TaskID)
		}
		row.WantFlow = taskFlow[c.TaskID]
	}
	if err := phone.Episode(task); err != nil {
		return row, err
	}
	if task == nil {
		if err := phone.Reset(phone.App().StartState()); err != nil {
			return row, err
		}
	}
	var own *owner
	if cfg.Owner {
		own = &owner{want: "\x00"}
		if f, err := cfg.Store.Flow(ctx, row.WantFlow); err == nil && row.WantFlow != 0 && !c.ExpectNoMatch {
			own.want = f.Name
		}
		eng.SetAsker(own)
		defer eng.SetAsker(nil)
	}
	res, err := eng.Run(ctx, c.Command, daemon.Options{Package: phone.App().MainPackage, NoPlanner: true})
	if err != nil {
		return row, fmt.Errorf("eval: command %q: %w", c.Command, err)
	}
	if own != nil {
		row.Offered, row.OfferedRight = own.offered, own.right
	}
	row.Score, row.Typed, row.LLMCalls, row.Error, row.Promoted, row.Semantic = res.Score, res.Typed, res.LLMCalls, res.Error, res.Promoted, res.Semantic
	for _, st := range res.Steps {
		if st.Action == device.Tap && !st.Backtracked && !st.Undo {
			row.Tapped = append(row.Tapped, st.Target.Label())
		}
	}
	row.FinalScreen = phone.State()
	if res.Matched {
		row.MatchedFlow = res.FlowID
	}
	switch {
	case c.ExpectNoMatch && row.MatchedFlow != 0:
		row.Verdict = "wrong_flow"
	case c.ExpectNoMatch:
		row.Verdict = "correct"
	case row.MatchedFlow == 0:
		row.Verdict = "missed"
	case row.WantFlow != 0 && row.MatchedFlow != row.WantFlow && flowTask[row.MatchedFlow] != c.TaskID:
		row.Verdict = "wrong_flow"
	case len(c.ExpectTyped) > 0 && !equalFold(c.ExpectTyped, res.Typed):
		row.Verdict = "wrong_slot"
	case !subsequenceFold(c.ExpectPicked, row.Tapped) && task != nil && res.Outcome != knowledge.OutcomeSuccess &&
		subsequenceFold(untilNewPick(c.ExpectPicked, task), row.Tapped):
		// every option up to one the recording never picked was tapped
		// right, and the replay stopped after it: the simulator has no
		// recording past that choice, so the options after it cannot be
		// checked either way
		row.Verdict = "unverified"
	case !subsequenceFold(c.ExpectPicked, row.Tapped):
		row.Verdict = "wrong_slot" // another choice picked in a list or dialog
	case task != nil && newPick(c.ExpectPicked, task):
		// another value than the recording's, and the right option was
		// tapped: the simulator has no recording past a choice it never
		// saw, so neither finishing nor the final screen can be checked
		row.Verdict = "correct"
	case task != nil && res.Outcome != knowledge.OutcomeSuccess:
		row.Verdict = "bad_flow" // matched the right flow but could not finish it
	case task != nil && !sameScreen(cfg.Data, task.App, row.FinalScreen, task.FinalState()):
		row.Verdict = "bad_flow" // the right flow, but what it learned does not reach the task's screen
	default:
		row.Verdict = "correct"
	}
	progress(cfg.Progress, "cmd    %-22s %-10s score=%.2f %q typed=%q", c.App, row.Verdict, row.Score, c.Command, res.Typed)
	return row, nil
}

// owner answers "did you mean …?" as the writer of a command would
// (Config.Owner): the option naming the command's flow, else none.
type owner struct {
	want           string // name of the command's flow; "\x00" for none
	offered, right bool
}

func (o *owner) Ask(ctx context.Context, question string, options []string) (string, error) {
	if !slices.Contains(options, daemon.AnswerNone) {
		return "", errors.New("eval owner: answers only which flow was meant")
	}
	o.offered = true
	for _, opt := range options {
		if opt == o.want || strings.HasPrefix(opt, o.want+" (#") {
			o.right = true
			return opt, nil
		}
	}
	return daemon.AnswerNone, nil
}

// sameScreen compares two recorded states: the same id, or the same
// structural fingerprint (typing another value can land on another
// recording of the same screen).
func sameScreen(d *droidtask.Dataset, app, a, b string) bool {
	if a == b {
		return true
	}
	sa, err1 := d.State(app, a)
	sb, err2 := d.State(app, b)
	return err1 == nil && err2 == nil && screen.Fingerprint(sa) == screen.Fingerprint(sb)
}

func equalFold(a, b []string) bool {
	return slices.EqualFunc(a, b, strings.EqualFold)
}

// subsequenceFold reports whether want appears in have in order (not
// necessarily adjacent). A label matches a wanted one when it, or one of
// its " · "-joined parts (a list row's texts: "Diary.pdf · 6.1 kB"), is
// equal with case folded and spaces trimmed.
func subsequenceFold(want, have []string) bool {
	i := 0
	for _, h := range have {
		if i < len(want) && labelIs(h, want[i]) {
			i++
		}
	}
	return i == len(want)
}

func labelIs(label, want string) bool {
	want = strings.TrimSpace(want)
	if strings.EqualFold(strings.TrimSpace(label), want) {
		return true
	}
	for _, part := range strings.Split(label, " · ") {
		if strings.EqualFold(strings.TrimSpace(part), want) {
			return true
		}
	}
	return false
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

// WriteTable prints the per-app summary and the closing line.
func (r *Report) WriteTable(w io.Writer) {
	fmt.Fprintf(w, "\n%-14s %6s %6s %8s %9s %8s\n", "app", "tasks", "ok", "success", "step acc", "replayed")
	for _, a := range r.PerApp {
		fmt.Fprintf(w, "%-14s %6d %6d %7.1f%% %8.1f%% %8d\n", a.App, a.Tasks, a.Succeeded, 100*a.SuccessRate, 100*a.StepAccuracy, a.Replayed)
	}
	fmt.Fprintf(w, "%-14s %6d %6d %7.1f%% %8.1f%% %8d\n", "total", r.Tasks, r.Succeeded, 100*r.SuccessRate, 100*r.StepAccuracy, r.Replay.Succeeded)
	fmt.Fprintf(w, "LLM calls: learn %d, replay %d, commands %d\n", r.LLMCalls, r.Replay.LLMCalls, r.Commands.LLMCalls)
	if r.Commands.Total > 0 {
		fmt.Fprintf(w, "commands: %d total, %d correct, %d wrong flow, %d missed, %d wrong slot, %d right flow learned wrong; replay precision %.3f, matching precision %.3f\n",
			r.Commands.Total, r.Commands.Correct, r.Commands.WrongFlow, r.Commands.Missed, r.Commands.WrongSlot, r.Commands.BadFlow, r.Commands.Precision, r.Commands.MatchPrecision)
		if r.Commands.Unverified > 0 {
			fmt.Fprintf(w, "commands unverified: %d picked a new option right, then left the recording\n", r.Commands.Unverified)
		}
		if r.Commands.Offered > 0 {
			fmt.Fprintf(w, "did you mean: %d commands offered flows, %d of them their own\n", r.Commands.Offered, r.Commands.OfferedRight)
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", r.Passed, r.Failed)
}

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

// newPick reports whether picks name an option the task's recording never
// tapped (a value other than the recorded one).
// untilNewPick returns picks up to and including the first one task's
// recording never tapped (all of them when there is none).
func untilNewPick(picks []string, task *droidtask.Task) []string {
	labels := recordedLabels(task)
	for i, p := range picks {
		if !subsequenceFold([]string{p}, labels) {
			return picks[:i+1]
		}
	}
	return picks
}

func recordedLabels(task *droidtask.Task) []string {
	var labels []string
	for _, st := range task.Actions() {
		if st.Action.Target != nil {
			labels = append(labels, st.Action.Target.Label())
		}
	}
	return labels
}

func newPick(picks []string, task *droidtask.Task) bool {
	labels := recordedLabels(task)
	for _, p := range picks {
		if !subsequenceFold([]string{p}, labels) {
			return true
		}
	}
	return false
}

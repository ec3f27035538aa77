package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// The commands phase: other wordings, values and must-not-match commands
// against the flows the tasks learned, and how each is judged.

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
	// Unverified: the replay went right as far as the recording goes: the
	// right options were tapped up to one the recording never picked, or
	// the right values typed up to the tap on the row carrying a new value
	// (a search result); the simulator cannot follow it further.
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
	// GaveValues counts the commands whose owner chose to give the values
	// of the flow offered (daemon.OfferOtherValues).
	GaveValues int `json:"gave_values,omitempty"`
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
	Routed      bool     `json:"routed,omitempty"` // replayed on the route check's word (daemon.Result.Routed)
	// Semantic is what the embedding check compared, when it ran.
	Semantic *event.SemanticMatch `json:"semantic,omitempty"`
	// Offered: the owner was asked "did you mean …?"; OfferedRight: the
	// command's flow was among the flows offered.
	Offered      bool   `json:"offered,omitempty"`
	OfferedRight bool   `json:"offered_right,omitempty"`
	GaveValues   bool   `json:"gave_values,omitempty"`
	FinalScreen  string `json:"final_screen,omitempty"`
	LLMCalls     int    `json:"llm_calls"`
	Error        string `json:"error,omitempty"`
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
		own = &owner{want: "\x00", typed: c.ExpectTyped, picked: c.ExpectPicked}
		if f, err := cfg.Store.Flow(ctx, row.WantFlow); err == nil && row.WantFlow != 0 && !c.ExpectNoMatch && canPick(f, c.ExpectPicked) {
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
		row.Offered, row.OfferedRight, row.GaveValues = own.offered, own.right, own.gave
	}
	row.Score, row.Typed, row.LLMCalls, row.Error, row.Promoted, row.Routed, row.Semantic = res.Score, res.Typed, res.LLMCalls, res.Error, res.Promoted, res.Routed, res.Semantic
	for _, st := range res.Steps {
		if tapped(st) {
			row.Tapped = append(row.Tapped, st.Target.Label())
		}
	}
	row.FinalScreen = phone.State()
	if res.Matched {
		row.MatchedFlow = res.FlowID
	}
	row.Verdict = judge(c, row, task, res, flowTask,
		func() bool { return valueRowMissing(ctx, cfg, res) },
		func() bool { return sameScreen(cfg.Data, task.App, row.FinalScreen, task.FinalState()) })
	if res.Matched && res.Outcome != knowledge.OutcomeSuccess && (row.Verdict == "unverified" || row.Verdict == "correct") {
		// the replay stopped where the recording ends (an option or a
		// row the simulated phone never recorded), which says nothing of
		// the flow: a phone would go on. Counted as a failure, it would
		// make the flow unhealthy after three such commands, and every
		// later command for it a miss.
		if err := cfg.Store.UndoFlowFailure(ctx, res.FlowID); err != nil {
			return row, fmt.Errorf("eval: command %q: %w", c.Command, err)
		}
	}
	progress(cfg.Progress, "cmd    %-22s %-10s score=%.2f %q typed=%q", c.App, row.Verdict, row.Score, c.Command, res.Typed)
	return row, nil
}

// judge gives the verdict on one command (CommandRow.Verdict) from what
// the replay did (row: matched flow, taps; res: outcome, typed texts).
// rowMissing reports whether the replay stopped at a value-bound tap the
// recording has no row for (valueRowMissing); sameFinal whether it ended
// on the task's final screen. Both are asked only when needed.
func judge(c CommandCase, row CommandRow, task *droidtask.Task, res *daemon.Result, flowTask map[int64]string, rowMissing, sameFinal func() bool) string {
	stoppedAtNewPick := task != nil && res.Outcome != knowledge.OutcomeSuccess && newPick(c.ExpectPicked, task) &&
		subsequenceFold(untilNewPick(c.ExpectPicked, task), row.Tapped)
	switch {
	case c.ExpectNoMatch && row.MatchedFlow != 0:
		return "wrong_flow"
	case c.ExpectNoMatch:
		return "correct"
	case row.MatchedFlow == 0:
		return "missed"
	case row.WantFlow != 0 && row.MatchedFlow != row.WantFlow && flowTask[row.MatchedFlow] != c.TaskID:
		return "wrong_flow"
	case len(c.ExpectTyped) > 0 && !equalFold(c.ExpectTyped, res.Typed) && !(stoppedAtNewPick && prefixFold(res.Typed, c.ExpectTyped)):
		return "wrong_slot"
	case stoppedAtNewPick && (!subsequenceFold(c.ExpectPicked, row.Tapped) || !equalFold(c.ExpectTyped, res.Typed)):
		// every option up to one the recording never picked was tapped
		// right, and what was typed before it, and the replay stopped
		// after it: the simulator has no recording past that choice, so
		// the options and texts after it cannot be checked either way
		return "unverified"
	case task != nil && res.Outcome != knowledge.OutcomeSuccess && rowMissing():
		// typed right, then stopped at the tap on the row carrying the new
		// value (a search result, a contact): the recording has no such
		// row, so what follows cannot be checked either way
		return "unverified"
	case !subsequenceFold(c.ExpectPicked, row.Tapped):
		return "wrong_slot" // another choice picked in a list or dialog
	case task != nil && newPick(c.ExpectPicked, task):
		// another value than the recording's, and the right option was
		// tapped: the simulator has no recording past a choice it never
		// saw, so neither finishing nor the final screen can be checked
		return "correct"
	case task != nil && res.Outcome != knowledge.OutcomeSuccess:
		return "bad_flow" // matched the right flow but could not finish it
	case task != nil && !sameFinal():
		return "bad_flow" // the right flow, but what it learned does not reach the task's screen
	default:
		return "correct"
	}
}

// canPick reports whether flow f can tap each of picks: a step taps it,
// or it is an option of a choice step, or a step taps the element
// carrying a typed value, or f taps a list row by name (the owner names
// another, semantic.RowNames). An owner offered a flow whose name says
// "descending" when they asked for A to Z declines it.
func canPick(f *knowledge.Flow, picks []string) bool {
	if len(semantic.RowNames(f)) > 0 {
		return true // it taps a row by name, and the owner may name another (daemon.RowQuestion)
	}
	for _, p := range picks {
		if !slices.ContainsFunc(f.Steps, func(st knowledge.Step) bool {
			_, valueTap := daemon.IsValueTap(st)
			return valueTap || labelIs(st.Target.Label(), p) || slices.ContainsFunc(st.Choices, func(l string) bool { return labelIs(l, p) })
		}) {
			return false
		}
	}
	return true
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

// prefixFold reports whether a is a prefix of b, case folded.
func prefixFold(a, b []string) bool {
	return len(a) <= len(b) && equalFold(a, b[:len(a)])
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

// valueRowMissing reports whether the replay of res stopped at a tap bound
// to a typed value (daemon.IsValueTap) whose value is not the one the flow
// learned: the recording only has the rows of the value it typed.
func valueRowMissing(ctx context.Context, cfg Config, res *daemon.Result) bool {
	if res.FailedStep <= 0 || res.FlowID == 0 {
		return false
	}
	f, err := cfg.Store.Flow(ctx, res.FlowID)
	if err != nil || res.FailedStep > len(f.Steps) {
		return false
	}
	name, ok := daemon.IsValueTap(f.Steps[res.FailedStep-1])
	if !ok {
		return false
	}
	for _, sl := range f.Slots {
		if sl.Name == name {
			return !strings.EqualFold(strings.TrimSpace(sl.Example), strings.TrimSpace(res.Slots[name]))
		}
	}
	return false
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

// Rewordings picks, for each task, the pick-th (0-based) of cases' lines
// that reword the task's instruction without fixing a value (no
// ExpectTyped, no ExpectPicked, not ExpectNoMatch): a task keeps its ground
// truth only when the command asks for the same values, and a value-free
// rewording does. Tasks with fewer such lines are left out. The result
// maps task id → command, for Config.Instructions.
func Rewordings(cases []CommandCase, pick int) map[string]string {
	seen := map[string]int{}
	out := map[string]string{}
	for _, c := range cases {
		if c.TaskID == "" || c.ExpectNoMatch || len(c.ExpectTyped) > 0 || len(c.ExpectPicked) > 0 {
			continue
		}
		if seen[c.TaskID] == pick {
			out[c.TaskID] = c.Command
		}
		seen[c.TaskID]++
	}
	return out
}

// reworded returns the tasks instructions names, each with its
// instruction from there (Config.Instructions).
func reworded(tasks []droidtask.Task, instructions map[string]string) []droidtask.Task {
	var out []droidtask.Task
	for _, t := range tasks {
		if s, ok := instructions[t.ID]; ok {
			t.Instruction = s
			out = append(out, t)
		}
	}
	return out
}

// tapped reports whether step st of a replay tapped its element: a tap, or
// a "switch on/off" step that found the switch in the other state and
// tapped it (one that found it set already did nothing); a backtracked or
// undoing step never counts.
func tapped(st daemon.StepRecord) bool {
	if st.Backtracked || st.Undo {
		return false
	}
	switch st.Action {
	case device.Tap:
		return true
	case daemon.ActEnsureOn, daemon.ActEnsureOff:
		return st.OK && (st.Changed || st.After != st.Screen)
	}
	return false
}

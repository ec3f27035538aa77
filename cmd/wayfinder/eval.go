package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/eval"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/daemon/steps"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func cmdEval(ctx context.Context, args []string) error {
	fs := newFlags("eval")
	data := fs.String("data", "", "DroidTask-format directory")
	apps := fs.String("apps", "", "comma-separated apps (default all)")
	lf := llmFlags(fs)
	plannerName := lf.kind
	db := fs.String("db", "", "knowledge store file (default a fresh temporary file)")
	commands := fs.String("commands", "", "JSON-lines file of other wordings / values / non-matching commands")
	tutorials := fs.String("tutorials", "", `JSON-lines file {"task_id","steps"}: run those tasks following the pasted steps`)
	instructions := fs.String("instructions", "", "JSON-lines commands file (as --commands): plan each task from one of its value-free rewordings there instead of the dataset's instruction; tasks without one are skipped")
	instrPick := fs.Int("instructions-pick", 0, "with --instructions: which of a task's value-free rewordings, 0-based")
	stepsOnly := fs.Bool("steps-only", false, "with --tutorials: follow the steps with no planner behind them (ungroundable steps fail)")
	report := fs.String("report", "", "write the JSON report here")
	quiet := fs.Bool("q", false, "no per-task lines")
	owner := fs.Bool("owner", false, `with --commands: a simulated owner answers "did you mean …?" with the command's own flow when it is offered (measures the offers; the figures without it are the replay figures); with a planner, it also answers an unsure "done" (yes on the task's final screen), so only confirmed runs are learned`)
	leaveOut := fs.String("leave-out", string(eval.LeaveOutRecording), "graph planner: what of a task's own demonstration to hide while solving it: recording (edges only its own DroidBot sessions recorded), demo (also every edge coinciding with its steps) or none")
	maxTasks := fs.Int("max-tasks", 0, "evaluate only the first N tasks of each app (default all; for slow planners such as a local model)")
	stepLimit := fs.Int("step-limit", 0, "planned steps per task before giving up (default the engine's, 20)")
	minSuccess := fs.Float64("min-success", -1, "exit non-zero when the learn success rate is below this (default: oracle 1.0, others none)")
	ac, args := takeADB(args, false)
	minCorrect := fs.Int("min-correct", -1, "exit non-zero when fewer --commands are correct (default: no check)")
	maxWrong := fs.Int("max-wrong", -1, "exit non-zero when more --commands replay a wrong flow or a wrong value (default: no check)")
	replayData := fs.String("replay-data", "", "a drifted copy of --data (wayfinder drift): replay the learned flows there instead, repairing with the planner, and report replays, repairs and wrong taps")
	exploreDrifted := fs.Bool("explore-drifted", false, "with --replay-data: import the drifted app's recorded exploration graph before replaying (the agent has explored the updated app; lets a replay re-plan a moved entry through the graph)")
	minDrift := fs.Float64("min-drift-replay", -1, "with --replay-data: exit non-zero when the share of tasks replayed without help is below this, or on any wrong tap or lost flow")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if ac.On {
		return evalLive(ctx, ac, lf, *db, *data, *commands, *tutorials, *report, *quiet)
	}
	d, err := loadData(*data)
	if err != nil {
		return err
	}
	st, _, closeStore, err := storeOrTemp(ctx, *db, "wayfinder-eval-")
	if err != nil {
		return err
	}
	defer closeStore()
	if *maxTasks > 0 {
		d.Tasks = firstTasksPerApp(d.Tasks, *maxTasks)
	}
	cfg := eval.Config{Data: d, Apps: splitList(*apps), Store: st, Owner: *owner}
	if cfg.Engine, err = lf.engineConfig(); err != nil {
		return err
	}
	cfg.Engine.RouteCheck = graphplan.New(st)
	if *replayData != "" {
		if cfg.ReplayData, err = loadData(*replayData); err != nil {
			return err
		}
		if *exploreDrifted {
			cfg.BeforeDrifted = func(ctx context.Context, app string) error {
				_, _, err := importApp(ctx, cfg.ReplayData, st, app)
				return err
			}
		}
	}
	cfg.Engine.StepLimit = *stepLimit
	if !*quiet {
		cfg.Progress = os.Stdout
	}
	if *instructions != "" {
		cases, err := eval.ReadCommands(*instructions)
		if err != nil {
			return err
		}
		if cfg.Instructions = eval.Rewordings(cases, *instrPick); len(cfg.Instructions) == 0 {
			return fmt.Errorf("--instructions %s: no task has a value-free rewording number %d", *instructions, *instrPick)
		}
	}
	if *commands != "" {
		if cfg.Commands, err = eval.ReadCommands(*commands); err != nil {
			return err
		}
	}
	if *tutorials != "" {
		if cfg.Tutorials, err = eval.ReadTutorials(*tutorials); err != nil {
			return err
		}
		if *plannerName == "" || *plannerName == "oracle" {
			*plannerName = "graph"
		}
		cfg.StepsOnly = *stepsOnly
		if lc, err := lf.config(); err == nil && lc.Enabled() && *plannerName != "graph" {
			client := llm.New(lc)
			cfg.ParseSteps = func(ctx context.Context, goal, text string) ([]steps.Instruction, int, error) {
				ins, reply, err := steps.ParseLLM(ctx, client, goal, text, nil)
				return ins, reply.Calls, err
			}
		}
	}
	switch *plannerName {
	case "", "oracle":
		*plannerName = "oracle"
		cfg.Planner = func(task *droidtask.Task, phone *sim.Phone, _ *knowledge.Store) (daemon.Planner, error) {
			return eval.NewOracle(task, phone), nil
		}
	case "graph", "llm", "auto":
		gp := graphplan.New(st)
		cfg.BeforeApp = func(ctx context.Context, app string) error {
			stats, gs, err := importApp(ctx, d, st, app)
			if err != nil {
				return err
			}
			if cfg.Progress != nil {
				fmt.Fprintf(cfg.Progress, "import %-14s %d screens, %d elements, %d transitions (exploration only; %d demonstration edges left out)\n",
					app, stats.Screens, stats.Elements, stats.Transitions, gs.Demonstrations)
			}
			return nil
		}
		cfg.Planner = func(task *droidtask.Task, phone *sim.Phone, store *knowledge.Store) (daemon.Planner, error) {
			hidden, err := eval.HiddenKeys(d, task, eval.LeaveOut(*leaveOut))
			if err != nil {
				return nil, err
			}
			gp.Exclude(hidden)
			return lf.plannerWith(store, gp)
		}
	default:
		return usageError{"eval: --planner must be oracle, graph, llm or auto"}
	}
	cfg.Name = *plannerName
	rep, err := eval.Run(ctx, cfg)
	if err != nil {
		return err
	}
	// The model's side of the run, when one was asked (planner llm or
	// auto with an endpoint): one client served every task.
	var stats *llmStats
	if lf.client != nil {
		stats = newLLMStats(lf.client.Stats(), rep)
	}
	if *report != "" {
		b, err := reportJSON(rep, stats)
		if err != nil {
			return err
		}
		if err := os.WriteFile(*report, b, 0o644); err != nil {
			return err
		}
	}
	if stats != nil { // before the table, whose last line closes the run
		fmt.Printf("LLM: %s\n", stats.Stats)
		fmt.Printf("LLM per step: %.0f tokens, %.1f s (%d steps)\n", stats.TokensPerStep, stats.MSPerStep/1000, stats.Steps)
	}
	rep.WriteTable(os.Stdout)
	rep.WriteDrift(os.Stdout)
	if dr := rep.Drift; dr != nil && *minDrift >= 0 && (dr.ReplayRate < *minDrift || dr.WrongTaps > 0 || dr.FlowsLost > 0) {
		return fmt.Errorf("drift: replayed %.3f (guard %.3f), %d wrong taps, %d flows lost", dr.ReplayRate, *minDrift, dr.WrongTaps, dr.FlowsLost)
	}
	min := *minSuccess
	if min < 0 && *plannerName == "oracle" {
		min = 1
	}
	if min >= 0 && rep.SuccessRate < min {
		return fmt.Errorf("success rate %.3f below %.3f", rep.SuccessRate, min)
	}
	if *minCorrect >= 0 && rep.Commands.Correct < *minCorrect {
		return fmt.Errorf("commands: %d correct, below %d", rep.Commands.Correct, *minCorrect)
	}
	if wrong := rep.Commands.WrongFlow + rep.Commands.WrongSlot; *maxWrong >= 0 && wrong > *maxWrong {
		return fmt.Errorf("commands: %d wrong flows or values, above %d", wrong, *maxWrong)
	}
	if *plannerName == "oracle" && (rep.Replay.Succeeded != rep.Replay.Tasks || rep.Replay.LLMCalls != 0) {
		return fmt.Errorf("replay: %d of %d flows replayed, %d LLM calls", rep.Replay.Succeeded, rep.Replay.Tasks, rep.Replay.LLMCalls)
	}
	return nil
}

// reportJSON is the --report file: the eval report with the "llm"
// section when a model was asked.
func reportJSON(rep *eval.Report, stats *llmStats) ([]byte, error) {
	return json.MarshalIndent(struct {
		*eval.Report
		LLM *llmStats `json:"llm,omitempty"`
	}{rep, stats}, "", " ")
}

// llmStats is the "llm" section of an eval report: the client's Stats,
// their rates, and per step (every step the engine took, by any planner)
// the model's tokens and wall time (failed calls included).
type llmStats struct {
	llm.Stats
	ValidFirstRate   float64 `json:"valid_first_rate"`
	ValidRate        float64 `json:"valid_rate"`
	MeanPromptTokens float64 `json:"mean_prompt_tokens"`
	MeanChatMS       float64 `json:"mean_chat_ms"`
	Steps            int     `json:"steps"`
	TokensPerStep    float64 `json:"tokens_per_step"`
	MSPerStep        float64 `json:"ms_per_step"`
}

func newLLMStats(s llm.Stats, rep *eval.Report) *llmStats {
	out := &llmStats{Stats: s, ValidFirstRate: s.ValidFirstRate(), ValidRate: s.ValidRate(),
		MeanPromptTokens: s.MeanPromptTokens(), MeanChatMS: s.MeanChatMS()}
	for _, t := range rep.PerTask {
		out.Steps += t.Steps
	}
	if out.Steps > 0 {
		out.TokensPerStep = float64(s.PromptTokens+s.CompletionTokens) / float64(out.Steps)
		out.MSPerStep = float64(s.ChatMS+s.FailedMS) / float64(out.Steps)
	}
	return out
}

// firstTasksPerApp keeps the first n tasks of each app, in order.
func firstTasksPerApp(tasks []droidtask.Task, n int) []droidtask.Task {
	seen := map[string]int{}
	var out []droidtask.Task
	for _, t := range tasks {
		if seen[t.App] < n {
			seen[t.App]++
			out = append(out, t)
		}
	}
	return out
}

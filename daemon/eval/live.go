package eval

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/steps"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// LiveCase is one command for a live phone: the goal, the package (""
// lets the engine identify the app) and optional pasted steps.
type LiveCase struct {
	ID      string `json:"id"`
	Package string `json:"package,omitempty"`
	Command string `json:"command"`
	Steps   string `json:"steps,omitempty"`
}

// LiveConfig is an evaluation on a live phone (adb): no recorded ground
// truth, so a case counts as done when the engine reports success, and as
// replayed when the same goal then replays a saved flow with the planner
// off and no model call.
type LiveConfig struct {
	Device   device.Device
	Store    *knowledge.Store
	Planner  daemon.Planner
	Cases    []LiveCase
	Progress io.Writer
	Engine   daemon.Config
	// ParseSteps as in Config; nil: steps.Parse.
	ParseSteps func(ctx context.Context, goal, text string) ([]steps.Instruction, int, error)
}

// LiveRow is one case of a live evaluation.
type LiveRow struct {
	LiveCase
	Done          bool            `json:"done"`
	Outcome       string          `json:"outcome"`
	Error         string          `json:"error,omitempty"`
	Steps         int             `json:"steps"`
	LLMCalls      int             `json:"llm_calls"`
	FlowID        int64           `json:"flow_id,omitempty"`
	Replayed      bool            `json:"replayed"`
	ReplayError   string          `json:"replay_error,omitempty"`
	ReplayLLM     int             `json:"replay_llm_calls"`
	Instructions  []steps.Outcome `json:"instructions,omitempty"`
	LearnMS       int64           `json:"learn_ms"`
	ReplayMS      int64           `json:"replay_ms"`
	StartedOnHome bool            `json:"started_on_home"`
}

// LiveReport is the report of RunLive.
type LiveReport struct {
	Planner  string    `json:"planner"`
	Cases    int       `json:"cases"`
	Done     int       `json:"done"`
	Replayed int       `json:"replayed"`
	LLMCalls int       `json:"llm_calls"`
	Rows     []LiveRow `json:"rows"`
	Seconds  float64   `json:"seconds"`
}

// RunLive runs each case on the phone: HOME, then the goal with the planner
// (following its steps when it has some), then HOME and the goal again
// with the planner off. Every action goes through daemon.Engine. Errors
// are failures of the device or the store; a case that fails is a row.
func RunLive(ctx context.Context, cfg LiveConfig) (*LiveReport, error) {
	start := time.Now()
	eng := daemon.New(cfg.Device, cfg.Store, cfg.Planner, nil, cfg.Engine)
	rep := &LiveReport{Planner: "none"}
	if cfg.Planner != nil {
		rep.Planner = cfg.Planner.Name()
	}
	home := func() error { return eng.GoHome(ctx) }
	for _, c := range cfg.Cases {
		row := LiveRow{LiveCase: c}
		if err := home(); err != nil {
			return nil, fmt.Errorf("eval: %s: home: %w", c.ID, err)
		}
		row.StartedOnHome = true
		opt := daemon.Options{Package: c.Package, NoReplay: true}
		var sp *steps.Planner
		t0 := time.Now()
		if c.Steps != "" {
			var err error
			var calls int
			if sp, calls, err = tutorialPlanner(ctx, Config{ParseSteps: cfg.ParseSteps}, cfg.Planner, c.Command, c.Steps); err != nil {
				return nil, fmt.Errorf("eval: %s: %w", c.ID, err)
			}
			row.LLMCalls += calls
			opt.Planner = sp
		}
		res, err := eng.Run(ctx, c.Command, opt)
		row.LearnMS = time.Since(t0).Milliseconds()
		if err != nil {
			return nil, fmt.Errorf("eval: %s: %w", c.ID, err)
		}
		row.Outcome, row.Error, row.Steps, row.FlowID = res.Outcome, res.Error, len(res.Steps), res.FlowID
		row.LLMCalls += res.LLMCalls
		row.Done = res.Outcome == knowledge.OutcomeSuccess
		if sp != nil {
			row.Instructions = sp.Outcomes()
		}
		if row.Done {
			if err := home(); err != nil {
				return nil, fmt.Errorf("eval: %s: home: %w", c.ID, err)
			}
			t1 := time.Now()
			rr, err := eng.Run(ctx, c.Command, daemon.Options{Package: c.Package, NoPlanner: true})
			row.ReplayMS = time.Since(t1).Milliseconds()
			if err != nil {
				return nil, fmt.Errorf("eval: replay %s: %w", c.ID, err)
			}
			row.ReplayLLM, row.ReplayError = rr.LLMCalls, rr.Error
			row.Replayed = rr.Outcome == knowledge.OutcomeSuccess && rr.Matched && rr.LLMCalls == 0
		}
		rep.Cases++
		rep.LLMCalls += row.LLMCalls + row.ReplayLLM
		if row.Done {
			rep.Done++
		}
		if row.Replayed {
			rep.Replayed++
		}
		progress(cfg.Progress, "live   %-22s %-4s steps=%-2d llm=%-2d replay=%s %s", c.ID, okStr(row.Done), row.Steps, row.LLMCalls, okStr(row.Replayed), row.Error)
		rep.Rows = append(rep.Rows, row)
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// WriteTable prints the live report's totals.
func (r *LiveReport) WriteTable(w io.Writer) {
	fmt.Fprintf(w, "live phone, planner %s: %d cases, %d done (engine's own verdict: no recorded ground truth), %d replayed offline, %d LLM calls, %.1f s\n",
		r.Planner, r.Cases, r.Done, r.Replayed, r.LLMCalls, r.Seconds)
}

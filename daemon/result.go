package daemon

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Result is the outcome of one command.
type Result struct {
	RunID   string `json:"run_id"`
	Command string `json:"command"`
	Package string `json:"package"`
	Outcome string `json:"outcome"` // knowledge.Outcome*
	Error   string `json:"error,omitempty"`
	// Strategy is how the engine went about it: replay | plan | replay+plan.
	Strategy string `json:"strategy"`
	// Promoted: the flow was replayed because embeddings promoted it from
	// just below the threshold (Score is still the lexical score).
	Promoted bool `json:"promoted,omitempty"`
	// Anchored: the flow was replayed because the command names an option
	// of its choice step and nothing else of the app (anchor.go); Score
	// is the lexical score of the command rewritten to the learned option.
	Anchored bool `json:"anchored,omitempty"`
	// Routed: the flow was replayed because the route checker, planning
	// the command again over the flow's recorded screens, took every step
	// the flow takes and stopped on its end screen (routecheck.go).
	Routed bool `json:"routed,omitempty"`
	// Chosen: the owner chose the replayed flow among those offered
	// ("did you mean …?", or which of two flows that fit about equally);
	// Promoted is set too when embeddings made the offer.
	Chosen bool `json:"chosen,omitempty"`
	// Semantic is what the embedding check of flow matching compared and
	// decided, when it ran.
	Semantic *event.SemanticMatch `json:"semantic,omitempty"`
	// Mode is who decided most steps: replay | graph | llm | oracle | none.
	Mode     string  `json:"mode"`
	FlowID   int64   `json:"flow_id,omitempty"`
	FlowName string  `json:"flow_name,omitempty"`
	Matched  bool    `json:"matched"` // a saved flow was chosen for replay
	Score    float64 `json:"score"`
	// FailedStep is the step (1-based) of the replayed flow that could not
	// be carried out, 0 when none failed.
	FailedStep int               `json:"failed_step,omitempty"`
	Slots      map[string]string `json:"slots,omitempty"`
	Saved      bool              `json:"saved"`
	Repaired   bool              `json:"repaired"`
	Steps      []StepRecord      `json:"steps"`
	Typed      []string          `json:"typed,omitempty"`
	LLMCalls   int               `json:"llm_calls"`
	Tokens     int               `json:"tokens"`
	CacheHits  int               `json:"cache_hits"`
	MS         int64             `json:"ms"`
}

// Err returns the run's error, nil on success.
func (r *Result) Err() error {
	if r.Outcome == knowledge.OutcomeSuccess {
		return nil
	}
	if r.Error == "" {
		return errors.New(r.Outcome)
	}
	return errors.New(r.Error)
}

// finish records the outcome in the run log and publishes it.
func (r *run) finish(ctx context.Context, err error) (*Result, error) {
	res := r.res
	res.Steps = r.steps
	res.LLMCalls, res.Tokens = r.llmCalls, r.tokens
	res.MS = time.Since(r.start).Milliseconds()
	var fatal error
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled):
		res.Outcome, res.Error = knowledge.OutcomeCancelled, "cancelled"
	case isMachineErr(err):
		res.Outcome, res.Error = knowledge.OutcomeError, err.Error()
		fatal = err
	default:
		if res.Outcome == knowledge.OutcomeSuccess {
			res.Outcome = knowledge.OutcomeFailure
		}
		if res.Outcome != knowledge.OutcomeFailure {
			res.Outcome = knowledge.OutcomeError
		}
		var pe *PlannerError
		if errors.As(err, &pe) {
			res.Outcome = knowledge.OutcomeError
		}
		res.Error = err.Error()
	}
	// the owner's words come back to the caller, a secret in them does not
	res.Command, res.Error = privacy.Redact(res.Command, r.secrets, false), privacy.Redact(res.Error, r.secrets, false)
	res.Mode = majorityMode(r.steps)
	for _, s := range r.steps {
		if s.Mode == "replay" || s.Mode == "graph" {
			res.CacheHits++ // served from a saved flow or a known route
		}
	}
	r.redactResult()
	lctx := context.WithoutCancel(ctx)
	if r.e.store != nil {
		if _, lerr := r.e.store.LogRun(lctx, knowledge.Run{Command: r.private(res.Command), Package: res.Package, Mode: res.Mode,
			Outcome: res.Outcome, Error: r.private(res.Error), FlowID: res.FlowID, Steps: len(r.steps), LLMCalls: r.llmCalls,
			Tokens: r.tokens, DurationMS: res.MS, Started: r.start}); lerr != nil {
			// a command whose record could not be written did not succeed
			// as far as the owner can tell (a full disk, a damaged store)
			res.Outcome, res.Error = knowledge.OutcomeError, "the run log could not be written: "+lerr.Error()
			if fatal == nil {
				fatal = lerr
			}
		}
	}
	r.emit(event.RunFinished, event.RunResult{Outcome: res.Outcome, Error: res.Error, Mode: res.Mode, Steps: len(r.steps),
		LLMCalls: r.llmCalls, Tokens: r.tokens, MS: res.MS, CacheHits: res.CacheHits, FlowID: res.FlowID})
	return res, fatal
}

// redactResult replaces the run's private values in what the Result and
// the run log keep.
func (r *run) redactResult() {
	p, res := r.owner, r.res
	if res.Semantic != nil {
		// the command's words as the matcher split them: secrets and the
		// owner's private values go, as from the command itself
		sm := *res.Semantic
		sm.Candidates = slices.Clone(sm.Candidates)
		red := func(s string) string { return privacy.Redact(p.Redact(s), r.secrets, false) }
		for i := range sm.Candidates {
			c := &sm.Candidates[i]
			c.Unmatched = mapStrings(c.Unmatched, red)
			slots := make(map[string]string, len(c.Slots))
			for k, v := range c.Slots {
				slots[k] = red(v)
			}
			c.Slots = slots
		}
		sm.RouteCheck = mapStrings(sm.RouteCheck, red)
		res.Semantic = &sm
	}
	if p.Empty() {
		return
	}
	res.Command, res.Error = p.Redact(res.Command), p.Redact(res.Error)
	for i := range res.Typed {
		res.Typed[i] = p.Redact(res.Typed[i])
	}
	for k, v := range res.Slots {
		res.Slots[k] = p.Redact(v)
	}
	steps := make([]StepRecord, len(res.Steps))
	copy(steps, res.Steps)
	for i := range steps {
		steps[i].Text, steps[i].Reason = p.Redact(steps[i].Text), p.Redact(steps[i].Reason)
	}
	res.Steps = steps
}

// majorityMode names who decided most steps (ties: the earlier mode);
// recovery and undo steps do not count. "none" when no step was taken.
func majorityMode(steps []StepRecord) string {
	count := map[string]int{}
	best, n := "none", 0
	for _, s := range steps {
		if s.Mode == "recovery" || s.Mode == "backtrack" {
			continue
		}
		count[s.Mode]++
		if count[s.Mode] > n {
			best, n = s.Mode, count[s.Mode]
		}
	}
	return best
}

// machineErr marks failures of the device or the store, which end the run
// as errors rather than as a failed command.
type machineErr struct{ err error }

func (m machineErr) Error() string { return m.err.Error() }
func (m machineErr) Unwrap() error { return m.err }

func isMachineErr(err error) bool {
	var m machineErr
	return errors.As(err, &m)
}

// PlannerError is a planner that could not decide (an LLM timeout, a
// reply that was not valid JSON or named an element that does not exist).
type PlannerError struct {
	Planner string
	Err     error
}

func (p *PlannerError) Error() string { return fmt.Sprintf("planner %s: %v", p.Planner, p.Err) }
func (p *PlannerError) Unwrap() error { return p.Err }

// Package daemon is Wayfinder's agent engine. For every command it
// identifies the target app, replays a saved flow when one fits (no model
// call), and otherwise plans step by step behind the Planner interface
// (graph planner, LLM planner), checking each step and backtracking
// (AutoTask §4.4–4.5); on success it learns the shortest correct path as a
// flow with slots, and records transitions, element documentation and
// lessons in the knowledge store.
//
// The engine owns the run loop and the policies (step limit, recovery,
// learning). It talks to the phone only through device.Device, to the store
// only through *knowledge.Store, to models only through a Planner; it must
// not know about transports (CLI, websocket, gomobile).
package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/daemon/simil"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// DefaultStepLimit is the step limit of a planned run: AutoTask §4.5.1
// stops after 20 steps.
const DefaultStepLimit = 20

// Config tunes the engine. The zero value is usable.
type Config struct {
	StepLimit int // planned steps before giving up; default DefaultStepLimit
	// ReplayThreshold is the flow-match score at or above which a saved
	// flow is replayed; 0 means intent.DefaultThreshold.
	ReplayThreshold float64
	// SettleTimeout bounds how long the engine polls for the screen to
	// stop changing after an action (ms); 0 means 1500.
	SettleTimeout time.Duration
	// NoLearn disables saving flows (evaluation of matching only).
	NoLearn bool
	// Unattended acts on sensitive actions the command asks for (delete,
	// send, pay, call, account changes; daemon/safety) without asking the
	// owner: scripted runs and the simulated phone. The zero value asks,
	// and with nobody to ask such an action does not happen. Sensitive
	// actions the command does not ask for are refused either way.
	Unattended bool
	// Embedder, when set, lets embeddings promote a saved flow that the
	// lexical matcher scored just below ReplayThreshold (daemon/semantic
	// says exactly when); vectors are cached in the store. Nil: lexical
	// matching only. An unreachable endpoint falls back to lexical
	// matching with a log event, never an error.
	Embedder semantic.Embedder
	// Semantic tunes the promotion rule; the zero value takes its
	// defaults.
	Semantic semantic.Config
	// LabelSimilarity, when set, lets a replay re-ground a step whose
	// label an app update reworded (daemon/reground.go): the hook for an
	// on-device embedding model. Nil: the cosine of Embedder's vectors
	// when an Embedder is set (daemon/meaning.go), else lexical
	// comparison only.
	LabelSimilarity LabelSimilarity
	// FullLogs keeps personal data (phone numbers, e-mail addresses, card
	// numbers) in the run log, events and stored flow commands, for
	// debugging. Secrets are redacted regardless.
	FullLogs bool
}

// Engine runs commands. Safe for concurrent use, but runs are serialised:
// one phone, one pair of hands.
type Engine struct {
	dev     device.Device
	store   *knowledge.Store
	planner Planner // nil: replay only
	bus     *event.Bus
	cfg     Config
	asker   Asker

	runMu   sync.Mutex // one run at a time
	last    *screen.Snapshot
	mu      sync.Mutex
	cancel  context.CancelFunc
	runID   string
	runCmd  string
	runSeq  int
	matcher *matcherCache
	sem     *semantic.Rescorer // nil: lexical matching only
	memo    *simil.Memo        // the embedder's vectors for app identification and guides; nil: none
}

// New returns an engine. planner may be nil (replay only); bus may be nil.
func New(dev device.Device, store *knowledge.Store, planner Planner, bus *event.Bus, cfg Config) *Engine {
	if cfg.StepLimit <= 0 {
		cfg.StepLimit = DefaultStepLimit
	}
	if cfg.ReplayThreshold <= 0 {
		cfg.ReplayThreshold = intent.DefaultThreshold
	}
	if cfg.SettleTimeout <= 0 {
		cfg.SettleTimeout = 1500 * time.Millisecond
	}
	if bus == nil {
		bus = event.NewBus()
	}
	e := &Engine{dev: dev, store: store, planner: planner, bus: bus, cfg: cfg, matcher: &matcherCache{}}
	e.sem, e.memo = e.rescorer(cfg.Embedder), e.newMemo(cfg.Embedder)
	return e
}

// rescorer builds the embedding check over emb, caching in the store.
func (e *Engine) rescorer(emb semantic.Embedder) *semantic.Rescorer {
	if emb == nil {
		return nil
	}
	var cache semantic.Cache
	if e.store != nil {
		cache = e.store
	}
	return semantic.New(emb, cache, e.cfg.Semantic)
}

// SetEmbedder replaces the embedder of flow matching (nil: lexical only);
// it applies from the next run.
func (e *Engine) SetEmbedder(emb semantic.Embedder) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cfg.Embedder = emb
	e.sem, e.memo = e.rescorer(emb), e.newMemo(emb)
}

// newMemo memoizes emb's vectors, caching them in the store (nil emb: nil).
func (e *Engine) newMemo(emb semantic.Embedder) *simil.Memo {
	if e.store == nil {
		return simil.New(emb, nil)
	}
	return simil.New(emb, e.store)
}

// SetPlanner replaces the planner (nil: replay only).
func (e *Engine) SetPlanner(p Planner) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.planner = p
}

// Planner returns the engine's planner (nil: replay only).
func (e *Engine) Planner() Planner {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.planner
}

// GoHome presses HOME between runs (a live evaluation's way back to a
// known start), serialised with runs so it never lands inside one. It
// returns device errors, and an error when HOME had no effect.
func (e *Engine) GoHome(ctx context.Context) error {
	e.runMu.Lock()
	defer e.runMu.Unlock()
	res, err := e.dev.Perform(ctx, device.Action{Type: device.Home, Node: -1})
	if err != nil {
		return fmt.Errorf("home: %w", err)
	}
	if !res.OK {
		return fmt.Errorf("home had no effect: %s", res.Message)
	}
	e.bus.Publish("", event.Log, event.LogInfo{Level: "info", Text: "pressed HOME between runs"})
	return nil
}

// Configure changes the per-run policies: sensitive-action confirmation
// (false means Unattended) and the step limit (0 keeps the default). It
// applies from the next run.
func (e *Engine) Configure(confirmSensitive bool, stepLimit int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cfg.Unattended = !confirmSensitive
	if stepLimit > 0 {
		e.cfg.StepLimit = stepLimit
	}
}

// SetFullLogs chooses whether personal data stays in the run log, events
// and stored flow commands (Config.FullLogs); from the next run.
func (e *Engine) SetFullLogs(on bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.cfg.FullLogs = on
}

// SetAsker sets who answers questions.
func (e *Engine) SetAsker(a Asker) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asker = a
}

// Bus returns the engine's event bus.
func (e *Engine) Bus() *event.Bus { return e.bus }

// Store returns the engine's knowledge store.
func (e *Engine) Store() *knowledge.Store { return e.store }

// Device returns the engine's device.
func (e *Engine) Device() device.Device { return e.dev }

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

// Options of one run.
type Options struct {
	// Package forces the target app (skips identification).
	Package string
	// NoPlanner forbids planning: replay a saved flow or fail.
	NoPlanner bool
	// NoReplay skips saved flows: always plan.
	NoReplay bool
	// FlowID replays this flow without matching; Slots fills its slots.
	FlowID int64
	Slots  map[string]string
	// Planner replaces the engine's planner for this run only (e.g. a
	// planner that follows pasted steps, daemon/steps); nil keeps it.
	Planner Planner
	// Private lists the owner's private values this run uses (from the
	// context library): redacted from its events, run log and Result, and
	// kept from model prompts unless allowed (see Private).
	Private *Private
}

// Cancel stops the running command, if any.
func (e *Engine) Cancel() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cancel != nil {
		e.cancel()
		return true
	}
	return false
}

// RunCommand returns the command of the running run, "" when idle.
func (e *Engine) RunCommand() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.runCmd
}

// LastSnapshot returns the last screen a run captured, or nil.
func (e *Engine) LastSnapshot() *screen.Snapshot {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.last
}

// RunID returns the id of the running command, "" when idle.
func (e *Engine) RunID() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.runID
}

// run is the state of one command in flight.
type run struct {
	e        *Engine
	id       string
	cfg      Config
	res      *Result
	planner  Planner
	sem      *semantic.Rescorer
	memo     *simil.Memo // nil: no embedder
	app      knowledge.App
	appLabel string
	slots    map[string]string
	// picks: for an anchored replay (anchor.go), the option taps that are
	// no slot whose option the command names, by step index → its words
	picks map[int]string
	// near: the flows an anchor took but for a word that labels another
	// element (anchor.go); they are offered to the owner, first
	near     []anchor
	secrets  []string        // values never to log, stream, store or prompt (daemon/privacy)
	flow     *knowledge.Flow // the flow being replayed, if any
	refused  int             // actions the sensitive-action policy refused
	steered  bool            // a model chose one of them: the run is not learned
	steps    []StepRecord
	penalty  map[string]float64
	guides   []string
	lessons  []string
	llmCalls int
	tokens   int
	start    time.Time
	owner    *Private // the owner's private values of this run; nil: none
	// goal is the recorded end screen of the saved flow the run finishes
	// (replay handed over to the planner); nil when none
	goal *knowledge.Goal
}

// emit publishes an event of the run. The owner's private values of
// this run (from the context library, Options.Private) and secrets
// (passwords from the command or typed into password fields) never leave
// it; personal data (phone numbers, e-mail addresses, card numbers) is
// redacted unless the owner chose full debugging logs (daemon/privacy).
func (r *run) emit(typ string, data any) {
	if data != nil {
		raw, err := json.Marshal(data)
		if err == nil && !r.owner.Empty() {
			raw = r.owner.redactJSON(raw)
		}
		if err == nil {
			data = json.RawMessage(privacy.RedactJSON(raw, r.secrets, !r.cfg.FullLogs))
		}
	}
	r.e.bus.Publish(r.id, typ, data)
}

// private redacts text bound for the run log.
func (r *run) private(s string) string {
	return privacy.Redact(r.owner.Redact(s), r.secrets, !r.cfg.FullLogs)
}

// Run carries out one command and returns its result. The error is
// non-nil only for failures of the machinery (store, device); a command
// that could not be completed is a Result with Outcome failure or error.
func (e *Engine) Run(ctx context.Context, command string, opt Options) (*Result, error) {
	command = strings.TrimSpace(command)
	if command == "" && opt.FlowID == 0 {
		return nil, errors.New("daemon: empty command")
	}
	if command == "" && e.store != nil {
		// a replay from the flow list: say it as the flow's intent
		if f, err := e.store.Flow(ctx, opt.FlowID); err == nil {
			slots := map[string]string{}
			for _, sl := range f.Slots {
				slots[sl.Name] = sl.Example
			}
			for k, v := range opt.Slots {
				slots[k] = v
			}
			command = fillSlots(f.Intent, slots)
		}
	}
	e.runMu.Lock()
	defer e.runMu.Unlock()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	e.mu.Lock()
	e.runSeq++
	id := fmt.Sprintf("r%d-%d", time.Now().UnixMilli(), e.runSeq)
	e.cancel, e.runID, e.runCmd = cancel, id, command
	planner := e.planner
	cfg := e.cfg
	sem, memo := e.sem, e.memo
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		e.cancel, e.runID, e.runCmd = nil, "", ""
		e.mu.Unlock()
	}()
	if opt.Planner != nil {
		planner = opt.Planner
	}
	if opt.NoPlanner {
		planner = nil
	}
	r := &run{e: e, id: id, cfg: cfg, planner: planner, sem: sem, memo: memo, penalty: map[string]float64{}, start: time.Now(),
		secrets: privacy.SecretsIn(command), owner: opt.Private,
		res: &Result{RunID: id, Command: command, Outcome: knowledge.OutcomeFailure}}
	if r.cfg.LabelSimilarity == nil {
		r.cfg.LabelSimilarity = r.labelSimilarity(ctx) // the embedder's, when set
	}
	pname := "none"
	if planner != nil {
		pname = planner.Name()
	}
	r.emit(event.RunStarted, event.RunInfo{Command: command, Planner: pname})
	err := r.do(ctx, opt)
	return r.finish(ctx, err)
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

func (r *run) do(ctx context.Context, opt Options) error {
	e := r.e
	pkg, err := r.identifyApp(ctx, opt)
	if err != nil {
		return err
	}
	r.res.Package = pkg
	if r.app, err = e.store.UpsertApp(ctx, pkg, ""); err != nil {
		return machineErr{err}
	}
	if err := r.ensureForeground(ctx, pkg); err != nil {
		return err
	}
	if lessons, err := e.store.Lessons(ctx, r.app.ID, 8); err == nil {
		for _, l := range lessons {
			r.lessons = append(r.lessons, l.Text)
		}
	}
	// b. saved flow first
	var flow *knowledge.Flow
	if !opt.NoReplay {
		flow, err = r.matchFlow(ctx, opt)
		if err != nil {
			return err
		}
	}
	if flow != nil {
		r.flow = flow
		r.res.Strategy = "replay"
		done, failedAt, err := r.replay(ctx, flow)
		if err != nil {
			return err
		}
		if done {
			r.res.Outcome = knowledge.OutcomeSuccess
			if err := e.store.RecordFlowUse(ctx, flow.ID, true); err != nil {
				return machineErr{err}
			}
			if r.res.Command != "" && !r.bridged() {
				if err := e.store.AddFlowCommand(ctx, flow.ID, privacy.Redact(r.res.Command, r.secrets, false)); err != nil {
					return machineErr{err}
				}
				e.matcher.invalidate()
			}
			return nil
		}
		r.res.FailedStep = failedAt + 1
		if err := e.store.RecordFlowUse(ctx, flow.ID, false); err != nil {
			return machineErr{err}
		}
		e.matcher.invalidate() // its health may have changed
		if r.planner == nil {
			return fmt.Errorf("replay of flow %q failed at step %d and no planner is available to continue", flow.Name, failedAt+1)
		}
		// hand the rest to the planner, then repair only the broken steps
		r.res.Strategy = "replay+plan"
		r.guides = append(r.guides, guideFromFlow(flow, failedAt))
		r.goal = flowGoal(flow)
		kept := len(r.steps)
		if err := r.plan(ctx); err != nil {
			return err
		}
		return r.repairFlow(ctx, flow, failedAt, kept)
	}
	if r.planner == nil {
		return errors.New("no saved flow fits this command, and planning is off (no planner configured)")
	}
	r.res.Strategy = "plan"
	r.guides = append(r.guides, r.similarFlowGuides(ctx)...)
	if err := r.plan(ctx); err != nil {
		return err
	}
	if r.cfg.NoLearn {
		return nil
	}
	return r.learn(ctx)
}

// identifyApp picks the target app: the forced package, else the best
// scored installed app (seed "virtual assistant", identify-app step), else
// the foreground app.
func (r *run) identifyApp(ctx context.Context, opt Options) (string, error) {
	if opt.Package != "" {
		if apps, err := r.e.dev.InstalledApps(ctx); err == nil {
			for _, a := range apps {
				if a.Package == opt.Package {
					r.appLabel = a.Label
				}
			}
		}
		r.emit(event.AppChosen, event.AppInfo{Package: opt.Package, Score: 1, Reason: "given"})
		return opt.Package, nil
	}
	if opt.FlowID != 0 {
		f, err := r.e.store.Flow(ctx, opt.FlowID)
		if err != nil {
			return "", err
		}
		r.emit(event.AppChosen, event.AppInfo{Package: f.Package, Score: 1, Reason: "flow " + f.Name})
		return f.Package, nil
	}
	apps, err := r.e.dev.InstalledApps(ctx)
	if err != nil {
		return "", machineErr{fmt.Errorf("installed apps: %w", err)}
	}
	fg, _ := r.e.dev.ForegroundApp(ctx)
	if len(apps) == 0 {
		if fg == "" {
			return "", errors.New("no app installed and none in the foreground")
		}
		return fg, nil
	}
	cands := make([]intent.AppCandidate, 0, len(apps))
	for _, a := range apps {
		c := intent.AppCandidate{Package: a.Package, Label: a.Label}
		c.Keywords = r.e.appKeywords(ctx, a.Package)
		cands = append(cands, c)
	}
	r.appSimilarity(ctx, cands)
	scores := intent.IdentifyApp(r.res.Command, cands)
	best := event.AppInfo{Package: fg, Reason: "foreground app"}
	if len(scores) > 0 && (scores[0].Score > 0 || fg == "") {
		best = event.AppInfo{Package: scores[0].Package, Score: scores[0].Score, Reason: scores[0].Reason}
	}
	if best.Package == "" {
		best.Package = apps[0].Package
	}
	for _, a := range apps {
		if a.Package == best.Package {
			best.Label = a.Label
			r.appLabel = a.Label
		}
	}
	r.emit(event.AppChosen, best)
	return best.Package, nil
}

// ensureForeground launches pkg unless it is already in the foreground.
func (r *run) ensureForeground(ctx context.Context, pkg string) error {
	fg, err := r.e.dev.ForegroundApp(ctx)
	if err != nil {
		return machineErr{fmt.Errorf("foreground app: %w", err)}
	}
	if fg == pkg {
		return nil
	}
	res, err := r.e.dev.Perform(ctx, device.Action{Type: device.Launch, Node: -1, Package: pkg})
	if err != nil {
		return machineErr{fmt.Errorf("launch %s: %w", pkg, err)}
	}
	if !res.OK {
		return fmt.Errorf("could not launch %s: %s", pkg, res.Message)
	}
	return nil
}

// observe captures the settled screen: it polls until two consecutive
// snapshots have the same fingerprint or SettleTimeout passes.
func (r *run) observe(ctx context.Context, step int) (*screen.Snapshot, string, error) {
	start := time.Now()
	s, err := r.e.dev.Snapshot(ctx)
	if err != nil {
		return nil, "", machineErr{fmt.Errorf("snapshot: %w", err)}
	}
	fp := screen.Fingerprint(s)
	for delay := 50 * time.Millisecond; time.Since(start) < r.cfg.SettleTimeout; delay *= 2 {
		s2, err := r.e.dev.Snapshot(ctx)
		if err != nil {
			return nil, "", machineErr{fmt.Errorf("snapshot: %w", err)}
		}
		fp2 := screen.Fingerprint(s2)
		if s2 == s || fp2 == fp {
			s, fp = s2, fp2
			break
		}
		s, fp = s2, fp2
		select {
		case <-ctx.Done():
			return nil, "", ctx.Err()
		case <-time.After(delay):
		}
	}
	r.e.mu.Lock()
	r.e.last = s
	r.e.mu.Unlock()
	elems := screen.Elements(s)
	info := event.ScreenInfo{Step: step + 1, Fingerprint: fp, Activity: s.Activity, Package: s.ForegroundPackage(),
		Width: s.Width, Height: s.Height, CaptureMS: time.Since(start).Milliseconds(), Elements: make([]event.ScreenElement, len(elems))}
	for i, el := range elems {
		info.Elements[i] = event.ScreenElement{Index: i, Kind: el.Kind, Label: el.Label, Bounds: el.Bounds}
	}
	r.emit(event.Snapshot, info)
	return s, fp, nil
}

// appKeywords returns words describing an app from its known flows, for
// app identification.
func (e *Engine) appKeywords(ctx context.Context, pkg string) []string {
	flows, err := e.store.Flows(ctx, knowledge.FlowFilter{Package: pkg})
	if err != nil {
		return nil
	}
	var out []string
	for _, f := range flows {
		out = append(out, strings.Fields(f.Intent)...)
		for _, c := range f.Commands {
			out = append(out, strings.Fields(c)...)
		}
	}
	return out
}

// mapStrings returns f of every string of in (nil for nil).
func mapStrings(in []string, f func(string) string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

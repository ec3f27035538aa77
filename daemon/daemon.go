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
//
// Files by job, among others: daemon.go (the Engine, its settings and the
// run loop), result.go (a run's Result, how it ends and what it redacts,
// its error kinds), foreground.go (identifying the target app, bringing it
// to the foreground, observing the screen), match.go (flow matching),
// slotvalues.go (slot values asked about rather than typed), acronym.go and
// units.go (a command read as the flows say it),
// replay.go, plan.go, learn.go, anchor*.go, choice.go, policy.go.
package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	// RouteCheck, when set, is a planner that makes no model call (the
	// graph planner, a fresh instance of its own) that confirms a saved
	// flow for a command no flow matched well enough, by walking it over
	// the screens the flow recorded (routecheck.go). Setting it also keeps,
	// with each flow learned or replayed step for step, the screens its
	// steps acted on (flowscreens.go: typed text out, secrets redacted).
	// Nil: no route check, no screens kept.
	RouteCheck Planner
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
	// readAs: the command as flow matching read it, the way the flows
	// write it ("memo one.ogg" as "memo1.ogg"; match.go), "" before
	// matching; an option the command names is looked for in it too
	// (pickOption)
	readAs string
	// rows: for a flow offered with the owner naming a row it picks by
	// name (offer.go, askRows), the owner's row, by step index; the
	// replay taps that row (rebound), and neither keeps the command nor
	// repairs the flow
	rows map[int]string
	// answer: the flow replays because the owner chose it for these words
	// before (answers.go); the command stays an answer, not a past command
	answer bool
	// picks: for an anchored replay (anchor.go), the option taps that are
	// no slot whose option the command names, by step index → its words
	picks map[int]string
	// given: the choice slots whose option the owner gave (offer.go);
	// the replay taps that option, whatever the command's words name
	given map[string]bool
	// near: the flows an anchor took but for a word that labels another
	// element (anchor.go); they are offered to the owner, first
	near []anchor
	// routeWhy: why the route checker confirmed none of the flows it
	// walked (routecheck.go), for the matching report
	routeWhy []string
	// routeRows: per flow the route checker confirmed, the list rows its
	// walk tapped in place of the flow's (routecheck.go, otherRow)
	routeRows map[int64]map[int]string
	secrets   []string        // values never to log, stream, store or prompt (daemon/privacy)
	flow      *knowledge.Flow // the flow being replayed, if any
	refused   int             // actions the sensitive-action policy refused
	steered   bool            // a model chose one of them: the run is not learned
	unsure    bool            // the planner was not sure it was done, and nobody confirmed it: not learned
	steps     []StepRecord
	penalty   map[string]float64
	guides    []string
	lessons   []string
	llmCalls  int
	tokens    int
	start     time.Time
	owner     *Private // the owner's private values of this run; nil: none
	// goal is the recorded end screen of the saved flow the run finishes
	// (replay handed over to the planner); nil when none
	goal *knowledge.Goal
	// shots: the screen each step acted on, by StepRecord.Step, and end
	// the screen the run ended on, kept for the flow it learns or
	// replays (routecheck.go); none without a route checker
	shots map[int]knowledge.FlowScreen
	// graph: the app's UI graph, read once a run needs it (place.go)
	graph *knowledge.Graph
	end   knowledge.FlowScreen
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

// ErrNotACommand is returned, wrapped with what to say instead, for an
// utterance that names a task without asking for it to be done now
// (intent.SpeechAct): a question ("is dark mode on?", "why is the theme
// dark"), a how-to question, a report ("I already called the florist") or a
// request for a reminder. Nothing is replayed, planned or tapped, since
// carrying out the task would change what the owner only talked about.
var ErrNotACommand = errors.New("not a command, so nothing was changed")

// notACommand is ErrNotACommand for act, with what to say instead; task
// is the task a how-to question asks about.
func notACommand(act intent.Act, task string) error {
	switch act {
	case intent.ActHowTo:
		return fmt.Errorf("%w: this asks how to do something; to have it done, say it as a command (%q)", ErrNotACommand, task)
	case intent.ActReminder:
		return fmt.Errorf("%w: Wayfinder sets no reminders; say the task when it is to be done", ErrNotACommand)
	case intent.ActCutOff:
		return fmt.Errorf("%w: the command seems cut off before its end; say all of it", ErrNotACommand)
	case intent.ActLeaveAsIs:
		return fmt.Errorf("%w: this asks to leave something as it is, so there is nothing to do", ErrNotACommand)
	case intent.ActReport:
		return fmt.Errorf("%w: this reads as a report of something done; say what to do", ErrNotACommand)
	}
	return fmt.Errorf("%w: this reads as a question; Wayfinder carries out commands (say what to do, e.g. \"turn it on\")", ErrNotACommand)
}

func (r *run) do(ctx context.Context, opt Options) error {
	e := r.e
	if heard, ok := intent.Heard(r.res.Command); ok && len(r.secrets) == 0 {
		// a spoken command as meant: without its hesitations, with the
		// speaker's own repairs made ("4 no 5" is 5); never one that
		// carries a password, which is typed as said and redacted as
		// said, not as read
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("heard as %q", privacy.Redact(heard, r.secrets, false))})
		r.res.Command = heard
	}
	req, reqOK := intent.Request(r.res.Command)
	if act, task := intent.SpeechAct(r.res.Command); act != intent.ActCommand && opt.FlowID == 0 {
		if later, _ := intent.SpeechAct(req); !reqOK || later != intent.ActCommand || len(r.secrets) > 0 {
			return notACommand(act, task)
		}
		// a question or a report, then a request: "did that shot come
		// out ok? show me the last one I took"
	}
	if reqOK && len(r.secrets) == 0 && opt.FlowID == 0 {
		// the request without the clauses that only explain it ("…, it's
		// embarrassing in meetings"): the words of a reason name nothing
		// to do; a flow the owner chose takes the command as said
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("asked for %q", privacy.Redact(req, r.secrets, false))})
		r.res.Command = req
	}
	pkg, err := r.identifyApp(ctx, opt)
	if err != nil {
		return err
	}
	r.res.Package = pkg
	if r.app, err = e.store.UpsertApp(ctx, pkg, r.appLabel); err != nil {
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
		if len(r.rows) > 0 {
			flow = r.rebound(flow)
		}
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
			if replayedAsIs(flow, r.steps) {
				// its screens as this replay saw them: a flow learned
				// before screens were kept gets them now
				if err := r.keepScreens(ctx, flow.ID, r.steps); err != nil {
					return err
				}
			}
			if r.res.Command != "" && !r.bridged() && len(r.rows) == 0 {
				command := privacy.Redact(r.res.Command, r.secrets, false)
				if r.res.Chosen || r.answer {
					// the owner's word for this command only (offer.go):
					// the same words replay it again, but it is no lexical
					// evidence for other commands
					if err := e.store.RememberAnswer(ctx, r.res.Package, answerKey(command), flow.ID, r.answerSlots()); err != nil {
						return machineErr{err}
					}
				} else {
					if err := e.store.AddFlowCommand(ctx, flow.ID, command); err != nil {
						return machineErr{err}
					}
					e.matcher.invalidate()
				}
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
		if len(r.rows) > 0 {
			// another row than the flow learned: nothing to repair
			return fmt.Errorf("replay of flow %q with the row you named failed at step %d; the saved flow is unchanged", flow.Name, failedAt+1)
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

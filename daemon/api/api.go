// Package api is the one action dispatcher behind every transport: the
// gomobile bridge's Call, the debugging websocket's client commands and the
// CLI all go through API.Call with a method name and JSON params, so each
// method has exactly one implementation. Method names, parameters and
// results are documented in docs/bridge-api.md.
//
// The package owns the request/response shapes, the settings (kept in the
// knowledge store, except the API key, which lives only in memory), and
// the bridge between the engine's questions and the user's answers. It
// must not know which transport called it.
package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// PlannerFactory builds the planner for the current settings.
type PlannerFactory func(s Settings, store *knowledge.Store) (daemon.Planner, error)

// EmbedderFactory builds the embedder of flow matching for the current
// settings; (nil, nil) means embeddings off.
type EmbedderFactory func(s Settings) (semantic.Embedder, error)

// Option configures an API.
type Option func(*API)

// WithEmbedder makes every settings change also rebuild the engine's
// embedder (daemon.Engine.SetEmbedder) with f.
func WithEmbedder(f EmbedderFactory) Option { return func(a *API) { a.embedder = f } }

// API dispatches calls to the engine and the store. Safe for concurrent
// use: runs are serialised by the engine, everything else is not.
type API struct {
	eng      *daemon.Engine
	store    *knowledge.Store
	planner  PlannerFactory
	embedder EmbedderFactory // nil: the engine's embedder is left as it is

	mu       sync.Mutex
	settings Settings
	answers  chan string
	asking   bool
}

// Error is a call error with a stable code for clients.
type Error struct {
	Code    string `json:"code"` // bad_request | not_found | conflict | busy | failed
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func badRequest(f string, a ...any) error {
	return &Error{Code: "bad_request", Message: fmt.Sprintf(f, a...)}
}

// New returns the dispatcher. Settings are loaded from the store; key is
// the API key held in memory ("" for none).
func New(ctx context.Context, eng *daemon.Engine, store *knowledge.Store, planner PlannerFactory, initial Settings, opts ...Option) (*API, error) {
	a := &API{eng: eng, store: store, planner: planner, answers: make(chan string, 1)}
	for _, o := range opts {
		o(a)
	}
	s := initial
	stored, err := store.Settings(ctx)
	if err != nil {
		return nil, err
	}
	if v, ok := stored["base_url"]; ok && s.BaseURL == "" {
		s.BaseURL = v
	}
	if v, ok := stored["model"]; ok && s.Model == "" {
		s.Model = v
	}
	if v, ok := stored["embed_model"]; ok && s.EmbedModel == "" {
		s.EmbedModel = v
	}
	if v, ok := stored["planner"]; ok && s.Planner == "" {
		s.Planner = v
	}
	s.ConfirmSensitive = !s.Unattended // safe by default
	if v, ok := stored["confirm_sensitive"]; ok {
		s.ConfirmSensitive = v == "true"
	}
	if v, ok := stored["full_logs"]; ok {
		s.FullLogs = v == "true"
	}
	if v, ok := stored["max_steps"]; ok && s.StepLimit == 0 {
		s.StepLimit, _ = strconv.Atoi(v)
	}
	if s.Planner == "" {
		s.Planner = "auto"
	}
	if err := a.apply(s); err != nil {
		return nil, err
	}
	eng.SetAsker(a)
	return a, nil
}

// Ask implements daemon.Asker: the question is already published as an
// "ask" event; the answer arrives through the "answer" method.
func (a *API) Ask(ctx context.Context, q string, options []string) (string, error) {
	a.mu.Lock()
	a.asking = true
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.asking = false
		a.mu.Unlock()
	}()
	select {
	case ans := <-a.answers:
		return ans, nil
	case <-ctx.Done():
		return "", ctx.Err()
	case <-time.After(5 * time.Minute):
		return "", errors.New("no answer within 5 minutes")
	}
}

// answer hands text to the run's waiting question (Ask); false when no
// question is waiting or an answer is already on its way.
func (a *API) answer(text string) bool {
	a.mu.Lock()
	asking := a.asking
	a.mu.Unlock()
	if !asking {
		return false
	}
	select {
	case a.answers <- text:
		return true
	default:
		return false
	}
}

// Request is one call.
type Request struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// CallJSON decodes a request, dispatches it and encodes the result. Error
// texts start with the method ("flows.get: not_found: flow 12 …").
func (a *API) CallJSON(ctx context.Context, req []byte) ([]byte, error) {
	var r Request
	if err := json.Unmarshal(req, &r); err != nil {
		return nil, badRequest("request is not JSON {\"method\", \"params\"}: %v", err)
	}
	out, err := a.Call(ctx, r.Method, r.Params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Method, err)
	}
	return json.Marshal(out)
}

// Call dispatches one method.
func (a *API) Call(ctx context.Context, method string, params json.RawMessage) (any, error) {
	var p struct {
		Command string            `json:"command"`
		FlowID  int64             `json:"flow_id"`
		ID      int64             `json:"id"`
		Name    string            `json:"name"`
		Text    string            `json:"text"`
		Pinned  bool              `json:"pinned"`
		Allow   bool              `json:"allow"`
		Token   string            `json:"token"`
		Slots   map[string]string `json:"slots"`
		Steps   string            `json:"steps"`
		Version int               `json:"version"`
	}
	if out, ok, err := a.callContext(ctx, method, params); ok {
		return out, err
	}
	if len(params) > 0 && string(params) != "null" {
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, badRequest("%s: params: %v", method, err)
		}
	}
	switch method {
	case "run":
		if strings.TrimSpace(p.Command) == "" {
			return nil, badRequest("params.command is empty")
		}
		if a.eng.RunID() != "" {
			return nil, ErrBusy
		}
		command, opt, err := a.prepare(ctx, p.Command, p.Steps, busAsker{bus: a.eng.Bus(), asker: a})
		if err != nil {
			return nil, err
		}
		return a.result(a.eng.Run(ctx, command, opt))
	case "replay":
		id := p.FlowID
		if id == 0 {
			id = p.ID
		}
		var f *knowledge.Flow
		var err error
		switch {
		case p.Token != "":
			// a shortcut: the unguessable token, never a small integer
			if f, err = a.store.FlowByToken(ctx, p.Token); err != nil {
				return nil, &Error{Code: "not_found", Message: "no flow has this token (it may have been deleted)"}
			}
			id = f.ID
		case id == 0:
			return nil, badRequest("params.flow_id or params.token is missing")
		default:
			if f, err = a.store.Flow(ctx, id); err != nil {
				return nil, wrap(err)
			}
		}
		for name := range p.Slots {
			known := false
			for _, sl := range f.Slots {
				known = known || sl.Name == name
			}
			if !known {
				return nil, badRequest("flow %d has no slot %q", id, name)
			}
		}
		if a.eng.RunID() != "" {
			return nil, ErrBusy
		}
		return a.result(a.eng.Run(ctx, "", daemon.Options{FlowID: id, Slots: p.Slots}))
	case "cancel":
		return map[string]bool{"cancelled": a.eng.Cancel()}, nil
	case "answer":
		return map[string]bool{"accepted": a.answer(p.Text)}, nil
	case "flows.list":
		flows, err := a.store.Flows(ctx, knowledge.FlowFilter{})
		if err != nil {
			return nil, wrap(err)
		}
		sort.SliceStable(flows, func(i, j int) bool {
			if flows[i].Pinned != flows[j].Pinned {
				return flows[i].Pinned
			}
			return flows[i].Uses > flows[j].Uses
		})
		out := struct {
			Flows []FlowSummary `json:"flows"`
		}{Flows: []FlowSummary{}}
		for _, f := range flows {
			out.Flows = append(out.Flows, summarize(f))
		}
		return out, nil
	case "flows.get":
		f, err := a.store.Flow(ctx, p.ID)
		if err != nil {
			return nil, wrap(err)
		}
		return map[string]FlowDetail{"flow": detail(*f)}, nil
	case "flows.rename":
		if strings.TrimSpace(p.Name) == "" {
			return nil, badRequest("params.name is empty")
		}
		if err := a.store.RenameFlow(ctx, p.ID, strings.TrimSpace(p.Name)); err != nil {
			return nil, wrap(err)
		}
		a.eng.InvalidateFlows()
		return a.flowSummary(ctx, p.ID)
	case "flows.pin":
		f, err := a.store.Flow(ctx, p.ID)
		if err != nil {
			return nil, wrap(err)
		}
		f.Pinned = p.Pinned
		if err := a.store.UpdateFlow(ctx, f); err != nil {
			return nil, wrap(err)
		}
		return a.flowSummary(ctx, p.ID)
	case "flows.allow_sensitive":
		// the owner's standing answer for this flow's sensitive steps
		if err := a.store.SetFlowAllowSensitive(ctx, p.ID, p.Allow); err != nil {
			return nil, wrap(err)
		}
		a.eng.InvalidateFlows()
		return a.flowSummary(ctx, p.ID)
	case "flows.history":
		hist, err := a.store.FlowHistory(ctx, p.ID)
		if err != nil {
			return nil, wrap(err)
		}
		out := struct {
			Versions []FlowVersion `json:"versions"`
		}{Versions: make([]FlowVersion, 0, len(hist))}
		for _, v := range hist {
			fv := FlowVersion{Version: v.Version, Reason: v.Reason, CreatedMS: v.Created.UnixMilli(), Current: v.Current, Actions: []string{}}
			for _, st := range v.Steps {
				fv.Actions = append(fv.Actions, daemon.DescribeStep(st))
			}
			out.Versions = append(out.Versions, fv)
		}
		return out, nil
	case "flows.rollback":
		if p.Version <= 0 {
			return nil, badRequest("params.version is missing")
		}
		if a.eng.RunID() != "" {
			return nil, ErrBusy // a run may be replaying this flow
		}
		if _, err := a.store.RollbackFlow(ctx, p.ID, p.Version); err != nil {
			return nil, wrap(err)
		}
		a.eng.InvalidateFlows()
		return a.flowSummary(ctx, p.ID)
	case "flows.delete":
		if err := a.store.DeleteFlow(ctx, p.ID); err != nil {
			return nil, wrap(err)
		}
		a.eng.InvalidateFlows()
		return map[string]bool{"deleted": true}, nil
	case "settings.get":
		return a.public(), nil
	case "settings.set":
		return a.setSettings(ctx, params)
	case "status":
		a.mu.Lock()
		asking := a.asking
		s := a.settings
		a.mu.Unlock()
		n := 0
		if flows, err := a.store.Flows(ctx, knowledge.FlowFilter{}); err == nil {
			n = len(flows)
		}
		return Status{Version: Version, Running: a.eng.RunID() != "", RunID: a.eng.RunID(), Command: a.eng.RunCommand(),
			Flows: n, APIKeySet: s.APIKey != "", DebugAddr: s.DebugAddr, Asking: asking, Planner: s.Planner}, nil
	case "snapshot":
		s, err := a.eng.Device().Snapshot(ctx)
		if err != nil {
			return nil, &Error{Code: "failed", Message: "snapshot: " + err.Error()}
		}
		return struct {
			Snapshot    *screen.Snapshot `json:"snapshot"`
			Fingerprint string           `json:"fingerprint"`
			Elements    []screen.Element `json:"elements"`
		}{s, screen.Fingerprint(s), screen.Elements(s)}, nil
	case "graph":
		pkg, err := a.eng.Device().ForegroundApp(ctx)
		if err != nil {
			return nil, &Error{Code: "failed", Message: err.Error()}
		}
		app, err := a.store.AppByPackage(ctx, pkg)
		if err != nil {
			return nil, wrap(err)
		}
		return a.store.Graph(ctx, app.ID)
	}
	return nil, badRequest("unknown method %q", method)
}

// Version is the daemon's version, reported by status.
const Version = "0.1.0"

// Status is what status returns.
type Status struct {
	Version   string `json:"version"`
	Running   bool   `json:"running"`
	RunID     string `json:"run_id,omitempty"`
	Command   string `json:"command,omitempty"`
	Flows     int    `json:"flows"`
	APIKeySet bool   `json:"api_key_set"`
	DebugAddr string `json:"debug_addr,omitempty"`
	Asking    bool   `json:"asking"`
	Planner   string `json:"planner"`
}

// RunResult is what run and replay return (the fields of run_finished,
// plus a few more).
type RunResult struct {
	RunID     string   `json:"run_id"`
	Outcome   string   `json:"outcome"`
	Error     string   `json:"error,omitempty"`
	Mode      string   `json:"mode"`
	Strategy  string   `json:"strategy"`
	Steps     int      `json:"steps"`
	LLMCalls  int      `json:"llm_calls"`
	Tokens    int      `json:"tokens"`
	MS        int64    `json:"ms"`
	FlowID    int64    `json:"flow_id,omitempty"`
	CacheHits int      `json:"cache_hits"`
	Saved     bool     `json:"saved"`
	Typed     []string `json:"typed,omitempty"`
}

func (a *API) result(r *daemon.Result, err error) (any, error) {
	if err != nil {
		return nil, &Error{Code: "failed", Message: err.Error()}
	}
	return RunResult{RunID: r.RunID, Outcome: r.Outcome, Error: r.Error, Mode: r.Mode, Strategy: r.Strategy, Steps: len(r.Steps),
		LLMCalls: r.LLMCalls, Tokens: r.Tokens, MS: r.MS, FlowID: r.FlowID, CacheHits: r.CacheHits, Saved: r.Saved, Typed: r.Typed}, nil
}

func wrap(err error) error {
	switch {
	case errors.Is(err, knowledge.ErrNotFound):
		return &Error{Code: "not_found", Message: err.Error()}
	case errors.Is(err, knowledge.ErrConflict):
		return &Error{Code: "conflict", Message: err.Error()}
	case errors.Is(err, knowledge.ErrInvalid):
		return &Error{Code: "bad_request", Message: err.Error()}
	}
	return &Error{Code: "failed", Message: err.Error()}
}

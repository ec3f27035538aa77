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

// Settings are the user's settings. APIKey is never returned by
// settings.get and never written to the store.
type Settings struct {
	BaseURL    string `json:"base_url"`
	Model      string `json:"model"`
	EmbedModel string `json:"embed_model,omitempty"` // "" = no embeddings in flow matching
	APIKey     string `json:"api_key,omitempty"`
	Planner    string `json:"planner"` // auto | graph | llm
	// ConfirmSensitive: the owner confirms sensitive actions the command
	// asks for (daemon/safety). On unless the owner turned it off
	// (settings.set) or the host started the API Unattended.
	ConfirmSensitive bool `json:"confirm_sensitive"`
	StepLimit        int  `json:"max_steps"`
	// Unattended is the host's explicit opt-out for scripted runs
	// (wayfinder serve --no-confirm): the initial ConfirmSensitive is its
	// negation. Never on the wire.
	Unattended bool `json:"-"`
	// FullLogs keeps personal data (phone numbers, e-mail addresses,
	// card numbers) in the run log and event stream, for debugging;
	// secrets are redacted regardless. Off by default.
	FullLogs bool `json:"full_logs"`
	// DebugAddr is where the debugging websocket listens ("" off); the
	// host starts it (bridge, serve), the API only reports it.
	DebugAddr string `json:"debug_addr,omitempty"`
}

// PublicSettings is what settings.get returns: never the key.
type PublicSettings struct {
	BaseURL          string `json:"base_url"`
	Model            string `json:"model"`
	EmbedModel       string `json:"embed_model"`
	APIKeySet        bool   `json:"api_key_set"`
	Planner          string `json:"planner"`
	ConfirmSensitive bool   `json:"confirm_sensitive"`
	StepLimit        int    `json:"max_steps"`
	FullLogs         bool   `json:"full_logs"`
}

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

// apply installs settings: builds the planner (and the embedder, with
// WithEmbedder).
func (a *API) apply(s Settings) error {
	p, err := a.planner(s, a.store)
	if err != nil {
		return err
	}
	var emb semantic.Embedder
	if a.embedder != nil {
		if emb, err = a.embedder(s); err != nil {
			return err
		}
	}
	a.mu.Lock()
	a.settings = s
	a.mu.Unlock()
	a.eng.SetPlanner(p)
	if a.embedder != nil {
		a.eng.SetEmbedder(emb)
	}
	a.eng.Configure(s.ConfirmSensitive, s.StepLimit)
	a.eng.SetFullLogs(s.FullLogs)
	return nil
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

// FlowSummary is a flow as flows.list shows it.
type FlowSummary struct {
	ID      int64    `json:"id"`
	Name    string   `json:"name"`
	Intent  string   `json:"intent"`
	Package string   `json:"package"`
	Steps   int      `json:"steps"`
	Slots   []string `json:"slots"`
	Uses    int      `json:"uses"`
	Pinned  bool     `json:"pinned"`
	// Token replays the flow from outside the app's UI (a pinned
	// shortcut): {"method":"replay","params":{"token":...}}.
	Token string `json:"token"`
	// Sensitive: a step deletes, sends, pays, calls or changes an
	// account; AllowSensitive: the owner said "don't ask again".
	Sensitive      bool `json:"sensitive"`
	AllowSensitive bool `json:"allow_sensitive"`
	// Version is the number of the flow's current version (flows.history).
	Version int `json:"version"`
	// Healthy is false after knowledge.UnhealthyAfter failures in a row:
	// the flow is then never replayed because a command matched it, only
	// by an explicit replay; FailStreak is that count.
	Healthy    bool `json:"healthy"`
	FailStreak int  `json:"fail_streak"`
}

// FlowVersion is one version of a flow as flows.history shows it.
type FlowVersion struct {
	Version   int      `json:"version"`
	Reason    string   `json:"reason"`
	CreatedMS int64    `json:"created_ms"`
	Current   bool     `json:"current"`
	Actions   []string `json:"actions"`
}

func summarize(f knowledge.Flow) FlowSummary {
	s := FlowSummary{ID: f.ID, Name: f.Name, Intent: f.Intent, Package: f.Package, Steps: len(f.Steps), Uses: f.Uses, Pinned: f.Pinned, Slots: []string{},
		Token: f.Token, Sensitive: f.Sensitive, AllowSensitive: f.AllowSensitive,
		Version: f.Version, Healthy: f.Healthy(), FailStreak: f.FailStreak}
	for _, sl := range f.Slots {
		s.Slots = append(s.Slots, sl.Name)
	}
	return s
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

// FlowDetail is a flow as flows.get shows it: the summary, its steps as
// readable strings, and times in Unix ms.
type FlowDetail struct {
	FlowSummary
	Actions    []string `json:"actions"`
	Commands   []string `json:"commands"`
	CreatedMS  int64    `json:"created_ms"`
	LastUsedMS int64    `json:"last_used_ms"`
}

func detail(f knowledge.Flow) FlowDetail {
	d := FlowDetail{FlowSummary: summarize(f), Actions: []string{}, Commands: f.Commands, CreatedMS: f.Created.UnixMilli(), LastUsedMS: f.Updated.UnixMilli()}
	for _, st := range f.Steps {
		d.Actions = append(d.Actions, daemon.DescribeStep(st))
	}
	return d
}

func (a *API) flowSummary(ctx context.Context, id int64) (any, error) {
	f, err := a.store.Flow(ctx, id)
	if err != nil {
		return nil, wrap(err)
	}
	return map[string]FlowSummary{"flow": summarize(*f)}, nil
}

func (a *API) public() PublicSettings {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.settings
	return PublicSettings{BaseURL: s.BaseURL, Model: s.Model, EmbedModel: s.EmbedModel, APIKeySet: s.APIKey != "", Planner: s.Planner,
		ConfirmSensitive: s.ConfirmSensitive, StepLimit: s.StepLimit, FullLogs: s.FullLogs}
}

// setSettings changes the given fields; absent fields keep their value;
// "api_key": "" clears the key.
func (a *API) setSettings(ctx context.Context, params json.RawMessage) (any, error) {
	var patch map[string]json.RawMessage
	if err := json.Unmarshal(params, &patch); err != nil {
		return nil, badRequest("settings.set: params must be an object: %v", err)
	}
	a.mu.Lock()
	s := a.settings
	a.mu.Unlock()
	for k, v := range patch {
		var err error
		switch k {
		case "base_url":
			err = json.Unmarshal(v, &s.BaseURL)
		case "model":
			err = json.Unmarshal(v, &s.Model)
		case "embed_model":
			err = json.Unmarshal(v, &s.EmbedModel)
		case "api_key":
			err = json.Unmarshal(v, &s.APIKey)
		case "planner":
			err = json.Unmarshal(v, &s.Planner)
			if err == nil && s.Planner != "auto" && s.Planner != "graph" && s.Planner != "llm" {
				err = fmt.Errorf("want auto, graph or llm")
			}
		case "confirm_sensitive":
			err = json.Unmarshal(v, &s.ConfirmSensitive)
		case "full_logs":
			err = json.Unmarshal(v, &s.FullLogs)
		case "max_steps":
			err = json.Unmarshal(v, &s.StepLimit)
			if err == nil && (s.StepLimit < 0 || s.StepLimit > 100) {
				err = fmt.Errorf("want 0..100")
			}
		default:
			err = fmt.Errorf("unknown setting")
		}
		if err != nil {
			return nil, badRequest("settings.set: %s: %v", k, err)
		}
	}
	if err := a.apply(s); err != nil {
		return nil, badRequest("settings.set: %v", err)
	}
	for k, v := range map[string]string{"base_url": s.BaseURL, "model": s.Model, "embed_model": s.EmbedModel, "planner": s.Planner,
		"confirm_sensitive": strconv.FormatBool(s.ConfirmSensitive), "max_steps": strconv.Itoa(s.StepLimit),
		"full_logs": strconv.FormatBool(s.FullLogs)} {
		if err := a.store.SetSetting(ctx, k, v); err != nil {
			return nil, wrap(err)
		}
	}
	return a.public(), nil
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

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
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Settings are the user's settings. APIKey is never returned by
// settings.get and never written to the store.
type Settings struct {
	BaseURL          string `json:"base_url"`
	Model            string `json:"model"`
	APIKey           string `json:"api_key,omitempty"`
	Planner          string `json:"planner"` // auto | graph | llm
	ConfirmSensitive bool   `json:"confirm_sensitive"`
	StepLimit        int    `json:"step_limit"`
}

// PublicSettings is what settings.get returns.
type PublicSettings struct {
	BaseURL          string `json:"base_url"`
	Model            string `json:"model"`
	APIKeySet        bool   `json:"api_key_set"`
	Planner          string `json:"planner"`
	ConfirmSensitive bool   `json:"confirm_sensitive"`
	StepLimit        int    `json:"step_limit"`
}

// PlannerFactory builds the planner for the current settings.
type PlannerFactory func(s Settings, store *knowledge.Store) (daemon.Planner, error)

// API dispatches calls to the engine and the store. Safe for concurrent
// use: runs are serialised by the engine, everything else is not.
type API struct {
	eng     *daemon.Engine
	store   *knowledge.Store
	planner PlannerFactory

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
func New(ctx context.Context, eng *daemon.Engine, store *knowledge.Store, planner PlannerFactory, initial Settings) (*API, error) {
	a := &API{eng: eng, store: store, planner: planner, answers: make(chan string, 1)}
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
	if v, ok := stored["planner"]; ok && s.Planner == "" {
		s.Planner = v
	}
	if v, ok := stored["confirm_sensitive"]; ok {
		s.ConfirmSensitive = v == "true"
	}
	if v, ok := stored["step_limit"]; ok && s.StepLimit == 0 {
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

// apply installs settings: builds the planner.
func (a *API) apply(s Settings) error {
	p, err := a.planner(s, a.store)
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.settings = s
	a.mu.Unlock()
	a.eng.SetPlanner(p)
	a.eng.Configure(s.ConfirmSensitive, s.StepLimit)
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

// Request is one call.
type Request struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// CallJSON decodes a request, dispatches it and encodes the result.
func (a *API) CallJSON(ctx context.Context, req []byte) ([]byte, error) {
	var r Request
	if err := json.Unmarshal(req, &r); err != nil {
		return nil, badRequest("request is not JSON {\"method\", \"params\"}: %v", err)
	}
	out, err := a.Call(ctx, r.Method, r.Params)
	if err != nil {
		return nil, err
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
		Slots   map[string]string `json:"slots"`
	}
	if len(params) > 0 && string(params) != "null" {
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, badRequest("%s: params: %v", method, err)
		}
	}
	switch method {
	case "run":
		if strings.TrimSpace(p.Command) == "" {
			return nil, badRequest("run: params.command is empty")
		}
		return a.result(a.eng.Run(ctx, p.Command, daemon.Options{}))
	case "replay":
		id := p.FlowID
		if id == 0 {
			id = p.ID
		}
		if id == 0 {
			return nil, badRequest("replay: params.flow_id is missing")
		}
		return a.result(a.eng.Run(ctx, "", daemon.Options{FlowID: id, Slots: p.Slots, NoPlanner: false}))
	case "cancel":
		return map[string]bool{"cancelled": a.eng.Cancel()}, nil
	case "answer":
		a.mu.Lock()
		asking := a.asking
		a.mu.Unlock()
		if !asking {
			return nil, &Error{Code: "conflict", Message: "answer: no question is waiting"}
		}
		select {
		case a.answers <- p.Text:
		default:
		}
		return map[string]bool{"ok": true}, nil
	case "flows.list":
		flows, err := a.store.Flows(ctx, knowledge.FlowFilter{})
		if err != nil {
			return nil, wrap(err)
		}
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
		return f, nil
	case "flows.rename":
		if strings.TrimSpace(p.Name) == "" {
			return nil, badRequest("flows.rename: params.name is empty")
		}
		if err := a.store.RenameFlow(ctx, p.ID, strings.TrimSpace(p.Name)); err != nil {
			return nil, wrap(err)
		}
		a.eng.InvalidateFlows()
		return map[string]bool{"ok": true}, nil
	case "flows.delete":
		if err := a.store.DeleteFlow(ctx, p.ID); err != nil {
			return nil, wrap(err)
		}
		a.eng.InvalidateFlows()
		return map[string]bool{"ok": true}, nil
	case "settings.get":
		return a.public(), nil
	case "settings.set":
		return a.setSettings(ctx, params)
	case "status":
		a.mu.Lock()
		asking := a.asking
		s := a.settings
		a.mu.Unlock()
		return map[string]any{"running": a.eng.RunID() != "", "run_id": a.eng.RunID(), "asking": asking, "planner": s.Planner}, nil
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
}

func summarize(f knowledge.Flow) FlowSummary {
	s := FlowSummary{ID: f.ID, Name: f.Name, Intent: f.Intent, Package: f.Package, Steps: len(f.Steps), Uses: f.Uses, Pinned: f.Pinned, Slots: []string{}}
	for _, sl := range f.Slots {
		s.Slots = append(s.Slots, sl.Name)
	}
	return s
}

// RunResult is what run and replay return.
type RunResult struct {
	RunID    string   `json:"run_id"`
	Outcome  string   `json:"outcome"`
	Error    string   `json:"error,omitempty"`
	Mode     string   `json:"mode"`
	Steps    int      `json:"steps"`
	LLMCalls int      `json:"llm_calls"`
	Tokens   int      `json:"tokens"`
	MS       int64    `json:"ms"`
	FlowID   int64    `json:"flow_id,omitempty"`
	Saved    bool     `json:"saved"`
	Typed    []string `json:"typed,omitempty"`
}

func (a *API) result(r *daemon.Result, err error) (any, error) {
	if err != nil {
		return nil, &Error{Code: "failed", Message: err.Error()}
	}
	return RunResult{RunID: r.RunID, Outcome: r.Outcome, Error: r.Error, Mode: r.Mode, Steps: len(r.Steps), LLMCalls: r.LLMCalls,
		Tokens: r.Tokens, MS: r.MS, FlowID: r.FlowID, Saved: r.Saved, Typed: r.Typed}, nil
}

func (a *API) public() PublicSettings {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.settings
	return PublicSettings{BaseURL: s.BaseURL, Model: s.Model, APIKeySet: s.APIKey != "", Planner: s.Planner,
		ConfirmSensitive: s.ConfirmSensitive, StepLimit: s.StepLimit}
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
		case "api_key":
			err = json.Unmarshal(v, &s.APIKey)
		case "planner":
			err = json.Unmarshal(v, &s.Planner)
			if err == nil && s.Planner != "auto" && s.Planner != "graph" && s.Planner != "llm" {
				err = fmt.Errorf("want auto, graph or llm")
			}
		case "confirm_sensitive":
			err = json.Unmarshal(v, &s.ConfirmSensitive)
		case "step_limit":
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
	for k, v := range map[string]string{"base_url": s.BaseURL, "model": s.Model, "planner": s.Planner,
		"confirm_sensitive": strconv.FormatBool(s.ConfirmSensitive), "step_limit": strconv.Itoa(s.StepLimit)} {
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

package api

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/ctxlib"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/steps"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// MaxStepsLen bounds pasted steps, in bytes.
const MaxStepsLen = 32 << 10

// busAsker puts a question on the event bus (an "ask" event, as the
// engine does during a run) and waits for the answer through asker.
type busAsker struct {
	bus   *event.Bus
	asker daemon.Asker
}

func (b busAsker) Ask(ctx context.Context, q string, options []string) (string, error) {
	b.bus.Publish("", event.Ask, event.AskInfo{Question: q, Options: options})
	return b.asker.Ask(ctx, q, options)
}

// prepare resolves the owner's references in command against the context
// library and, with pasted steps, builds the planner that follows them
// (parsed by the configured model, else by rules). asker nil: a question
// fails the call with a bad_request that carries it.
func (a *API) prepare(ctx context.Context, command, text string, asker daemon.Asker) (string, daemon.Options, error) {
	var opt daemon.Options
	if len(text) > MaxStepsLen {
		return "", opt, badRequest("steps of %d bytes exceed %d", len(text), MaxStepsLen)
	}
	res, err := (&ctxlib.Resolver{Store: a.store, Asker: asker}).Resolve(ctx, command)
	if err != nil {
		var q *ctxlib.Question
		if errors.As(err, &q) {
			return "", opt, &Error{Code: "needs_answer", Message: q.Error()}
		}
		return "", opt, &Error{Code: "failed", Message: err.Error()}
	}
	opt.Private = res.Private
	if strings.TrimSpace(text) == "" {
		return res.Command, opt, nil
	}
	p, _, _, err := steps.Prepare(ctx, a.stepsClient(), a.eng.Planner(), res.Command, text, res.Private)
	if err != nil {
		return "", opt, badRequest("%v", err)
	}
	opt.Planner = p
	return res.Command, opt, nil
}

// stepsClient is the model for parsing pasted steps: the configured
// endpoint unless the planner setting is graph (no model).
func (a *API) stepsClient() *llm.Client {
	a.mu.Lock()
	s := a.settings
	a.mu.Unlock()
	if s.Planner == "graph" || s.BaseURL == "" || s.Model == "" {
		return nil
	}
	cfg := llm.DefaultConfig()
	cfg.BaseURL, cfg.Model, cfg.APIKey = s.BaseURL, s.Model, s.APIKey
	return llm.New(cfg)
}

// ContextEntry is a context-library entry as context.list shows it:
// private values hidden unless asked for.
type ContextEntry = knowledge.ContextEntry

// callContext serves the context.* and steps.parse methods; ok is false
// for other methods.
func (a *API) callContext(ctx context.Context, method string, params json.RawMessage) (out any, ok bool, err error) {
	var p struct {
		ID          int64                    `json:"id"`
		Kind        string                   `json:"kind"`
		ShowPrivate bool                     `json:"show_private"`
		Entry       knowledge.ContextEntry   `json:"entry"`
		Entries     []knowledge.ContextEntry `json:"entries"`
		Command     string                   `json:"command"`
		Steps       string                   `json:"steps"`
	}
	switch method {
	case "context.list", "context.set", "context.delete", "context.export", "context.import", "context.resolve", "steps.parse":
	default:
		return nil, false, nil
	}
	if len(params) > 0 && string(params) != "null" {
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, true, badRequest("%s: params: %v", method, err)
		}
	}
	switch method {
	case "context.list", "context.export":
		es, err := a.store.ContextEntries(ctx, p.Kind)
		if err != nil {
			return nil, true, wrap(err)
		}
		if es == nil {
			es = []knowledge.ContextEntry{}
		}
		if method == "context.list" && !p.ShowPrivate {
			for i := range es {
				for j := range es[i].Values {
					if es[i].Values[j].Private {
						es[i].Values[j].Value = ""
					}
				}
			}
		}
		if method == "context.export" {
			for i := range es {
				es[i].ID = 0
			}
		}
		return map[string]any{"entries": es}, true, nil
	case "context.set":
		if err := a.keepPrivate(ctx, &p.Entry); err != nil {
			return nil, true, wrap(err)
		}
		e, err := a.store.PutContext(ctx, p.Entry)
		if err != nil {
			return nil, true, wrap(err)
		}
		return map[string]any{"entry": e}, true, nil
	case "context.delete":
		if err := a.store.DeleteContext(ctx, p.ID); err != nil {
			return nil, true, wrap(err)
		}
		return map[string]bool{"deleted": true}, true, nil
	case "context.import":
		n := 0
		for _, e := range p.Entries {
			e.ID = 0
			if _, err := a.store.PutContext(ctx, e); err != nil {
				return nil, true, wrap(err)
			}
			n++
		}
		return map[string]int{"imported": n}, true, nil
	case "context.resolve":
		res, err := (&ctxlib.Resolver{Store: a.store}).Resolve(ctx, p.Command)
		if err != nil {
			var q *ctxlib.Question
			if errors.As(err, &q) {
				return map[string]any{"question": q.Text, "options": q.Options}, true, nil
			}
			return nil, true, &Error{Code: "failed", Message: err.Error()}
		}
		return res, true, nil
	case "steps.parse":
		if strings.TrimSpace(p.Steps) == "" || len(p.Steps) > MaxStepsLen {
			return nil, true, badRequest("params.steps: want 1..%d bytes", MaxStepsLen)
		}
		ins := steps.Parse(p.Steps)
		if c := a.stepsClient(); c != nil {
			if got, _, err := steps.ParseLLM(ctx, c, p.Command, p.Steps, nil); err == nil {
				ins = got
			}
		}
		if ins == nil {
			ins = []steps.Instruction{}
		}
		return map[string]any{"instructions": ins}, true, nil
	}
	return nil, false, nil
}

// RunSteps starts goal following pasted steps (the inspector's paste
// box) and returns the run id; a reference that needs the owner's answer
// fails with the question.
func (l *Live) RunSteps(ctx context.Context, goal, text string) (string, error) {
	command, opt, err := l.a.prepare(ctx, goal, text, nil)
	if err != nil {
		return "", err
	}
	return l.start(command, opt)
}

// keepPrivate fills, in an entry that replaces a stored one, each private
// value sent empty with the value stored for its field: context.list
// gives private values as "", and an entry listed, edited and sent back
// must not wipe what it could not show. An empty private value for a
// field the entry did not have stays empty.
func (a *API) keepPrivate(ctx context.Context, e *knowledge.ContextEntry) error {
	if e.ID == 0 || !slices.ContainsFunc(e.Values, func(v knowledge.ContextValue) bool { return v.Private && v.Value == "" }) {
		return nil
	}
	old, err := a.store.ContextEntry(ctx, e.ID)
	if err != nil {
		return err
	}
	for i := range e.Values {
		v := &e.Values[i]
		if !v.Private || v.Value != "" {
			continue
		}
		for _, o := range old.Values {
			if strings.EqualFold(o.Field, strings.TrimSpace(v.Field)) {
				v.Value = o.Value
			}
		}
	}
	return nil
}

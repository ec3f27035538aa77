// Settings: what the owner chose (endpoint, planner, confirmations, logs),
// kept in the knowledge store except the API key, which lives only in
// memory; settings.get and settings.set.

package api

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
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

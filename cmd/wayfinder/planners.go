package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/bert"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/llmplan"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// llmOpts are the planner and endpoint flags shared by run, eval, demo and
// serve. Flags override the environment (OPENAI_BASE_URL, OPENAI_API_KEY,
// WAYFINDER_MODEL, WAYFINDER_EMBED_MODEL, WAYFINDER_LLM_TIMEOUT, WAYFINDER_LLM_MAX_TOKENS).
type llmOpts struct {
	kind       *string
	baseURL    *string
	model      *string
	embedModel *string
	apiKey     *string
	timeout    *time.Duration
	maxTokens  *int

	client *llm.Client // made once by chatClient, shared by every planner
}

func llmFlags(fs *flag.FlagSet) *llmOpts {
	return &llmOpts{
		kind:       fs.String("planner", "", "graph | llm | auto (default auto: the graph planner, and the LLM where it is unsure, when an endpoint is configured)"),
		baseURL:    fs.String("base-url", "", "OpenAI-compatible base URL (env OPENAI_BASE_URL)"),
		model:      fs.String("model", "", "model name (env WAYFINDER_MODEL)"),
		embedModel: fs.String("embed-model", "", "embedding model for comparing meanings (flow matching just below the replay threshold, the graph planner's command↔element scoring, app identification, guides, re-grounding): \"local\" for the on-device all-MiniLM-L6-v2 (scripts/fetch-model.sh; int8 weights when present, env WAYFINDER_MODEL_PRECISION=fp32 for the float32 ones), else a model on the same endpoint (env WAYFINDER_EMBED_MODEL; default none: lexical only)"),
		apiKey:     fs.String("api-key", "", "API key (env OPENAI_API_KEY; prefer the environment: flags show in ps)"),
		timeout:    fs.Duration("llm-timeout", 0, "LLM call timeout, retries included (env WAYFINDER_LLM_TIMEOUT; default 60s)"),
		maxTokens:  fs.Int("llm-max-tokens", 0, "bound on the length of one LLM reply, in tokens (env WAYFINDER_LLM_MAX_TOKENS; default 256)"),
	}
}

// config returns the endpoint configuration: environment, then flags.
func (o *llmOpts) config() (llm.Config, error) {
	cfg, err := llm.ConfigFromEnv()
	if err != nil {
		return cfg, err
	}
	if *o.baseURL != "" {
		cfg.BaseURL = *o.baseURL
	}
	if *o.model != "" {
		cfg.Model = *o.model
	}
	if *o.embedModel != "" {
		cfg.EmbedModel = *o.embedModel
	}
	if *o.apiKey != "" {
		cfg.APIKey = *o.apiKey
	}
	if *o.timeout > 0 {
		cfg.Timeout = *o.timeout
	}
	if *o.maxTokens > 0 {
		cfg.MaxTokens = *o.maxTokens
	}
	return cfg, nil
}

// engineConfig is the engine configuration of the flags: the embedder
// (flow matching, and through the engine the graph planner, app
// identification, guides and re-grounding) when an embedding model is
// configured.
func (o *llmOpts) engineConfig() (daemon.Config, error) {
	cfg, err := o.config()
	if err != nil {
		return daemon.Config{}, err
	}
	var ec daemon.Config
	switch {
	case cfg.EmbedModel == LocalEmbedModel:
		m, err := bert.LoadDefault()
		if err != nil {
			return ec, fmt.Errorf("--embed-model %s: %w", LocalEmbedModel, err)
		}
		ec.Embedder = m // semantic.New takes semantic.MiniLM for it
	case cfg.EmbedEnabled():
		ec.Embedder = llm.New(cfg)
	}
	return ec, nil
}

// LocalEmbedModel as the embedding model selects the on-device
// all-MiniLM-L6-v2 (daemon/bert; files from scripts/fetch-model.sh)
// instead of the endpoint.
const LocalEmbedModel = "local"

func (o *llmOpts) planner(st *knowledge.Store) (daemon.Planner, error) {
	return o.plannerWith(st, graphplan.New(st))
}

func (o *llmOpts) plannerWith(st *knowledge.Store, gp *graphplan.Planner) (daemon.Planner, error) {
	client, err := o.chatClient()
	if err != nil {
		return nil, err
	}
	return llmplan.ChooseClient(*o.kind, client, st, gp)
}

// chatClient returns the one chat client of the flags (nil without an
// endpoint), made on first use: planners made per task share it, so what
// it learns about the endpoint (see llm.Format) and its Stats span the run.
func (o *llmOpts) chatClient() (*llm.Client, error) {
	if o.client != nil {
		return o.client, nil
	}
	cfg, err := o.config()
	if err != nil || !cfg.Enabled() {
		return nil, err
	}
	o.client = llm.New(cfg)
	return o.client, nil
}

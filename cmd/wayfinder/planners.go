package main

import (
	"flag"
	"fmt"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// llmOpts are the planner flags shared by run, eval and serve.
type llmOpts struct {
	kind    *string
	baseURL *string
	model   *string
	apiKey  *string
}

func llmFlags(fs *flag.FlagSet) *llmOpts {
	return &llmOpts{
		kind:    fs.String("planner", "", "graph | llm | auto (default: auto when an LLM endpoint is configured, else graph)"),
		baseURL: fs.String("base-url", "", "OpenAI-compatible base URL (env OPENAI_BASE_URL)"),
		model:   fs.String("model", "", "model name (env WAYFINDER_MODEL)"),
		apiKey:  fs.String("api-key", "", "API key (env OPENAI_API_KEY; prefer the environment: flags show in ps)"),
	}
}

func (o *llmOpts) planner(st *knowledge.Store) (daemon.Planner, error) {
	return o.plannerWith(st, graphplan.New(st))
}

func (o *llmOpts) plannerWith(st *knowledge.Store, gp *graphplan.Planner) (daemon.Planner, error) {
	switch *o.kind {
	case "", "graph":
		return gp, nil
	}
	return nil, fmt.Errorf("planner %q is not available in this build", *o.kind)
}

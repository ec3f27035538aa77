package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/ctxlib"
	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/steps"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// readSteps reads pasted steps from a file, or standard input for "-".
func readSteps(path string) (string, error) {
	var b []byte
	var err error
	if path == "-" {
		b, err = io.ReadAll(io.LimitReader(os.Stdin, 1<<20))
	} else {
		b, err = os.ReadFile(path)
	}
	if err != nil {
		return "", fmt.Errorf("--steps: %w", err)
	}
	return string(b), nil
}

// prepareRun resolves the owner's references in command against the
// context library and, with pasted steps, builds the planner that follows
// them over the engine's planner (parsed with the model when client is
// configured). It says on w what it did, private values redacted.
func prepareRun(ctx context.Context, st *knowledge.Store, eng *daemon.Engine, asker daemon.Asker, client *llm.Client,
	command, stepsText string, w io.Writer) (string, daemon.Options, error) {
	var opt daemon.Options
	res, err := (&ctxlib.Resolver{Store: st, Asker: asker}).Resolve(ctx, command)
	if err != nil {
		return "", opt, err
	}
	opt.Private = res.Private
	for _, r := range res.Refs {
		how := "from the context library"
		switch {
		case r.Remembered:
			how = "asked, and remembered"
		case r.Asked:
			how = "asked, used once (not remembered)"
		}
		fmt.Fprintf(w, "  context  %q → %s's %s (%s)\n", r.Mention, r.Name, r.Field, how)
	}
	if len(res.Refs) > 0 {
		fmt.Fprintf(w, "  context  command: %s\n", res.Shown)
	}
	if strings.TrimSpace(stepsText) == "" {
		return res.Command, opt, nil
	}
	p, calls, note, err := steps.Prepare(ctx, client, eng.Planner(), res.Command, stepsText, res.Private)
	if err != nil {
		return "", opt, err
	}
	if note != "" {
		fmt.Fprintf(w, "  steps    %s\n", note)
	}
	how := "by rules, no model"
	if calls > 0 && note == "" {
		how = fmt.Sprintf("by the model, %d call(s)", calls)
	}
	outs := p.Outcomes()
	fmt.Fprintf(w, "  steps    %d instructions (%s):\n", len(outs), how)
	for i, o := range outs {
		line := fmt.Sprintf("%s %q", o.Op, o.Target)
		if o.Value != "" {
			line += fmt.Sprintf(" ← %q", res.Private.Redact(o.Value))
		}
		fmt.Fprintf(w, "           %d. %s\n", i+1, line)
	}
	opt.Planner = p
	return res.Command, opt, nil
}

// stepsClient is the model client for parsing pasted steps: the
// configured endpoint unless the graph planner was chosen (no model).
func stepsClient(lf *llmOpts) *llm.Client {
	cfg, err := lf.config()
	if err != nil || !cfg.Enabled() || *lf.kind == "graph" {
		return nil
	}
	return llm.New(cfg)
}

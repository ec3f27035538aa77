package llmplan_test

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
	"github.com/wayfinder-agent/wayfinder/daemon/llmplan"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// rig is the demo phone, a fresh store and an engine whose LLM planner
// talks to the fake server.
type rig struct {
	phone *sim.Phone
	store *knowledge.Store
	eng   *daemon.Engine
	srv   *llmtest.Server
}

func newRig(t *testing.T, kind string, cfgMod func(*llm.Config), opts ...llmtest.Option) *rig {
	t.Helper()
	phone, st := demotest.New(t, false)
	srv := llmtest.NewServer(t, append([]llmtest.Option{llmtest.WithKey("sk-test-secret-key-123")}, opts...)...)
	cfg := llm.DefaultConfig()
	cfg.BaseURL, cfg.Model, cfg.APIKey = srv.URL(), "fake-model", "sk-test-secret-key-123"
	cfg.Timeout, cfg.BackoffBase, cfg.MaxRetries = 2*time.Second, time.Millisecond, 1
	if cfgMod != nil {
		cfgMod(&cfg)
	}
	p, err := llmplan.Choose(kind, cfg, st, graphplan.New(st))
	if err != nil {
		t.Fatal(err)
	}
	return &rig{phone: phone, store: st, eng: daemon.New(phone, st, p, nil, daemon.Config{}), srv: srv}
}

var lineRe = regexp.MustCompile(`(?m)^\[(\d+)\] \w+ "([^"]*)"`)

// indexOf finds the element index of a label in a rendered screen.
func indexOf(prompt, label string) int {
	for _, m := range lineRe.FindAllStringSubmatch(prompt, -1) {
		if m[2] == label {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	return -1
}

func lastUser(req openai.ChatCompletionRequest) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == openai.ChatMessageRoleUser {
			return req.Messages[i].Content
		}
	}
	return ""
}

func reply(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestScriptedLLMSolvesTaskWithBacktrack: a scripted model first goes the
// wrong way (About), the check rejects it, the engine undoes the step,
// then the model reaches Dark mode; the flow is learned without the wrong
// step and replays with no model call.
func TestScriptedLLMSolvesTaskWithBacktrack(t *testing.T) {
	wentWrong := false
	r := newRig(t, "llm", nil)
	r.srv.SetFunc(func(req openai.ChatCompletionRequest) string {
		p := lastUser(req)
		if strings.Contains(p, "Judge the situation") {
			screenNow := p[strings.Index(p, "Screen now ("):]
			switch {
			case strings.Contains(screenNow, "Notebook 1.0"):
				return reply(map[string]any{"reason": "About cannot change the theme", "completed": false, "correct": false, "penalty": 6})
			case strings.Contains(p, `Last action: tap "Dark mode"`):
				return reply(map[string]any{"reason": "dark mode is on", "completed": true, "correct": true, "penalty": 0})
			}
			return reply(map[string]any{"reason": "on the way", "completed": false, "correct": true, "penalty": 0})
		}
		pick := func(label, why string) string {
			return reply(map[string]any{"reason": why, "action": "tap", "element": indexOf(p, label), "done": false})
		}
		switch {
		case indexOf(p, "Dark mode") >= 0:
			return pick("Dark mode", "the switch")
		case indexOf(p, "About") >= 0 && !wentWrong:
			wentWrong = true
			return pick("About", "maybe about has settings")
		case indexOf(p, "Settings") >= 0:
			return pick("Settings", "settings hold the theme")
		case indexOf(p, "More options") >= 0:
			return pick("More options", "the menu")
		}
		return reply(map[string]any{"reason": "lost", "action": "back", "element": -1})
	})
	ctx := context.Background()
	res, err := r.eng.Run(ctx, "turn on dark mode", daemon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != knowledge.OutcomeSuccess || r.phone.State() != "settings_dark" {
		t.Fatalf("outcome %s (%s) on %s", res.Outcome, res.Error, r.phone.State())
	}
	var backtracked, undone int
	for _, s := range res.Steps {
		if s.Backtracked {
			backtracked++
		}
		if s.Undo {
			undone++
		}
	}
	if backtracked != 1 || undone != 1 {
		t.Fatalf("want one backtracked step and one undo, got %d and %d: %+v", backtracked, undone, res.Steps)
	}
	if res.LLMCalls == 0 || res.Tokens == 0 || !res.Saved {
		t.Fatalf("llm calls %d tokens %d saved %v", res.LLMCalls, res.Tokens, res.Saved)
	}
	f, err := r.store.Flow(ctx, res.FlowID)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range f.Steps {
		if s.Target.Label() == "About" {
			t.Fatalf("the learned flow kept the wrong step: %+v", f.Steps)
		}
	}
	if len(f.Steps) != 3 {
		t.Fatalf("learned %d steps, want 3 (More options, Settings, Dark mode)", len(f.Steps))
	}
	lessons, _ := r.store.Lessons(ctx, 0, 10)
	_ = lessons
	// the second time: replay, no model call
	calls := r.srv.Calls()
	if err := r.phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	res2, err := r.eng.Run(ctx, "turn on dark mode", daemon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res2.Outcome != knowledge.OutcomeSuccess || res2.Mode != "replay" || res2.LLMCalls != 0 || r.srv.Calls() != calls {
		t.Fatalf("replay: %+v (server calls %d -> %d)", res2, calls, r.srv.Calls())
	}
}

// TestFaultMatrix: every LLM fault ends the command with a clear error,
// saves no flow, and the run log records it; the key never shows.
func TestFaultMatrix(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault llmtest.Fault
		want  string
	}{
		{"timeout", llmtest.FaultTimeout, "timeout"},
		{"429", llmtest.Fault429, "429"},
		{"500", llmtest.Fault500, "500"},
		{"not JSON", llmtest.FaultNotJSON, "JSON"},
		{"bad element", llmtest.FaultBadElement, "not an index on the current screen"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, "llm", func(c *llm.Config) { c.Timeout = 300 * time.Millisecond })
			r.srv.Always(llmtest.Faulty(tc.fault))
			ctx := context.Background()
			res, err := r.eng.Run(ctx, "turn on dark mode", daemon.Options{})
			if err != nil {
				t.Fatalf("machinery error: %v", err)
			}
			if res.Outcome != knowledge.OutcomeError {
				t.Fatalf("outcome %q, want error", res.Outcome)
			}
			if !strings.Contains(strings.ToLower(res.Error), strings.ToLower(tc.want)) {
				t.Fatalf("error %q does not say %q", res.Error, tc.want)
			}
			if strings.Contains(res.Error, "sk-test-secret-key-123") {
				t.Fatal("the API key leaked into the error")
			}
			flows, err := r.store.Flows(ctx, knowledge.FlowFilter{})
			if err != nil || len(flows) != 0 {
				t.Fatalf("flows after a fault: %d %v", len(flows), err)
			}
			runs, err := r.store.Runs(ctx, 5)
			if err != nil || len(runs) != 1 || runs[0].Outcome != knowledge.OutcomeError || runs[0].Error == "" {
				t.Fatalf("run log: %+v %v", runs, err)
			}
			var pe *daemon.PlannerError
			_ = errors.As(res.Err(), &pe)
		})
	}
}

// TestAutoUsesGraphWhenConfident: with an endpoint configured, the auto
// planner solves the demo command from the UI graph alone when the graph
// planner is confident, calling the model zero times.
func TestAutoUsesGraphWhenConfident(t *testing.T) {
	r := newRig(t, "auto", nil)
	r.srv.SetFunc(func(req openai.ChatCompletionRequest) string {
		p := lastUser(req)
		if strings.Contains(p, "Judge the situation") {
			return reply(map[string]any{"reason": "fine", "completed": strings.Contains(p, `Last action: tap "Dark mode"`), "correct": true, "penalty": 0})
		}
		if i := indexOf(p, "Dark mode"); i >= 0 {
			return reply(map[string]any{"reason": "the switch", "action": "tap", "element": i, "done": false})
		}
		return reply(map[string]any{"reason": "lost", "action": "back", "element": -1, "done": false})
	})
	ctx := context.Background()
	data, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	g, _, err := data.ExplorationGraph(demo.App)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.store.ImportGraph(ctx, *g); err != nil { // the auto planner needs the explored graph
		t.Fatal(err)
	}
	res, err := r.eng.Run(ctx, "turn on dark mode", daemon.Options{})
	if err != nil || res.Outcome != knowledge.OutcomeSuccess {
		t.Fatalf("%+v %v", res, err)
	}
	graphSteps := 0
	for _, s := range res.Steps {
		if s.Mode == "graph" {
			graphSteps++
		}
	}
	if graphSteps == 0 || res.LLMCalls > 2*(len(res.Steps)-graphSteps) {
		t.Fatalf("auto asked the model %d times for %d steps (%d by the graph planner)", res.LLMCalls, len(res.Steps), graphSteps)
	}
	t.Logf("auto: %d steps (%d by the graph planner), %d LLM calls", len(res.Steps), graphSteps, res.LLMCalls)
}

// TestRunawayDoesNotPoisonNextCommand is the first real-model run's
// failure, on a single-slot server like llama.cpp's: the model's first
// reply runs away, the call times out and the command fails, while the
// server keeps generating. With max_tokens on every request the runaway
// ends after MaxTokens tokens, so the next command's calls are answered
// in time and it succeeds. (Without the bound the fake server generates
// llmtest.RunawayTokens, 41 s here, and the next command times out too.)
func TestRunawayDoesNotPoisonNextCommand(t *testing.T) {
	var mu sync.Mutex
	first := true
	r := newRig(t, "llm", func(c *llm.Config) {
		c.Timeout, c.MaxTokens, c.MaxRetries = 800*time.Millisecond, 100, llm.NoRetries
	}, llmtest.WithSingleSlot(10*time.Millisecond), llmtest.WithReplyFunc(func(req openai.ChatCompletionRequest) llmtest.Reply {
		mu.Lock()
		runaway := first
		first = false
		mu.Unlock()
		if runaway {
			return llmtest.Reply{Content: `{"reason": "Let me think about this step by step`, Runaway: true}
		}
		return llmtest.Text(darkModeModel(req))
	}))
	ctx := context.Background()
	res, err := r.eng.Run(ctx, "turn on dark mode", daemon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != knowledge.OutcomeError || !strings.Contains(res.Error, "timeout") {
		t.Fatalf("first command: outcome %s (%s), want a timeout error", res.Outcome, res.Error)
	}
	if err := r.phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	res, err = r.eng.Run(ctx, "turn on dark mode", daemon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != knowledge.OutcomeSuccess || r.phone.State() != "settings_dark" {
		t.Fatalf("second command: outcome %s (%s) on %s; the runaway reply poisoned it", res.Outcome, res.Error, r.phone.State())
	}
	for i, q := range r.srv.Requests() {
		if q.Body.MaxTokens != 100 {
			t.Errorf("request %d: max_tokens %d, want 100", i, q.Body.MaxTokens)
		}
	}
}

// TestPromptsStaySmall guards the prompt size on the demo command's steps.
// The goal is at most 1,000 whole-prompt tokens per call for a small local
// model; SmolLM2's tokenizer measured about 3.6 characters a token on
// these prompts (make eval-llm-local), so every first-try prompt (system +
// user) of the demo's small screens must stay under 3,600 characters.
func TestPromptsStaySmall(t *testing.T) {
	r := newRig(t, "llm", nil)
	r.srv.SetFunc(darkModeModel)
	res, err := r.eng.Run(context.Background(), "turn on dark mode", daemon.Options{})
	if err != nil || res.Outcome != knowledge.OutcomeSuccess {
		t.Fatalf("%+v %v", res, err)
	}
	for i, q := range r.srv.Requests() {
		n := 0
		for _, m := range q.Body.Messages {
			n += len(m.Content)
		}
		kind := "next_action"
		if strings.Contains(lastUser(q.Body), "Judge the situation") {
			kind = "check"
		}
		t.Logf("request %d (%s): %d characters", i, kind, n)
		if n > 3600 {
			t.Errorf("request %d (%s): %d characters, want at most 3,600", i, kind, n)
		}
	}
}

// darkModeModel is a model that knows the demo's way to dark mode: More
// options, Settings, Dark mode, and a check that calls the command
// complete after the tap on Dark mode.
func darkModeModel(req openai.ChatCompletionRequest) string {
	p := lastUser(req)
	if strings.Contains(p, "Judge the situation") {
		return reply(map[string]any{"reason": "ok", "completed": strings.Contains(p, `Last action: tap "Dark mode"`), "correct": true, "penalty": 0})
	}
	for _, label := range []string{"Dark mode", "Settings", "More options"} {
		if i := indexOf(p, label); i >= 0 {
			return reply(map[string]any{"reason": "next", "action": "tap", "element": i, "done": false})
		}
	}
	return reply(map[string]any{"reason": "lost", "action": "back", "element": -1, "done": false})
}

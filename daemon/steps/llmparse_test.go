package steps_test

import (
	"context"
	"strings"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
	"github.com/wayfinder-agent/wayfinder/daemon/steps"
)

func client(t *testing.T, srv *llmtest.Server) *llm.Client {
	cfg := llm.DefaultConfig()
	cfg.BaseURL, cfg.Model, cfg.APIKey = srv.URL(), "fake-model", "sk-test"
	cfg.Timeout, cfg.BackoffBase, cfg.MaxRetries = 2*time.Second, time.Millisecond, 1
	return llm.New(cfg)
}

func TestParseLLM(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := client(t, srv)
	priv := &daemon.Private{}
	priv.Add("555-0100", false)
	srv.Script(
		llmtest.Text(`{"instructions":[{"op":"tap","target":"","text":"Tap"}]}`), // no target: repaired
		llmtest.JSON(steps.Parsed{Instructions: []steps.ParsedInstruction{
			{Op: "open", Target: "Messages", Text: "Open Messages"},
			{Op: "input", Target: "To", Value: "‹private 1›", Text: "Type the number"},
			{Op: "scroll", Text: "Scroll"},
		}}),
	)
	ins, reply, err := steps.ParseLLM(context.Background(), c, "text mom", "Open Messages, type 555-0100 in To, scroll", priv)
	if err != nil {
		t.Fatal(err)
	}
	if reply.Calls != 2 || len(ins) != 3 || ins[1].Value != "555-0100" || ins[2].Value != "down" {
		t.Fatalf("calls %d, instructions %+v", reply.Calls, ins)
	}
	for _, r := range srv.Requests() {
		for _, m := range r.Body.Messages {
			if strings.Contains(m.Content, "555-0100") {
				t.Errorf("the private value reached the prompt: %q", m.Content)
			}
		}
	}
	srv.Script(llmtest.Faulty(llmtest.FaultNotJSON), llmtest.Faulty(llmtest.FaultNotJSON))
	if _, _, err := steps.ParseLLM(context.Background(), c, "g", "Tap A", nil); err == nil {
		t.Error("prose replies were accepted")
	}
}

// RuleFake answers the parse prompt as the rule-based parser would: a
// deterministic stand-in for a model, for tests and the evaluation.
func TestRuleFakeRoundTrip(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithFunc(func(req openai.ChatCompletionRequest) string {
		return steps.FakeReply(req.Messages[len(req.Messages)-1].Content)
	}))
	text := "1. Open Settings\n2. Tap Display\n3. Turn on Dark theme"
	ins, _, err := steps.ParseLLM(context.Background(), client(t, srv), "dark theme", text, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := steps.Parse(text)
	if len(ins) != len(want) {
		t.Fatalf("got %+v, want %+v", ins, want)
	}
	for i := range ins {
		if ins[i].Op != want[i].Op || ins[i].Target != want[i].Target {
			t.Errorf("%d: %+v vs %+v", i, ins[i], want[i])
		}
	}
}

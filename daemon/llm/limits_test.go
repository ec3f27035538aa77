package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
)

// TestMaxTokensOnEveryRequest: every chat request, plain, structured and
// repair, carries the configured bound.
func TestMaxTokensOnEveryRequest(t *testing.T) {
	for _, tt := range []struct {
		name string
		set  int
		want int
	}{{"default", 0, llm.DefaultMaxTokens}, {"configured", 64, 64}} {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t)
			s.Script(llmtest.Text("hello"), llmtest.Faulty(llmtest.FaultNotJSON), llmtest.Text(validTap))
			c := newClient(t, s, func(c *llm.Config) { c.MaxTokens = tt.set })
			if _, err := c.Chat(context.Background(), userMsg("hi")); err != nil {
				t.Fatal(err)
			}
			if _, _, err := llm.CompleteJSON(context.Background(), c, userMsg("next?"), screenHas); err != nil {
				t.Fatal(err)
			}
			for i, q := range s.Requests() {
				if q.Body.MaxTokens != tt.want || q.Body.MaxCompletionTokens != 0 {
					t.Errorf("request %d: max_tokens %d, max_completion_tokens %d; want max_tokens %d", i, q.Body.MaxTokens, q.Body.MaxCompletionTokens, tt.want)
				}
			}
		})
	}
}

// TestMaxCompletionTokensFallback: an endpoint that refuses max_tokens
// (OpenAI's reasoning models) gets max_completion_tokens, at once on the
// refused call and from then on.
func TestMaxCompletionTokensFallback(t *testing.T) {
	s := llmtest.NewServer(t, llmtest.WithoutMaxTokens())
	s.Always(llmtest.Text(validTap))
	c := newClient(t, s, func(c *llm.Config) { c.MaxTokens = 100 })
	for range 2 {
		if _, _, err := llm.CompleteJSON(context.Background(), c, userMsg("next?"), screenHas); err != nil {
			t.Fatal(err)
		}
	}
	reqs := s.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (refused, re-sent, second call)", len(reqs))
	}
	if reqs[0].Body.MaxTokens != 100 {
		t.Errorf("first request max_tokens = %d", reqs[0].Body.MaxTokens)
	}
	for _, q := range reqs[1:] {
		if q.Body.MaxTokens != 0 || q.Body.MaxCompletionTokens != 100 {
			t.Errorf("after the refusal: max_tokens %d, max_completion_tokens %d", q.Body.MaxTokens, q.Body.MaxCompletionTokens)
		}
	}
}

// TestTruncatedReplyIsRepairedShorter: a reply cut off at max_tokens is
// counted, and the repair asks for a shorter reason.
func TestTruncatedReplyIsRepairedShorter(t *testing.T) {
	s := llmtest.NewServer(t)
	s.Script(llmtest.Reply{Content: validTap, Runaway: true}, llmtest.Text(validTap))
	c := newClient(t, s, func(c *llm.Config) { c.MaxTokens = 8 })
	if _, _, err := llm.CompleteJSON(context.Background(), c, userMsg("next?"), screenHas); err == nil {
		t.Fatal("a reply cut at 8 tokens was accepted")
	}
	st := c.Stats()
	if st.Truncated < 1 || st.Repairs != 1 {
		t.Errorf("stats %+v: want the truncation counted and one repair", st)
	}
	m := s.Requests()[1].Body.Messages
	if got := m[len(m)-1].Content; !strings.Contains(got, "cut off") {
		t.Errorf("repair message does not mention the cut: %s", got)
	}
}

// TestTimeoutDoesNotPoisonNextCall reproduces the single-slot local server
// the first real-model run met: a runaway generation outlives the client's
// timeout and keeps the slot busy; the next request queues behind it.
// With max_tokens on every request the runaway ends after MaxTokens
// tokens, so the next call is answered within its own timeout. Without
// the bound the fake server would generate RunawayTokens (41 s here) and
// the second call would time out too.
func TestTimeoutDoesNotPoisonNextCall(t *testing.T) {
	const perToken = 10 * time.Millisecond
	s := llmtest.NewServer(t, llmtest.WithSingleSlot(perToken))
	s.Script(llmtest.Reply{Content: "I will now explain", Runaway: true}, llmtest.Text("ok"))
	// 150 tokens take 1.5 s: past the 1 s timeout, well before the second
	// call's deadline (2 s after the start).
	c := newClient(t, s, func(c *llm.Config) {
		c.Timeout = time.Second
		c.MaxTokens = 150
		c.MaxRetries = llm.NoRetries
	})
	_, err := c.Chat(context.Background(), userMsg("first"))
	var le *llm.Error
	if !errors.As(err, &le) || !le.Timeout {
		t.Fatalf("first call: err = %v, want a timeout", err)
	}
	r, err := c.Chat(context.Background(), userMsg("second"))
	if err != nil || r.Text != "ok" {
		t.Fatalf("second call: %q, %v; want it answered after the bounded runaway", r.Text, err)
	}
	st := c.Stats()
	if st.Timeouts != 1 || st.Failed != 1 || st.Chats != 1 {
		t.Errorf("stats %+v, want 1 timeout and 1 answered chat", st)
	}
}

// TestCanceledQueuedRequestIsSkipped: a request given up while queued
// behind a generation is not generated when the slot frees (the server
// sees the closed connection), so it cannot delay later calls.
func TestCanceledQueuedRequestIsSkipped(t *testing.T) {
	s := llmtest.NewServer(t, llmtest.WithSingleSlot(10*time.Millisecond))
	s.Script(llmtest.Reply{Content: "busy", Runaway: true}, llmtest.Text("never"), llmtest.Text("ok"))
	c := newClient(t, s, func(c *llm.Config) { c.MaxTokens = 60; c.MaxRetries = llm.NoRetries })
	done := make(chan error, 1)
	go func() { _, err := c.Chat(context.Background(), userMsg("long")); done <- err }()
	waitCalls(t, s, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { waitCalls(t, s, 2); cancel() }()
	if _, err := c.Chat(ctx, userMsg("given up")); err == nil {
		t.Fatal("canceled call returned no error")
	}
	if err := <-done; err != nil {
		t.Fatalf("long call: %v", err)
	}
	if r, err := c.Chat(context.Background(), userMsg("next")); err != nil || r.Text != "ok" {
		t.Fatalf("next call: %q, %v", r.Text, err)
	}
	// The canceled request reaches the slot after the long one; give it
	// the moment it needs to be marked.
	deadline := time.Now().Add(2 * time.Second)
	for q := s.Requests(); len(q) < 2 || !q[1].Skipped; q = s.Requests() {
		if time.Now().After(deadline) {
			t.Fatalf("skipped = %v, want the canceled request skipped", skippedOf(q))
		}
		time.Sleep(5 * time.Millisecond)
	}
	if q := s.Requests(); len(q) != 3 || q[0].Skipped || q[2].Skipped {
		t.Errorf("skipped = %v, want only the canceled request skipped", skippedOf(q))
	}
}

func waitCalls(t *testing.T, s *llmtest.Server, n int) {
	deadline := time.Now().Add(5 * time.Second)
	for s.Calls() < n {
		if time.Now().After(deadline) {
			t.Errorf("server saw %d requests, want %d", s.Calls(), n)
			return
		}
		time.Sleep(time.Millisecond)
	}
}

func skippedOf(q []llmtest.Request) []bool {
	out := make([]bool, len(q))
	for i, r := range q {
		out[i] = r.Skipped
	}
	return out
}

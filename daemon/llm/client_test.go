package llm_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
)

func TestChatSuccess(t *testing.T) {
	s := llmtest.NewServer(t, llmtest.WithKey(testKey))
	s.Script(llmtest.Reply{Content: "hello", PromptTokens: 12, CompletionTokens: 3})
	c := newClient(t, s)

	r, err := c.Chat(context.Background(), []llm.Message{{Role: llm.RoleSystem, Content: "sys"}, {Role: llm.RoleUser, Content: "hi"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != "hello" || r.PromptTokens != 12 || r.CompletionTokens != 3 || r.Calls != 1 || r.Retries != 0 {
		t.Errorf("reply = %+v", r)
	}
	if r.Model != "test-model" || r.FinishReason != "stop" || r.Duration <= 0 {
		t.Errorf("reply meta = %+v", r)
	}
	if got, want := c.Usage(), (llm.Usage{Calls: 1, PromptTokens: 12, CompletionTokens: 3}); got != want {
		t.Errorf("usage = %+v, want %+v", got, want)
	}
	reqs := s.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	q := reqs[0]
	if q.Path != "/v1/chat/completions" || q.Body.Model != "test-model" || len(q.Body.Messages) != 2 ||
		q.Body.Messages[0].Role != "system" || q.Body.Messages[1].Content != "hi" {
		t.Errorf("request = %+v", q)
	}
	if q.Body.ResponseFormat != nil {
		t.Errorf("Chat sent response_format %+v; only CompleteJSON asks for JSON", q.Body.ResponseFormat)
	}
	if q.Authorization != "Bearer "+testKey {
		t.Errorf("Authorization = %q", q.Authorization)
	}
}

func TestChatFaults(t *testing.T) {
	type want struct {
		ok       bool
		calls    int
		retries  int
		status   int
		timeout  bool
		msg      string // substring of the error
		minDur   time.Duration
		maxDur   time.Duration
		noRetry  bool
		keyWrong bool
	}
	tests := []struct {
		name    string
		script  []llmtest.Reply
		always  *llmtest.Reply
		timeout time.Duration
		retries int
		want    want
	}{
		{name: "429 then success", script: []llmtest.Reply{llmtest.Faulty(llmtest.Fault429), llmtest.Text("ok")},
			want: want{ok: true, calls: 2, retries: 1}},
		{name: "two 500s then success", script: []llmtest.Reply{llmtest.Faulty(llmtest.Fault500), llmtest.Faulty(llmtest.Fault500), llmtest.Text("ok")},
			want: want{ok: true, calls: 3, retries: 2}},
		{name: "persistent 500", always: ptr(llmtest.Faulty(llmtest.Fault500)),
			want: want{calls: 4, retries: 3, status: 500, msg: "llm: chat: status 500 after 3 retries: The server had an error"}},
		{name: "persistent 429 with MaxRetries 1", always: ptr(llmtest.Faulty(llmtest.Fault429)), retries: 1,
			want: want{calls: 2, retries: 1, status: 429, msg: "status 429 after 1 retry"}},
		{name: "no retries", always: ptr(llmtest.Faulty(llmtest.Fault500)), retries: llm.NoRetries,
			want: want{calls: 1, status: 500, msg: "llm: chat: status 500: "}},
		{name: "timeout", script: []llmtest.Reply{llmtest.Faulty(llmtest.FaultTimeout)}, timeout: 200 * time.Millisecond,
			want: want{calls: 1, timeout: true, msg: "llm: chat: timeout 200ms", minDur: 200 * time.Millisecond, maxDur: 1500 * time.Millisecond}},
		{name: "500 then timeout", script: []llmtest.Reply{llmtest.Faulty(llmtest.Fault500), llmtest.Faulty(llmtest.FaultTimeout)}, timeout: 200 * time.Millisecond,
			want: want{calls: 2, retries: 1, timeout: true, msg: "timeout 200ms after 1 retry", minDur: 200 * time.Millisecond, maxDur: 1500 * time.Millisecond}},
		{name: "Retry-After beyond the deadline ends the call at once", script: []llmtest.Reply{{Fault: llmtest.Fault429, RetryAfter: "30"}}, timeout: 500 * time.Millisecond,
			want: want{calls: 1, status: 429, msg: "would pass the 500ms deadline", maxDur: 400 * time.Millisecond}},
		{name: "Retry-After is honoured", script: []llmtest.Reply{{Fault: llmtest.Fault429, RetryAfter: "1"}, llmtest.Text("ok")}, timeout: 3 * time.Second,
			want: want{ok: true, calls: 2, retries: 1, minDur: time.Second, maxDur: 2500 * time.Millisecond}},
		{name: "401 is not retried", script: []llmtest.Reply{llmtest.Text("never served")},
			want: want{calls: 1, status: 401, msg: "llm: chat: status 401: Incorrect API key", keyWrong: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s *llmtest.Server
			if tt.want.keyWrong {
				s = llmtest.NewServer(t, llmtest.WithKey("sk-the-right-key-0000000000"))
			} else {
				s = llmtest.NewServer(t)
			}
			s.Script(tt.script...)
			if tt.always != nil {
				s.Always(*tt.always)
			}
			c := newClient(t, s, func(c *llm.Config) {
				if tt.timeout > 0 {
					c.Timeout = tt.timeout
				}
				if tt.retries != 0 {
					c.MaxRetries = tt.retries
				}
			})
			start := time.Now()
			r, err := c.Chat(context.Background(), userMsg("hi"))
			elapsed := time.Since(start)

			if got := s.Calls(); got != tt.want.calls {
				t.Errorf("server calls = %d, want %d", got, tt.want.calls)
			}
			if r.Retries != tt.want.retries || c.Usage().Retries != tt.want.retries || c.Usage().Calls != 1 {
				t.Errorf("reply retries = %d, usage = %+v, want %d retries in 1 call", r.Retries, c.Usage(), tt.want.retries)
			}
			if tt.want.minDur > 0 && elapsed < tt.want.minDur {
				t.Errorf("took %s, want >= %s", elapsed, tt.want.minDur)
			}
			if tt.want.maxDur > 0 && elapsed > tt.want.maxDur {
				t.Errorf("took %s, want <= %s", elapsed, tt.want.maxDur)
			}
			if tt.want.ok {
				if err != nil || r.Text != "ok" {
					t.Fatalf("Chat = %+v, %v; want ok", r, err)
				}
				return
			}
			var le *llm.Error
			if !errors.As(err, &le) {
				t.Fatalf("err = %v (%T), want *llm.Error", err, err)
			}
			if le.StatusCode != tt.want.status || le.Retries != tt.want.retries || le.Timeout != tt.want.timeout {
				t.Errorf("error = %+v", le)
			}
			if !strings.Contains(err.Error(), tt.want.msg) {
				t.Errorf("error %q does not contain %q", err, tt.want.msg)
			}
			if tt.want.timeout && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("timeout error %v is not context.DeadlineExceeded", err)
			}
			if tt.want.status != 0 {
				var ae *openai.APIError
				if !errors.As(err, &ae) || ae.HTTPStatusCode != tt.want.status {
					t.Errorf("cause %v is not an *openai.APIError with status %d", le.Err, tt.want.status)
				}
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestChatCanceledIsNotRetried(t *testing.T) {
	s := llmtest.NewServer(t)
	s.Always(llmtest.Faulty(llmtest.FaultTimeout))
	c := newClient(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.Chat(ctx, userMsg("hi"))
	var le *llm.Error
	if !errors.As(err, &le) || !le.Canceled || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want a canceled *llm.Error", err)
	}
	if s.Calls() != 1 || time.Since(start) > time.Second {
		t.Errorf("calls = %d after %s, want 1 call, prompt return", s.Calls(), time.Since(start))
	}
	// An already-canceled context sends nothing.
	if _, err := c.Chat(ctx, userMsg("hi")); !errors.Is(err, context.Canceled) || s.Calls() != 1 {
		t.Errorf("Chat(canceled ctx) = %v with %d calls", err, s.Calls())
	}
}

// dropServer closes the first `drops` connections without answering, then
// answers like an OpenAI endpoint.
func dropServer(t *testing.T, drops int32) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) <= drops {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func TestChatTransientNetworkErrors(t *testing.T) {
	srv, n := dropServer(t, 2)
	c := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: "m", BackoffBase: time.Millisecond, Timeout: 2 * time.Second})
	r, err := c.Chat(context.Background(), userMsg("hi"))
	if err != nil || r.Text != "ok" || r.Retries != 2 || n.Load() != 3 {
		t.Fatalf("Chat = %+v, %v after %d requests; want ok after 2 retries", r, err, n.Load())
	}

	// Nothing listening: connection refused is retried, then reported.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c = llm.New(llm.Config{BaseURL: "http://" + addr + "/v1", Model: "m", BackoffBase: time.Millisecond, MaxRetries: 2})
	_, err = c.Chat(context.Background(), userMsg("hi"))
	var le *llm.Error
	if !errors.As(err, &le) || le.Retries != 2 || le.StatusCode != 0 || !strings.Contains(err.Error(), "llm: chat: network error after 2 retries") {
		t.Fatalf("err = %v, want a network error after 2 retries", err)
	}
}

func TestChatBadResponseBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<html>captive portal</html>`)
	}))
	defer srv.Close()
	c := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: "m", BackoffBase: time.Millisecond})
	_, err := c.Chat(context.Background(), userMsg("hi"))
	var le *llm.Error
	if !errors.As(err, &le) || le.Retries != 0 {
		t.Fatalf("err = %v, want a non-retried *llm.Error", err)
	}
}

func TestChatNotConfigured(t *testing.T) {
	for _, cfg := range []llm.Config{{}, {BaseURL: "http://localhost:11434"}, {Model: "m"}} {
		_, err := llm.New(cfg).Chat(context.Background(), userMsg("hi"))
		if !errors.Is(err, llm.ErrNotConfigured) {
			t.Errorf("config %v: err = %v, want ErrNotConfigured", cfg, err)
		}
	}
	s := llmtest.NewServer(t)
	if _, err := newClient(t, s).Chat(context.Background(), nil); err == nil {
		t.Error("Chat(no messages) succeeded")
	}
}

func TestBareHostGetsV1(t *testing.T) {
	s := llmtest.NewServer(t)
	s.Script(llmtest.Text("ok"))
	c := newClient(t, s, func(c *llm.Config) { c.BaseURL = strings.TrimSuffix(s.URL(), "/v1") + "/" })
	if _, err := c.Chat(context.Background(), userMsg("hi")); err != nil {
		t.Fatal(err)
	}
	if p := s.Requests()[0].Path; p != "/v1/chat/completions" {
		t.Errorf("path = %s", p)
	}
}

func TestUsageAccumulatesAndResets(t *testing.T) {
	s := llmtest.NewServer(t)
	s.Script(
		llmtest.Reply{Content: "a", PromptTokens: 10, CompletionTokens: 1},
		llmtest.Faulty(llmtest.Fault429),
		llmtest.Reply{Content: "b", PromptTokens: 20, CompletionTokens: 2},
	)
	c := newClient(t, s)
	for range 2 {
		if _, err := c.Chat(context.Background(), userMsg("x")); err != nil {
			t.Fatal(err)
		}
	}
	want := llm.Usage{Calls: 2, PromptTokens: 30, CompletionTokens: 3, Retries: 1}
	if got := c.ResetUsage(); got != want {
		t.Errorf("ResetUsage = %+v, want %+v", got, want)
	}
	if got := c.Usage(); got != (llm.Usage{}) {
		t.Errorf("usage after reset = %+v", got)
	}
	if want.Tokens() != 33 || want.Add(want).Calls != 4 {
		t.Error("Usage arithmetic")
	}
}

func TestChatConcurrent(t *testing.T) {
	s := llmtest.NewServer(t, llmtest.WithFunc(func(req openai.ChatCompletionRequest) string {
		return "echo " + req.Messages[0].Content
	}))
	c := newClient(t, s)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := c.Chat(context.Background(), userMsg(fmt.Sprint(i)))
			if err == nil && r.Text != fmt.Sprint("echo ", i) {
				err = fmt.Errorf("reply %q for %d", r.Text, i)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if u := c.Usage(); u.Calls != 16 || s.Calls() != 16 {
		t.Errorf("usage %+v, server calls %d", u, s.Calls())
	}
}

func TestRetryLogging(t *testing.T) {
	s := llmtest.NewServer(t)
	s.Script(llmtest.Faulty(llmtest.Fault500), llmtest.Text("ok"))
	var buf strings.Builder
	var mu sync.Mutex
	c := newClient(t, s, func(c *llm.Config) { c.Logger = newTestLogger(&buf, &mu) })
	if _, err := c.Chat(context.Background(), userMsg("x")); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	sc := bufio.NewScanner(strings.NewReader(buf.String()))
	lines := 0
	for sc.Scan() {
		lines++
		if !strings.Contains(sc.Text(), "retrying") || !strings.Contains(sc.Text(), "status=500") {
			t.Errorf("log line %q", sc.Text())
		}
	}
	if lines != 1 {
		t.Errorf("%d log lines, want 1:\n%s", lines, buf.String())
	}
}

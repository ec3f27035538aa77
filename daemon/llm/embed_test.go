package llm_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
)

func embedClient(t *testing.T, s *llmtest.Server, mutate ...func(*llm.Config)) *llm.Client {
	t.Helper()
	return newClient(t, s, append([]func(*llm.Config){func(c *llm.Config) { c.EmbedModel = "test-embed" }}, mutate...)...)
}

func TestEmbedSuccess(t *testing.T) {
	s := llmtest.NewServer(t, llmtest.WithKey(testKey))
	c := embedClient(t, s)
	texts := []string{"turn on dark mode", "switch dark mode on", "send a message to Bob"}
	vs, err := c.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 3 || len(vs[0]) != llmtest.EmbedDim {
		t.Fatalf("got %d vectors of %d", len(vs), len(vs[0]))
	}
	for i, text := range texts {
		if llmtest.Cosine(vs[i], llmtest.BagOfStems(text, nil)) < 0.9999 {
			t.Errorf("vector %d is not the embedding of %q (order lost?)", i, text)
		}
	}
	if same, other := llmtest.Cosine(vs[0], vs[1]), llmtest.Cosine(vs[0], vs[2]); same < 0.7 || other > 0.3 {
		t.Errorf("cosines: similar %.2f, unrelated %.2f", same, other)
	}
	u := c.Usage()
	if u.EmbedCalls != 1 || u.EmbedTokens == 0 || u.Calls != 0 || u.Tokens() != 0 {
		t.Errorf("usage %+v: want one embed call, its tokens, and no chat use", u)
	}
	reqs := s.EmbedRequests()
	if len(reqs) != 1 || reqs[0].Path != "/v1/embeddings" || reqs[0].Model != "test-embed" || len(reqs[0].Input) != 3 ||
		reqs[0].Authorization != "Bearer "+testKey {
		t.Errorf("requests %+v", reqs)
	}
	if s.Calls() != 0 {
		t.Errorf("%d chat calls", s.Calls())
	}
	if vs, err := c.Embed(context.Background(), nil); vs != nil || err != nil || s.EmbedCalls() != 1 {
		t.Errorf("no texts: %v %v, %d calls", vs, err, s.EmbedCalls())
	}
}

func TestEmbedNotConfigured(t *testing.T) {
	s := llmtest.NewServer(t)
	for name, c := range map[string]*llm.Client{
		"no embed model": newClient(t, s),
		"no endpoint":    llm.New(llm.Config{EmbedModel: "e"}),
		"nil client":     nil,
	} {
		if _, err := c.Embed(context.Background(), []string{"x"}); !errors.Is(err, llm.ErrNotConfigured) ||
			!strings.HasPrefix(err.Error(), "llm: embeddings: ") {
			t.Errorf("%s: %v", name, err)
		}
	}
	// an embedding model alone is enough: no chat model needed
	c := llm.New(llm.Config{BaseURL: s.URL(), EmbedModel: "e"})
	if !c.Config().EmbedEnabled() || c.Config().Enabled() {
		t.Errorf("EmbedEnabled %v Enabled %v", c.Config().EmbedEnabled(), c.Config().Enabled())
	}
	if _, err := c.Embed(context.Background(), []string{"x"}); err != nil {
		t.Error(err)
	}
	if s.EmbedCalls() != 1 {
		t.Errorf("%d calls", s.EmbedCalls())
	}
}

func TestEmbedFaults(t *testing.T) {
	tests := []struct {
		name    string
		faults  []llmtest.Fault
		always  llmtest.Fault
		timeout time.Duration
		ok      bool
		calls   int    // requests the server saw
		retries int    // Usage.Retries
		status  int    // *llm.Error StatusCode
		isTO    bool   // *llm.Error Timeout
		msg     string // substring of the error
	}{
		{name: "429 then vectors", faults: []llmtest.Fault{llmtest.Fault429, llmtest.FaultNone}, ok: true, calls: 2, retries: 1},
		{name: "500 twice then vectors", faults: []llmtest.Fault{llmtest.Fault500, llmtest.Fault500, llmtest.FaultNone}, ok: true, calls: 3, retries: 2},
		{name: "500 always", always: llmtest.Fault500, calls: 4, retries: 3, status: 500, msg: "llm: embeddings: status 500 after 3 retries"},
		{name: "timeout", always: llmtest.FaultTimeout, timeout: 150 * time.Millisecond, calls: 1, isTO: true, msg: "llm: embeddings: timeout 150ms"},
		{name: "not JSON", faults: []llmtest.Fault{llmtest.FaultNotJSON}, calls: 1, msg: "llm: embeddings:"},
		{name: "short", faults: []llmtest.Fault{llmtest.FaultShort}, calls: 1, msg: "llm: embeddings: bad response: 1 embeddings for 2 texts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t, llmtest.WithKey(testKey))
			s.EmbedFaults(tt.faults...)
			s.EmbedAlways(tt.always)
			var logs bytes.Buffer
			c := embedClient(t, s, func(c *llm.Config) {
				if tt.timeout > 0 {
					c.Timeout = tt.timeout
				}
				c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
			})
			vs, err := c.Embed(context.Background(), []string{"turn on wifi", "turn off wifi"})
			if got := s.EmbedCalls(); got != tt.calls {
				t.Errorf("server saw %d requests, want %d", got, tt.calls)
			}
			if u := c.Usage(); u.Retries != tt.retries || u.EmbedCalls != 1 {
				t.Errorf("usage %+v, want %d retries in one embed call", u, tt.retries)
			}
			if strings.Contains(logs.String(), testKey) || (err != nil && strings.Contains(err.Error(), testKey)) {
				t.Errorf("key leaked: %s / %v", logs.String(), err)
			}
			if tt.ok {
				if err != nil || len(vs) != 2 {
					t.Fatalf("Embed = %d vectors, %v", len(vs), err)
				}
				if tt.retries > 0 && !strings.Contains(logs.String(), "llm: retrying embeddings") {
					t.Errorf("retry not logged: %s", logs.String())
				}
				return
			}
			var e *llm.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T), want *llm.Error", err, err)
			}
			if e.StatusCode != tt.status || e.Timeout != tt.isTO || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q status %d timeout %v", err, e.StatusCode, e.Timeout)
			}
		})
	}
}

func TestEmbedWrongKeyNotEchoed(t *testing.T) {
	s := llmtest.NewServer(t, llmtest.WithKey("sk-the-right-key-0000000000"))
	c := embedClient(t, s)
	_, err := c.Embed(context.Background(), []string{"x"})
	var e *llm.Error
	if !errors.As(err, &e) || e.StatusCode != 401 || strings.Contains(err.Error(), testKey) {
		t.Fatalf("%v", err)
	}
}

func TestEmbedCanceled(t *testing.T) {
	s := llmtest.NewServer(t)
	c := embedClient(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Embed(ctx, []string{"x"})
	var e *llm.Error
	if !errors.As(err, &e) || !e.Canceled || s.EmbedCalls() != 0 {
		t.Fatalf("%v, %d calls", err, s.EmbedCalls())
	}
}

func TestEmbedModelFromEnv(t *testing.T) {
	t.Setenv(llm.EnvEmbedModel, " text-embedding-3-small ")
	t.Setenv(llm.EnvBaseURL, "http://localhost:11434")
	cfg, err := llm.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.EmbedModel != "text-embedding-3-small" || !cfg.EmbedEnabled() {
		t.Errorf("%+v", cfg)
	}
	if !strings.Contains(cfg.Redacted(), "embed=text-embedding-3-small") {
		t.Errorf("Redacted %s", cfg.Redacted())
	}
}

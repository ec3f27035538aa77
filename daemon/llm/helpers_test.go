package llm_test

import (
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
)

// testKey looks like a real key so that any leak is easy to spot.
const testKey = "sk-test-9f8e7d6c5b4a39281706f5e4d3c2b1a0"

// newClient returns a client for s with test-friendly timing: a 2 s call
// budget and a 1 ms backoff base.
func newClient(t testing.TB, s *llmtest.Server, mutate ...func(*llm.Config)) *llm.Client {
	t.Helper()
	cfg := llm.DefaultConfig()
	if s != nil {
		cfg.BaseURL = s.URL()
	}
	cfg.Model = "test-model"
	cfg.APIKey = testKey
	cfg.Timeout = 2 * time.Second
	cfg.BackoffBase = time.Millisecond
	for _, m := range mutate {
		m(&cfg)
	}
	return llm.New(cfg)
}

func userMsg(s string) []llm.Message { return []llm.Message{{Role: llm.RoleUser, Content: s}} }

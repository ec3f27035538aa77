package llm_test

import (
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/llm"
)

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    llm.Config
		wantErr string
	}{
		{name: "defaults", env: map[string]string{},
			want: llm.Config{Timeout: 60 * time.Second, MaxRetries: 3, BackoffBase: 500 * time.Millisecond, MaxTokens: llm.DefaultMaxTokens, JSONMode: true}},
		{name: "deepseek", env: map[string]string{llm.EnvBaseURL: "https://api.deepseek.com", llm.EnvAPIKey: " " + testKey + " ", llm.EnvModel: "deepseek-chat", llm.EnvTimeout: "45s"},
			want: llm.Config{BaseURL: "https://api.deepseek.com", APIKey: testKey, Model: "deepseek-chat", Timeout: 45 * time.Second, MaxRetries: 3, BackoffBase: 500 * time.Millisecond, MaxTokens: llm.DefaultMaxTokens, JSONMode: true}},
		{name: "ollama without key, no JSON mode, no retries", env: map[string]string{llm.EnvBaseURL: "http://localhost:11434/v1", llm.EnvModel: "qwen2.5:7b", llm.EnvJSONMode: "false", llm.EnvMaxRetries: "0", llm.EnvMaxTokens: "1024"},
			want: llm.Config{BaseURL: "http://localhost:11434/v1", Model: "qwen2.5:7b", Timeout: 60 * time.Second, MaxRetries: llm.NoRetries, BackoffBase: 500 * time.Millisecond, MaxTokens: 1024}},
		{name: "bad max tokens", env: map[string]string{llm.EnvMaxTokens: "0"}, wantErr: "WAYFINDER_LLM_MAX_TOKENS=\"0\": want an integer > 0"},
		{name: "bad timeout", env: map[string]string{llm.EnvTimeout: "60"}, wantErr: "WAYFINDER_LLM_TIMEOUT=\"60\""},
		{name: "negative timeout", env: map[string]string{llm.EnvTimeout: "-1s"}, wantErr: "positive Go duration"},
		{name: "bad retries", env: map[string]string{llm.EnvMaxRetries: "many"}, wantErr: "WAYFINDER_LLM_RETRIES"},
		{name: "bad json mode", env: map[string]string{llm.EnvJSONMode: "perhaps"}, wantErr: "WAYFINDER_LLM_JSON_MODE"},
		{name: "bad URL never shows credentials", env: map[string]string{llm.EnvBaseURL: "http://user:" + testKey + "@host:bad port/"}, wantErr: "not a URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []string{llm.EnvBaseURL, llm.EnvAPIKey, llm.EnvModel, llm.EnvTimeout, llm.EnvMaxRetries, llm.EnvMaxTokens, llm.EnvJSONMode} {
				t.Setenv(k, tt.env[k])
			}
			got, err := llm.ConfigFromEnv()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), testKey) {
					t.Errorf("error leaks the key: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// Compare field by field: Config's fmt output is redacted by design.
			if got.BaseURL != tt.want.BaseURL || got.APIKey != tt.want.APIKey || got.Model != tt.want.Model || got.Timeout != tt.want.Timeout ||
				got.MaxRetries != tt.want.MaxRetries || got.BackoffBase != tt.want.BackoffBase || got.MaxTokens != tt.want.MaxTokens || got.JSONMode != tt.want.JSONMode {
				t.Errorf("got  base=%q key=%v model=%q timeout=%s retries=%d backoff=%s max_tokens=%d json=%t\nwant base=%q key=%v model=%q timeout=%s retries=%d backoff=%s max_tokens=%d json=%t",
					got.BaseURL, got.APIKey == testKey, got.Model, got.Timeout, got.MaxRetries, got.BackoffBase, got.MaxTokens, got.JSONMode,
					tt.want.BaseURL, tt.want.APIKey == testKey, tt.want.Model, tt.want.Timeout, tt.want.MaxRetries, tt.want.BackoffBase, tt.want.MaxTokens, tt.want.JSONMode)
			}
		})
	}
}

func TestConfigEnabledAndEndpoint(t *testing.T) {
	tests := []struct {
		cfg      llm.Config
		enabled  bool
		endpoint string
	}{
		{llm.Config{}, false, llm.OpenAIBaseURL},
		{llm.Config{Model: "gpt-4o-mini"}, false, llm.OpenAIBaseURL},
		{llm.Config{APIKey: testKey}, false, llm.OpenAIBaseURL},
		{llm.Config{APIKey: testKey, Model: "gpt-4o-mini"}, true, llm.OpenAIBaseURL},
		{llm.Config{BaseURL: "http://localhost:11434", Model: "llama3.2"}, true, "http://localhost:11434/v1"},
		{llm.Config{BaseURL: "http://192.168.1.5:1234/v1/", Model: "m"}, true, "http://192.168.1.5:1234/v1"},
		{llm.Config{BaseURL: "https://api.deepseek.com/", Model: "deepseek-chat", APIKey: testKey}, true, "https://api.deepseek.com/v1"},
		{llm.Config{BaseURL: "https://openrouter.ai/api/v1", Model: "m", APIKey: testKey}, true, "https://openrouter.ai/api/v1"},
		{llm.Config{BaseURL: "  ", Model: "m"}, false, llm.OpenAIBaseURL},
	}
	for _, tt := range tests {
		if got := tt.cfg.Enabled(); got != tt.enabled {
			t.Errorf("%v.Enabled() = %t", tt.cfg, got)
		}
		if got := tt.cfg.Endpoint(); got != tt.endpoint {
			t.Errorf("%v.Endpoint() = %q, want %q", tt.cfg, got, tt.endpoint)
		}
	}
}

func TestNewAppliesDefaults(t *testing.T) {
	c := llm.New(llm.Config{BaseURL: "http://x", Model: "m"}).Config()
	if c.Timeout != llm.DefaultTimeout || c.MaxRetries != llm.DefaultMaxRetries || c.BackoffBase != llm.DefaultBackoffBase || c.MaxTokens != llm.DefaultMaxTokens {
		t.Errorf("defaults not applied: timeout=%s retries=%d backoff=%s max_tokens=%d", c.Timeout, c.MaxRetries, c.BackoffBase, c.MaxTokens)
	}
	if c := llm.New(llm.Config{MaxRetries: llm.NoRetries}).Config(); c.MaxRetries != 0 {
		t.Errorf("NoRetries -> %d", c.MaxRetries)
	}
}

func TestKeyHint(t *testing.T) {
	for in, want := range map[string]string{
		"":                         "(none)",
		testKey:                    "sk-…(redacted)",
		"sk-short":                 "…(redacted)",
		"gsk_abcdefghijklmnopqrst": "…(redacted)",
		"abcdefghijklmnop-qrstu":   "…(redacted)",
		"none":                     "…(redacted)",
	} {
		if got := llm.KeyHint(in); got != want {
			t.Errorf("KeyHint(%q) = %q, want %q", in, got, want)
		}
	}
}

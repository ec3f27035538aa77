package llm

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// Defaults applied by DefaultConfig, ConfigFromEnv and New (for zero fields).
const (
	// DefaultTimeout bounds one Chat or Embed call, retries and backoff included.
	DefaultTimeout = 60 * time.Second
	// DefaultMaxRetries is the number of re-sent requests after the first.
	DefaultMaxRetries = 3
	// DefaultBackoffBase is the first backoff step; step n waits about
	// BackoffBase·2ⁿ (equal jitter), capped at MaxBackoff.
	DefaultBackoffBase = 500 * time.Millisecond
	// MaxBackoff caps one backoff wait computed from BackoffBase.
	// A server's Retry-After is honoured as given (bounded by the deadline).
	MaxBackoff = 10 * time.Second
	// OpenAIBaseURL is used when only an API key is configured.
	OpenAIBaseURL = "https://api.openai.com/v1"
	// DefaultMaxTokens bounds one reply. A next-action or check reply is
	// about 40 tokens plus a reason of at most 400 characters (about 100
	// tokens); the rest is headroom. Reasoning models that think in the
	// reply (or count hidden reasoning against the bound) need more: set
	// Config.MaxTokens or WAYFINDER_LLM_MAX_TOKENS.
	DefaultMaxTokens = 256
	// NoRetries as Config.MaxRetries disables retries (0 means the default).
	NoRetries = -1
	// placeholderKey is sent as the bearer token when no key is configured;
	// local servers (Ollama, vLLM, LM Studio) ignore it.
	placeholderKey = "none"
)

// Environment variables read by ConfigFromEnv.
const (
	EnvBaseURL    = "OPENAI_BASE_URL"          // e.g. https://api.deepseek.com, http://localhost:11434/v1
	EnvAPIKey     = "OPENAI_API_KEY"           // may be empty for local servers
	EnvModel      = "WAYFINDER_MODEL"          // e.g. gpt-4o-mini, deepseek-chat, qwen2.5:7b
	EnvTimeout    = "WAYFINDER_LLM_TIMEOUT"    // Go duration, e.g. 45s
	EnvMaxRetries = "WAYFINDER_LLM_RETRIES"    // integer >= 0
	EnvJSONMode   = "WAYFINDER_LLM_JSON_MODE"  // bool; false for endpoints without response_format
	EnvMaxTokens  = "WAYFINDER_LLM_MAX_TOKENS" // integer > 0: the bound on one reply
	EnvEmbedModel = "WAYFINDER_EMBED_MODEL"    // e.g. text-embedding-3-small, nomic-embed-text; empty: no embeddings
)

// Config selects and tunes the OpenAI-compatible endpoint.
//
// The zero value is disabled (see Enabled). New fills zero Timeout,
// MaxRetries and BackoffBase with the defaults; JSONMode cannot be
// defaulted that way (false is meaningful), so build configs with
// DefaultConfig or ConfigFromEnv, which set it to true.
//
// A Config never reveals APIKey: String, GoString, Format (every fmt verb),
// LogValue (slog) and MarshalJSON all print Redacted. fmt cannot call
// methods on unexported struct fields, so a struct that holds a Config in an
// unexported field and may be printed with %v should hold a *Client or a
// *Config instead (pointers below the top level print as addresses).
type Config struct {
	// BaseURL of the API, up to and including the version path
	// ("https://api.openai.com/v1"). A bare host ("http://localhost:11434")
	// gets "/v1" appended. Empty means OpenAIBaseURL.
	BaseURL string
	// Model name as the server knows it.
	Model string
	// EmbedModel is the embedding model (POST /embeddings) on the same
	// endpoint and key, e.g. "text-embedding-3-small" or
	// "nomic-embed-text". Empty means embeddings are off (see
	// EmbedEnabled); it is independent of Model, so an endpoint can serve
	// embeddings with no chat model configured.
	EmbedModel string
	// APIKey is the bearer token. Empty for local servers; the placeholder
	// "none" is sent then.
	APIKey string
	// Timeout bounds one Chat or Embed call, including its retries and backoff
	// waits. Zero means DefaultTimeout.
	Timeout time.Duration
	// MaxRetries is how many times a failed request is re-sent (429, 5xx,
	// transient network errors). Zero means DefaultMaxRetries; NoRetries
	// (negative) disables retries.
	MaxRetries int
	// BackoffBase is the first backoff step. Zero means DefaultBackoffBase.
	BackoffBase time.Duration
	// MaxTokens bounds the length of every reply (max_tokens in the
	// request), so a runaway generation cannot hold a single-slot local
	// server (llama.cpp, Ollama) for minutes after the client gave up.
	// Zero means DefaultMaxTokens.
	MaxTokens int
	// JSONMode asks CompleteJSON's replies to be constrained to the reply
	// type's JSON Schema with the strongest response_format the endpoint
	// accepts (see Format): json_schema, then json_object with a schema,
	// then plain json_object, then none. A refusal (400 or 422 naming
	// response_format) is detected, the request sent again one step down,
	// and the step remembered.
	JSONMode bool
	// Logger receives retry warnings (never prompts, replies or the key).
	// Nil disables logging.
	Logger *slog.Logger
}

// DefaultConfig returns a Config with every default set and no endpoint.
func DefaultConfig() Config {
	return Config{
		Timeout:     DefaultTimeout,
		MaxRetries:  DefaultMaxRetries,
		BackoffBase: DefaultBackoffBase,
		MaxTokens:   DefaultMaxTokens,
		JSONMode:    true,
	}
}

// ConfigFromEnv reads EnvBaseURL, EnvAPIKey, EnvModel, EnvEmbedModel,
// EnvTimeout, EnvMaxRetries, EnvMaxTokens and EnvJSONMode on top of DefaultConfig. Unset or empty
// variables keep the default. It returns an error naming the variable when
// a value does not parse (the key's value is never quoted).
func ConfigFromEnv() (Config, error) {
	c := DefaultConfig()
	c.BaseURL = strings.TrimSpace(os.Getenv(EnvBaseURL))
	c.APIKey = strings.TrimSpace(os.Getenv(EnvAPIKey))
	c.Model = strings.TrimSpace(os.Getenv(EnvModel))
	c.EmbedModel = strings.TrimSpace(os.Getenv(EnvEmbedModel))
	if v := strings.TrimSpace(os.Getenv(EnvTimeout)); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return c, fmt.Errorf("llm: config: %s=%q: want a positive Go duration such as 45s", EnvTimeout, v)
		}
		c.Timeout = d
	}
	if v := strings.TrimSpace(os.Getenv(EnvMaxRetries)); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return c, fmt.Errorf("llm: config: %s=%q: want an integer >= 0", EnvMaxRetries, v)
		}
		c.MaxRetries = n
		if n == 0 {
			c.MaxRetries = NoRetries
		}
	}
	if v := strings.TrimSpace(os.Getenv(EnvMaxTokens)); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return c, fmt.Errorf("llm: config: %s=%q: want an integer > 0", EnvMaxTokens, v)
		}
		c.MaxTokens = n
	}
	if v := strings.TrimSpace(os.Getenv(EnvJSONMode)); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return c, fmt.Errorf("llm: config: %s=%q: want true or false", EnvJSONMode, v)
		}
		c.JSONMode = b
	}
	if c.BaseURL != "" {
		if _, err := url.Parse(c.BaseURL); err != nil {
			return c, fmt.Errorf("llm: config: %s: not a URL: %s", EnvBaseURL, redactURL(c.BaseURL))
		}
	}
	return c, nil
}

// Enabled reports whether the config names an endpoint (a base URL or an
// API key for the default OpenAI URL) and a model.
func (c Config) Enabled() bool {
	return (strings.TrimSpace(c.BaseURL) != "" || c.APIKey != "") && strings.TrimSpace(c.Model) != ""
}

// EmbedEnabled reports whether the config names an endpoint (as for
// Enabled) and an embedding model.
func (c Config) EmbedEnabled() bool {
	return (strings.TrimSpace(c.BaseURL) != "" || c.APIKey != "") && strings.TrimSpace(c.EmbedModel) != ""
}

// Endpoint returns the normalised base URL the client sends to: trailing
// slashes removed, OpenAIBaseURL when empty, "/v1" appended to a bare host.
func (c Config) Endpoint() string {
	base := strings.TrimRight(strings.TrimSpace(c.BaseURL), "/")
	if base == "" {
		return OpenAIBaseURL
	}
	if u, err := url.Parse(base); err == nil && u.Host != "" && (u.Path == "" || u.Path == "/") {
		return base + "/v1"
	}
	return base
}

// withDefaults fills zero fields (see Config).
func (c Config) withDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	switch {
	case c.MaxRetries == 0:
		c.MaxRetries = DefaultMaxRetries
	case c.MaxRetries < 0:
		c.MaxRetries = 0
	}
	if c.BackoffBase <= 0 {
		c.BackoffBase = DefaultBackoffBase
	}
	if c.MaxTokens <= 0 {
		c.MaxTokens = DefaultMaxTokens
	}
	return c
}

// Redacted describes the config for logs and status pages without the key:
// the key shows as "sk-…(redacted)" (its short vendor prefix at most),
// "…(redacted)" or "(none)", and user:password in the base URL is removed.
func (c Config) Redacted() string {
	embed := ""
	if c.EmbedModel != "" {
		embed = " embed=" + c.EmbedModel
	}
	return fmt.Sprintf("llm.Config{base=%s model=%s%s key=%s timeout=%s retries=%d backoff=%s max_tokens=%d json=%t}",
		redactURL(c.Endpoint()), c.Model, embed, KeyHint(c.APIKey), c.Timeout, c.MaxRetries, c.BackoffBase, c.MaxTokens, c.JSONMode)
}

// String returns Redacted.
func (c Config) String() string { return c.Redacted() }

// GoString returns Redacted, so %#v cannot reveal the key either.
func (c Config) GoString() string { return c.Redacted() }

// Format prints Redacted for every verb (%v, %+v, %#v, %s, %q, %d, ...),
// so no fmt verb can print the key field by field.
func (c Config) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprint(f, strconv.Quote(c.Redacted()))
		return
	}
	fmt.Fprint(f, c.Redacted())
}

// LogValue implements slog.LogValuer with the redacted fields.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("base_url", redactURL(c.Endpoint())),
		slog.String("model", c.Model),
		slog.String("embed_model", c.EmbedModel),
		slog.String("api_key", KeyHint(c.APIKey)),
		slog.Duration("timeout", c.Timeout),
		slog.Int("max_retries", c.MaxRetries),
		slog.Int("max_tokens", c.MaxTokens),
		slog.Bool("json_mode", c.JSONMode),
	)
}

// MarshalJSON writes the redacted view (api_key is a hint, never the key),
// so a Config can be put on a status stream safely. It is deliberately not
// symmetric with decoding: a key is never round-tripped through JSON.
func (c Config) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		BaseURL    string `json:"base_url"`
		Model      string `json:"model"`
		EmbedModel string `json:"embed_model,omitempty"`
		APIKey     string `json:"api_key"`
		TimeoutMS  int64  `json:"timeout_ms"`
		MaxRetries int    `json:"max_retries"`
		MaxTokens  int    `json:"max_tokens"`
		JSONMode   bool   `json:"json_mode"`
	}{redactURL(c.Endpoint()), c.Model, c.EmbedModel, KeyHint(c.APIKey), c.Timeout.Milliseconds(), c.MaxRetries, c.MaxTokens, c.JSONMode})
}

// KeyHint returns a printable stand-in for an API key: "(none)" when empty,
// else the vendor prefix if it is short and the key long ("sk-…(redacted)"),
// else "…(redacted)". It never returns any secret character beyond a
// prefix of at most 4 characters ending in '-'.
func KeyHint(key string) string {
	if key == "" {
		return "(none)"
	}
	if i := strings.IndexByte(key, '-'); i > 0 && i < 4 && len(key) >= 16 {
		return key[:i+1] + "…(redacted)"
	}
	return "…(redacted)"
}

// redactURL removes user info (user:password@) from a URL string.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		if i := strings.LastIndexByte(s, '@'); i >= 0 {
			return "(redacted)@" + s[i+1:]
		}
		return s
	}
	if u.User != nil {
		u.User = url.User("redacted")
	}
	return u.String()
}

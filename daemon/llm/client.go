package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Chat roles.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // RoleSystem, RoleUser or RoleAssistant
	Content string `json:"content"`
}

// Reply is the outcome of one Chat call (or, from CompleteJSON, of the
// first call plus the repair call, summed).
type Reply struct {
	Text             string        // the assistant message content
	PromptTokens     int           // as reported by the server (0 if it reports none)
	CompletionTokens int           // as reported by the server
	Duration         time.Duration // wall time, retries and backoff included
	Retries          int           // re-sent requests
	Calls            int           // Chat calls made (1, or 2 after a repair)
	FinishReason     string        // "stop", "length" (reply cut off), ...
	Model            string        // model name the server reports
}

// Usage returns the reply's own token and call counts.
func (r Reply) Usage() Usage {
	return Usage{Calls: r.Calls, PromptTokens: r.PromptTokens, CompletionTokens: r.CompletionTokens, Retries: r.Retries}
}

// add sums b into r; the text, finish reason and model become b's.
func (r Reply) add(b Reply) Reply {
	r.Text, r.FinishReason = b.Text, b.FinishReason
	if b.Model != "" {
		r.Model = b.Model
	}
	r.PromptTokens += b.PromptTokens
	r.CompletionTokens += b.CompletionTokens
	r.Duration += b.Duration
	r.Retries += b.Retries
	r.Calls += b.Calls
	return r
}

// Usage counts model use: Chat calls, tokens as reported by the server,
// Embed calls and their input tokens, and re-sent requests (of either).
// The daemon reads and resets it per command.
type Usage struct {
	Calls            int `json:"calls"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	Retries          int `json:"retries"`
	EmbedCalls       int `json:"embed_calls,omitempty"`
	EmbedTokens      int `json:"embed_tokens,omitempty"`
}

// Add returns u + v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		Calls:            u.Calls + v.Calls,
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		Retries:          u.Retries + v.Retries,
		EmbedCalls:       u.EmbedCalls + v.EmbedCalls,
		EmbedTokens:      u.EmbedTokens + v.EmbedTokens,
	}
}

// Tokens returns prompt plus completion tokens of Chat calls (embedding
// tokens are counted apart, in EmbedTokens).
func (u Usage) Tokens() int { return u.PromptTokens + u.CompletionTokens }

// ErrNotConfigured is returned (wrapped) by Chat when Config.Enabled is
// false (no endpoint or no model), and by Embed when Config.EmbedEnabled
// is false (no endpoint or no embedding model).
var ErrNotConfigured = errors.New("llm: no model endpoint configured")

// Error is the error Chat and Embed return when the endpoint could not give
// a reply: an HTTP error status, a network failure, the per-call timeout,
// context cancellation or an unusable response. Its text has the form
//
//	llm: chat: status 500 after 3 retries: <server message>
//	llm: embeddings: timeout 3s
//
// and never contains the API key.
type Error struct {
	StatusCode int   // HTTP status of the last attempt; 0 when there was none
	Retries    int   // requests re-sent before giving up
	Timeout    bool  // Config.Timeout expired
	Canceled   bool  // the caller's context ended
	Err        error // the cause with secrets removed: *openai.APIError, *openai.RequestError, *url.Error, context errors, ...

	op     string // "chat" (also when empty) or "embeddings"
	what   string // "status 500", "timeout 200ms", ...
	detail string // redacted cause text
}

// Operation names in Error texts and retry logs.
const (
	opChat  = "chat"
	opEmbed = "embeddings"
)

func (e *Error) Error() string {
	var b strings.Builder
	op := e.op
	if op == "" {
		op = opChat
	}
	b.WriteString("llm: ")
	b.WriteString(op)
	b.WriteString(": ")
	b.WriteString(e.what)
	if e.Retries > 0 {
		fmt.Fprintf(&b, " after %d %s", e.Retries, plural(e.Retries, "retry", "retries"))
	}
	if e.detail != "" {
		b.WriteString(": ")
		b.WriteString(e.detail)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Client sends chat completions to one endpoint. It is safe for concurrent
// use. Printing a Client (any fmt verb) shows only its redacted config.
type Client struct {
	cfg Config
	api *openai.Client
	// fmtLevel is the Format CompleteJSON sends (it only moves down, when
	// the endpoint refuses one); completionTokens is set once the endpoint
	// refused max_tokens and wants max_completion_tokens.
	fmtLevel         atomic.Int32
	completionTokens atomic.Bool

	mu    sync.Mutex
	usage Usage
	stats Stats
}

// format is the response format CompleteJSON sends now.
func (c *Client) format() Format {
	if !c.cfg.JSONMode {
		return FormatNone
	}
	return Format(c.fmtLevel.Load())
}

// stepDownFrom records that the endpoint refused f: later calls send the
// next weaker format (never a stronger one than already in use).
func (c *Client) stepDownFrom(f Format) Format {
	next := min(f+1, FormatNone)
	for {
		old := c.fmtLevel.Load()
		if Format(old) >= next || c.fmtLevel.CompareAndSwap(old, int32(next)) {
			return next
		}
	}
}

// New returns a client for cfg (zero fields defaulted, see Config). It does
// not contact the endpoint; a disabled config yields ErrNotConfigured from
// Chat.
func New(cfg Config) *Client {
	cfg = cfg.withDefaults()
	token := cfg.APIKey
	if token == "" {
		token = placeholderKey
	}
	oc := openai.DefaultConfig(token)
	oc.BaseURL = cfg.Endpoint()
	oc.HTTPClient = captureDoer{inner: &http.Client{}}
	return &Client{cfg: cfg, api: openai.NewClientWithConfig(oc)}
}

// Config returns the client's config, defaults applied.
func (c *Client) Config() Config { return c.cfg }

// EmbedModel returns Config.EmbedModel ("" when embeddings are off).
func (c *Client) EmbedModel() string {
	if c == nil {
		return ""
	}
	return c.cfg.EmbedModel
}

// Format prints the redacted config for every verb.
func (c *Client) Format(f fmt.State, verb rune) {
	if c == nil {
		fmt.Fprint(f, "llm.Client(nil)")
		return
	}
	fmt.Fprintf(f, "llm.Client{%s}", c.cfg.Redacted())
}

// Usage returns the counts accumulated since New or the last ResetUsage.
func (c *Client) Usage() Usage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.usage
}

// ResetUsage zeroes the counts and returns the values they had.
func (c *Client) ResetUsage() Usage {
	c.mu.Lock()
	defer c.mu.Unlock()
	u := c.usage
	c.usage = Usage{}
	return u
}

func (c *Client) count(u Usage) {
	c.mu.Lock()
	c.usage = c.usage.Add(u)
	c.mu.Unlock()
}

// Redact removes the client's API key and the given secrets from s.
func (c *Client) Redact(s string, secrets ...string) string {
	all := make([]string, 0, len(secrets)+1)
	all = append(all, secrets...)
	if c != nil {
		all = append(all, c.cfg.APIKey)
	}
	return Redact(s, all...)
}

// Chat sends msgs and returns the assistant's reply. The call is bounded by
// Config.Timeout (retries included) and ctx, and the reply by
// Config.MaxTokens (sent as max_tokens, or as max_completion_tokens once
// the endpoint has asked for that). Requests failing with 429, a 5xx
// status or a transient network error are re-sent up to Config.MaxRetries
// times after an exponential backoff with jitter, or after the server's
// Retry-After when present; a wait that would pass the deadline ends the
// call at once. Other 4xx statuses, the timeout and ctx cancellation are
// not retried; the timeout or cancellation closes the connection, so a
// server that notices stops work on it. Errors are *Error (or wrap
// ErrNotConfigured). On error the returned Reply still carries Duration,
// Retries and Calls for accounting.
func (c *Client) Chat(ctx context.Context, msgs []Message) (Reply, error) {
	return c.chat(ctx, msgs, nil)
}

// chat is Chat; a non-nil spec asks for a reply of that schema with the
// strongest response format the endpoint accepts (see Format).
func (c *Client) chat(ctx context.Context, msgs []Message, spec *replySpec) (Reply, error) {
	start := time.Now()
	if c == nil || !c.cfg.Enabled() {
		return Reply{}, fmt.Errorf("llm: chat: %w", ErrNotConfigured)
	}
	if len(msgs) == 0 {
		return Reply{}, errors.New("llm: chat: no messages")
	}
	if err := ctx.Err(); err != nil {
		return Reply{}, &Error{Canceled: true, Err: err, op: opChat, what: "canceled", detail: err.Error()}
	}

	req := openai.ChatCompletionRequest{Model: c.cfg.Model, Messages: make([]openai.ChatCompletionMessage, len(msgs))}
	for i, m := range msgs {
		req.Messages[i] = openai.ChatCompletionMessage{Role: m.Role, Content: m.Content}
	}
	format := FormatNone
	if spec != nil {
		format = c.format()
	}

	reply := Reply{Calls: 1}
	c.count(Usage{Calls: 1})
	var resp openai.ChatCompletionResponse
	e := c.send(ctx, opChat, &reply.Retries, func(ctx context.Context) error {
		req.MaxTokens, req.MaxCompletionTokens = c.cfg.MaxTokens, 0
		if c.completionTokens.Load() {
			req.MaxTokens, req.MaxCompletionTokens = 0, c.cfg.MaxTokens
		}
		if spec != nil {
			if rf := spec.responseFormat(format); rf != nil {
				ctx = withBodyPatch(ctx, bodyPatch{"response_format": rf})
			}
		}
		var err error
		resp, err = c.api.CreateChatCompletion(ctx, req)
		return err
	}, func(err error, status int) bool {
		detail := errDetail(err)
		// The endpoint refused this response format (LM Studio has no
		// json_object, llama-cpp-python no json_schema, some servers
		// neither): ask again with the next weaker one and remember.
		if format < FormatNone && refusedFormat(status, detail) {
			format = c.stepDownFrom(format)
			return true
		}
		if req.MaxTokens > 0 && refusedMaxTokens(status, detail) {
			c.completionTokens.Store(true)
			return true
		}
		return false
	})
	if e == nil && len(resp.Choices) == 0 {
		e = c.fail(opChat, reply.Retries, 0, nil, "bad response", "no choices in the response")
	}
	reply.Duration = time.Since(start)
	if e != nil {
		c.recordChat(reply, e)
		return reply, e
	}
	ch := resp.Choices[0]
	reply.Text = ch.Message.Content
	reply.FinishReason = string(ch.FinishReason)
	reply.Model = resp.Model
	reply.PromptTokens = resp.Usage.PromptTokens
	reply.CompletionTokens = resp.Usage.CompletionTokens
	c.count(Usage{PromptTokens: reply.PromptTokens, CompletionTokens: reply.CompletionTokens})
	c.recordChat(reply, nil)
	return reply, nil
}

// Embed returns one embedding per text, in the order of texts, from
// Config.EmbedModel on the configured endpoint (POST /embeddings). It
// follows Chat's conventions: one call is bounded by Config.Timeout
// (retries included) and ctx; 429, 5xx and transient network errors are
// re-sent with the same backoff; errors are *Error (text "llm: embeddings:
// ...", never the key) or wrap ErrNotConfigured when EmbedEnabled is false.
// Each call counts one Usage.EmbedCalls and the input tokens the server
// reports in Usage.EmbedTokens. No texts is no call.
func (c *Client) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if c == nil || !c.cfg.EmbedEnabled() {
		return nil, fmt.Errorf("llm: embeddings: %w", ErrNotConfigured)
	}
	if len(texts) == 0 {
		return nil, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, &Error{Canceled: true, Err: err, op: opEmbed, what: "canceled", detail: err.Error()}
	}
	req := openai.EmbeddingRequestStrings{Input: texts, Model: openai.EmbeddingModel(c.cfg.EmbedModel)}
	retries := 0
	c.count(Usage{EmbedCalls: 1})
	var resp openai.EmbeddingResponse
	if e := c.send(ctx, opEmbed, &retries, func(ctx context.Context) error {
		var err error
		resp, err = c.api.CreateEmbeddings(ctx, req)
		return err
	}, nil); e != nil {
		return nil, e
	}
	c.count(Usage{EmbedTokens: resp.Usage.PromptTokens})
	if len(resp.Data) != len(texts) {
		return nil, c.fail(opEmbed, retries, 0, nil, "bad response", fmt.Sprintf("%d embeddings for %d texts", len(resp.Data), len(texts)))
	}
	out := make([][]float32, len(texts))
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= len(texts) || out[d.Index] != nil {
			return nil, c.fail(opEmbed, retries, 0, nil, "bad response", fmt.Sprintf("embedding index %d out of range or repeated", d.Index))
		}
		if len(d.Embedding) == 0 {
			return nil, c.fail(opEmbed, retries, 0, nil, "bad response", fmt.Sprintf("embedding %d is empty", d.Index))
		}
		out[d.Index] = d.Embedding
	}
	dim := len(out[0])
	for i, v := range out {
		if len(v) != dim {
			return nil, c.fail(opEmbed, retries, 0, nil, "bad response", fmt.Sprintf("embedding %d has %d dimensions, embedding 0 has %d", i, len(v), dim))
		}
	}
	return out, nil
}

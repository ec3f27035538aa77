package llm

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
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
// and re-sent requests. The daemon reads and resets it per command.
type Usage struct {
	Calls            int `json:"calls"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	Retries          int `json:"retries"`
}

// Add returns u + v.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.Calls + v.Calls, u.PromptTokens + v.PromptTokens, u.CompletionTokens + v.CompletionTokens, u.Retries + v.Retries}
}

// Tokens returns prompt plus completion tokens.
func (u Usage) Tokens() int { return u.PromptTokens + u.CompletionTokens }

// ErrNotConfigured is returned (wrapped) by Chat when Config.Enabled is
// false: no endpoint or no model.
var ErrNotConfigured = errors.New("llm: no model endpoint configured")

// Error is the error Chat returns when the endpoint could not give a reply:
// an HTTP error status, a network failure, the per-call timeout, context
// cancellation or an unusable response. Its text has the form
//
//	llm: chat: status 500 after 3 retries: <server message>
//
// and never contains the API key.
type Error struct {
	StatusCode int   // HTTP status of the last attempt; 0 when there was none
	Retries    int   // requests re-sent before giving up
	Timeout    bool  // Config.Timeout expired
	Canceled   bool  // the caller's context ended
	Err        error // the cause with secrets removed: *openai.APIError, *openai.RequestError, *url.Error, context errors, ...

	what   string // "status 500", "timeout 200ms", ...
	detail string // redacted cause text
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("llm: chat: ")
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
	cfg    Config
	api    *openai.Client
	noJSON atomic.Bool // endpoint rejected response_format

	mu    sync.Mutex
	usage Usage
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
// Config.Timeout (retries included) and ctx. Requests failing with 429, a
// 5xx status or a transient network error are re-sent up to
// Config.MaxRetries times after an exponential backoff with jitter, or
// after the server's Retry-After when present; a wait that would pass the
// deadline ends the call at once. Other 4xx statuses, the timeout and ctx
// cancellation are not retried. Errors are *Error (or wrap
// ErrNotConfigured). On error the returned Reply still carries Duration,
// Retries and Calls for accounting.
func (c *Client) Chat(ctx context.Context, msgs []Message) (Reply, error) {
	return c.chat(ctx, msgs, false)
}

func (c *Client) chat(ctx context.Context, msgs []Message, jsonMode bool) (Reply, error) {
	start := time.Now()
	if c == nil || !c.cfg.Enabled() {
		return Reply{}, fmt.Errorf("llm: chat: %w", ErrNotConfigured)
	}
	if len(msgs) == 0 {
		return Reply{}, errors.New("llm: chat: no messages")
	}
	if err := ctx.Err(); err != nil {
		return Reply{}, &Error{Canceled: true, Err: err, what: "canceled", detail: err.Error()}
	}
	callCtx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()

	req := openai.ChatCompletionRequest{Model: c.cfg.Model, Messages: make([]openai.ChatCompletionMessage, len(msgs))}
	for i, m := range msgs {
		req.Messages[i] = openai.ChatCompletionMessage{Role: m.Role, Content: m.Content}
	}
	useJSON := jsonMode && c.cfg.JSONMode && !c.noJSON.Load()
	droppedJSON := false

	reply := Reply{Calls: 1}
	c.count(Usage{Calls: 1})
	done := func(e *Error) (Reply, error) {
		reply.Duration = time.Since(start)
		if e == nil {
			return reply, nil
		}
		return reply, e
	}
	// stopped reports why the call ended when a context is done.
	stopped := func(status int) *Error {
		if ctx.Err() != nil {
			e := c.fail(&reply, status, ctx.Err(), "canceled", "")
			e.Canceled = true
			return e
		}
		e := c.fail(&reply, status, callCtx.Err(), "timeout "+c.cfg.Timeout.String(), "")
		e.Timeout = true
		return e
	}

	for {
		req.ResponseFormat = nil
		if useJSON {
			req.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
		}
		hdr := &capturedHeader{}
		resp, err := c.api.CreateChatCompletion(context.WithValue(callCtx, captureKey{}, hdr), req)
		if err == nil {
			if len(resp.Choices) == 0 {
				return done(c.fail(&reply, 0, nil, "bad response", "no choices in the response"))
			}
			ch := resp.Choices[0]
			reply.Text = ch.Message.Content
			reply.FinishReason = string(ch.FinishReason)
			reply.Model = resp.Model
			reply.PromptTokens = resp.Usage.PromptTokens
			reply.CompletionTokens = resp.Usage.CompletionTokens
			c.count(Usage{PromptTokens: reply.PromptTokens, CompletionTokens: reply.CompletionTokens})
			return done(nil)
		}

		status := statusOf(err)
		if callCtx.Err() != nil {
			return done(stopped(status))
		}

		// Endpoints without JSON mode (e.g. LM Studio) answer 400 naming
		// response_format: ask once more without it and remember.
		if useJSON && !droppedJSON && status == http.StatusBadRequest && strings.Contains(strings.ToLower(errDetail(err)), "response_format") {
			c.noJSON.Store(true)
			useJSON, droppedJSON = false, true
			c.logRetry(reply.Retries+1, status, 0, err)
			reply.Retries++
			c.count(Usage{Retries: 1})
			continue
		}

		what := "network error"
		if status != 0 {
			what = "status " + strconv.Itoa(status)
		}
		if !retryable(err, status) || reply.Retries >= c.cfg.MaxRetries {
			return done(c.fail(&reply, status, err, what, ""))
		}
		wait := c.backoff(reply.Retries)
		if ra, ok := hdr.retryAfter(time.Now()); ok {
			wait = ra
		}
		if dl, ok := callCtx.Deadline(); ok && time.Until(dl) < wait {
			return done(c.fail(&reply, status, err, what, fmt.Sprintf("next retry in %s would pass the %s deadline: %s",
				wait.Round(time.Millisecond), c.cfg.Timeout, c.Redact(errDetail(err)))))
		}
		c.logRetry(reply.Retries+1, status, wait, err)
		if wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-callCtx.Done():
				t.Stop()
				return done(stopped(status))
			}
		}
		reply.Retries++
		c.count(Usage{Retries: 1})
	}
}

// fail builds the *Error for the current attempt; detail defaults to the
// redacted cause text.
func (c *Client) fail(reply *Reply, status int, err error, what, detail string) *Error {
	if err == nil {
		err = errors.New(detail)
	}
	if detail == "" {
		detail = c.Redact(errDetail(err))
	}
	return &Error{StatusCode: status, Retries: reply.Retries, Err: sanitizeErr(err, c.cfg.APIKey), what: what, detail: detail}
}

func (c *Client) logRetry(n, status int, wait time.Duration, err error) {
	if c.cfg.Logger == nil {
		return
	}
	c.cfg.Logger.Warn("llm: retrying chat completion",
		slog.Int("retry", n), slog.Int("max_retries", c.cfg.MaxRetries), slog.Int("status", status),
		slog.Duration("wait", wait), slog.String("err", c.Redact(errDetail(err))))
}

// backoff returns the wait before retry n (0-based): BackoffBase·2ⁿ capped
// at MaxBackoff, with equal jitter (half fixed, half uniform random).
func (c *Client) backoff(n int) time.Duration {
	d := c.cfg.BackoffBase
	for i := 0; i < n && d < MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, MaxBackoff)
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(half)+1))
}

// statusOf returns the HTTP status carried by a go-openai error, else 0.
func statusOf(err error) int {
	var ae *openai.APIError
	if errors.As(err, &ae) {
		return ae.HTTPStatusCode
	}
	var re *openai.RequestError
	if errors.As(err, &re) {
		return re.HTTPStatusCode
	}
	return 0
}

// errDetail is the most useful text of a go-openai error: the API message,
// or the start of a non-JSON error body.
func errDetail(err error) string {
	var ae *openai.APIError
	if errors.As(err, &ae) && ae.Message != "" {
		return ae.Message
	}
	var re *openai.RequestError
	if errors.As(err, &re) {
		body := strings.TrimSpace(string(re.Body))
		if len(body) > 300 {
			body = body[:300] + "…"
		}
		if body != "" {
			return body
		}
		if re.Err != nil {
			return re.Err.Error()
		}
		return re.HTTPStatus
	}
	return err.Error()
}

// retryable classifies a failed attempt: 429 and 5xx statuses, and network
// errors other than TLS certificate failures and malformed URLs.
func retryable(err error, status int) bool {
	if status != 0 {
		return status == http.StatusTooManyRequests || status >= 500
	}
	var certErr *tls.CertificateVerificationError
	if errors.As(err, &certErr) {
		return false
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		msg := ue.Err.Error()
		return !strings.Contains(msg, "unsupported protocol scheme") && !strings.Contains(msg, "no Host in request URL")
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// captureKey carries a *capturedHeader in a request context so the HTTP
// doer can hand back the response headers go-openai does not expose on
// errors.
type captureKey struct{}

type capturedHeader struct{ h http.Header }

type captureDoer struct{ inner openai.HTTPDoer }

func (d captureDoer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.inner.Do(req)
	if resp != nil {
		if c, ok := req.Context().Value(captureKey{}).(*capturedHeader); ok {
			c.h = resp.Header.Clone()
		}
	}
	return resp, err
}

// retryAfter parses Retry-After (delay-seconds or an HTTP date, RFC 9110
// §10.2.3) or the non-standard retry-after-ms some OpenAI-compatible
// servers send.
func (c *capturedHeader) retryAfter(now time.Time) (time.Duration, bool) {
	if c == nil || c.h == nil {
		return 0, false
	}
	return parseRetryAfter(c.h.Get("Retry-After"), c.h.Get("Retry-After-Ms"), now)
}

func parseRetryAfter(ra, raMS string, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(raMS); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e9 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(ra)
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(min(s, 1_000_000)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(now)), true
	}
	return 0, false
}

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

// send runs attempt until it succeeds, within Config.Timeout and ctx: it
// re-sends after 429, 5xx and transient network errors with backoff (or
// the server's Retry-After) up to Config.MaxRetries times, and gives up
// at once when a wait would pass the deadline. again, when set, may ask
// for an immediate re-send of a failed attempt (counted as a retry).
// *retries counts the re-sent requests. The error is nil on success.
func (c *Client) send(ctx context.Context, op string, retries *int, attempt func(ctx context.Context) error, again func(err error, status int) bool) *Error {
	callCtx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	// stopped reports why the call ended when a context is done.
	stopped := func(status int) *Error {
		if ctx.Err() != nil {
			e := c.fail(op, *retries, status, ctx.Err(), "canceled", "")
			e.Canceled = true
			return e
		}
		e := c.fail(op, *retries, status, callCtx.Err(), "timeout "+c.cfg.Timeout.String(), "")
		e.Timeout = true
		return e
	}
	for {
		hdr := &capturedHeader{}
		err := attempt(context.WithValue(callCtx, captureKey{}, hdr))
		if err == nil {
			return nil
		}
		status := statusOf(err)
		if callCtx.Err() != nil {
			return stopped(status)
		}
		if again != nil && again(err, status) {
			c.logRetry(op, *retries+1, status, 0, err)
			*retries++
			c.count(Usage{Retries: 1})
			continue
		}
		what := "network error"
		if errors.Is(err, ErrReplyTooLarge) {
			what = "reply too large"
		}
		if status != 0 {
			what = "status " + strconv.Itoa(status)
		}
		if !retryable(err, status) || *retries >= c.cfg.MaxRetries {
			return c.fail(op, *retries, status, err, what, "")
		}
		wait := c.backoff(*retries)
		if ra, ok := hdr.retryAfter(time.Now()); ok {
			wait = ra
		}
		if dl, ok := callCtx.Deadline(); ok && time.Until(dl) < wait {
			return c.fail(op, *retries, status, err, what, fmt.Sprintf("next retry in %s would pass the %s deadline: %s",
				wait.Round(time.Millisecond), c.cfg.Timeout, c.Redact(errDetail(err))))
		}
		c.logRetry(op, *retries+1, status, wait, err)
		if wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-callCtx.Done():
				t.Stop()
				return stopped(status)
			}
		}
		*retries++
		c.count(Usage{Retries: 1})
	}
}

// fail builds the *Error for the current attempt; detail defaults to the
// redacted cause text.
func (c *Client) fail(op string, retries, status int, err error, what, detail string) *Error {
	if err == nil {
		err = errors.New(detail)
	}
	if detail == "" {
		detail = c.Redact(errDetail(err))
	}
	return &Error{StatusCode: status, Retries: retries, Err: sanitizeErr(err, c.cfg.APIKey), op: op, what: what, detail: detail}
}

func (c *Client) logRetry(op string, n, status int, wait time.Duration, err error) {
	if c.cfg.Logger == nil {
		return
	}
	msg := "llm: retrying chat completion"
	if op == opEmbed {
		msg = "llm: retrying embeddings"
	}
	c.cfg.Logger.Warn(msg,
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
// doer (captureDoer, which also applies a request's bodyPatch) can hand
// back the response headers go-openai does not expose on errors.
type captureKey struct{}

type capturedHeader struct{ h http.Header }

type captureDoer struct{ inner openai.HTTPDoer }

func (d captureDoer) Do(req *http.Request) (*http.Response, error) {
	if err := patchBody(req); err != nil {
		return nil, err
	}
	resp, err := d.inner.Do(req)
	if resp != nil {
		if c, ok := req.Context().Value(captureKey{}).(*capturedHeader); ok {
			c.h = resp.Header.Clone()
		}
		resp.Body = &cappedBody{rc: resp.Body, left: MaxReplyBytes}
	}
	return resp, err
}

// MaxReplyBytes caps the bytes read of one endpoint response (256 KiB):
// a chat reply is a few hundred bytes of JSON and an embedding batch tens
// of kilobytes, so anything larger is a fault or an attack and is cut off
// with ErrReplyTooLarge instead of being held in memory.
const MaxReplyBytes = 256 << 10

// ErrReplyTooLarge: the endpoint sent more than MaxReplyBytes.
var ErrReplyTooLarge = fmt.Errorf("llm: reply larger than %d bytes", MaxReplyBytes)

// cappedBody reads at most left bytes of rc, then fails with
// ErrReplyTooLarge.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// one byte more tells a body of exactly the cap from a longer one
		var one [1]byte
		if n, _ := b.rc.Read(one[:]); n > 0 {
			return 0, ErrReplyTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

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

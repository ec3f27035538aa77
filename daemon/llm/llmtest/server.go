// Package llmtest provides a fake OpenAI-compatible chat-completions
// server for tests: scripted replies, injected faults (timeout, 429, 500,
// non-JSON content, a non-existent element index), a dynamic Func mode,
// request recording and an optional API-key check. It can also play a
// local server's limits: a single generation slot with a per-token cost
// (WithSingleSlot), replies that run on until max_tokens (Reply.Runaway),
// and refusals of response formats (WithFormats, WithoutJSONMode) or of
// max_tokens (WithoutMaxTokens). It also serves
// embeddings: deterministic vectors (BagOfStems: similar wording, high
// cosine), with the same faults (embed.go).
//
// It serves POST /v1/chat/completions, POST /chat/completions,
// POST /v1/embeddings and POST /embeddings on an httptest server that is
// closed by t.Cleanup. It does not import package
// llm, so llm's own tests can use it; it speaks the wire format through
// go-openai's request and response types.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Fault selects a misbehaviour for one scripted reply.
type Fault int

const (
	// FaultNone serves Reply.Content normally.
	FaultNone Fault = iota
	// FaultTimeout never answers: the handler waits until the client gives
	// up (its deadline or cancellation closes the request) or the server
	// is closed.
	FaultTimeout
	// Fault429 answers 429 Too Many Requests with Retry-After
	// (Reply.RetryAfter, default "0").
	Fault429
	// Fault500 answers 500 with an OpenAI-style error body.
	Fault500
	// FaultNotJSON answers 200 with NotJSONContent, prose instead of JSON.
	FaultNotJSON
	// FaultBadElement answers 200 with BadElementContent: a schema-valid
	// next-action reply that taps element BadElementIndex, which no test
	// screen has; the caller's semantic check must reject it.
	FaultBadElement
	// FaultShort (embeddings only) answers 200 with one embedding fewer
	// than the inputs.
	FaultShort
)

func (f Fault) String() string {
	switch f {
	case FaultNone:
		return "none"
	case FaultTimeout:
		return "timeout"
	case Fault429:
		return "429"
	case Fault500:
		return "500"
	case FaultNotJSON:
		return "not-json"
	case FaultBadElement:
		return "bad-element"
	case FaultShort:
		return "short"
	}
	return fmt.Sprintf("Fault(%d)", int(f))
}

// Contents served by FaultNotJSON and FaultBadElement.
const (
	NotJSONContent    = "Sure! I will tap the Save button to store the note."
	BadElementIndex   = 999
	BadElementContent = `{"reason":"The Save button stores the note.","action":"tap","element":999,"done":false}`
)

// Reply is one scripted answer.
type Reply struct {
	Content string // assistant message content (FaultNone)
	// Runaway makes the model go on generating after Content, as a small
	// model sometimes does: it stops only at the request's max_tokens (or,
	// when the request has none, at RunawayTokens). The reply is then
	// Content cut to that many tokens, finish_reason "length".
	Runaway          bool
	PromptTokens     int // usage reported; when both are 0 the server estimates len/4
	CompletionTokens int
	FinishReason     string // default "stop"
	Fault            Fault
	RetryAfter       string        // Fault429: Retry-After header value; "" means "0"
	Delay            time.Duration // wait before answering (bounded by the request context)
}

// Text is a normal reply with the given content.
func Text(content string) Reply { return Reply{Content: content} }

// JSON is a normal reply whose content is v marshalled; if v cannot be
// marshalled the content is the error text (not JSON).
func JSON(v any) Reply {
	b, err := json.Marshal(v)
	if err != nil {
		return Reply{Content: "llmtest: " + err.Error()}
	}
	return Reply{Content: string(b)}
}

// Faulty is a reply with the given fault.
func Faulty(f Fault) Reply { return Reply{Fault: f} }

// Request is one recorded request.
type Request struct {
	Path          string
	Authorization string // the Authorization header as received
	Body          openai.ChatCompletionRequest
	Raw           []byte // the raw request body
	// ResponseFormat is the raw response_format member (nil when absent):
	// Body drops members go-openai does not model, such as json_object's
	// "schema".
	ResponseFormat json.RawMessage
	Served         Fault // the fault served (FaultNone for normal replies)
	// Skipped is set (single-slot mode) when the client had gone before
	// the request reached the slot, so nothing was generated.
	Skipped bool
}

// Format is the type of the recorded response_format ("" when absent).
func (r Request) Format() string {
	var f struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(r.ResponseFormat, &f)
	return f.Type
}

// HasSchema reports whether the recorded response_format carries a JSON
// Schema (json_schema.schema, or json_object's "schema" member).
func (r Request) HasSchema() bool {
	var f struct {
		Schema     json.RawMessage `json:"schema"`
		JSONSchema struct {
			Schema json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	}
	_ = json.Unmarshal(r.ResponseFormat, &f)
	return len(f.Schema) > 0 || len(f.JSONSchema.Schema) > 0
}

// RunawayTokens is how many tokens a Runaway reply generates when the
// request sets no max_tokens.
const RunawayTokens = 4096

// Option configures a Server.
type Option func(*Server)

// WithKey makes the server require "Authorization: Bearer <key>" and
// answer 401 otherwise (the 401 body never echoes the header).
func WithKey(key string) Option { return func(s *Server) { s.key, s.checkKey = key, true } }

// WithFunc serves dynamic replies: f's return value is the content, used
// when the script is empty.
func WithFunc(f func(req openai.ChatCompletionRequest) string) Option {
	return func(s *Server) { s.fn = func(r openai.ChatCompletionRequest) Reply { return Text(f(r)) } }
}

// WithReplyFunc is WithFunc returning a full Reply (faults included).
func WithReplyFunc(f func(req openai.ChatCompletionRequest) Reply) Option {
	return func(s *Server) { s.fn = f }
}

// WithoutJSONMode makes the server reject response_format json_object
// with a 400 naming response_format, as LM Studio does.
func WithoutJSONMode() Option { return func(s *Server) { s.noJSONMode = true } }

// WithFormats makes the server accept only the given response_format
// types ("text", "json_object", "json_schema") and refuse others as
// llama-cpp-python 0.3.36 does (it accepts "text" and "json_object", the
// latter with an optional "schema" member): status 500, its error message
// the pydantic validation error naming body.response_format.type.
func WithFormats(types ...string) Option {
	return func(s *Server) { s.formats = append([]string(nil), types...) }
}

// WithoutMaxTokens makes the server refuse max_tokens with OpenAI's 400
// for reasoning models, which want max_completion_tokens instead.
func WithoutMaxTokens() Option { return func(s *Server) { s.noMaxTokens = true } }

// WithSingleSlot makes the server behave like a local single-slot server
// (llama.cpp, llama-cpp-python): requests are answered one at a time;
// generating a reply takes perToken per completion token (len/4+1 of the
// content, bounded by max_tokens; see Reply.Runaway); a generation that
// has started runs to its end even when the client has gone (as a
// non-streaming llama-cpp-python request does), while a queued request
// whose client has gone is skipped before it starts.
func WithSingleSlot(perToken time.Duration) Option {
	return func(s *Server) { s.perToken = perToken }
}

// Server is the fake endpoint. Safe for concurrent use.
type Server struct {
	t           testing.TB
	srv         *httptest.Server
	stop        chan struct{}
	stopOnce    sync.Once
	key         string
	checkKey    bool
	noJSONMode  bool
	formats     []string      // WithFormats; nil accepts every type
	noMaxTokens bool          // WithoutMaxTokens
	perToken    time.Duration // WithSingleSlot; 0: concurrent, instant
	slot        sync.Mutex    // held while a single-slot generation runs

	mu       sync.Mutex
	script   []Reply
	always   *Reply
	fn       func(openai.ChatCompletionRequest) Reply
	requests []Request

	embedFn     func(model, text string) []float32
	synonyms    map[string]string
	embedScript []Fault
	embedAlways Fault
	embedReqs   []EmbedRequest
}

// NewServer starts a fake server, closed automatically when the test ends.
func NewServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := &Server{t: t, stop: make(chan struct{})}
	for _, o := range opts {
		o(s)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.handle)
	mux.HandleFunc("POST /chat/completions", s.handle)
	mux.HandleFunc("POST /v1/embeddings", s.handleEmbed)
	mux.HandleFunc("POST /embeddings", s.handleEmbed)
	s.srv = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// URL is the base URL to configure clients with; it ends in /v1.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Key is the key configured with WithKey ("" if none).
func (s *Server) Key() string { return s.key }

// Script appends replies served in order, one per request.
func (s *Server) Script(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, replies...)
}

// Always sets the reply served when the script is empty and no Func is
// set (e.g. Faulty(Fault500) for a persistently failing endpoint).
func (s *Server) Always(r Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.always = &r
}

// SetFunc switches to Func mode at run time (see WithFunc).
func (s *Server) SetFunc(f func(req openai.ChatCompletionRequest) string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fn = func(r openai.ChatCompletionRequest) Reply { return Text(f(r)) }
}

// Pending is the number of scripted replies not yet served.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script)
}

// Requests returns a copy of the recorded requests, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Calls is the number of chat-completion requests received (embedding
// requests are counted by EmbedCalls).
func (s *Server) Calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// Close releases hanging FaultTimeout handlers and stops the server. It
// is idempotent and called by t.Cleanup.
func (s *Server) Close() {
	s.stopOnce.Do(func() {
		close(s.stop)
		s.srv.Close()
	})
}

func (s *Server) next(req openai.ChatCompletionRequest) (Reply, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.script) > 0 {
		r := s.script[0]
		s.script = s.script[1:]
		return r, true
	}
	if s.fn != nil {
		fn := s.fn
		s.mu.Unlock()
		r := fn(req)
		s.mu.Lock()
		return r, true
	}
	if s.always != nil {
		return *s.always, true
	}
	return Reply{}, false
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "cannot read body")
		return
	}
	rec := Request{Path: r.URL.Path, Authorization: r.Header.Get("Authorization"), Raw: raw}
	jerr := json.Unmarshal(raw, &rec.Body)
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) == nil && string(members["response_format"]) != "null" {
		rec.ResponseFormat = members["response_format"]
	}

	var early func()
	switch {
	case jerr != nil:
		early = func() {
			writeError(w, http.StatusBadRequest, "invalid_request_error", "body is not a chat completion request")
		}
	case s.checkKey && rec.Authorization != "Bearer "+s.key:
		early = func() { writeError(w, http.StatusUnauthorized, "invalid_request_error", "Incorrect API key provided.") }
	case s.noJSONMode && rec.Format() == string(openai.ChatCompletionResponseFormatTypeJSONObject):
		early = func() {
			writeError(w, http.StatusBadRequest, "invalid_request_error", "'response_format.type' must be 'json_schema' or 'text'")
		}
	case s.noMaxTokens && rec.Body.MaxTokens > 0:
		early = func() {
			writeError(w, http.StatusBadRequest, "invalid_request_error",
				"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")
		}
	case s.formats != nil && rec.ResponseFormat != nil && !slices.Contains(s.formats, rec.Format()):
		early = func() { writeValidationError(w, rec.Format(), s.formats) }
	}
	var reply Reply
	ok := false
	if early == nil {
		reply, ok = s.next(rec.Body)
		rec.Served = reply.Fault
	}
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	n := len(s.requests)
	s.mu.Unlock()
	if early != nil {
		early()
		return
	}
	if !ok {
		s.t.Errorf("llmtest: request #%d to %s: no scripted reply left and no Func or Always set", n, r.URL.Path)
		writeError(w, http.StatusInternalServerError, "server_error", "llmtest: no scripted reply")
		return
	}

	if reply.Delay > 0 {
		t := time.NewTimer(reply.Delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		case <-s.stop:
			t.Stop()
			return
		}
	}

	switch reply.Fault {
	case FaultTimeout:
		select {
		case <-r.Context().Done():
		case <-s.stop:
		}
		return
	case Fault429:
		ra := reply.RetryAfter
		if ra == "" {
			ra = "0"
		}
		w.Header().Set("Retry-After", ra)
		writeError(w, http.StatusTooManyRequests, "rate_limit_error", "Rate limit reached; try again later.")
		return
	case Fault500:
		writeError(w, http.StatusInternalServerError, "server_error", "The server had an error while processing your request.")
		return
	case FaultNotJSON:
		reply.Content = NotJSONContent
	case FaultBadElement:
		reply.Content = BadElementContent
	}

	fr := reply.FinishReason
	if fr == "" {
		fr = "stop"
	}
	if limit := max(rec.Body.MaxTokens, rec.Body.MaxCompletionTokens); reply.Runaway || limit > 0 {
		if limit <= 0 {
			limit = RunawayTokens
		}
		if reply.Runaway || tokensOf(reply.Content) > limit {
			reply.Content = cutTokens(reply.Content, limit)
			fr = "length"
		}
	}
	if s.perToken > 0 && !s.generate(r, &rec, n, tokensOf(reply.Content)) {
		return
	}

	pt, ct := reply.PromptTokens, reply.CompletionTokens
	if pt == 0 && ct == 0 {
		for _, m := range rec.Body.Messages {
			pt += len(m.Content)/4 + 1
		}
		ct = tokensOf(reply.Content)
	}
	resp := openai.ChatCompletionResponse{
		ID:      fmt.Sprintf("chatcmpl-llmtest-%d", n),
		Object:  "chat.completion",
		Created: time.Now().Unix(),
		Model:   rec.Body.Model,
		Choices: []openai.ChatCompletionChoice{{
			Index:        0,
			Message:      openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: reply.Content},
			FinishReason: openai.FinishReason(fr),
		}},
		Usage: openai.Usage{PromptTokens: pt, CompletionTokens: ct, TotalTokens: pt + ct},
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

// tokensOf is the fake tokenizer: four characters a token, at least one.
func tokensOf(content string) int { return max(1, (len(content)+3)/4) }

// cutTokens returns the part of content a generation of n tokens
// produces; past the content's end it pads with spaces, as a model that
// does not stop might.
func cutTokens(content string, n int) string {
	if n*4 <= len(content) {
		return content[:n*4]
	}
	return content + strings.Repeat(" ", n*4-len(content))
}

// generate occupies the single slot for tokens·perToken, as a local server
// generating a reply does. A request whose client has gone before the
// slot is free is skipped (false, nothing generated); once generation
// has started it runs to its end whatever the client does. It reports
// whether the client is still there to read the answer.
func (s *Server) generate(r *http.Request, rec *Request, n, tokens int) bool {
	s.slot.Lock()
	defer s.slot.Unlock()
	if r.Context().Err() != nil {
		s.mu.Lock()
		s.requests[n-1].Skipped = true
		s.mu.Unlock()
		rec.Skipped = true
		return false
	}
	t := time.NewTimer(time.Duration(tokens) * s.perToken)
	defer t.Stop()
	select {
	case <-t.C:
	case <-s.stop:
		return false
	}
	return r.Context().Err() == nil
}

// writeValidationError answers as llama-cpp-python 0.3.36's server does
// when a request body fails its pydantic model (its route error handler
// turns the validation error into a 500).
func writeValidationError(w http.ResponseWriter, got string, allowed []string) {
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = "'" + a + "'"
	}
	writeError(w, http.StatusInternalServerError, "internal_server_error", fmt.Sprintf(
		"1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be %s\", 'input': '%s'}",
		strings.Join(quoted, " or "), got))
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"error": map[string]any{"message": msg, "type": typ, "code": strings.ToLower(http.StatusText(status))},
	})
}

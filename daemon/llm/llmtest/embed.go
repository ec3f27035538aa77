package llmtest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"strings"
	"unicode"

	openai "github.com/sashabaranov/go-openai"

	"github.com/wayfinder-agent/wayfinder/daemon/simil"
)

// EmbedDim is the length of the vectors BagOfStems returns.
const EmbedDim = 256

// EmbedRequest is one recorded embeddings request.
type EmbedRequest struct {
	Path          string
	Authorization string   // the Authorization header as received
	Model         string   // the model asked for
	Input         []string // the texts (a single string input is one text)
	Served        Fault    // the fault served (FaultNone for normal replies)
}

// WithEmbedFunc makes the embeddings endpoint answer f(model, text) for
// each input instead of BagOfStems; f must return vectors of one length.
func WithEmbedFunc(f func(model, text string) []float32) Option {
	return func(s *Server) { s.embedFn = f }
}

// WithSynonyms folds words before BagOfStems hashes them (lower-case word
// → the word or words it counts as), standing in for what a real embedding
// model knows: WithSynonyms(map[string]string{"theme": "mode", "enable":
// "turn on"}) makes "enable dark theme" and "turn on dark mode" the same
// vector.
func WithSynonyms(m map[string]string) Option {
	return func(s *Server) { s.synonyms = m }
}

// EmbedFaults appends faults served in order, one per embeddings request
// (FaultNone serves vectors); FaultTimeout, Fault429, Fault500,
// FaultNotJSON (a 200 whose body is prose) and FaultShort apply.
func (s *Server) EmbedFaults(faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.embedScript = append(s.embedScript, faults...)
}

// EmbedAlways sets the fault served when no EmbedFaults are left
// (FaultNone, the default, serves vectors).
func (s *Server) EmbedAlways(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.embedAlways = f
}

// EmbedRequests returns a copy of the recorded embeddings requests.
func (s *Server) EmbedRequests() []EmbedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]EmbedRequest(nil), s.embedReqs...)
}

// EmbedCalls is the number of embeddings requests received.
func (s *Server) EmbedCalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.embedReqs)
}

// embedStop are words BagOfStems ignores.
var embedStop = map[string]bool{"a": true, "an": true, "the": true, "please": true, "my": true, "me": true,
	"could": true, "would": true, "can": true, "you": true, "now": true}

// BagOfStems is the default fake embedding: the unit-length sum of one
// pseudo-random ±1 direction per word stem (lower-cased letters and
// digits, a few stopwords dropped, a plural or -ing/-ed suffix cut), so
// texts sharing most words have a high cosine and texts sharing none a
// cosine near 0. synonyms (may be nil) maps a lower-case word to the
// word or words it counts as. Deterministic; EmbedDim components.
func BagOfStems(text string, synonyms map[string]string) []float32 {
	v := make([]float64, EmbedDim)
	split := func(s string) []string {
		return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	}
	var words []string
	for _, w := range split(text) {
		if syn, ok := synonyms[w]; ok {
			words = append(words, split(syn)...)
			continue
		}
		words = append(words, w)
	}
	for _, w := range words {
		if embedStop[w] {
			continue
		}
		w = fakeStem(w)
		h := fnv.New64a()
		h.Write([]byte(w))
		seed := h.Sum64()
		for i := range v {
			// splitmix64 of (seed, i): one sign per component
			x := seed + uint64(i+1)*0x9e3779b97f4a7c15
			x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
			x = (x ^ (x >> 27)) * 0x94d049bb133111eb
			x ^= x >> 31
			if x&1 == 0 {
				v[i]++
			} else {
				v[i]--
			}
		}
	}
	norm := 0.0
	for _, x := range v {
		norm += x * x
	}
	out := make([]float32, EmbedDim)
	if norm == 0 {
		out[0] = 1 // no words: a fixed direction, so the vector is usable
		return out
	}
	norm = math.Sqrt(norm)
	for i, x := range v {
		out[i] = float32(x / norm)
	}
	return out
}

func fakeStem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s"} {
		if len(w) > len(suf)+2 && strings.HasSuffix(w, suf) {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

func (s *Server) nextEmbedFault() Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.embedScript) > 0 {
		f := s.embedScript[0]
		s.embedScript = s.embedScript[1:]
		return f
	}
	return s.embedAlways
}

func (s *Server) handleEmbed(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "cannot read body")
		return
	}
	rec := EmbedRequest{Path: r.URL.Path, Authorization: r.Header.Get("Authorization")}
	var body struct {
		Model string          `json:"model"`
		Input json.RawMessage `json:"input"`
	}
	var early func()
	jerr := json.Unmarshal(raw, &body)
	if jerr == nil {
		rec.Model = body.Model
		var one string
		if err := json.Unmarshal(body.Input, &rec.Input); err != nil {
			if err := json.Unmarshal(body.Input, &one); err == nil {
				rec.Input = []string{one}
			} else {
				jerr = fmt.Errorf("input: want a string or an array of strings")
			}
		}
	}
	switch {
	case jerr != nil:
		early = func() {
			writeError(w, http.StatusBadRequest, "invalid_request_error", "body is not an embeddings request")
		}
	case s.checkKey && rec.Authorization != "Bearer "+s.key:
		early = func() { writeError(w, http.StatusUnauthorized, "invalid_request_error", "Incorrect API key provided.") }
	case len(rec.Input) == 0:
		early = func() { writeError(w, http.StatusBadRequest, "invalid_request_error", "input is empty") }
	}
	if early == nil {
		rec.Served = s.nextEmbedFault()
	}
	s.mu.Lock()
	s.embedReqs = append(s.embedReqs, rec)
	fn, syn := s.embedFn, s.synonyms
	s.mu.Unlock()
	if early != nil {
		early()
		return
	}
	switch rec.Served {
	case FaultTimeout:
		select {
		case <-r.Context().Done():
		case <-s.stop:
		}
		return
	case Fault429:
		w.Header().Set("Retry-After", "0")
		writeError(w, http.StatusTooManyRequests, "rate_limit_error", "Rate limit reached; try again later.")
		return
	case Fault500:
		writeError(w, http.StatusInternalServerError, "server_error", "The server had an error while processing your request.")
		return
	case FaultNotJSON:
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, NotJSONContent)
		return
	}
	resp := openai.EmbeddingResponse{Object: "list", Model: openai.EmbeddingModel(rec.Model)}
	tokens := 0
	for i, text := range rec.Input {
		var v []float32
		if fn != nil {
			v = fn(rec.Model, text)
		} else {
			v = BagOfStems(text, syn)
		}
		resp.Data = append(resp.Data, openai.Embedding{Object: "embedding", Embedding: v, Index: i})
		tokens += len(text)/4 + 1
	}
	if rec.Served == FaultShort {
		resp.Data = resp.Data[:len(resp.Data)-1]
	}
	resp.Usage = openai.Usage{PromptTokens: tokens, TotalTokens: tokens}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

// Cosine is the cosine similarity of two vectors of equal length (0 when
// either is zero or the lengths differ); for tests. It is simil.Cosine.
func Cosine(a, b []float32) float64 { return simil.Cosine(a, b) }

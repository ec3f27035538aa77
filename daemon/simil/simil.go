// Package simil gives the parts of the engine that compare words — the
// graph planner's command↔element scoring, app identification, guide
// retrieval, re-grounding — one way to ask a sentence-embedding model how
// alike two texts mean, through the same semantic.Embedder interface flow
// matching uses (the on-device daemon/bert model or an endpoint's
// embeddings).
//
// A Memo embeds texts in batches and keeps every vector twice: in memory
// for the life of the process (each distinct text is embedded once) and in
// the knowledge store's embedding cache keyed by (model, text), so a
// restarted daemon does not embed the labels of known screens again. It
// never decides anything; callers combine the cosines with their own
// evidence.
package simil

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
)

// BatchPutter is a cache that stores many vectors in one write
// (*knowledge.Store implements it); a Memo uses it when its cache has it.
type BatchPutter interface {
	PutEmbeddings(ctx context.Context, model string, texts []string, vs [][]float32) error
}

// redactor is implemented by embedders that can strip their secrets from
// a text (*llm.Client).
type redactor interface {
	Redact(s string, secrets ...string) string
}

// MaxEntries bounds the in-memory map; past it the map is emptied (the
// store still holds the vectors). About 1.5 KB per 384-dim vector.
const MaxEntries = 100_000

// Memo is an Embedder's vectors, memoized. Safe for concurrent use. A nil
// *Memo has no model: Vectors returns nil vectors and no error.
type Memo struct {
	emb   semantic.Embedder
	cache semantic.Cache

	mu   sync.Mutex
	vecs map[string][]float32
}

// New returns a Memo over emb, caching in cache (nil: memory only). A nil
// emb gives a nil *Memo.
func New(emb semantic.Embedder, cache semantic.Cache) *Memo {
	if emb == nil {
		return nil
	}
	return &Memo{emb: emb, cache: cache, vecs: map[string][]float32{}}
}

// Model names the embedding model ("" for a nil Memo).
func (m *Memo) Model() string {
	if m == nil {
		return ""
	}
	return m.emb.EmbedModel()
}

// Normalize is the key a text is embedded and cached under: trimmed, white
// space collapsed.
func Normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

// Vectors returns one vector per text, in order (nil for an empty text):
// from memory, then the store, then one Embed call for the rest, whose
// vectors are written to the store in one batch (a failed write is
// ignored: it only costs embedding again later). Errors: the embedder's,
// wrapped, or a count mismatch. A nil Memo returns nil vectors.
func (m *Memo) Vectors(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	if m == nil {
		return out, nil
	}
	model := m.emb.EmbedModel()
	keys := make([]string, len(texts))
	var missing []string
	want := map[string]bool{}
	m.mu.Lock()
	for i, t := range texts {
		keys[i] = Normalize(t)
		if keys[i] == "" {
			continue
		}
		if v, ok := m.vecs[keys[i]]; ok {
			out[i] = v
		} else if !want[keys[i]] {
			want[keys[i]] = true
			missing = append(missing, keys[i])
		}
	}
	m.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	got := map[string][]float32{}
	var todo []string
	for _, k := range missing {
		if m.cache != nil {
			if v, err := m.cache.Embedding(ctx, model, k); err == nil && len(v) > 0 {
				got[k] = v
				continue
			}
		}
		todo = append(todo, k)
	}
	if len(todo) > 0 {
		vs, err := m.emb.Embed(ctx, todo)
		if rd, ok := m.emb.(redactor); ok && err != nil {
			err = errors.New(rd.Redact(err.Error())) // an endpoint's key never reaches a log
		}
		if err != nil {
			return nil, fmt.Errorf("simil: embed %d texts with %s: %w", len(todo), model, err)
		}
		if len(vs) != len(todo) {
			return nil, fmt.Errorf("simil: %s returned %d vectors for %d texts", model, len(vs), len(todo))
		}
		for i, k := range todo {
			got[k] = vs[i]
		}
		m.store(ctx, model, todo, vs)
	}
	m.mu.Lock()
	if len(m.vecs)+len(got) > MaxEntries {
		m.vecs = map[string][]float32{}
	}
	for k, v := range got {
		m.vecs[k] = v
	}
	m.mu.Unlock()
	for i, k := range keys {
		if out[i] == nil && k != "" {
			out[i] = got[k]
		}
	}
	return out, nil
}

func (m *Memo) store(ctx context.Context, model string, texts []string, vs [][]float32) {
	if m.cache == nil {
		return
	}
	if bp, ok := m.cache.(BatchPutter); ok {
		_ = bp.PutEmbeddings(ctx, model, texts, vs)
		return
	}
	for i, t := range texts {
		if len(vs[i]) > 0 {
			_ = m.cache.PutEmbedding(ctx, model, t, vs[i])
		}
	}
}

// Similarities returns the cosine of a against each of bs (0 where a text
// is empty or a vector missing). Errors as Vectors.
func (m *Memo) Similarities(ctx context.Context, a string, bs []string) ([]float64, error) {
	vs, err := m.Vectors(ctx, append([]string{a}, bs...))
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(bs))
	for i := range bs {
		out[i] = Cosine(vs[0], vs[i+1])
	}
	return out, nil
}

// Cosine is the cosine of two vectors; 0 when either is empty, zero or
// they differ in length (semantic.Cosine).
func Cosine(a, b []float32) float64 { return semantic.Cosine(a, b) }

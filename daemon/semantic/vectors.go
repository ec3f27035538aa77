package semantic

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// The texts embedded, the embedding cache and the cosine.

// vectorsWith returns the embeddings of texts: from memory
// (Rescorer.mem), then cache (nil: none), then one request for the rest
// (bounded by Config.Timeout), which are put in cache.
func (r *Rescorer) vectorsWith(ctx context.Context, texts []string, d *Decision, cache Cache) ([][]float32, error) {
	model := r.emb.EmbedModel()
	out := make([][]float32, len(texts))
	var miss []int
	r.mu.Lock()
	for i, t := range texts {
		if v := r.mem[t]; len(v) > 0 {
			out[i] = v
			d.CacheHits++
		}
	}
	r.mu.Unlock()
	for i, t := range texts {
		if len(out[i]) > 0 {
			continue
		}
		if cache != nil {
			if v, err := cache.Embedding(ctx, model, t); err == nil && len(v) > 0 {
				out[i] = v
				d.CacheHits++
				continue
			}
		}
		miss = append(miss, i)
	}
	defer r.remember(texts, out)
	if len(miss) == 0 {
		return out, nil
	}
	batch := make([]string, len(miss))
	for j, i := range miss {
		batch[j] = texts[i]
	}
	cctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	d.Requests++
	vs, err := r.emb.Embed(cctx, batch)
	if err == nil && len(vs) != len(batch) {
		err = fmt.Errorf("semantic: %d embeddings for %d texts", len(vs), len(batch))
	}
	if err != nil {
		if errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			err = fmt.Errorf("no answer within %s: %w", r.cfg.Timeout, err)
		}
		return nil, err
	}
	for j, i := range miss {
		out[i] = vs[j]
		if cache != nil && len(vs[j]) > 0 {
			_ = cache.PutEmbedding(ctx, model, texts[i], vs[j]) // a failed write only costs a later request
		}
	}
	return out, nil
}

// remember keeps the vectors of texts found (out[i] not empty) in r.mem.
func (r *Rescorer) remember(texts []string, out [][]float32) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.mem == nil || len(r.mem)+len(texts) > memEntries {
		r.mem = make(map[string][]float32, len(texts))
	}
	for i, t := range texts {
		if len(out[i]) > 0 {
			r.mem[t] = out[i]
		}
	}
}

// FlowTexts are the texts of flow f that are embedded: its intent template
// with each slot replaced by its example value (or its name), then the
// labels of the elements it taps (PathText), then its most recent past
// commands, then, for a flow that only sets a switch, the switch's label
// with that state (intent.SwitchText), without repeats, at most limit
// (<= 0: all).
func FlowTexts(f *knowledge.Flow, limit int) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		s = normalize(s)
		if s == "" || seen[strings.ToLower(s)] || (limit > 0 && len(out) >= limit) {
			return
		}
		seen[strings.ToLower(s)] = true
		out = append(out, s)
	}
	add(fillTemplate(f, func(sl knowledge.Slot) string { return cmp.Or(sl.Example, sl.Name) }))
	add(PathText(f))
	for i := len(f.Commands) - 1; i >= 0; i-- {
		add(f.Commands[i])
	}
	// a flow that only sets a switch, in the switch's words
	add(intent.SwitchText(f))
	return out
}

// PathText returns the labels of the elements f's steps tap or switch, in
// step order, joined by commas ("Scenes, Night scene"): the
// flow in the words of its app's screens, which an owner who reads them
// uses ("night scene please" for a flow learned as "quiet the house"). The
// idea is UICOMPASS's (Section 3.2: a task is grounded on the UI elements
// that carry its words). A switch step reads "turn on/off <label>".
// Typing steps (their text is a value), scrolls,
// keys, launches, a tap bound to a slot's value (its label is the learned
// value) and a label of more than maxNameWords words (prose) are left out;
// "" when nothing is left.
func PathText(f *knowledge.Flow) string {
	var ls []string
	for _, s := range f.Steps {
		switch s.Action {
		case device.Input, device.Scroll, device.Back, device.Home, device.Launch, device.ImeEnter:
			continue
		}
		if strings.HasPrefix(s.Text, "{") {
			continue
		}
		l := strings.TrimSpace(s.Target.Label())
		if l == "" || len(labelWords(l)) > maxNameWords {
			continue
		}
		switch s.Action {
		case knowledge.StepSwitchOn, knowledge.StepSwitchOff:
			// the state set, never the label alone: "turn off X" is far
			// from "turn on X" only in words
			l = intent.SwitchPhrase(intent.SwitchLabel(l), s.Action == knowledge.StepSwitchOn)
		}
		ls = append(ls, l)
	}
	return strings.Join(ls, ", ")
}

// fillTemplate returns f's intent template with each slot replaced by
// value(slot).
func fillTemplate(f *knowledge.Flow, value func(knowledge.Slot) string) string {
	tpl := f.Intent
	for _, sl := range f.Slots {
		tpl = strings.ReplaceAll(tpl, "{"+sl.Name+"}", value(sl))
	}
	return tpl
}

// resting returns the failure the embedder is resting after (Config.Cooldown),
// or nil when it may be asked.
func (r *Rescorer) resting() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.now().Before(r.downUntil) {
		return errors.New(r.downErr)
	}
	return nil
}

// embed is vectors with the embedder's failure handled: the error is
// redacted of the embedder's secrets, and a failure the caller's context
// did not cause (the endpoint failed) rests the embedder for the cooldown.
func (r *Rescorer) embed(ctx context.Context, texts []string, d *Decision) ([][]float32, error) {
	return r.embedWith(ctx, texts, d, r.cache)
}

// embedWith is embed through cache instead of Rescorer.cache (nil: memory
// only).
func (r *Rescorer) embedWith(ctx context.Context, texts []string, d *Decision, cache Cache) ([][]float32, error) {
	vecs, err := r.vectorsWith(ctx, texts, d, cache)
	if err == nil {
		return vecs, nil
	}
	msg := err.Error()
	if rd, ok := r.emb.(redactor); ok {
		msg = rd.Redact(msg)
	}
	if ctx.Err() == nil {
		r.mu.Lock()
		r.downUntil, r.downErr = r.now().Add(r.cfg.Cooldown), msg
		r.mu.Unlock()
	}
	return nil, errors.New(msg)
}

// normalize trims a text and collapses its white space, so that cache
// keys do not depend on spacing.
func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

// Cosine is the cosine similarity of a and b; 0 when their lengths differ
// or either is zero.
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

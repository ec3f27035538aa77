package daemon

import (
	"context"
	"fmt"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/daemon/simil"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// appSimTimeout bounds the embedding of app identification: a slow
// endpoint costs a command at most this, then the apps are told apart by
// their words alone.
const appSimTimeout = 5 * time.Second

// appSimilarity sets each candidate's Similarity (intent.AppCandidate):
// the cosine of the command with the closest of the app's label and its
// flows' texts (semantic.FlowTexts, semantic.DefaultMaxTexts each), with
// the engine's embedder. Without one, or when embedding fails (logged),
// it leaves them 0; with one app there is nothing to tell apart.
func (r *run) appSimilarity(ctx context.Context, cands []intent.AppCandidate) {
	if r.memo == nil || len(cands) < 2 {
		return
	}
	texts := []string{privacy.Redact(r.res.Command, r.secrets, false)} // vectors are cached with their text
	owner := []int{-1}
	for i, c := range cands {
		own := []string{c.Label}
		if flows, err := r.e.store.Flows(ctx, knowledge.FlowFilter{Package: c.Package}); err == nil {
			for i := range flows {
				own = append(own, semantic.FlowTexts(&flows[i], semantic.DefaultMaxTexts)...)
			}
		}
		for _, t := range own {
			texts = append(texts, t)
			owner = append(owner, i)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, appSimTimeout)
	defer cancel()
	vs, err := r.memo.Vectors(ctx, texts)
	if err != nil {
		r.emit(event.Log, event.LogInfo{Level: "warn", Text: fmt.Sprintf("app identification by words only: %v", err)})
		return
	}
	for j := 1; j < len(texts); j++ {
		if c := simil.Cosine(vs[0], vs[j]); c > cands[owner[j]].Similarity {
			cands[owner[j]].Similarity = c
		}
	}
}

// labelSimTimeout bounds the embedding of one pair of labels during
// re-grounding: a slow endpoint leaves the pair to string similarity.
const labelSimTimeout = 2 * time.Second

// labelSimilarity is Config.LabelSimilarity from the run's embedder: the
// cosine of the two labels' vectors clipped at 0, each label embedded once
// per process (and cached in the store); 0 when embedding fails. nil
// without an embedder.
func (r *run) labelSimilarity(ctx context.Context) LabelSimilarity {
	if r.memo == nil {
		return nil
	}
	memo := r.memo
	return func(a, b string) float64 {
		ctx, cancel := context.WithTimeout(ctx, labelSimTimeout)
		defer cancel()
		vs, err := memo.Vectors(ctx, []string{a, b})
		if err != nil {
			return 0
		}
		return max(0, simil.Cosine(vs[0], vs[1]))
	}
}

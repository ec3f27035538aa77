package daemon

import (
	"context"
	"fmt"
	"sort"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/daemon/simil"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Guide retrieval by meaning (closeFlowGuides).
const (
	// maxGuides is how many saved flows become guides of one run.
	maxGuides = 2
	// guideMinCosine is the least cosine between the command and a flow's
	// closest text for the flow to guide the planner: a guide is a hint to
	// a planner that checks every step, so the bar is below flow matching's
	// (semantic.MiniLM.MinCosine, 0.70, where the flow itself replays).
	guideMinCosine = 0.6
)

// GuideFree is implemented by planners that never read PlanState.Guides
// (the graph planner, an evaluation's oracle): the engine spares them the
// embedding of guide retrieval.
type GuideFree interface {
	IgnoresGuides() bool
}

// closeFlowGuides turns up to n saved, healthy flows of the run's app that
// the lexical ranking left out (skip) into guides, when the command means
// what one of their texts says (semantic.FlowTexts; cosine at least
// guideMinCosine), closest first. Without an embedder, or when embedding
// fails (logged), none.
func (r *run) closeFlowGuides(ctx context.Context, flows map[int64]*knowledge.Flow, skip map[int64]bool, n int) []string {
	if gf, ok := r.planner.(GuideFree); r.memo == nil || n <= 0 || (ok && gf.IgnoresGuides()) {
		return nil
	}
	texts := []string{privacy.Redact(r.res.Command, r.secrets, false)} // vectors are cached with their text
	var owner []*knowledge.Flow
	for _, f := range flows {
		if skip[f.ID] || !f.Healthy() || f.Package != r.res.Package {
			continue
		}
		for _, t := range semantic.FlowTexts(f, semantic.DefaultMaxTexts) {
			texts = append(texts, t)
			owner = append(owner, f)
		}
	}
	if len(owner) == 0 {
		return nil
	}
	vs, err := r.memo.Vectors(ctx, texts)
	if err != nil {
		r.emit(event.Log, event.LogInfo{Level: "warn", Text: fmt.Sprintf("guides by words only: %v", err)})
		return nil
	}
	best := map[*knowledge.Flow]float64{}
	for j, f := range owner {
		if c := simil.Cosine(vs[0], vs[j+1]); c >= guideMinCosine && c > best[f] {
			best[f] = c
		}
	}
	close := make([]*knowledge.Flow, 0, len(best))
	for f := range best {
		close = append(close, f)
	}
	sort.Slice(close, func(i, j int) bool {
		if best[close[i]] != best[close[j]] {
			return best[close[i]] > best[close[j]]
		}
		return close[i].ID < close[j].ID
	})
	var out []string
	for _, f := range close[:min(n, len(close))] {
		out = append(out, guideFromFlow(f, 0))
	}
	return out
}

package semantic

import (
	"cmp"
	"slices"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

// Retrieval by meaning: the flows of the app closest to the command join
// the lexical candidates.

// Scorer scores given flows against a command as the lexical matcher
// does; *intent.Matcher implements it.
type Scorer interface {
	Score(cmd string, ids []int64) []intent.Candidate
}

// retrieve adds to in.Cands the Config.Retrieve flows of in.Pool with the
// highest cosine that in.Cands lack, scored by in.Scorer, and returns the
// candidates with the cosine of each (-1 for a contradicted one).
func (r *Rescorer) retrieve(command string, in Input, cos func(int64) float64) ([]intent.Candidate, []float64) {
	have := map[int64]bool{}
	for _, c := range in.Cands {
		have[c.FlowID] = true
	}
	type sc struct {
		id  int64
		cos float64
	}
	var more []sc
	for _, id := range in.Pool {
		if !have[id] && in.Flows[id] != nil {
			have[id] = true
			more = append(more, sc{id, cos(id)})
		}
	}
	slices.SortFunc(more, func(a, b sc) int { return cmp.Or(cmp.Compare(b.cos, a.cos), cmp.Compare(a.id, b.id)) })
	if len(more) > r.cfg.Retrieve {
		more = more[:r.cfg.Retrieve]
	}
	ids := make([]int64, len(more))
	for i, m := range more {
		ids[i] = m.id
	}
	cands := append(slices.Clone(in.Cands), in.Scorer.Score(command, ids)...)
	cosines := make([]float64, len(cands))
	for i, c := range cands {
		cosines[i] = -1
		if in.Flows[c.FlowID] != nil && !contradicted(c) {
			cosines[i] = cos(c.FlowID)
		}
	}
	return cands, cosines
}

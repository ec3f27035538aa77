// Ranking: BM25 and trigram retrieval of candidate flows, then scoring
// each pattern against the command (score.go).

package intent

import (
	"math"
	"slices"
)

// query is an analysed command.
type query struct {
	src   string
	toks  []ptok
	terms []string
	tris  []uint64 // unique trigram keys of content words
}

func newQuery(cmd string) *query {
	toks := analyze(cmd)
	openingMarker(toks)
	if len(toks) > maxToks {
		toks = toks[:maxToks]
	}
	q := &query{src: cmd, toks: toks, terms: patternTerms(toks)}
	seen := map[uint64]bool{}
	for i := range toks {
		t := &toks[i]
		if t.stop || t.kind != KindWord {
			continue
		}
		for _, k := range t.tris {
			if !seen[k] {
				seen[k] = true
				q.tris = append(q.tris, k)
			}
		}
	}
	return q
}

func bm25IDF(n float64, df int) float64 {
	return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
}

type scratch struct {
	bm      []float32
	tri     []uint16
	touched []int32
	ttri    []int32
}

type scored struct {
	doc   int32
	score float64
}

// Rank ranks the flows of app pkg ("" for all apps) against cmd and
// returns at most k candidates, best first (ties by FlowID), leaving out
// those scoring 0. k <= 0 returns nil.
//
// The score of a flow is the best score of its patterns:
//
//	(0.55·lex + 0.15·bm25n + 0.30·tri) × penalties, in [0, 1]
//
// First the pattern is aligned with the command by dynamic programming
// (a slot consumes a run of 1 to 10 command tokens), which fills the
// slots. Then content words are matched one to one, greedily by
// similarity (same stem 1, same concept 0.8 or 0.7 for a weak member, one
// typo 0.75). lex is the product of two idf-weighted coverages: how much
// of the command the pattern explains and how much of the pattern the
// command covers (action words weigh 1.5, stopwords 0, filled slots count
// as covered). bm25n is the flow's BM25 score over the ideal score of the
// query terms; tri is the Dice coefficient of the character trigrams of
// the remaining content words (vocabulary words as their concept id).
//
// Penalties multiply: ×0.25 for a decisive conflict — an unmatched word
// against an unmatched word of the opposite concept (on/off, add/delete,
// ascending/descending), a negation on one side only, or swapped roles
// ("from A to B" against "from B to A"); ×0.55 for an unmatched action
// word on both sides, ×0.7 for an unmatched strong action word in the
// command only; ×0.75 for an unmatched content word on both sides, and
// for unmatched words in the command only (an extra requirement); ×0.7
// when the flow names one side of a toggle and the command neither;
// ×0.45 per unfilled slot; ×0.9 per slot filled by value kind only; ×0.5
// per quoted/number/time/date value and ×0.85 per proper-noun-like value
// of the command the flow does not use; ×0.6 per value literal of the
// flow the command does not name.
//
// Candidate.Vetoes names the decisive rules among these that applied
// (every penalty above except the one for an unmatched content word on
// both sides and the one for a slot filled by value kind), and unmatched
// words on one side only; they explain the score and do not change it.
func (m *Matcher) Rank(cmd string, pkg string, k int) []Candidate {
	if k <= 0 {
		return nil
	}
	q := newQuery(cmd)
	if len(q.toks) == 0 {
		return nil
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	markMentions(q.src, q.toks, m.labels[pkg])
	if m.live == 0 {
		return nil
	}
	sc := m.getScratch()
	defer m.putScratch(sc)
	ideal := m.accumulate(q, pkg, sc)
	cands := topK(sc.touched, candBM25, func(doc int32) float64 { return float64(sc.bm[doc]) })
	triCands := topK(sc.ttri, candTrigram, func(doc int32) float64 {
		return float64(sc.tri[doc]) / math.Sqrt(float64(len(q.tris))*float64(len(m.docs[doc].tris)))
	})
	for _, c := range triCands {
		if c.score >= minTrigramCos && !slices.ContainsFunc(cands, func(x scored) bool { return x.doc == c.doc }) {
			cands = append(cands, scored{doc: c.doc})
		}
	}
	docs := make([]int32, len(cands))
	for i, c := range cands {
		docs[i] = c.doc
	}
	out := m.scoreDocs(q, sc, ideal, docs, false)
	sortCandidates(out)
	if len(out) > k {
		out = out[:k]
	}
	return out
}

// Score scores the flows with the given IDs against cmd as Rank would,
// in the order given, including those Rank would not retrieve (no word or
// trigram in common; they score near 0). Unknown IDs are left out. Other
// evidence that retrieves flows by meaning (daemon/semantic) uses it to
// learn their slots and vetoes.
func (m *Matcher) Score(cmd string, ids []int64) []Candidate {
	q := newQuery(cmd)
	if len(q.toks) == 0 || len(ids) == 0 {
		return nil
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if d, ok := m.byID[ids[0]]; ok {
		// the flows are taken to be of one app: the first one's
		markMentions(q.src, q.toks, m.labels[m.docs[d].pkg])
	}
	sc := m.getScratch()
	defer m.putScratch(sc)
	ideal := m.accumulate(q, "", sc)
	docs := make([]int32, 0, len(ids))
	for _, id := range ids {
		if d, ok := m.byID[id]; ok && !m.docs[d].dead {
			docs = append(docs, d)
		}
	}
	return m.scoreDocs(q, sc, ideal, docs, true)
}

// accumulate fills sc with the BM25 score and the trigram overlap of every
// live flow of pkg ("" for all) that shares a term or trigram with q, and
// returns the ideal BM25 score (every query term matched once).
func (m *Matcher) accumulate(q *query, pkg string, sc *scratch) float64 {
	N := float64(m.live)
	avgdl := float64(m.totalLen) / N
	if avgdl <= 0 {
		avgdl = 1
	}
	ideal := 0.0
	for _, t := range q.terms {
		idf := bm25IDF(N, m.df[t])
		ideal += idf
		for _, p := range m.post[t] {
			d := m.docs[p.doc]
			if d.dead || (pkg != "" && d.pkg != pkg) {
				continue
			}
			tf := float64(p.tf)
			s := idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(d.length)/avgdl))
			if sc.bm[p.doc] == 0 {
				sc.touched = append(sc.touched, p.doc)
			}
			sc.bm[p.doc] += float32(s)
		}
	}
	for _, key := range q.tris {
		for _, doc := range m.triPost[key] {
			d := m.docs[doc]
			if d.dead || (pkg != "" && d.pkg != pkg) {
				continue
			}
			if sc.tri[doc] == 0 {
				sc.ttri = append(sc.ttri, doc)
			}
			if sc.tri[doc] < math.MaxUint16 {
				sc.tri[doc]++
			}
		}
	}
	return ideal
}

// scoreDocs aligns q with every pattern of docs and returns a candidate
// per doc scoring above 0 (every doc when keepZero).
func (m *Matcher) scoreDocs(q *query, sc *scratch, ideal float64, docs []int32, keepZero bool) []Candidate {
	N := float64(m.live)
	idfCache := map[string]float64{}
	unseen := bm25IDF(N, 0)
	weight := func(t *ptok) float64 {
		if t.stop {
			return 0
		}
		f, ok := idfCache[t.stem]
		if !ok {
			f = 0.5 + 0.5*math.Min(1, bm25IDF(N, m.df[t.stem])/unseen)
			idfCache[t.stem] = f
		}
		if t.hasAction() {
			return actionWeight * f
		}
		return f
	}
	out := make([]Candidate, 0, len(docs))
	wk := &work{}
	for _, doc := range docs {
		d := m.docs[doc]
		bm25n := 0.0
		if ideal > 0 {
			bm25n = float64(sc.bm[doc]) / ideal
		}
		var best patResult
		var bestSrc string
		for _, p := range d.patterns {
			r := scorePattern(q, p, d, bm25n, weight, wk, best.score)
			if p.derived {
				r.score *= derivedWeight
			}
			if r.score > best.score || bestSrc == "" {
				best, bestSrc = r, p.src
			}
		}
		if best.score <= 0 && !keepZero {
			continue
		}
		out = append(out, Candidate{FlowID: d.id, Package: d.pkg, Score: best.score, Slots: best.fills, Missing: best.missing, Matched: bestSrc, Vetoes: best.vetoes, Unmatched: best.cmdLone, FlowUnmatched: best.patLone, Substituted: best.substituted, Corrected: best.corrected})
	}
	return out
}

// sortCandidates orders candidates by score, best first, then by flow ID.
func sortCandidates(out []Candidate) {
	slices.SortFunc(out, func(a, b Candidate) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		case a.FlowID < b.FlowID:
			return -1
		case a.FlowID > b.FlowID:
			return 1
		}
		return 0
	})
}

// topK returns the k docs with the highest score, in no particular order.
func topK(docs []int32, k int, score func(int32) float64) []scored {
	h := make([]scored, 0, k) // min-heap on score
	for _, d := range docs {
		s := score(d)
		if len(h) < k {
			h = append(h, scored{d, s})
			for i := len(h) - 1; i > 0; {
				p := (i - 1) / 2
				if h[p].score <= h[i].score {
					break
				}
				h[p], h[i] = h[i], h[p]
				i = p
			}
			continue
		}
		if s <= h[0].score {
			continue
		}
		h[0] = scored{d, s}
		for i := 0; ; {
			l, r, small := 2*i+1, 2*i+2, i
			if l < len(h) && h[l].score < h[small].score {
				small = l
			}
			if r < len(h) && h[r].score < h[small].score {
				small = r
			}
			if small == i {
				break
			}
			h[i], h[small] = h[small], h[i]
			i = small
		}
	}
	return h
}

func (m *Matcher) getScratch() *scratch {
	sc, _ := m.pool.Get().(*scratch)
	if sc == nil {
		sc = &scratch{}
	}
	if len(sc.bm) < len(m.docs) {
		sc.bm = make([]float32, len(m.docs)+len(m.docs)/4)
		sc.tri = make([]uint16, len(sc.bm))
	}
	return sc
}

func (m *Matcher) putScratch(sc *scratch) {
	for _, d := range sc.touched {
		sc.bm[d] = 0
	}
	for _, d := range sc.ttri {
		sc.tri[d] = 0
	}
	sc.touched, sc.ttri = sc.touched[:0], sc.ttri[:0]
	m.pool.Put(sc)
}

package intent

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Candidate is a saved flow ranked against a command.
type Candidate struct {
	FlowID  int64   `json:"flow_id"`
	Package string  `json:"package"`
	Score   float64 `json:"score"` // in [0, 1]; replay only when >= the threshold (DefaultThreshold)
	// Slots are the slot values taken from the command, by slot name.
	Slots map[string]string `json:"slots,omitempty"`
	// Missing are the slots the command gave no value for; a candidate
	// with missing slots scores below DefaultThreshold and must not be
	// replayed with the stale example values.
	Missing []string `json:"missing,omitempty"`
	// Matched is the flow's intent template or past command that aligned
	// best with the command.
	Matched string `json:"matched"`
	// Vetoes name the hard precision rules that penalised the best
	// pattern (Veto* constants; see Rank). They only explain the score,
	// which already includes them; a caller that may raise a score by
	// other evidence (daemon/semantic) must never raise a vetoed one.
	Vetoes []string `json:"vetoes,omitempty"`
	// Unmatched are the command's content words (lowercased) that no word
	// of the matched pattern stands for, FlowUnmatched the pattern's words
	// left without a partner in the command; slot values and values the
	// flow does not use (VetoValue) are not listed. A caller that bridges
	// rewordings by other evidence (daemon/semantic) compares these.
	Unmatched     []string `json:"unmatched,omitempty"`
	FlowUnmatched []string `json:"flow_unmatched,omitempty"`
	// Substituted: an unmatched object word (not an action) on both sides,
	// "open the clock faq" against "open the clock page" — another thing,
	// or the same thing in other words; the lexical rules cannot tell.
	Substituted bool `json:"substituted,omitempty"`
}

// Veto reasons reported in Candidate.Vetoes: the penalties of Rank that
// say the flow does something other than the command, as opposed to the
// soft shortfalls (a content word without a known synonym, a slot filled
// by value kind only, partial coverage) that only say the wording
// differs.
const (
	VetoOpposite = "opposite" // opposite concepts left unmatched (on/off, add/delete, ascending/descending), or a switch asked for the other state
	VetoNegation = "negation" // a negation on one side only
	VetoRoles    = "roles"    // swapped roles ("from A to B" against "from B to A")
	VetoAction   = "action"   // an unmatched action word on both sides, or a strong one in the command only
	VetoPolarity = "polarity" // the flow names one side of a toggle, the command neither
	VetoUnfilled = "unfilled" // a slot the command gives no value for (also in Missing)
	VetoValue    = "value"    // a value of the command (quoted, number, time, date, proper noun) the flow does not use
	VetoLiteral  = "literal"  // a value the flow names (not a slot) that the command does not, or a selector (the last photo) where it says "all"
	// VetoExtra: the command has unmatched words and the flow none, an
	// extra requirement ("call Bob on speaker" against "call {contact}",
	// "delete the browsing history of Bob" against "delete all browsing
	// history"); it lowers the score (×0.75). VetoOmitted, the other way
	// round, changes no score: a command may leave out what the flow
	// says ("open the weather" for "open the weather page").
	VetoExtra   = "extra"
	VetoOmitted = "omitted"
)

// ErrNoText is returned by Add for a flow with neither an intent template
// nor a past command with words in it.
var ErrNoText = errors.New("intent: flow has no intent text")

// BM25 parameters (Robertson & Zaragoza, "The Probabilistic Relevance
// Framework: BM25 and Beyond", 2009, §3: the usual k1 = 1.2, b = 0.75).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Index and candidate limits.
const (
	maxCommands   = 15   // most recent past commands kept per flow
	candBM25      = 64   // candidates taken by BM25
	candTrigram   = 32   // candidates taken by trigram overlap (typos)
	minTrigramCos = 0.35 // trigram overlap needed to be a candidate
)

// pattern is one form of a flow: its intent template, or one past
// command with the slot values replaced by placeholders.
type pattern struct {
	src   string
	toks  []ptok
	tris  []uint64 // sorted scoring trigrams of the content words (ptok.stris)
	itris []uint64 // index trigrams (ptok.tris)
	runs  bool     // a literal is a quoted text of two words or more (mergeRuns)
}

// flowDoc is a flow as the Matcher indexes it; a BM25 document is the
// union of its patterns' terms.
type flowDoc struct {
	id       int64
	pkg      string
	slots    map[string]*slotInfo
	patterns []*pattern
	terms    map[string]int // term → number of patterns holding it
	length   int
	tris     []uint64 // unique trigram keys of all patterns
	dead     bool
}

type posting struct {
	doc int32
	tf  uint16
}

// Matcher ranks saved flows against a command without a model: the
// historical-repository lookup of PromptRPA (§4.1.2, §4.2.1) and the
// "query similar flows" step of the mobile virtual assistant (Phan &
// Luong), done by BM25 retrieval over stems and concepts, character
// trigrams, and slot alignment. Safe for concurrent use.
//
// Index: an inverted index from terms (Porter stems and "@concept" ids)
// to flows, and one from character trigrams to flows (for typos). Rank
// scores fully only the 64 best flows by BM25 and the 32 best by trigram
// overlap.
type Matcher struct {
	mu       sync.RWMutex
	docs     []*flowDoc
	byID     map[int64]int32
	post     map[string][]posting
	triPost  map[uint64][]int32
	df       map[string]int
	live     int
	totalLen int
	dead     int
	pool     sync.Pool
}

// NewMatcher indexes flows. Flows Add rejects (no intent text) are left
// out.
func NewMatcher(flows []knowledge.Flow) *Matcher {
	m := &Matcher{byID: map[int64]int32{}, post: map[string][]posting{}, triPost: map[uint64][]int32{}, df: map[string]int{}}
	for i := range flows {
		_ = m.Add(flows[i]) // only ErrNoText; such a flow can never match
	}
	return m
}

// Len is the number of flows indexed.
func (m *Matcher) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.live
}

// Add indexes flow f, replacing a flow with the same ID. Its patterns are
// the intent template and its most recent maxCommands past commands,
// each aligned with the template to turn its slot values into
// placeholders. It returns ErrNoText when f has no words to match.
func (m *Matcher) Add(f knowledge.Flow) error {
	d := buildFlowDoc(&f)
	if len(d.patterns) == 0 {
		return fmt.Errorf("add flow %d: %w", f.ID, ErrNoText)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.removeLocked(f.ID)
	idx := int32(len(m.docs))
	m.docs = append(m.docs, d)
	m.byID[d.id] = idx
	m.indexLocked(idx, d)
	return nil
}

func (m *Matcher) indexLocked(idx int32, d *flowDoc) {
	for t, tf := range d.terms {
		m.post[t] = append(m.post[t], posting{doc: idx, tf: uint16(min(tf, math.MaxUint16))})
		m.df[t]++
	}
	for _, k := range d.tris {
		m.triPost[k] = append(m.triPost[k], idx)
	}
	m.totalLen += d.length
	m.live++
}

// Remove drops the flow with the given ID; it reports whether it was
// indexed.
func (m *Matcher) Remove(id int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.removeLocked(id)
}

func (m *Matcher) removeLocked(id int64) bool {
	idx, ok := m.byID[id]
	if !ok {
		return false
	}
	d := m.docs[idx]
	d.dead = true
	delete(m.byID, id)
	for t := range d.terms {
		if m.df[t]--; m.df[t] <= 0 {
			delete(m.df, t)
		}
	}
	m.totalLen -= d.length
	m.live--
	m.dead++
	if m.dead > 32 && m.dead*4 > len(m.docs) {
		m.compactLocked()
	}
	return true
}

// compactLocked rebuilds the index without removed flows.
func (m *Matcher) compactLocked() {
	docs := m.docs
	m.docs = nil
	m.byID = map[int64]int32{}
	m.post = map[string][]posting{}
	m.triPost = map[uint64][]int32{}
	m.df = map[string]int{}
	m.live, m.totalLen, m.dead = 0, 0, 0
	for _, d := range docs {
		if d.dead {
			continue
		}
		idx := int32(len(m.docs))
		m.docs = append(m.docs, d)
		m.byID[d.id] = idx
		m.indexLocked(idx, d)
	}
}

// quotedIn reports whether one of commands quotes value (the owner set
// the slot's value off in quote marks when the flow was learned).
func quotedIn(commands []string, value string) bool {
	if value == "" {
		return false
	}
	for _, c := range commands {
		for _, t := range Tokenize(c) {
			if t.Kind == KindQuoted && strings.EqualFold(t.Text, value) {
				return true
			}
		}
	}
	return false
}

func buildFlowDoc(f *knowledge.Flow) *flowDoc {
	d := &flowDoc{id: f.ID, pkg: f.Package, slots: map[string]*slotInfo{}, terms: map[string]int{}}
	for _, s := range f.Slots {
		if s.Name != "" {
			d.slots[s.Name] = newSlotInfo(s.Name, s.Example)
			d.slots[s.Name].quoted = quotedIn(f.Commands, s.Example)
		}
	}
	seen := map[string]bool{}
	addPattern := func(src string, toks []ptok) {
		if len(toks) > maxToks {
			toks = toks[:maxToks]
		}
		key, content := patternKey(toks)
		if !content || seen[key] {
			return
		}
		seen[key] = true
		p := &pattern{src: src, toks: toks}
		for i := range toks {
			if t := &toks[i]; t.slot == "" && !t.stop {
				p.tris = append(p.tris, t.stris...)
				p.itris = append(p.itris, t.tris...)
				p.runs = p.runs || len(t.words) > 0
			}
		}
		slices.Sort(p.tris)
		d.patterns = append(d.patterns, p)
		for _, t := range patternTerms(toks) {
			d.terms[t]++
			d.length++
		}
	}
	var tpl []ptok
	if strings.TrimSpace(f.Intent) != "" {
		tpl = analyzeTemplate(f.Intent)
		for _, t := range tpl {
			if t.slot != "" && d.slots[t.slot] == nil {
				d.slots[t.slot] = &slotInfo{name: t.slot}
			}
		}
		addPattern(f.Intent, tpl)
	}
	cmds := f.Commands
	if len(cmds) > maxCommands {
		cmds = cmds[len(cmds)-maxCommands:]
	}
	for i := len(cmds) - 1; i >= 0; i-- {
		c := cmds[i]
		toks := analyze(c)
		if len(toks) > maxToks {
			toks = toks[:maxToks]
		}
		addPattern(c, derivePattern(c, tpl, toks, d.slots))
	}
	tset := map[uint64]bool{}
	for _, p := range d.patterns {
		for _, k := range p.itris {
			if !tset[k] {
				tset[k] = true
				d.tris = append(d.tris, k)
			}
		}
	}
	return d
}

// patternKey is a dedup key of a pattern, and whether it has any content
// (a non-stopword or a slot).
func patternKey(toks []ptok) (string, bool) {
	var b strings.Builder
	content := false
	for _, t := range toks {
		if t.slot != "" {
			b.WriteString("{" + t.slot + "} ")
			content = true
			continue
		}
		if !t.stop {
			content = true
		}
		b.WriteString(t.stem + " ")
	}
	return b.String(), content
}

// patternTerms are the BM25 terms of a pattern: stems of its content
// words (not slot values) and "@id" for their concepts, each once.
func patternTerms(toks []ptok) []string {
	var out []string
	for i := range toks {
		t := &toks[i]
		if t.slot != "" || t.stop || t.strongValue() {
			continue
		}
		if !slices.Contains(out, t.stem) {
			out = append(out, t.stem)
		}
		for _, c := range t.concepts {
			if k := "@" + c.id; !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// derivePattern turns past command src (tokens cmd) into a pattern: the
// spans that hold the slots' example values verbatim become the slot
// placeholders (PromptRPA §4.2.1 stores what ran; here the values are
// abstracted out), and slots whose example is not there are located by
// aligning the command with the template. Without a template (or slots)
// the command is its own pattern.
func derivePattern(src string, tpl, cmd []ptok, slots map[string]*slotInfo) []ptok {
	hasSlot := false
	for _, t := range tpl {
		if t.slot != "" {
			hasSlot = true
			break
		}
	}
	if !hasSlot || len(cmd) == 0 {
		return cmd
	}
	slotOf := make([]int, len(cmd)) // template slot index consuming the token, or -1
	for j := range slotOf {
		slotOf[j] = -1
	}
	spans := map[int][2]int{}
	used := func(k int) bool { return slotOf[k] >= 0 }
	missing := false
	for i, t := range tpl {
		if t.slot == "" {
			continue
		}
		if _, done := spans[i]; done {
			continue
		}
		si := slots[t.slot]
		if si == nil || si.example == "" {
			missing = true
			continue
		}
		a, b, ok := findValue(src, cmd, si.example, used)
		if !ok {
			missing = true
			continue
		}
		spans[i] = [2]int{a, b}
		for k := a; k < b; k++ {
			slotOf[k] = i
		}
	}
	if missing {
		n, mm := len(tpl), len(cmd)
		sims := make([]float64, n*mm)
		for i := range tpl {
			for j := range cmd {
				sims[i*mm+j] = tokSim(&tpl[i], &cmd[j])
			}
		}
		al := align(src, tpl, cmd, slots, sims, &work{})
	fills:
		for i, sp := range al.fills {
			if tpl[i].slot == "" || sp.a < 0 {
				continue
			}
			if _, done := spans[i]; done {
				continue
			}
			for k := sp.a; k < sp.b; k++ {
				if slotOf[k] >= 0 {
					continue fills
				}
			}
			spans[i] = [2]int{sp.a, sp.b}
			for k := sp.a; k < sp.b; k++ {
				slotOf[k] = i
			}
		}
	}
	out := make([]ptok, 0, len(cmd))
	for j := 0; j < len(cmd); j++ {
		si := slotOf[j]
		if si < 0 {
			out = append(out, cmd[j])
			continue
		}
		sp := spans[si]
		slot := tpl[si]
		slot.start, slot.end = cmd[sp[0]].start, cmd[sp[1]-1].end
		out = append(out, slot)
		j = sp[1] - 1
	}
	return out
}

// query is an analysed command.
type query struct {
	src   string
	toks  []ptok
	terms []string
	tris  []uint64 // unique trigram keys of content words
}

func newQuery(cmd string) *query {
	toks := analyze(cmd)
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
			if r.score > best.score || bestSrc == "" {
				best, bestSrc = r, p.src
			}
		}
		if best.score <= 0 && !keepZero {
			continue
		}
		out = append(out, Candidate{FlowID: d.id, Package: d.pkg, Score: best.score, Slots: best.fills, Missing: best.missing, Matched: bestSrc, Vetoes: best.vetoes, Unmatched: best.cmdLone, FlowUnmatched: best.patLone, Substituted: best.substituted})
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

package intent

import (
	"errors"
	"fmt"
	"math"
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
	// "open the weather faq" against "open the weather page" — another thing,
	// or the same thing in other words; the lexical rules cannot tell.
	Substituted bool `json:"substituted,omitempty"`
	// Corrected is the command with each word the matcher read as a typo
	// of a flow word (one edit away) written as that word ("turn on
	// read receipts" for "turn on read reciepts"); "" when there is
	// none. A model comparing meanings (daemon/semantic) reads it instead
	// of the misspelt command.
	Corrected string `json:"corrected,omitempty"`
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
	labels   map[string]string // package → app label (NewMatcherFor)
}

// NewMatcher indexes flows. Flows Add rejects (no intent text) are left
// out.
func NewMatcher(flows []knowledge.Flow) *Matcher { return NewMatcherFor(flows, nil) }

// NewMatcherFor is NewMatcher knowing the label of each app (package →
// label): flows and commands are matched without their mentions of the
// app they are for ("in the Planner app", markMentions).
func NewMatcherFor(flows []knowledge.Flow, labels map[string]string) *Matcher {
	m := &Matcher{byID: map[int64]int32{}, post: map[string][]posting{}, triPost: map[uint64][]int32{}, df: map[string]int{}, labels: labels}
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
	d := buildFlowDoc(&f, m.labels[f.Package])
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

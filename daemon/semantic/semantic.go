// Package semantic brings meaning into flow matching: embeddings from the
// on-device model (daemon/bert) or the model endpoint promote a saved
// flow that the lexical matcher (daemon/intent) scored just below the
// replay threshold, retrieve the app's flows closest to a command,
// list the flows to offer the owner when none replays ("did you mean
// …?"), and check that a lexical match means what the command means.
//
// It owns these rules, the flow texts it embeds (intent template, the
// labels of the elements the flow taps, recent past commands), the
// cosine comparison, which list rows a flow picks by name (rows.go), the use of the knowledge
// store's embedding cache (keyed by model and text), and the offline
// fallback: with no embedder, or when the endpoint fails or times out, it
// answers "no promotion" and says why, never an error, and leaves the
// endpoint alone for a cooldown. It does not rank flows, fill slots, ask
// the owner or decide replay itself; the engine (daemon/match.go) does,
// with its answer. It talks to the model only through the Embedder
// interface (*llm.Client and *bert.Model implement it) and to the store
// only through Cache (*knowledge.Store implements it).
//
// Files by job: semantic.go (the Embedder and Cache interfaces, Decide),
// config.go (Config, its defaults and the tuned MiniLM configuration),
// rule.go (the promotion rule: which candidate may be promoted),
// retrieve.go (retrieval by meaning), offer.go (flows to offer, agreement
// of a lexical match), rows.go (rows a flow picks by name, which the owner
// may have it pick another of), ground.go (a replaced word grounded on the
// app's recorded screens), vectors.go (texts, cache, cosine).
//
// The rule (Rescorer.Decide), precision first:
//
//  1. Only when no candidate reaches the threshold; the lexical decision
//     is never overturned, only a miss may become a replay (Agrees may
//     still hold a lexical replay back, to be offered instead).
//  2. Only a candidate scoring in [threshold − GreyZone, threshold) with
//     no Missing slots and no vetoes but those listed in Config.Bridge is
//     eligible: embeddings may bridge a rewording, never an opposite
//     concept, a negation, swapped roles, a missing or dropped value, or a
//     requirement added (intent.Candidate.Vetoes). Nor, unless Bridge
//     has Substitution, an object word replaced by another
//     (intent.Candidate.Substituted) that names another element of the
//     app (Config.GroundSubstitution: "open the dnd settings" against
//     "open the sound settings", when the app showed "Do not disturb"); nor
//     ever a word of the flow that names an option the flow taps ("sort
//     by middle name" against "sort by first name", which taps "First
//     name"), or a word of another element's label the command swapped in
//     place for one of its own (a sibling setting: "wrap short lines"
//     against a flow that taps "Wrap long lines").
//     Nor a candidate whose slot value stretches over words the
//     alignment could not place (more than twice its example's words),
//     nor one that shares with the command nothing but the app's name
//     said as the app ("… of the Ticker app") and words that only say to
//     look (onlyTheApp, with Input.Label).
//     An extra requirement (intent.VetoExtra), the only veto of a
//     candidate that fills no slot, is bridged when the command without
//     the words behind it means the same (Config.MinorExtra: "clear the
//     whole download list").
//  3. The eligible candidate with the highest cosine is promoted when its
//     cosine is at least MinCosine and beats by MinMargin every other
//     candidate but those the command contradicts (opposite, negation,
//     swapped roles): a flow vetoed for another value may still be the
//     one meant, so a closer one makes the command ambiguous, and
//     ambiguity is a miss.
//
// With Config.Retrieve (DecideIn), the candidates are not only those the
// lexical matcher retrieved: the app's flows closest in meaning are
// scored by it too (their slots and vetoes) and decided on under the same
// rule, so a rewording that shares no word with its flow can still find
// it.
package semantic

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Embedder turns texts into vectors, one per text in order. EmbedModel
// names the model; it keys the cache, so two embedders with the same
// model name must give the same vectors.
type Embedder interface {
	EmbedModel() string
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Func is an Embedder made of function fields (tests, adapters).
type Func struct {
	Model string
	Fn    func(ctx context.Context, texts []string) ([][]float32, error)
}

// EmbedModel returns f.Model.
func (f Func) EmbedModel() string { return f.Model }

// Embed calls f.Fn.
func (f Func) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if f.Fn == nil {
		return nil, errors.New("semantic: Func has no Fn")
	}
	return f.Fn(ctx, texts)
}

// Cache stores embeddings by (model, text); *knowledge.Store implements it.
// A miss is any error from Embedding.
type Cache interface {
	Embedding(ctx context.Context, model, text string) ([]float32, error)
	PutEmbedding(ctx context.Context, model, text string, v []float32) error
}

// Rescorer applies the promotion rule. Safe for concurrent use. A nil
// *Rescorer never promotes.
type Rescorer struct {
	emb   Embedder
	cache Cache
	cfg   Config
	now   func() time.Time

	mu        sync.Mutex
	downUntil time.Time
	downErr   string
	// mem holds the vectors used lately, by text, in front of cache: the
	// flow texts of an app are compared at every command the lexical
	// matcher misses, and reading each from the store costs a query
	// (BenchmarkRetrieve). Emptied past memEntries.
	mem map[string][]float32
}

// memEntries bounds Rescorer.mem: about 1.5 KB per 384-dimension vector,
// so 6 MB at most.
const memEntries = 4096

// New returns a Rescorer over emb, caching in cache (nil: no cache). A nil
// emb returns nil (embeddings off).
//
// A zero cfg takes the configuration tuned for the embedder's model
// (Tuned), if any, else the defaults.
func New(emb Embedder, cache Cache, cfg Config) *Rescorer {
	if emb == nil {
		return nil
	}
	if t, ok := Tuned[emb.EmbedModel()]; ok && cfg.isZero() {
		cfg = t
	}
	return &Rescorer{emb: emb, cache: cache, cfg: cfg.withDefaults(), now: time.Now}
}

// Model is the embedder's model name ("" for a nil Rescorer).
func (r *Rescorer) Model() string {
	if r == nil {
		return ""
	}
	return r.emb.EmbedModel()
}

// Decision is what Decide found.
type Decision struct {
	// Cands are the candidates decided on: the lexical ones, then those
	// retrieved by meaning (DecideIn).
	Cands []intent.Candidate
	// Promoted is the index in Cands of the flow to replay, or -1.
	Promoted int
	// Suggest are the indexes in Cands of the flows to offer the owner
	// when none is promoted (Config.SuggestMinCosine), closest first.
	Suggest []int
	// Cosine holds, per candidate, the highest cosine between the command
	// and the flow's texts; -1 where none was computed.
	Cosine []float64
	// Minor marks, per candidate, an extra requirement that does not change
	// what the command means (Config.MinorExtra); nil when none was checked.
	Minor []bool
	// VerbGap marks, per candidate, a verb the vocabulary does not know
	// that the model does not bridge to the flow's (Config.VerbMinCosine).
	VerbGap []bool
	// ChoiceSaid marks, per candidate, a choice of its flow the command
	// leaves out in the flow's words but names by meaning among the
	// options (Rescorer.choicesSaid): no BarChoice.
	ChoiceSaid []bool
	// Barred says, per candidate, why the grey-zone rule may not promote
	// it (a Bar constant), "" where it may; nil when the rule did not run.
	Barred []string
	// Consulted: embeddings were compared (from the cache or the
	// endpoint).
	Consulted bool
	// Requests is the number of embedding requests sent (0 or 1);
	// CacheHits the texts found in the cache.
	Requests  int
	CacheHits int
	// Reason says in a line why a flow was or was not promoted.
	Reason string
	// Err is the embedding failure that left matching lexical, with
	// secrets redacted; nil otherwise. It is reported, not returned.
	Err error
}

// redactor is implemented by embedders that can strip their secrets from
// a text (*llm.Client).
type redactor interface {
	Redact(s string, secrets ...string) string
}

// Decide applies the rule of the package doc to the lexical candidates of
// command (best first, as intent.Matcher.Rank returns them), whose flows
// are in flows. It is DecideIn without retrieval by meaning.
func (r *Rescorer) Decide(ctx context.Context, command string, cands []intent.Candidate, flows map[int64]*knowledge.Flow, threshold float64) Decision {
	return r.DecideIn(ctx, command, Input{Cands: cands, Flows: flows, Threshold: threshold})
}

// Input is what DecideIn decides on.
type Input struct {
	// Cands are the lexical candidates, best first (intent.Matcher.Rank).
	Cands []intent.Candidate
	// Flows holds every flow named in Cands and Pool.
	Flows     map[int64]*knowledge.Flow
	Threshold float64
	// Pool are the flows the command may mean (the app's healthy flows);
	// with Config.Retrieve > 0 and a Scorer, the Retrieve flows of Pool
	// closest in meaning that Cands lack are scored and added, so that a
	// rewording sharing no word with a flow can still find it.
	Pool   []int64
	Scorer Scorer
	// OfferOnly: promote nothing, only list the flows to offer
	// (Decision.Suggest) — also when the lexical match is above the
	// threshold: the caller asks the owner about that match and offers
	// these beside it.
	OfferOnly bool
	// Label is the app's label: a flow's cosine is the higher of the
	// command's with its texts as written and without their mentions of
	// the app on both sides (unmentioned); "" compares them as written.
	Label string
}

// DecideIn applies the rule of the package doc to in. Decision.Cands are
// the candidates decided on (in.Cands, then the flows retrieved by
// meaning); Decision.Promoted and Decision.Cosine index them.
func (r *Rescorer) DecideIn(ctx context.Context, command string, in Input) Decision {
	cands, flows, threshold := in.Cands, in.Flows, in.Threshold
	d := Decision{Promoted: -1, Cands: cands, Cosine: make([]float64, len(cands))}
	for i := range d.Cosine {
		d.Cosine[i] = -1
	}
	switch {
	case r == nil:
		d.Reason = "embeddings off"
		return d
	case len(cands) > 0 && cands[0].Score >= threshold && !in.OfferOnly:
		d.Reason = "lexical match above the threshold"
		return d
	}
	retrieve := r.cfg.Retrieve > 0 && in.Scorer != nil && len(in.Pool) > 0
	if len(cands) == 0 && !retrieve {
		d.Reason = "no candidate"
		return d
	}
	floor := threshold - r.cfg.GreyZone
	sw := newScreenWords(flows)
	sw.command, sw.label = command, in.Label
	if !retrieve && !in.OfferOnly && !slices.ContainsFunc(cands, func(c intent.Candidate) bool {
		return r.eligible(c, flows, sw, floor, threshold, r.cfg.MinorExtra > 0 && onlyExtra(c))
	}) {
		d.Reason = fmt.Sprintf("no candidate in the grey zone [%.2f, %.2f) without a veto, a substituted word or another choice", floor, threshold)
		return d
	}
	if err := r.resting(); err != nil {
		d.Reason = "embeddings unavailable (" + err.Error() + "); lexical matching only"
		d.Err = err
		return d
	}

	// texts: the command, then each flow's (candidates and pool)
	ids := make([]int64, 0, len(cands)+len(in.Pool))
	for _, c := range cands {
		ids = append(ids, c.FlowID)
	}
	if retrieve {
		ids = append(ids, in.Pool...)
	}
	var texts textSet
	cmdText := normalize(command)
	texts.at(cmdText) // 0
	at := texts.at
	// the second view: the command and the flows' texts without their
	// mentions of the app (unmentioned)
	bare := at(unmentioned(cmdText, in.Label))
	flowTexts := map[int64][]int{} // flow → indexes into texts
	flowBare := map[int64][]int{}  // … of its texts without mentions
	for _, id := range ids {
		f := flows[id]
		if f == nil || flowTexts[id] != nil {
			continue
		}
		for _, t := range FlowTexts(f, r.cfg.MaxTexts) {
			flowTexts[id] = append(flowTexts[id], at(t))
			flowBare[id] = append(flowBare[id], at(unmentioned(t, in.Label)))
		}
	}
	vecs, err := r.embed(ctx, texts.list, &d)
	if err != nil {
		d.Reason = "embeddings unavailable (" + err.Error() + "); lexical matching only"
		d.Err = err
		return d
	}
	d.Consulted = true
	cos := func(id int64) float64 {
		best := -1.0
		for i, k := range flowTexts[id] {
			best = math.Max(best, math.Max(Cosine(vecs[0], vecs[k]), Cosine(vecs[bare], vecs[flowBare[id][i]])))
		}
		return best
	}
	if retrieve {
		d.Cands, d.Cosine = r.retrieve(command, in, cos)
	} else {
		for i, c := range cands {
			if f := flows[c.FlowID]; f != nil && !contradicted(c) {
				d.Cosine[i] = cos(c.FlowID)
			}
		}
	}
	// a flow that picks an option reads closer to the command as it
	// would for the option the command names than with its example
	picked := r.cosinesWith(ctx, vecs[0], len(d.Cands), func(i int) string {
		return pickedTemplate(flows[d.Cands[i].FlowID], d.Cands[i].Slots)
	}, &d)
	for i, p := range picked {
		if p > d.Cosine[i] && !contradicted(d.Cands[i]) {
			d.Cosine[i] = p
		}
	}
	d.Minor = r.minorExtras(ctx, command, vecs[0], d.Cands, &d)
	d.VerbGap = r.verbGaps(ctx, command, d.Cands, &d)
	d.ChoiceSaid = r.choicesSaid(ctx, command, d.Cands, flows)
	if in.OfferOnly {
		d.Reason = "flows to offer only"
	} else {
		r.rule(&d, flows, sw, floor, threshold)
	}
	if d.Promoted < 0 && r.cfg.SuggestMinCosine > 0 {
		d.Suggest = r.suggest(command, d, r.offerCosines(ctx, vecs[0], flows, &d), flows)
	}
	return d
}

// pickedTemplate returns f's intent template filled with the values of
// slots where each names an option of the slot's choice step (its words
// all in one option's label), "" when f has no choice slot or a value of
// slots names none: the flow as it reads for the option the command
// picks ("set the reader font to large" rather than its example
// "medium").
func pickedTemplate(f *knowledge.Flow, slots map[string]string) string {
	if f == nil || len(slots) == 0 {
		return ""
	}
	any := false
	for _, st := range f.Steps {
		name, ok := st.ChoiceSlot()
		if !ok {
			continue
		}
		v, ok := slots[name]
		if !ok {
			return ""
		}
		vw := labelWords(v)
		if len(vw) == 0 || !slices.ContainsFunc(st.Choices, func(l string) bool {
			lw := labelWords(l)
			return !slices.ContainsFunc(vw, func(w string) bool { return !slices.Contains(lw, w) })
		}) {
			return ""
		}
		any = true
	}
	if !any {
		return ""
	}
	return fillTemplate(f, func(sl knowledge.Slot) string {
		if v, ok := slots[sl.Name]; ok {
			return v
		}
		return cmp.Or(sl.Example, sl.Name)
	})
}

package semantic

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Offering flows to the owner ("did you mean …?") and checking that a
// lexical match agrees with the model.

// Agrees reports whether command and the flow f of a lexical candidate c
// (scored at or above the replay threshold) mean alike: the cosine of
// the command with the closest of f's texts — its intent template filled
// with c's slot values, then FlowTexts; each also compared, both sides
// without their mentions of the app labelled label (unmentioned) — is at
// least Config.MinAgree. It returns that cosine. With MinAgree 0, or when
// the embedder fails (reported in the error, the embedder then rests for
// the cooldown), the lexical decision stands: it agrees.
func (r *Rescorer) Agrees(ctx context.Context, command, label string, c intent.Candidate, f *knowledge.Flow) (bool, float64, error) {
	if r == nil || r.cfg.MinAgree <= 0 || f == nil {
		return true, -1, nil
	}
	if err := r.resting(); err != nil {
		return true, -1, err
	}
	filled := fillTemplate(f, func(sl knowledge.Slot) string { return cmp.Or(c.Slots[sl.Name], sl.Example) })
	cmdText := normalize(command)
	bare := unmentioned(cmdText, label)
	var texts textSet
	texts.at(cmdText)  // 0
	var pairs [][2]int // (command view, flow text) indexes into texts
	for _, t := range append([]string{normalize(filled)}, FlowTexts(f, r.cfg.MaxTexts)...) {
		if t == cmdText {
			return true, 1, nil // the command is one of the flow's texts
		}
		if t == "" {
			continue
		}
		pairs = append(pairs, [2]int{0, texts.at(t)})
		if tb := unmentioned(t, label); tb != t || bare != cmdText {
			pairs = append(pairs, [2]int{texts.at(bare), texts.at(tb)})
		}
	}
	if len(pairs) == 0 {
		return true, -1, nil // the flow has no text to compare
	}
	var d Decision
	vecs, err := r.embed(ctx, texts.list, &d)
	if err != nil {
		return true, -1, err
	}
	best := -1.0
	for _, p := range pairs {
		best = math.Max(best, Cosine(vecs[p[0]], vecs[p[1]]))
	}
	return best >= r.cfg.MinAgree, best, nil
}

// valueVetoes say the command gives the flow another value, or none for
// a slot: replaying it would do something the command did not say.
var valueVetoes = []string{intent.VetoUnfilled, intent.VetoValue, intent.VetoLiteral}

// otherValue reports whether c's vetoes say the command gives the flow
// another value. A value the flow names (VetoLiteral) that the command
// leaves out without a value of its own (no VetoValue, no word with a
// digit left over: "export all my messages" against "export all messages
// to 'Messages.json'", "use military time" against "use the 24 hour
// format"; not "play track9" against "play 'track3'") is not another value:
// the owner may be offered the flow, and sees the value in its name. Nor is a slot the command gives no value for (VetoUnfilled,
// Candidate.Missing): offered, the flow asks the owner for it (the
// daemon's offer), never types a placeholder.
func otherValue(c intent.Candidate) bool {
	for _, v := range c.Vetoes {
		if v == intent.VetoLiteral && !slices.Contains(c.Vetoes, intent.VetoValue) && !slices.ContainsFunc(c.Unmatched, hasDigit) || v == intent.VetoUnfilled {
			continue
		}
		if slices.Contains(valueVetoes, v) {
			return true
		}
	}
	return false
}

// suggest lists the candidates of d to offer the owner (Config.Suggest),
// by cosine (per candidate of d, as Decision.Cosine).
func (r *Rescorer) suggest(command string, d Decision, cosine []float64, flows map[int64]*knowledge.Flow) []int {
	var out []int
	for i, c := range d.Cands {
		f := flows[c.FlowID]
		if f == nil || contradicted(c) || cosine[i] < r.cfg.SuggestMinCosine ||
			otherValue(c) && !Rebinds(command, c, f) || stretched(c.Slots, f) {
			continue
		}
		out = append(out, i)
	}
	slices.SortStableFunc(out, func(a, b int) int { return cmp.Compare(cosine[b], cosine[a]) })
	if len(out) > r.cfg.Suggest {
		out = out[:r.cfg.Suggest]
	}
	return out
}

// offerCosines returns d.Cosine with the cosine of each candidate that
// fills slots raised to that of its flow's intent template filled with
// the candidate's own values (Config.OfferFilled), where that reaches
// OfferFilled: the values a command gives are not a difference in
// meaning from the flow, but its texts carry their own examples ("make
// an entry named book club" against "create an entry called
// 'standup'"). cmdVec is the command's vector. On an embedding failure, or
// with OfferFilled 0, it is d.Cosine. d counts the request.
func (r *Rescorer) offerCosines(ctx context.Context, cmdVec []float32, flows map[int64]*knowledge.Flow, d *Decision) []float64 {
	out := slices.Clone(d.Cosine)
	if r.cfg.OfferFilled <= 0 {
		return out
	}
	filled := r.cosinesWith(ctx, cmdVec, len(d.Cands), func(i int) string {
		c, f := d.Cands[i], flows[d.Cands[i].FlowID]
		if f == nil || len(c.Slots) == 0 || out[i] < 0 {
			return ""
		}
		return normalize(fillTemplate(f, func(sl knowledge.Slot) string { return cmp.Or(c.Slots[sl.Name], sl.Example, sl.Name) }))
	}, d)
	for i, c := range filled {
		if c >= r.cfg.OfferFilled {
			out[i] = math.Max(out[i], c)
		}
	}
	return out
}

// hasDigit reports whether s has a digit.
func hasDigit(s string) bool { return strings.ContainsFunc(s, unicode.IsDigit) }

// unmentioned is text without its mentions of the app labelled label
// (intent.WithoutMentions), white space normalized; text when label is "".
// A sentence-embedding model reads "of the Planner app" as part of the
// meaning, so a command and a flow's text are also compared without it
// (Input.Label).
func unmentioned(text, label string) string {
	if label == "" {
		return text
	}
	return normalize(intent.WithoutMentions(text, label))
}

// textSet is the texts of one embedding request, each once, in order.
type textSet struct {
	list  []string
	index map[string]int
}

// at returns the index of t in the set, adding it when absent.
func (x *textSet) at(t string) int {
	if k, ok := x.index[t]; ok {
		return k
	}
	if x.index == nil {
		x.index = map[string]int{}
	}
	x.index[t] = len(x.list)
	x.list = append(x.list, t)
	return len(x.list) - 1
}

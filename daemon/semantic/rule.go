package semantic

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// eligible: candidate c may be promoted under the grey-zone rule; minor:
// its extra requirement does not change the command's meaning
// (Config.MinorExtra), so that veto is bridged.
func (r *Rescorer) eligible(c intent.Candidate, flows map[int64]*knowledge.Flow, sw *screenWords, floor, threshold float64, minor bool) bool {
	return r.barred(c, flows, sw, floor, threshold, minor, false) == ""
}

// Why a candidate is barred from promotion (Decision.Barred), "" when it
// is eligible.
const (
	BarGone         = "flow gone"
	BarContradicted = "contradicted"
	BarLow          = "lexical below the grey zone"
	BarHigh         = "lexical above the threshold"
	BarMissing      = "a slot missing"
	BarSubstituted  = "a substituted word names another element"
	BarVeto         = "a veto embeddings may not bridge"
	BarChoice       = "leaves out a choice the flow makes"
	BarStretched    = "a slot value stretched"
	BarVerb         = "a verb the model does not bridge to the flow's"
	BarApp          = "nothing of the flow's in the command but the app's name"
)

// barred says why candidate c may not be promoted under the grey-zone
// rule (one of the Bar constants), "" when it may; minor as in eligible.
func (r *Rescorer) barred(c intent.Candidate, flows map[int64]*knowledge.Flow, sw *screenWords, floor, threshold float64, minor, choiceSaid bool) string {
	f := flows[c.FlowID]
	switch {
	case f == nil:
		return BarGone
	case contradicted(c):
		return BarContradicted
	case c.Score < floor:
		return BarLow
	case c.Score >= threshold:
		return BarHigh
	case len(c.Missing) > 0:
		return BarMissing
	case c.Substituted && !slices.Contains(r.cfg.Bridge, Substitution) && !(r.cfg.GroundSubstitution && !sw.namesOther(c, f)):
		return BarSubstituted
	case !r.bridgeable(c) && !(minor && onlyExtra(c)):
		return BarVeto
	case !choiceSaid && namesChoice(c, sw.command, f):
		return BarChoice
	case stretched(c.Slots, f):
		return BarStretched
	}
	return ""
}

// onlyExtra reports whether c's one veto is an extra requirement, and
// c fills no slot: a word left over next to a value is most often part of
// it ("5 minutes before" taken as "5"), which no cosine can tell.
func onlyExtra(c intent.Candidate) bool {
	return len(c.Vetoes) == 1 && c.Vetoes[0] == intent.VetoExtra && len(c.Unmatched) > 0 && len(c.Slots) == 0
}

// minorExtras returns, per candidate of cands, whether its extra
// requirement does not change what the command means: the command
// without the words behind it (intent.Candidate.Unmatched) keeps a cosine
// of at least Config.MinorExtra with the whole command. Nil when
// MinorExtra is off or no candidate has only that veto; an embedding
// failure leaves them all false.
func (r *Rescorer) minorExtras(ctx context.Context, command string, cmdVec []float32, cands []intent.Candidate, d *Decision) []bool {
	if r.cfg.MinorExtra <= 0 || !slices.ContainsFunc(cands, onlyExtra) {
		return nil
	}
	whole := normalize(command)
	cos := r.cosinesWith(ctx, cmdVec, len(cands), func(i int) string {
		if !onlyExtra(cands[i]) {
			return ""
		}
		if t := withoutWords(command, cands[i].Unmatched); t != whole {
			return t
		}
		return ""
	}, d)
	out := make([]bool, len(cands))
	for i, c := range cos {
		out[i] = c >= r.cfg.MinorExtra
	}
	return out
}

// cosinesWith returns, for i in [0, n), the cosine of cmdVec with the
// vector of text(i), embedded in one request (texts repeated once); -1
// where text(i) is "" or the embedder failed (the failure is in d's
// counts, as every embedding here).
func (r *Rescorer) cosinesWith(ctx context.Context, cmdVec []float32, n int, text func(int) string, d *Decision) []float64 {
	out := make([]float64, n)
	at := make([]int, n)
	var texts []string
	for i := range n {
		out[i], at[i] = -1, -1
		t := text(i)
		if t == "" {
			continue
		}
		if k := slices.Index(texts, t); k >= 0 {
			at[i] = k
			continue
		}
		at[i] = len(texts)
		texts = append(texts, t)
	}
	if len(texts) == 0 {
		return out
	}
	vecs, err := r.embed(ctx, texts, d)
	if err != nil {
		return out
	}
	for i, k := range at {
		if k >= 0 {
			out[i] = Cosine(cmdVec, vecs[k])
		}
	}
	return out
}

// withoutWords returns text without the first occurrence of each of words
// (lower case, as intent tokens are), spaces collapsed.
func withoutWords(text string, words []string) string {
	left := slices.Clone(words)
	var out []string
	for _, w := range strings.Fields(text) {
		k := slices.Index(left, strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })))
		if k >= 0 {
			left = slices.Delete(left, k, k+1)
			continue
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// stretched reports whether a slot value taken from the command has more
// than twice the words of the slot's example (and more than 2): the
// lexical alignment let the slot swallow words it could not place
// ("uninstall the clock" as the app name of "open {app} via search"), so
// the command is about something else than the flow and embeddings must
// not bridge it. A slot the flow has no example for is not checked.
func stretched(slots map[string]string, f *knowledge.Flow) bool {
	for _, sl := range f.Slots {
		v, ok := slots[sl.Name]
		if !ok || sl.Example == "" {
			continue
		}
		if n := len(strings.Fields(v)); n > 2 && n > 2*len(strings.Fields(sl.Example)) {
			return true
		}
	}
	return false
}

// rule picks the candidate to promote among d.Cands, whose cosines are
// computed (package doc, items 2 and 3).
func (r *Rescorer) rule(d *Decision, flows map[int64]*knowledge.Flow, sw *screenWords, floor, threshold float64) {
	bi := -1
	d.Barred = make([]string, len(d.Cands))
	for i, c := range d.Cands {
		d.Barred[i] = r.barred(c, flows, sw, floor, threshold, i < len(d.Minor) && d.Minor[i], i < len(d.ChoiceSaid) && d.ChoiceSaid[i])
		if d.Barred[i] == "" && i < len(d.VerbGap) && d.VerbGap[i] {
			d.Barred[i] = BarVerb
		}
		if d.Barred[i] == "" && onlyTheApp(sw.command, sw.label, c) {
			d.Barred[i] = BarApp
		}
		if d.Barred[i] == "" && (bi < 0 || d.Cosine[i] > d.Cosine[bi]) {
			bi = i
		}
	}
	if bi < 0 {
		d.Reason = fmt.Sprintf("no candidate in the grey zone [%.2f, %.2f) without a veto, a substituted word or another choice", floor, threshold)
		return
	}
	runner := -1.0
	for i := range d.Cands {
		if i != bi {
			runner = math.Max(runner, d.Cosine[i])
		}
	}
	c := d.Cands[bi]
	switch {
	case d.Cosine[bi] < r.cfg.MinCosine:
		d.Reason = fmt.Sprintf("flow %d: cosine %.3f below %.2f", c.FlowID, d.Cosine[bi], r.cfg.MinCosine)
	case runner >= 0 && d.Cosine[bi]-runner < r.cfg.MinMargin:
		d.Reason = fmt.Sprintf("flow %d: cosine %.3f, another candidate %.3f: ambiguous", c.FlowID, d.Cosine[bi], runner)
	default:
		d.Promoted = bi
		d.Reason = fmt.Sprintf("flow %d promoted: lexical %.3f in the grey zone, no veto, cosine %.3f", c.FlowID, c.Score, d.Cosine[bi])
	}
}

// contradicted: the command conflicts with the candidate outright
// (opposite concepts, a negation on one side, swapped roles); such a flow
// is never meant, so it neither is promoted nor makes a command ambiguous.
func contradicted(c intent.Candidate) bool {
	for _, v := range c.Vetoes {
		switch v {
		case intent.VetoOpposite, intent.VetoNegation, intent.VetoRoles:
			return true
		}
	}
	return false
}

// bridgeable: every veto of c is one Config.Bridge lets embeddings
// overrule; an omitted requirement (intent.VetoOmitted) also under
// OmittedObject, when no word of the flow the command leaves out is an
// action word that does more than open or confirm (doesSomething).
func (r *Rescorer) bridgeable(c intent.Candidate) bool {
	for _, v := range c.Vetoes {
		if slices.Contains(r.cfg.Bridge, v) {
			continue
		}
		if v == intent.VetoOmitted && slices.Contains(r.cfg.Bridge, OmittedObject) && !slices.ContainsFunc(c.FlowUnmatched, doesSomething) {
			continue
		}
		return false
	}
	return true
}

// doesSomething: w is an action word of the vocabulary other than one
// that only opens a screen or confirms what the flow did ("open", "go
// to", "save", "OK"), which a command leaves implied ("go into the scans
// folder" for "open the scans folder", "add the event 'gym'" for "… and
// save it").
func doesSomething(w string) bool {
	if !intent.ActionWord(w) {
		return false
	}
	return slices.ContainsFunc(intent.Concepts(w), func(id string) bool { return id != "open" && id != "save" })
}

// namesChoice reports whether the command leaves out a choice the flow
// makes, so that replaying would make the old one: one of the flow's
// unmatched words (c.FlowUnmatched), not an action word, is a word of the
// label of an element the flow taps, and that element is an option (a
// step with an option group or choices, or a checkable element: "sort by
// middle name" against a flow that taps "First name"), or the command
// says the label with that word swapped for another in place
// (swappedIn: "wrap short lines" against a flow that taps "Wrap long
// lines", "always show the clock" against "Briefly show the clock": a
// sibling setting). A word of a setting's or a button's label the command
// merely leaves out ("wrap lines that are too wide" for "Wrap long lines")
// is a rewording.
func namesChoice(c intent.Candidate, command string, f *knowledge.Flow) bool {
	return len(choicesLeft(c, command, f)) > 0
}

// choicesLeft returns the indexes of f's steps whose choice the command
// leaves out, as namesChoice reads them, in order.
func choicesLeft(c intent.Candidate, command string, f *knowledge.Flow) []int {
	if len(c.FlowUnmatched) == 0 {
		return nil
	}
	left := map[string]bool{}
	for _, w := range c.FlowUnmatched {
		if !actionWord(w) {
			left[strings.ToLower(w)] = true
		}
	}
	var cmd []string              // the command's words, computed once when needed
	var unmatched map[string]bool // c.Unmatched, lower case, likewise
	var out []int
	for k, s := range f.Steps {
		if s.Action != device.Tap && s.Action != device.LongPress {
			continue
		}
		// a check box or switch is no option of a group: a word of its
		// label left out is a rewording, as a button's
		option := len(s.Options) > 0 || len(s.Choices) > 0 || s.Target.Checkable && !screen.IsToggleClass(s.Target.Class)
		lw := labelWords(s.Target.Label())
		for i, w := range lw {
			if !left[w] {
				continue
			}
			if !option {
				if cmd == nil {
					cmd = labelWords(command)
					unmatched = map[string]bool{}
					for _, u := range c.Unmatched {
						unmatched[strings.ToLower(u)] = true
					}
				}
				if !swappedIn(lw, i, cmd, unmatched) {
					continue
				}
			}
			out = append(out, k)
			break
		}
	}
	return out
}

// choicesSaid returns, per candidate of cands, whether every choice its
// flow makes that the command leaves out in the flow's words
// (choicesLeft) the command names in its own: among the options the
// step chose from (knowledge.Step.Choices, else Options), PickChoice
// finds the command
// naming the one the flow taps ("switch to year view" for a flow that
// picks "Yearly view" among the calendar's views). Nil when PickChoice
// is off or no candidate leaves a choice out; an embedding failure
// leaves them all false.
func (r *Rescorer) choicesSaid(ctx context.Context, command string, cands []intent.Candidate, flows map[int64]*knowledge.Flow) []bool {
	if r.cfg.ChoiceMinCosine <= 0 {
		return nil
	}
	var out []bool
	for i, c := range cands {
		f := flows[c.FlowID]
		if f == nil {
			continue
		}
		left := choicesLeft(c, command, f)
		said := len(left) > 0
		for _, k := range left {
			st := f.Steps[k]
			group := st.Choices
			if len(group) == 0 {
				group = st.Options
			}
			if len(group) < 2 {
				said = false
				break
			}
			ch, err := r.PickChoice(ctx, command, group)
			if err != nil {
				return nil
			}
			if ch.Index < 0 || !strings.EqualFold(strings.TrimSpace(group[ch.Index]), strings.TrimSpace(st.Target.Label())) {
				said = false
				break
			}
		}
		if said {
			if out == nil {
				out = make([]bool, len(cands))
			}
			out[i] = true
		}
	}
	return out
}

// swappedIn reports whether the command (words cmd) says, in place of
// label word lw[i], one of its own unmatched words (lower case): that
// word stands next to a neighbour of lw[i] on the same side (stems
// compared).
func swappedIn(lw []string, i int, cmd []string, unmatched map[string]bool) bool {
	for j, u := range cmd {
		if !unmatched[u] {
			continue
		}
		if i > 0 && j > 0 && intent.Stem(lw[i-1]) == intent.Stem(cmd[j-1]) {
			return true
		}
		if i+1 < len(lw) && j+1 < len(cmd) && intent.Stem(lw[i+1]) == intent.Stem(cmd[j+1]) {
			return true
		}
	}
	return false
}

// actionWord: every concept of w is an action ("change", "add", "open"):
// a word of a button's label that says what it does, not which option it
// is ("Change view", "Add account").
func actionWord(w string) bool {
	ids := intent.Concepts(w)
	for _, id := range ids {
		if !intent.IsAction(id) {
			return false
		}
	}
	return len(ids) > 0
}

// verbGaps returns, per candidate of cands, whether the command's verb —
// its first word that is no stopword, unknown to the vocabulary as an
// action and left unmatched (intent.Candidate.Unmatched) — and an action
// word of the flow left unmatched (FlowUnmatched) have a cosine below
// Config.VerbMinCosine, embedded alone. Nil when it is off or no
// candidate has such a pair; an embedding failure leaves them all false.
func (r *Rescorer) verbGaps(ctx context.Context, command string, cands []intent.Candidate, d *Decision) []bool {
	if r.cfg.VerbMinCosine <= 0 {
		return nil
	}
	verb := LeadingWord(command)
	if verb == "" || intent.ActionWord(verb) {
		return nil
	}
	pairs := make([]string, len(cands)) // the flow's action word per candidate, "" for none
	var texts []string
	for i, c := range cands {
		if !slices.Contains(c.Unmatched, verb) {
			continue
		}
		for _, w := range c.FlowUnmatched {
			if intent.ActionWord(w) {
				pairs[i] = w
				if !slices.Contains(texts, w) {
					texts = append(texts, w)
				}
				break
			}
		}
	}
	if len(texts) == 0 {
		return nil
	}
	vecs, err := r.embed(ctx, append([]string{verb}, texts...), d)
	if err != nil {
		return nil
	}
	out := make([]bool, len(cands))
	for i, w := range pairs {
		if w != "" {
			out[i] = Cosine(vecs[0], vecs[1+slices.Index(texts, w)]) < r.cfg.VerbMinCosine
		}
	}
	return out
}

// LeadingWord is command's first word that is no stopword, lower case
// and without punctuation, when a stopword follows it as an article or
// a pronoun follows a verb ("exclude the …", "film a …"); "" otherwise
// ("message font size large" begins with a noun).
func LeadingWord(command string) string {
	ws := strings.Fields(strings.ToLower(command))
	for i, w := range ws {
		if w = strings.Trim(w, ",;:.!?'\"()"); w == "" || intent.IsStopword(w) {
			continue
		}
		if i+1 < len(ws) && intent.IsStopword(strings.Trim(ws[i+1], ",;:.!?'\"()")) {
			return w
		}
		return ""
	}
	return ""
}

// onlyTheApp reports whether the command shares nothing with candidate c
// but its mention of the app (labelled label: "… of the Ticker app") and
// words that only say to look: every other word of it is a stopword or
// one c leaves unmatched. "check the privacy policy of the Ticker app"
// against "open the ticker page" shares the app's name alone.
func onlyTheApp(command, label string, c intent.Candidate) bool {
	if label == "" {
		return false
	}
	rest := intent.WithoutMentions(command, label)
	if rest == command {
		return false // no mention of the app
	}
	unmatched := map[string]bool{}
	for _, u := range c.Unmatched {
		unmatched[strings.ToLower(u)] = true
	}
	for _, w := range labelWords(rest) {
		if intent.IsStopword(w) || unmatched[w] || slices.Contains(intent.Concepts(w), "open") {
			continue
		}
		return false
	}
	return true
}

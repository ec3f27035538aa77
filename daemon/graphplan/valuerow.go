// Value rows: a setting whose choices nobody recorded is found through the
// value it shows now.

package graphplan

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/simil"
)

// ValueRowMin is the least cosine between a command word no element of
// the screen carries and the value a settings row shows now
// ("Appearance · Night") for the row to be opened in search of that word ("light" / "dark" 0.64;
// "light" / "speed" 0.47, "list" / "grid" 0.33: all-MiniLM-L6-v2, generic
// word pairs, not fitted to the evaluation). The row must also beat every
// other row's value by SemMargin.
const ValueRowMin = 0.55

// valueRowMaxWords: a summary longer than this is a description, not a
// value ("Every other day" is a value; a sentence is not).
const valueRowMaxWords = 3

// valueRow returns a tap on the row of this screen whose summary — the
// text after its title, the setting's value now: "Appearance · Night" —
// is of the same kind as a word of the command that no element of the
// screen carries and that names no action ("make the appearance light"),
// once the rest of the command is covered and nothing known leads
// further (the caller's conditions): the choices of a
// list preference are shown only in the dialog its row opens, and the
// value it holds now stands for them. Android's preference rows show
// their value as a summary under their title (the ListPreference
// convention). Only a row explore would try (no switch, field, content
// row, creation or sensitive action), each row once a run, by the
// model's cosine (ValueRowMin, SemMargin); none without an embedder.
func (p *Planner) valueRow(ctx context.Context, rs *runState, st *daemon.PlanState, w map[term]float64) (candidate, bool) {
	memo := p.memoFor(st)
	if memo == nil || choices(st) || daemon.IsDialog(st.Screen) {
		return candidate{}, false
	}
	onScreen := map[term]bool{}
	for i := range st.Elements {
		for _, t := range elementTerms(&st.Elements[i], "") {
			onScreen[t] = true
		}
	}
	var words []string
	for _, ct := range rs.terms {
		wd := rs.words[ct.t]
		if ct.nav || rs.covered[ct.t] || w[ct.t] <= 0 || wd == "" || onScreen[ct.t] || intent.ActionWord(wd) || inSecret(wd, st.Secrets) {
			continue
		}
		words = append(words, wd)
	}
	if len(words) == 0 {
		return candidate{}, false
	}
	content := listItems(st)
	var rows []int
	var summaries []string
	for i := range st.Elements {
		e := &st.Elements[i]
		_, summary, ok := strings.Cut(e.Label, " · ")
		summary = simil.Normalize(summary)
		if !ok || summary == "" || len(strings.Fields(summary)) > valueRowMaxWords || content[e.Resource] ||
			rs.valueRows[elementKey(st.Print, e)] || !explorable(st, e) {
			continue
		}
		rows, summaries = append(rows, i), append(summaries, summary)
	}
	if len(rows) == 0 {
		return candidate{}, false
	}
	vs, err := memo.Vectors(ctx, append(slices.Clone(words), summaries...))
	if err != nil {
		return candidate{}, false
	}
	wv, sv := vs[:len(words)], vs[len(words):]
	bestRow, bestWord, best, second := -1, "", -1.0, -1.0
	for j := range rows {
		c, at := -1.0, ""
		for i := range words { // the row's value is as close as its closest word
			if x := simil.Cosine(wv[i], sv[j]); x > c {
				c, at = x, words[i]
			}
		}
		switch {
		case c > best:
			bestRow, bestWord, best, second = j, at, c, best
		case c > second:
			second = c
		}
	}
	if bestRow < 0 || best < ValueRowMin || best-second < SemMargin {
		return candidate{}, false
	}
	i := rows[bestRow]
	if rs.valueRows == nil {
		rs.valueRows = map[string]bool{}
	}
	rs.valueRows[elementKey(st.Print, &st.Elements[i])] = true
	rs.valueRowFrom, rs.valueRowStep = st.Print, len(st.History)
	return candidate{action: device.Tap, element: i, score: MinScore, via: 0,
		reason: fmt.Sprintf("%q is on no element here; the row %q holds a value of its kind (%.2f): its choices are behind it", bestWord, st.Elements[i].Label, best)}, true
}

// leaveValueRow returns a back press when the last step opened a value
// row (valueRow) and what it opened offers nothing the command asks: the
// row's dialog is left as it was found.
func (rs *runState) leaveValueRow(st *daemon.PlanState) (daemon.Decision, bool) {
	if rs.valueRowFrom == "" || len(st.History) != rs.valueRowStep+1 || st.Print == rs.valueRowFrom {
		return daemon.Decision{}, false
	}
	if h := st.History[len(st.History)-1]; !h.OK || h.Backtracked {
		return daemon.Decision{}, false
	}
	return daemon.Decision{Action: device.Back, Element: -1, Confidence: 0.2,
		Reason: "the value row's choices hold nothing the command asks; going back"}, true
}

// What the route check asks of a "done" (daemon.PlanState.Check) beyond
// what a live run asks: every word of the command accounted for — by a
// step, or by the walked flow's own recording when its command carries
// the word too (daemon.PlanState.Learned) — and an off command having
// turned something off. A walk over a flow's few kept
// screens (daemon/routecheck.go) sees little of the app, so a word no
// screen it sees carries would not keep it from being done.

package graphplan

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/simil"
)

// wordLeft reports whether a word of the command that is a term of it
// (not a navigation word) has none of its terms covered by a step's own
// words, as written, by its concept or by its own meaning
// (runState.worded), by a value typed or picked (givenTerms), by the
// walked flow's own command (runState.recorded), or — a command that
// asks to see something — shown on st's screen, not on a switch or a
// setting (as inView reads it); the app's name is no requirement. A word
// standing in for the flow's (PlanState.Strict) is accounted for as
// written on a step's target, by a switch, by the flow's own command, or
// by the model as the same word as the one it replaced (standsIn). For
// the route check (daemon.PlanState.Check), where a word no recorded
// screen carries weighs nothing and would not keep the run from being
// done.
func (p *Planner) wordLeft(ctx context.Context, st *daemon.PlanState) bool {
	var memo *simil.Memo
	if len(st.Strict) > 0 && len(st.Replaced) > 0 {
		memo = p.memoFor(st) // before the lock: memoFor takes it
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	rs := p.run
	if rs == nil {
		return false
	}
	nav := map[term]bool{}
	for _, ct := range rs.terms {
		nav[ct.t] = ct.nav
	}
	shown := map[term]bool{} // a command that asks to see something: what the screen shows
	if rs.viewing {
		for i := range st.Elements {
			if e := &st.Elements[i]; e.Kind != screen.KindCheckbox && !holdsSetting(st.Screen, e.NodeID) {
				for _, t := range elementTerms(e, "") {
					shown[t] = true
				}
			}
		}
	}
	strict, written := strictTerms(st)
	given := rs.givenTerms()
	for _, w := range strings.Fields(rs.cmd) {
		if intent.Negated(w) {
			continue // a negation: the matcher's veto and the switch's state read it
		}
		if intent.Universal(w) {
			// "everything", "whole": a quantifier, as "all" and "every"
			// are stopwords; a command for all of something done on one
			// row is doubted by itself (runState.universal)
			continue
		}
		ts := termsOf(w)
		ours, left := false, true
		asWritten := slices.ContainsFunc(ts, func(t term) bool { return strict[t] })
		for _, t := range ts {
			n, ok := nav[t]
			if !ok {
				continue
			}
			ours = true
			switch {
			case n || rs.appWords[t]:
				left = false
			case asWritten:
				// a word standing in for one of the flow's: on a step's
				// target as written, a word a switch's state says ("stop
				// …" for the flow's "disable …": a switch set off), or a
				// word the flow's own command has as written
				left = left && !(strict[t] && written[t]) && !rs.setBySwitch(t) && !(rs.recorded[t] && !strings.HasPrefix(string(t), "@"))
			case rs.worded[t] || shown[t] || given[t] || rs.recorded[t]:
				left = false
			}
		}
		if ours && left && asWritten && memo != nil && standsIn(ctx, memo, st, p.graphs[st.AppID], w) {
			left = false
		}
		if ours && left {
			if debugGraph {
				fmt.Fprintf(os.Stderr, "graphplan: %q: the word %q is not accounted for (%v)\n", rs.cmd, w, ts)
			}
			return true
		}
	}
	return false
}

// StandInMin is the least cosine between a word of the command standing
// in for one of the walked flow's and that word (one word each, the
// on-device model) for the step that carried the flow's word to account
// for the command's too (standsIn). Chosen on the tuning sets: "latest"
// / "last" 0.60 and "recent" / "last" 0.56 pass; "white" / "dark" 0.54,
// "erase" / "delete" 0.54, "show" / "hide" 0.54 and "video" / "photo"
// 0.53 do not. The model puts many opposites higher ("ascending" /
// "descending" 0.81, "large" / "small" 0.79): standsIn bars those by the
// vocabulary's opposites and by the app labelling the word.
const StandInMin = 0.55

// standsIn reports whether word w of the command, which stands in for a
// word of the walked flow (PlanState.Strict), says what that word says:
// a replaced word of the flow (PlanState.Replaced) is on a step's own
// target as written; w labels no element anywhere in the app's UI
// transition graph g (a word the app shows names something of its own:
// "video" beside "photo"); neither word is the other's opposite, by the
// vocabulary ("next" / "previous") or by a negating prefix
// (intent.PrefixOpposite: "read" / "unread"); and the model puts them at
// StandInMin or closer. An embedding error or no graph: false.
func standsIn(ctx context.Context, memo *simil.Memo, st *daemon.PlanState, g *appGraph, w string) bool {
	if g == nil {
		return false
	}
	wt := termsOf(w)
	if slices.ContainsFunc(wt, func(t term) bool { return !strings.HasPrefix(string(t), "@") && g.df[t] > 0 }) {
		return false
	}
	onTarget := map[term]bool{} // literal terms only
	for _, h := range st.History {
		for _, t := range stepTerms(h) {
			if !strings.HasPrefix(string(t), "@") {
				onTarget[t] = true
			}
		}
	}
	for _, r := range st.Replaced {
		rt := termsOf(r)
		if !slices.ContainsFunc(rt, func(t term) bool { return onTarget[t] }) || intent.PrefixOpposite(w, r) || conceptsOppose(wt, rt) {
			continue
		}
		if cos, err := memo.Similarities(ctx, w, []string{r}); err == nil && cos[0] >= StandInMin {
			return true
		}
	}
	return false
}

// stepTerms returns the terms step h's target carries: label,
// content-desc, resource-id words and a field's hint. A new slice: the
// cached ones are never appended to.
func stepTerms(h daemon.StepRecord) []term {
	return slices.Concat(targetTerms(h.Target), termsOf(h.Target.Hint))
}

// conceptsOppose reports whether a concept among a is the vocabulary's
// opposite of one among b (intent.Opposites).
func conceptsOppose(a, b []term) bool {
	for _, t := range a {
		if c, ok := strings.CutPrefix(string(t), "@"); ok {
			for _, o := range intent.Opposites(c) {
				if slices.Contains(b, term("@"+o)) {
					return true
				}
			}
		}
	}
	return false
}

// strictTerms returns the terms of st.Strict's words as written (no
// concept), and the terms the steps of st.History carry on their own
// targets — label, content-desc, resource-id, a field's hint — that
// carry no word of st.Replaced.
func strictTerms(st *daemon.PlanState) (strict, written map[term]bool) {
	if len(st.Strict) == 0 {
		return nil, nil
	}
	asWritten := func(words []string) map[term]bool {
		out := map[term]bool{}
		for _, w := range words {
			for _, t := range termsOf(w) {
				if !strings.HasPrefix(string(t), "@") {
					out[t] = true // the word as written, not its concept
				}
			}
		}
		return out
	}
	strict, replaced := asWritten(st.Strict), asWritten(st.Replaced)
	written = map[term]bool{}
	for _, h := range st.History {
		ts := stepTerms(h)
		if slices.ContainsFunc(ts, func(t term) bool { return replaced[t] }) {
			continue // it carries the flow's word too: it tells neither apart
		}
		for _, t := range ts {
			written[t] = true
		}
	}
	return strict, written
}

// offUndone reports whether the command turns something off or hides it
// ("hide …", "disable …") and no step set a switch off, tapped one that
// was on, or tapped an element whose label turns something off ("Stop
// showing hidden"): opening what it names, or tapping "Show hidden", is
// not doing it. For the route check (daemon.PlanState.Check).
func (p *Planner) offUndone(st *daemon.PlanState) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.run == nil || p.run.polarity >= 0 {
		return false
	}
	for _, h := range st.History {
		if h.Action == daemon.ActEnsureOff || h.Action == device.Tap && h.Toggle == "on" && h.Toggled || intent.Polarity(h.Label) < 0 {
			return false
		}
	}
	return true
}

// verbsDone reports whether every action the command names
// (runState.verbs) was covered by a step.
func (rs *runState) verbsDone() bool {
	return !slices.ContainsFunc(rs.verbs, func(v term) bool { return !rs.covered[v] })
}

// setBySwitch reports whether a step set a switch (runState.toggled) and
// t is a word of the command such a step covers (foldStep): a verb that
// sets ("add", "turn on", "disable"), changes, or stops doing something.
func (rs *runState) setBySwitch(t term) bool {
	return rs.toggled && rs.covered[t] && (isSetVerb(t) || t == "@edit" || rs.switchVerb(t))
}

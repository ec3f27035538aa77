package daemon

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Option anchors (issue 11, "values picked, not typed"). A command that
// names one option of a flow's option group ("4 tiles", "Deep blue",
// "Sepia") says which flow it means more surely than its other words do:
// the option is an element of the app that flow's route reaches, and
// owners name the value first and the setting loosely ("reader palette
// deep blue", "i want six tiles per row"). The lexical matcher scores
// such commands low (the template's verb and nouns are missing, the value
// is another one) and the model scores a new value far from the old.
//
// An option group is a choice slot's (knowledge.Step.Choices) or the
// radio group of an option tap the learning command did not name as a
// value (knowledge.Step.Options). The rule (anchorFlows), precision
// first, for commands no flow replays for otherwise, for flows that type
// nothing:
//
//  1. The command names exactly one option of a group of the flow in full
//     (anchorNamed: every distinguishing word of the option, as stems,
//     number words or a period's unit; of a pair, the words the other
//     lacks), and the words naming it lie together.
//  2. The option's words in the command are rewritten as the option the
//     flow learned ("… deep blue" → "… paper"), and the lexical matcher
//     scores the rewritten command against the flow: it must fill every
//     slot and have no veto but an omitted or an added word (never an
//     opposite, a negation, another value, a literal the command leaves
//     out); the command's verb is no other action (otherAction); no value
//     of the command is left over (strayValue); and it says more of the
//     flow than an option's number (supported).
//  3. No word the command adds labels another element of the app's
//     recorded screens (semantic.Grounding: "sort books by author ascending
//     and set 4 tiles" names the sort dialog too; "make the week start
//     on Monday" names a switch, not the "Weekly planner" option); the words
//     naming the app are no such words. Nor does the command leave out a
//     word every option of the step shares (the choice's unit, "tiles"
//     of "3 tiles") while it says a word the flow lacks ("set the row
//     count to 3": unitSwapped). A flow that fails only this is offered to the
//     owner ("did you mean …?"), never replayed.
//  4. An option that other flows of the app offer too (a contact, a
//     folder, "5 minutes") names a list, not a flow: it anchors a flow
//     only when every other word of the command is that flow's own (no
//     word added, none read as a typo, no strong action word matched by
//     its concept only: actionNotWritten).
//  5. One flow only: when two flows pass within ambiguityMargin of each
//     other's score on the rewritten command, the command is ambiguous and
//     the owner is asked (or nothing replays).
//
// The choice slot is then the command's own words for the option (an
// option tap's, run.picks); the replay taps the option the command names
// (pickOption), never a guess. An anchored replay is not taught to the
// flow (run.bridged). Grounding on the app's own elements is UICOMPASS's
// idea (Section 3.2); anchoring on a named value is what slot-filling
// with a gazetteer does, the gazetteer here being the option lists of the
// app's own screens.
//
// Files by job: anchor.go (the rule and the engine's use of it),
// anchor_words.go (the words naming an option, the rewritten command),
// anchor_checks.go (the checks on the command's other words),
// anchor_switch.go (the same rule for a flow that sets one switch),
// anchor_tap.go (flows named by their last tap: offered, never replayed).

// anchor is a flow a command names an option of, scored on the command
// rewritten to the flow's learned options.
type anchor struct {
	cand intent.Candidate
	// rewritten is the command with the options it names written as the
	// flow's learned ones
	rewritten string
	// options: choice slot name → the command's words for the option
	options map[string]string
	// picks: index of an option tap that is no slot (Step.Options) → the
	// command's words for the option to tap instead of the learned one
	picks map[int]string
	// toggle: a switch or tap anchor (anchor_switch.go, anchor_tap.go); its
	// score is the share of the element's label the command says, not a
	// lexical score
	toggle bool
	// tap: a tap anchor (anchor_tap.go), always near
	tap bool
	// near: the flow passed every rule but one word of the command labels
	// another element of the app (rule 3): it is offered to the owner
	// ("did you mean …?"), never replayed on its own
	near bool
}

// anchorVetoes are the vetoes an anchored flow may carry on the rewritten
// command: a word the command leaves out, or one it adds (grounded by
// rule 3), and an action word on both sides, which anchorFlows judges
// itself (otherAction): the lexical rule counts a noun with a verb's
// sense ("text" of "notes text size") as another action.
var anchorVetoes = []string{intent.VetoOmitted, intent.VetoExtra, intent.VetoAction}

// typesText reports whether f types a slot's value (an input step): a
// typed value takes any words, so the rewritten command's leftovers could
// hide in it unchecked.
func typesText(f *knowledge.Flow) bool {
	for _, st := range f.Steps {
		if _, ok := knowledge.SlotRef(st.Text); ok && st.Action == device.Input {
			return true
		}
	}
	return false
}

// sharedOptions returns the options (lower case) of the choice steps of
// the healthy flows of pkg that more than one flow offers: "5 minutes"
// among the reminder delays and the countdown lengths, a contact among the rows
// of every contact list. Such an option names a list, not a flow.
func sharedOptions(flows map[int64]*knowledge.Flow, pkg string) map[string]bool {
	by := map[string]int64{}
	shared := map[string]bool{}
	for _, id := range poolOf(flows, pkg) {
		for _, st := range flows[id].Steps {
			labels, _ := optionGroup(st)
			for _, c := range labels {
				c = strings.ToLower(c)
				if other, ok := by[c]; ok && other != id {
					shared[c] = true
				}
				by[c] = id
			}
		}
	}
	return shared
}

// anchorFlows applies the rule of the file comment to the healthy flows
// of pkg and returns the flows that pass, best first (by lexical score on
// the rewritten command), then those that failed only rule 3 (near), with
// the reason each other anchored flow failed.
func anchorFlows(command, pkg, appLabel string, m *intent.Matcher, flows map[int64]*knowledge.Flow) ([]anchor, []string) {
	var out []anchor
	var why []string
	g := semantic.NewGrounding(flows)
	named := appWords(command, appLabel)
	shared := sharedOptions(flows, pkg)
	for _, id := range poolOf(flows, pkg) {
		f := flows[id]
		if typesText(f) {
			continue
		}
		rewritten, options, picks, common, ok := anchorsOf(command, f, shared)
		if !ok {
			continue
		}
		cs := m.Score(rewritten, []int64{id})
		if len(cs) == 0 {
			continue
		}
		c := cs[0]
		// words the alignment put in a choice slot beyond the option's own
		// are words the command adds ("name ascending" for a sort key)
		extra := slices.Clone(c.Unmatched)
		for name := range options {
			extra = append(extra, beyondOption(c.Slots[name], f, name)...)
		}
		stray := strayValue(command, options, picks)
		switch {
		case len(c.Missing) > 0:
			why = append(why, fmt.Sprintf("flow %d: no value for {%s}", id, strings.Join(c.Missing, "}, {")))
			continue
		case slices.ContainsFunc(c.Vetoes, func(v string) bool { return !slices.Contains(anchorVetoes, v) }):
			why = append(why, fmt.Sprintf("flow %d: %s", id, strings.Join(c.Vetoes, ", ")))
			continue
		case common && (len(withoutWords(extra, named)) > 0 || c.Corrected != "" || actionNotWritten(command, f, namedWords(options, picks)) != ""):
			// an option other flows offer too (a contact, a folder, "5
			// minutes") names a list, not a flow: every other word of
			// the command must be the flow's, as written, not read as a
			// typo of one ("start a 5 minute countdown" is not "set the
			// reminder delay to 5 minutes")
			why = append(why, fmt.Sprintf("flow %d: an option other flows offer, and words the flow does not have", id))
			continue
		case otherAction(command, extra, c.FlowUnmatched, namedWords(options, picks)):
			why = append(why, fmt.Sprintf("flow %d: another action", id))
			continue
		case stray != "":
			// "copy clip7.mp4 to the memory card": a value no option holds
			why = append(why, fmt.Sprintf("flow %d: the command's value %q is no option", id, stray))
			continue
		case !supported(rewritten, c, extra, options, picks):
			why = append(why, fmt.Sprintf("flow %d: only the option's number is the flow's", id))
			continue
		}
		if o := otherOptionMeant(command, f, options, picks); o != "" {
			// "sort contacts by first name z to a": the sort key is named,
			// the order meant is the other option of the flow's second group
			why = append(why, fmt.Sprintf("flow %d: the command means %q where the flow taps another option", id, o))
			continue
		}
		other := g.Foreign(withoutWords(extra, named), f)
		if len(other) > 0 {
			why = append(why, fmt.Sprintf("flow %d: %q labels another element", id, strings.Join(other, " ")))
		}
		swapped := unitSwapped(f, c.FlowUnmatched, withoutWords(extra, named))
		if swapped {
			why = append(why, fmt.Sprintf("flow %d: the command calls its option's unit by another word", id))
		}
		slots := map[string]string{}
		for k, v := range c.Slots {
			slots[k] = v
		}
		for k, v := range options {
			slots[k] = v
		}
		c.Slots = slots
		out = append(out, anchor{cand: c, rewritten: rewritten, options: options, picks: picks, near: len(other) > 0 || swapped})
	}
	sws, swhy := switchAnchors(command, pkg, named, flows, g)
	out, why = append(out, sws...), append(why, swhy...)
	tas, twhy := tapAnchors(command, pkg, named, m, flows, g)
	out, why = append(out, tas...), append(why, twhy...)
	slices.SortStableFunc(out, func(a, b anchor) int {
		switch {
		case a.near != b.near:
			if b.near {
				return -1
			}
			return 1
		case a.cand.Score > b.cand.Score:
			return -1
		case a.cand.Score < b.cand.Score:
			return 1
		}
		return 0
	})
	return out, why
}

// anchorMatch returns the flow the command names an option of (anchorFlows),
// when exactly one passes the rule, or one of two that pass about equally
// that the owner chooses. said is the command as flow matching reads it
// (numbers, units, compounds and names as the flows write them: "twenty
// five" is 25, never the "five" of an option).
func (r *run) anchorMatch(ctx context.Context, said string, m *intent.Matcher, flows map[int64]*knowledge.Flow) (intent.Candidate, map[int]string, string, bool) {
	all, why := anchorFlows(said, r.res.Package, r.appLabel, m, flows)
	for _, w := range why {
		// a reason may quote the command's words: emit redacts the run's
		// secrets and personal data from every event
		r.emit(event.Log, event.LogInfo{Level: "info", Text: "option anchor: " + w})
	}
	var as []anchor
	r.near = nil
	for _, a := range all {
		if relied, ok := r.reliedOption(ctx, flows[a.cand.FlowID], a.cand); ok {
			// the flow relied on an option the command replaces: naming
			// its other option is no evidence for the rest
			r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("option anchor: flow %d relied on %q already chosen, and the command names something else in its place", a.cand.FlowID, r.private(relied))})
			continue
		}
		if a.near {
			r.near = append(r.near, a)
		} else {
			as = append(as, a)
		}
	}
	switch {
	case len(as) == 0:
		return intent.Candidate{}, nil, "", false
	case len(as) > 1 && (as[0].toggle != as[1].toggle || as[0].cand.Score-as[1].cand.Score < ambiguityMargin):
		d := semantic.Decision{Cands: []intent.Candidate{as[0].cand, as[1].cand}, Suggest: []int{0, 1}}
		if i, chosen := r.offer(ctx, "Two saved flows take the option %q names. Which one did you mean?", d, flows); chosen {
			r.res.Chosen = true
			return d.Cands[i], as[i].picks, as[i].describe(), true // d.Cands: with the values the owner gave
		}
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("option anchor: flows %d and %d both take the option the command names; none replayed", as[0].cand.FlowID, as[1].cand.FlowID)})
		return intent.Candidate{}, nil, "", false
	}
	a := as[0]
	named := privacy.Redact(a.describe(), r.secrets, false)
	r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("anchor: flow %d, the command names %s, read as %q (score %.3f)", a.cand.FlowID, named, privacy.Redact(a.rewritten, r.secrets, false), a.cand.Score)})
	return a.cand, a.picks, named, true
}

// describe says what the command named of the anchored flow: its options
// (optionList) or its switch.
func (a anchor) describe() string {
	switch {
	case a.tap:
		return fmt.Sprintf("element %q", a.cand.Matched)
	case a.toggle:
		return fmt.Sprintf("switch %q", a.cand.Matched)
	}
	return optionList(a.options, a.picks)
}

// optionList writes options as "{slot} = words" pairs, by slot name, and
// picks as "step N = words" pairs, by step.
func optionList(options map[string]string, picks map[int]string) string {
	var out []string
	for k, v := range options {
		out = append(out, fmt.Sprintf("{%s} = %q", k, v))
	}
	slices.Sort(out)
	for _, i := range slices.Sorted(maps.Keys(picks)) {
		out = append(out, fmt.Sprintf("step %d = %q", i+1, picks[i]))
	}
	return strings.Join(out, ", ")
}

// offered is the owner's answer to offerNear: a near anchor, or the
// index in the semantic decision's candidates of the flow chosen.
type offered struct {
	near  *anchor
	index int
}

// offerNear asks the owner which flow the command means (run.offer)
// among the near anchors (run.near), which name the flow's own option or
// switch, then the flows the semantic decision d suggests (when
// consulted), at most semantic.DefaultSuggest in all, each flow once.
func (r *run) offerNear(ctx context.Context, d semantic.Decision, consulted bool, flows map[int64]*knowledge.Flow) (offered, bool) {
	var od semantic.Decision
	var from []offered
	seen := map[int64]bool{}
	add := func(c intent.Candidate, o offered) {
		if seen[c.FlowID] || len(od.Suggest) >= semantic.DefaultSuggest {
			return
		}
		seen[c.FlowID] = true
		od.Suggest = append(od.Suggest, len(od.Cands))
		od.Cands = append(od.Cands, c)
		from = append(from, o)
	}
	for i := range r.near {
		add(r.near[i].cand, offered{near: &r.near[i]})
	}
	if consulted {
		for _, i := range d.Suggest {
			add(d.Cands[i], offered{index: i})
		}
	}
	i, ok := r.offer(ctx, "", od, flows)
	if !ok {
		return offered{}, false
	}
	// the values the owner gave, if any, go where the caller reads them
	if from[i].near != nil {
		from[i].near.cand.Slots = od.Cands[i].Slots
	} else {
		d.Cands[from[i].index].Slots = od.Cands[i].Slots
	}
	return from[i], true
}

package daemon

import (
	"context"
	"maps"

	"fmt"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"slices"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/device"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Option anchors (issue 11, "values picked, not typed"). A command that
// names one option of a flow's choice step ("2 columns", "Dark red",
// "Jazz") says which flow it means more surely than its other words do:
// the option is an element of the app that flow's route reaches, and
// owners name the value first and the setting loosely ("launcher theme
// dark red", "i want six columns of apps"). The lexical matcher scores
// such commands low (the template's verb and nouns are missing, the value
// is another one) and the model scores a new value far from the old.
//
// The rule (anchorFlow), precision first, for commands no flow replays
// for otherwise:
//
//  1. The command names exactly one option of a choice step of the flow
//     in full (named: every distinguishing word of the option, as stems
//     or number words), and the words naming it lie together.
//  2. The option's words in the command are rewritten as the option the
//     flow learned ("… dark red" → "… light"), and the lexical matcher
//     scores the rewritten command against the flow: it must fill every
//     slot and have no veto but an omitted or an added word (never an
//     opposite, a negation, another action, another value, a literal the
//     command leaves out).
//  3. No word the command adds labels another element of the app's
//     recorded screens (semantic.Grounding: "sort apps by title ascending
//     and set 4 columns" names the sort dialog too; "make the week start
//     on Sunday" names a switch, not the "Weekly view" option).
//  4. One flow only: when two flows pass within ambiguityMargin of each
//     other's score on the rewritten command, the command is ambiguous and
//     the owner is asked (or nothing replays).
//
// The choice slot is then the command's own words for the option; the
// replay taps the option the command names (pickOption), never a guess.
// Grounding on the app's own elements is UICOMPASS's idea (Section 3.2);
// anchoring on a named value is what slot-filling with a gazetteer does,
// the gazetteer here being the option lists of the app's own screens.

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
	// toggle: a switch anchor (anchor_switch.go); its score is the share
	// of the switch's label the command says, not a lexical score
	toggle bool
	// near: the flow passed every rule but one word of the command labels
	// another element of the app (rule 3): it is offered to the owner
	// ("did you mean …?"), never replayed on its own
	near bool
}

// wordSpan is a word of a text and its byte range.
type wordSpan struct {
	word       string // lower case
	start, end int
}

// wordSpans splits s as choiceWords does, keeping each word's byte range.
func wordSpans(s string) []wordSpan {
	var out []wordSpan
	start := -1
	for i, r := range s {
		in := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r > 0x7f
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			out = append(out, wordSpan{strings.ToLower(s[start:i]), start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, wordSpan{strings.ToLower(s[start:]), start, len(s)})
	}
	return out
}

// optionWords returns the stems that name labels[i] in its group: its
// distinguishing words, or of a pair, the words the other lacks.
func optionWords(labels []string, i int) []string {
	if len(labels) == 2 {
		return pairWords(labels, i)
	}
	return stems(distinguishing(labels, i))
}

// ownWords is optionWords as the label writes them (lower case, not
// stemmed): what a command rewritten to that option says.
func ownWords(labels []string, i int) []string {
	want := setOf(optionWords(labels, i))
	var out []string
	for _, w := range choiceWords(labels[i]) {
		if want[optionStem(w)] {
			out = append(out, w)
		}
	}
	return out
}

// anchorNamed is named for a group of three options or more; of a pair
// ("Ascending", "Descending"), the one option whose own words (those the
// other lacks) the command all says while it says none of the other's.
func anchorNamed(labels []string, words []string) ([]int, bool) {
	switch len(labels) {
	case 0, 1:
		return nil, false
	case 2:
		have := setOf(words)
		var out []int
		for i := range labels {
			mine, theirs := pairWords(labels, i), pairWords(labels, 1-i)
			if len(mine) > 0 && allIn(mine, have) && !slices.ContainsFunc(theirs, func(w string) bool { return have[w] }) {
				out = append(out, i)
			}
		}
		return out, len(out) > 0
	}
	return named(labels, words)
}

// pairWords returns the stems of labels[i] (one of two) that the other
// label lacks.
func pairWords(labels []string, i int) []string {
	other := setOf(stems(choiceWords(labels[1-i])))
	var out []string
	for _, w := range stems(choiceWords(labels[i])) {
		if !other[w] {
			out = append(out, w)
		}
	}
	return out
}

// optionSpan returns the first and last index in words (stems, as
// optionStem gives them) of the distinguishing words of labels[i], and
// whether they lie together: at most twice as many words as they are.
func optionSpan(labels []string, i int, words []string) (int, int, bool) {
	want := setOf(optionWords(labels, i))
	first, last := -1, -1
	for k, w := range words {
		if want[w] {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	return first, last, first >= 0 && last-first+1 <= 2*len(want)
}

// optionGroup returns the option group of step st and whether it is a
// choice slot's (Choices, with the slot's name) or an option tap's the
// learning command did not name (Options, name ""); nil when it is
// neither.
func optionGroup(st knowledge.Step) (labels []string, slot string) {
	if name, ok := knowledge.SlotRef(st.Text); ok && st.Action == device.Tap && len(st.Choices) > 0 {
		return st.Choices, name
	}
	if st.Action == device.Tap && len(st.Options) > 0 {
		return st.Options, ""
	}
	return nil, ""
}

// anchorsOf returns, for flow f, the command rewritten to f's learned
// options for every option group whose option the command names (rule
// 1), and the command's words for each: options by choice slot, picks by
// step index for option taps that are no slot (knowledge.Step.Options);
// ok is false when the command names no option of f, or names one
// ambiguously, with its words apart, or only options other flows offer
// too (shared).
func anchorsOf(command string, f *knowledge.Flow, shared map[string]bool) (rewritten string, options map[string]string, picks map[int]string, common, ok bool) {
	spans := wordSpans(command)
	words := make([]string, len(spans))
	for i, s := range spans {
		words[i] = optionStem(s.word)
	}
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	for i, st := range f.Steps {
		labels, name := optionGroup(st)
		opts, full := anchorNamed(labels, words)
		if !full || len(opts) != 1 {
			continue
		}
		common = common || shared[strings.ToLower(labels[opts[0]])]
		first, last, together := optionSpan(labels, opts[0], words)
		if !together {
			return "", nil, nil, false, false
		}
		said := command[spans[first].start:spans[last].end]
		if name != "" {
			if options == nil {
				options = map[string]string{}
			}
			options[name] = said
		} else {
			if picks == nil {
				picks = map[int]string{}
			}
			picks[i] = said
		}
		if opts[0] != 0 {
			edits = append(edits, edit{spans[first].start, spans[last].end, strings.Join(ownWords(labels, 0), " ")})
		}
	}
	if options == nil && picks == nil {
		return "", nil, nil, false, false
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.start - a.start })
	rewritten = command
	for k, e := range edits {
		if k > 0 && e.end > edits[k-1].start {
			return "", nil, nil, false, false // two options named by the same words
		}
		rewritten = rewritten[:e.start] + e.text + rewritten[e.end:]
	}
	return rewritten, options, picks, common, true
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
// among the snooze times and the timer lengths, a contact among the rows
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
		switch {
		case len(c.Missing) > 0:
			why = append(why, fmt.Sprintf("flow %d: no value for {%s}", id, strings.Join(c.Missing, "}, {")))
			continue
		case slices.ContainsFunc(c.Vetoes, func(v string) bool { return !slices.Contains(anchorVetoes, v) }):
			why = append(why, fmt.Sprintf("flow %d: %s", id, strings.Join(c.Vetoes, ", ")))
			continue
		case common && (len(withoutWords(extra, named)) > 0 || c.Corrected != ""):
			// an option other flows offer too (a contact, a folder, "5
			// minutes") names a list, not a flow: every other word of
			// the command must be the flow's, as written, not read as a
			// typo of one ("add a 5 minute timer" is not "set the snooze
			// time to 5 minutes")
			why = append(why, fmt.Sprintf("flow %d: an option other flows offer, and words the flow does not have", id))
			continue
		case otherAction(command, extra, c.FlowUnmatched):
			why = append(why, fmt.Sprintf("flow %d: another action", id))
			continue
		case strayValue(command, options, picks) != "":
			// "move video1.mp4 to the sd card": a value no option holds
			why = append(why, fmt.Sprintf("flow %d: the command's value %q is no option", id, strayValue(command, options, picks)))
			continue
		case !supported(rewritten, c, extra, options, picks):
			why = append(why, fmt.Sprintf("flow %d: only the option's number is the flow's", id))
			continue
		}
		other := g.Foreign(withoutWords(extra, named), f)
		if len(other) > 0 {
			why = append(why, fmt.Sprintf("flow %d: %q labels another element", id, strings.Join(other, " ")))
		}
		slots := map[string]string{}
		for k, v := range c.Slots {
			slots[k] = v
		}
		for k, v := range options {
			slots[k] = v
		}
		c.Slots = slots
		out = append(out, anchor{cand: c, rewritten: rewritten, options: options, picks: picks, near: len(other) > 0})
	}
	sws, swhy := switchAnchors(command, pkg, named, flows, g)
	out, why = append(out, sws...), append(why, swhy...)
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

// semanticActionWord reports whether w names an action of the generic
// vocabulary, strongly or weakly ("start", "show", "set").
func semanticActionWord(w string) bool {
	for _, id := range intent.Concepts(w) {
		if intent.IsAction(id) {
			return true
		}
	}
	return false
}

// otherAction reports whether the command asks for another action than
// the flow: a word it adds is a strong action word ("delete", "share"),
// or its verb (leadWord), weak ones too, is an action word it adds while
// the flow has one the command leaves out ("start contact names with the
// surname" against "sort contacts by surname"). extra and flowLone are
// the words the command adds and the flow's words it leaves out.
func otherAction(command string, extra, flowLone []string) bool {
	if slices.ContainsFunc(extra, intent.StrongAction) {
		return true
	}
	lead := leadWord(command)
	return slices.Contains(extra, lead) && semanticActionWord(lead) && slices.ContainsFunc(flowLone, semanticActionWord)
}

// strayValue returns a value of the command (a quoted text, a number, a
// time, a date, or a word with digits or a dot inside: a file name) that
// is not within the words naming an option (options, picks), "" when
// there is none: an anchored flow types nothing, so such a value would be
// dropped.
func strayValue(command string, options map[string]string, picks map[int]string) string {
	said := slices.Collect(maps.Values(options))
	said = append(said, slices.Collect(maps.Values(picks))...)
	within := func(v string) bool {
		v = strings.ToLower(v)
		return slices.ContainsFunc(said, func(s string) bool {
			s = strings.ToLower(s)
			return strings.Contains(s, v) || strings.Contains(v, s)
		})
	}
	for _, v := range intent.Understand(command).Values {
		switch v.Kind {
		case intent.KindQuoted, intent.KindNumber, intent.KindTime, intent.KindDate:
			if !within(v.Text) {
				return v.Text
			}
		}
	}
	for _, f := range strings.Fields(command) {
		f = strings.Trim(f, ".,;:!?'\"()")
		if strings.ContainsFunc(f, unicode.IsDigit) || strings.Contains(f, ".") {
			if !within(f) && !slices.ContainsFunc(choiceWords(f), func(w string) bool { return numberWords[w] != "" }) {
				return f
			}
		}
	}
	return ""
}

// appWords returns the words (lower case) of the command that name the
// app labelled appLabel (intent.AppNamed: "file manager" of "file manager
// dark red theme"): they say which app, never which element.
func appWords(command, appLabel string) map[string]bool {
	out := map[string]bool{}
	for _, r := range intent.AppNamed(command, appLabel) {
		for _, w := range choiceWords(command[r[0]:r[1]]) {
			out[w] = true
		}
	}
	return out
}

// withoutWords returns words without those (lower case) in drop.
func withoutWords(words []string, drop map[string]bool) []string {
	out := words[:0:0]
	for _, w := range words {
		if !drop[strings.ToLower(w)] {
			out = append(out, w)
		}
	}
	return out
}

// leadWord returns the command's first word that is not a stop word
// (lower case): its verb, when it has one ("start names with …"), "" for
// none.
func leadWord(command string) string {
	for _, w := range choiceWords(command) {
		if !intent.IsStopword(w) {
			return w
		}
	}
	return ""
}

// beyondOption returns the words of value (what the alignment put in the
// choice slot name) that are not words of the option labels of that slot's
// step in f.
func beyondOption(value string, f *knowledge.Flow, name string) []string {
	have := map[string]bool{}
	for _, st := range f.Steps {
		if n, ok := knowledge.SlotRef(st.Text); ok && n == name {
			for _, c := range st.Choices {
				for _, w := range choiceWords(c) {
					have[optionStem(w)] = true
				}
			}
		}
	}
	var out []string
	for _, w := range choiceWords(value) {
		if !have[optionStem(w)] {
			out = append(out, w)
		}
	}
	return out
}

// supported reports whether the command says more of the flow than a
// number: an option named by a word ("Jazz", "Dark red"), or a content
// word of the rewritten command other than the option's that the flow
// matched ("columns" in "2 columns for the app drawer"). "set the snooze
// time to 5 minutes" names "5 columns" of a grid by its number only.
func supported(rewritten string, c intent.Candidate, extra []string, options map[string]string, picks map[int]string) bool {
	said := slices.Collect(maps.Values(options))
	said = append(said, slices.Collect(maps.Values(picks))...)
	for _, v := range said {
		for _, w := range choiceWords(v) {
			if !strings.ContainsFunc(w, unicode.IsDigit) && !intent.IsStopword(w) && numberWords[w] == "" {
				return true
			}
		}
	}
	skip := map[string]bool{}
	for _, w := range extra {
		skip[optionStem(w)] = true
	}
	for _, v := range c.Slots {
		for _, w := range choiceWords(v) {
			skip[optionStem(w)] = true
		}
	}
	for _, w := range choiceWords(rewritten) {
		if !intent.IsStopword(w) && !skip[optionStem(w)] && !strings.ContainsFunc(w, unicode.IsDigit) {
			return true
		}
	}
	return false
}

// anchorMatch returns the flow the command names an option of (anchorFlows),
// when exactly one passes the rule, or one of two that pass about equally
// that the owner chooses.
func (r *run) anchorMatch(ctx context.Context, m *intent.Matcher, flows map[int64]*knowledge.Flow) (intent.Candidate, map[int]string, string, bool) {
	all, why := anchorFlows(r.res.Command, r.res.Package, r.appLabel, m, flows)
	for _, w := range why {
		r.emit(event.Log, event.LogInfo{Level: "info", Text: "option anchor: " + w})
	}
	var as []anchor
	r.near = nil
	for _, a := range all {
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
			return as[i].cand, as[i].picks, as[i].describe(), true
		}
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("option anchor: flows %d and %d both take the option the command names; none replayed", as[0].cand.FlowID, as[1].cand.FlowID)})
		return intent.Candidate{}, nil, "", false
	}
	a := as[0]
	r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("anchor: flow %d, the command names %s, read as %q (score %.3f)", a.cand.FlowID, privacy.Redact(a.describe(), r.secrets, false), privacy.Redact(a.rewritten, r.secrets, false), a.cand.Score)})
	return a.cand, a.picks, privacy.Redact(a.describe(), r.secrets, false), true
}

// describe says what the command named of the anchored flow: its options
// (optionList) or its switch.
func (a anchor) describe() string {
	if a.toggle {
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
	return from[i], true
}

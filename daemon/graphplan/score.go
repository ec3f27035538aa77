// Scoring: how much each command term weighs (IDF over the app) and how
// well an element on screen covers what is left of the command.

package graphplan

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// targetTerms returns the terms of an acted-on element: its label,
// content-desc and resource-id words.
func targetTerms(d screen.Descriptor) []term {
	return termsOf(d.Label() + " " + d.Desc + " " + d.ResourceID)
}

// elementTerms returns the terms an element offers: its label, hint,
// resource-id words and stored documentation.
func elementTerms(e *screen.Element, doc string) []term {
	return termsOf(e.Label + " " + e.Hint + " " + e.Resource + " " + doc)
}

// rowNamed reports whether an element of the screen other than a text
// field is named value: its label, or its first text ("Ledgers · 2
// notes"). What the command selects by name is then tapped there, not
// searched for.
func rowNamed(st *daemon.PlanState, value string) bool {
	return slices.ContainsFunc(st.Elements, func(e screen.Element) bool { return e.Kind != screen.KindInput && namedBy(e.Label, value) })
}

// namedBy reports whether label is name, or is a row's label whose name
// is (screen.RowName: "Ledgers" of "Ledgers · 2 memos" and of "2 memos ·
// Ledgers"), case and surrounding space aside.
func namedBy(label, name string) bool {
	return strings.EqualFold(screen.RowName(label), strings.TrimSpace(name))
}

// screenCandidates scores the operations on the current screen.
func (p *Planner) screenCandidates(rs *runState, st *daemon.PlanState, sem *semStep, w map[term]float64) []candidate {
	var out []candidate
	shared := map[string]int{} // resource-id -> elements of the screen carrying it
	for i := range st.Elements {
		if r := st.Elements[i].Resource; r != "" {
			shared[r]++
		}
	}
	for i := range st.Elements {
		e := &st.Elements[i]
		if e.Disabled {
			continue
		}
		d := screen.Describe(st.Screen, e.NodeID)
		switch e.Kind {
		case screen.KindInput:
			if v := rs.nextValueFor(e); v >= 0 && !(rs.values[v].selects && !rs.search && isSearchField(e) && rowNamed(st, rs.values[v].text)) {
				// a field whose label fits the words before the value wins;
				// a dialog's or the focused field is the natural place; a
				// field elsewhere on a busy screen is a weak guess
				ov := overlap(rs.values[v].context, elementTerms(e, ""))
				if screen.IsBody(st.Screen, e) && !rs.created && overlap(rs.values[v].context, termsOf(e.Hint)) == 0 {
					// a document's body (screen.IsBody): typing would replace
					// what the owner wrote, and no word before the value
					// names the field's hint. Its resource-id words do not
					// count: a "note text" id shares "note" with any
					// command about notes. A document the run created is
					// the command's own ("create a note … and type 'X'")
					continue
				}
				text, ok := fileText(st, e, rs.values[v])
				if ok {
					text, ok = splitName(st.Elements, e, rs.values[v], text)
				}
				if !ok {
					continue
				}
				sc := 0.2 + 0.5*ov
				if e.Focused || daemon.IsDialog(st.Screen) {
					sc += 0.25
				}
				if e.Focused {
					// where the app put the cursor, before another field of
					// the same dialog (a path shown above the name to give)
					sc += 0.05
				}
				if rs.search && isSearchField(e) {
					sc += 0.5 // the command asks to search: this is where
				}
				out = append(out, candidate{action: device.Input, element: i, text: text,
					score: sc / (1 + penalty(st, device.Input, d)), reason: fmt.Sprintf("type %q into %q", text, e.Label)})
			}
			continue
		case screen.KindScroll:
			continue
		}
		hit := sem.hit(semText(e.Label, e.Resource))
		own, terms := e.Label+" "+e.Resource, elementTerms(e, "")
		if shared[e.Resource] > 1 && strings.TrimSpace(e.Label) != "" {
			// rows of one list share a resource-id ("…recent_call_item"):
			// its words name the list, not the row, and tell no row apart
			own, terms = e.Label, termsOf(e.Label+" "+e.Hint)
		}
		sc, covers := rs.match(own, terms, hit, w, -1)
		if sc <= 0 {
			continue
		}
		if len(hit.terms) > 0 {
			rs.semCovers[d.Key()] = hit.terms
			rs.semWhole[d.Key()] = hit.whole
		}
		action := device.Tap
		if e.Kind == screen.KindCheckbox && rs.polarity != 0 {
			// set the toggle to the command's state: the engine taps it only
			// when it differs, and the flow keeps "switch on/off"
			action = daemon.ActEnsureOff
			if switchPolarity(rs.cmd, rs.polarLabel(e.Label)) > 0 {
				action = daemon.ActEnsureOn
			}
		}
		if rs.namesVerb(e.Label) {
			sc *= VerbBonus
		}
		if e.Kind == screen.KindText {
			sc *= 0.8 // not clickable on its own; the tap may still reach its row
			if len([]rune(e.Label)) > 60 {
				sc *= 0.3 // a paragraph explains; it is rarely what a step taps
			}
		}
		sc /= 1 + penalty(st, action, d)
		out = append(out, candidate{action: action, element: i, score: sc, covers: covers, tie: hit.cmdSim,
			reason: fmt.Sprintf("%q matches the command", e.Label)})
	}
	return out
}

// match scores how much of the command's uncovered weight an element's
// terms cover, with a bonus for a strict phrase match. sem is the
// element's semantic evidence (zero without an embedder): the terms its
// text means count SemWeight of their weight (a word no element carries
// its weight in unknown), as synonyms. (The command's cosine with the
// text only ranks candidates: candidate.tie.) keyed is the index of the
// command's value the element's screen, a keypad, enters (keypad.go), or
// -1.
func (rs *runState) match(label string, terms []term, sem semHit, w map[term]float64, keyed int) (float64, []term) {
	total := rs.unknown
	for _, ct := range rs.terms {
		total += w[ct.t]
	}
	for _, v := range rs.values {
		if !v.done {
			total += 1
		}
	}
	if total == 0 {
		return 0, nil
	}
	set := map[term]bool{}
	for _, t := range terms {
		set[t] = true
	}
	semSet := map[term]bool{}
	for _, t := range sem.terms {
		semSet[t] = true
	}
	got := 0.0
	var covers []term
	first := -1 // position of the first uncovered command term
	hitFirst := false
	literal := false
	for i, ct := range rs.terms {
		if rs.covered[ct.t] {
			continue
		}
		if w[ct.t] == 0 {
			if semSet[ct.t] && rs.unknownW[ct.t] > 0 {
				got += SemWeight * rs.unknownW[ct.t]
				covers = append(covers, ct.t)
			}
			continue
		}
		if first < 0 {
			first = i
		}
		bare, qualified := bareOf(ct.t)
		switch {
		case set[ct.t] || qualified && set[bare]:
			got += w[ct.t]
			covers = append(covers, ct.t)
			hitFirst = hitFirst || i == first
			literal = literal || !strings.HasPrefix(string(ct.t), "@")
		case anyIn(rs.alias[ct.t], set): // its weight is a synonym's already
			got += w[ct.t]
			covers = append(covers, ct.t)
			hitFirst = hitFirst || i == first
		case semSet[ct.t]:
			got += SemWeight * w[ct.t]
			covers = append(covers, ct.t)
			hitFirst = hitFirst || i == first
		}
	}
	valueHit := keyed >= 0 // on a keypad, where the command's number is entered
	if valueHit {
		// the number is the command's object ("call 999"): it weighs as
		// its heaviest word, and this covers it (an element here covering
		// the other words only does not make going there pointless)
		got += heaviest(rs, w)
		covers = append(covers, termsOf(rs.values[keyed].text)...)
	}
	for _, v := range rs.values {
		if !v.done && containsValue(label, v.text) {
			got += 1
			if v.selects {
				// the label of what the command picks by name ("check the
				// 'Ledgers'"): it weighs as the command's heaviest word
				got += heaviest(rs, w) - 1
			}
			valueHit = true
		}
	}
	if got == 0 {
		return 0, nil
	}
	sc := got / total
	nl := screen.Normalize(label)
	for _, ph := range rs.phrases {
		if strings.Contains(nl, ph) {
			sc += 0.15 // strict match of a whole phrase of the command
			break
		}
	}
	if !literal && !valueHit {
		sc /= 2 // a synonym alone is weak evidence (strict before semantic)
	}
	// tie-breaks, proportional: the first open term of the command (they
	// tend to name their steps in order), labels made mostly of command
	// words (AutoTask §4.3's tie-breaking score)
	bonus := 0.0
	if hitFirst {
		bonus += 0.1
	}
	if len(set) > 0 {
		bonus += 0.1 * float64(len(covers)) / float64(len(set))
	}
	return sc * (1 + bonus), covers
}

// heaviest returns the weight of the command's heaviest term, at least 1.
func heaviest(rs *runState, w map[term]float64) float64 {
	kw := 1.0
	for _, ct := range rs.terms {
		kw = max(kw, w[ct.t])
	}
	return kw
}

func containsFold(s, sub string) bool {
	return sub != "" && strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// containsValue reports whether s holds value v (case folded) with its
// numbers whole: where v begins or ends with a digit, the text beside it
// in s is not a digit, leading zeros aside ("3" is in "Mon, 3 Aug" and
// "3 minutes", not in "10:37 AM" or "page 30"; "9:45" is in "09:45").
// Words may be inflected ("share" is in "Shared").
func containsValue(s, v string) bool {
	if v == "" {
		return false
	}
	s, v = strings.ToLower(s), strings.ToLower(v)
	first, _ := utf8.DecodeRuneInString(v)
	last, _ := utf8.DecodeLastRuneInString(v)
	for from := 0; from <= len(s)-len(v); {
		i := strings.Index(s[from:], v)
		if i < 0 {
			return false
		}
		i += from
		lead := strings.TrimRightFunc(s[:i], unicode.IsDigit)
		after, _ := utf8.DecodeRuneInString(s[i+len(v):])
		if !(unicode.IsDigit(first) && strings.Trim(s[len(lead):i], "0") != "") && !(unicode.IsDigit(last) && i+len(v) < len(s) && unicode.IsDigit(after)) {
			return true
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		from = i + size
	}
	return false
}

func overlap(a, b []term) float64 {
	if len(a) == 0 {
		return 0
	}
	set := map[term]bool{}
	for _, t := range b {
		set[t] = true
	}
	n := 0
	for _, t := range a {
		if set[t] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// penalty is AutoTask's penalty factor of an operation: the repetition
// penalty when it was already done in this run, plus backtracking
// penalties — except for attempts the device could not perform that a
// change in place of this screen has followed (retriable).
func penalty(st *daemon.PlanState, action string, d screen.Descriptor) float64 {
	key := daemon.OperationKey(st.Print, action, d)
	pen := st.Penalties[key]
	if n := retriable(st, action, d); n > 0 {
		return max(0, pen-float64(n)*NoEffectPenalty)
	}
	for _, h := range st.History {
		if h.Screen == st.Print && h.Action == action && h.Target.Key() == d.Key() && !h.Undo {
			pen += RepeatPenalty
			break
		}
	}
	return pen
}

// retriable returns how many attempts of an operation on this screen the
// device could not perform, when every one of them was followed by a step
// tapped that changed this screen in place (an option picked, a box
// ticked: the same fingerprint, another state); 0 when it was ever performed, never
// tried, or its last attempt came after the last such change. An element
// may be enabled only once another choice of a form or dialog is made
// (an OK button, a direction after a sort key), so such a change gives a
// failed tap another chance, once per change — but not a choice of the
// group that change picked in (StepRecord.Group): an option tapped while
// it was already chosen does nothing, and tapped again after its sibling
// it would undo that choice.
func retriable(st *daemon.PlanState, action string, d screen.Descriptor) int {
	failed, pending := 0, 0
	for _, h := range st.History {
		if h.Screen != st.Print || h.Undo {
			continue
		}
		if h.Action == action && h.Target.Key() == d.Key() {
			if h.OK {
				return 0
			}
			pending++
			continue
		}
		if h.Action == device.Tap && h.OK && h.Changed && h.After == st.Print && !h.Backtracked && !slices.Contains(h.Group, d.Label()) {
			failed, pending = failed+pending, 0
		}
	}
	if pending > 0 {
		return 0
	}
	return failed
}

// weights returns each command term's IDF over the app's elements plus
// the current screen; terms no element of the app carries weigh 0 (they
// cannot be matched, so they do not hold completion back).
func (g *appGraph) weights(rs *runState, st *daemon.PlanState) map[term]float64 {
	onScreen := map[term]bool{}
	for i := range st.Elements {
		for _, t := range elementTerms(&st.Elements[i], "") {
			onScreen[t] = true
		}
	}
	w := map[term]float64{}
	n := float64(g.n + len(st.Elements) + 1)
	rs.unknown = 0
	rs.unknownW = map[term]float64{}
	for _, ct := range rs.terms {
		df := float64(g.df[ct.t])
		if onScreen[ct.t] {
			df++
		}
		weight := ct.weight
		if strings.HasPrefix(string(ct.t), "@") {
			weight *= ConceptWeight
		}
		if df == 0 && len(rs.alias[ct.t]) > 0 {
			// a word the app never showed, with one it shows that means
			// the same (semantic.go): weighs as a synonym of the rarest
			dfa := math.Inf(1)
			for _, a := range rs.alias[ct.t] {
				d := float64(g.df[a])
				if onScreen[a] {
					d++
				}
				if d > 0 {
					dfa = math.Min(dfa, d)
				}
			}
			if !math.IsInf(dfa, 1) {
				w[ct.t] = SemWeight * weight * math.Log(1+n/dfa)
				continue
			}
		}
		if df == 0 {
			// a word the app never showed: it cannot be matched, but it
			// dilutes how much of the command any element covers
			if !strings.HasPrefix(string(ct.t), "@") {
				uw := UnknownWeight * weight * math.Log(1+n)
				rs.unknown += uw
				rs.unknownW[ct.t] = uw
			}
			continue
		}
		w[ct.t] = weight * math.Log(1+n/df)
	}
	return w
}

// VerbBonus scales the score of an element labelled by the command's
// leading verb (runState.namesVerb).
const VerbBonus = 1.5

// namesVerb reports whether label begins with the command's leading verb,
// a word of its own (no navigation word, no word of a concept of the
// vocabulary: "call" also begins "Call log"): "Publish" for "publish the
// journal as a web document", where "document" labels more buttons. The
// verb says what to do; the words after it often describe the result.
func (rs *runState) namesVerb(label string) bool {
	if !rs.ownVerb || rs.covered[rs.verb] {
		return false
	}
	for _, w := range strings.Fields(label) {
		ts := termsOf(w)
		return len(ts) > 0 && ts[len(ts)-1] == rs.verb
	}
	return false
}

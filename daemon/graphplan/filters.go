// Candidate filters: which operations the planner passes over however
// well they score, and how an element here outranks a path elsewhere.

package graphplan

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/safety"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// passOver says why candidate c is not taken however well it scores, ""
// when it may be; w are the command's term weights and remaining the
// weight of its terms not covered yet.
func (rs *runState) passOver(st *daemon.PlanState, c candidate, w map[term]float64, remaining float64) string {
	switch {
	case remaining < 1e-9 && len(c.covers) > 0 && rs.onlyNav(c.covers):
		return "everything the command names is done; a word like \"tab\" or \"page\" only said where to look"
	case rs.commitOnly(c.covers) && (rs.contentLeft(w) || c.via > 0) && !rs.savesAs(st, c):
		return "a commit comes after what it commits, not instead of it, and where it was done"
	case c.action == device.Tap && elementOf(st, c) != nil && elementOf(st, c).Kind == screen.KindText:
		return "text no interactive element holds: a tap on it does nothing"
	case unasked(st, c):
		return "a deletion, call or payment the command does not ask for"
	case rs.anotherOptionNamed(st, c):
		return "the command names another option of this choice"
	case discards(rs, st, c):
		return "leaving by Cancel would undo the choice just made here"
	case retoggles(st, c):
		return "a second tap on a toggle undoes the first"
	case rs.groupChosen(st, c):
		return "the run chose another option of this choice for the command already"
	case createsUnasked(rs, st, c):
		return "the command changes or deletes something that exists; creating a new one is never on its way"
	case othersNumber(st, c):
		return "the command's number is another setting's current value here"
	case rs.switchForNumber(st, c):
		return "a switch holds no number, and the command gives one without asking to turn anything on or off"
	case rs.keyWithoutNumber(st, c):
		return "a key of a keypad, and the command has no number to enter"
	case rs.universal && rs.pickedItem && destroys(st, c):
		return "the command asks to delete all of something and a step opened one item it does not name"
	case rs.otherTab(st, c):
		return "a tab beside the one a step chose for the command would leave it"
	case c.via == 0 && elementOf(st, c) != nil && rs.narrowsScope(screen.Describe(st.Screen, elementOf(st, c).NodeID)):
		return "a switch that narrows what the change applies to, which the command does not ask"
	case c.via == 0 && elementOf(st, c) != nil && rs.settingAfterCreated(screen.Describe(st.Screen, elementOf(st, c).NodeID)):
		return "a setting of the app, after what the command creates was saved"
	case elementOf(st, c) != nil && c.action == device.Tap && rs.createsAgain(elementOf(st, c).Label):
		return "what the command creates is saved; creating another thing is no way on"
	case rs.onlyDoneVerb(c) && !rs.picksValue(st, c):
		return "it covers only the command's verb, which a step did already by its concept"
	}
	return ""
}

// settingAfterCreated reports whether d is a switch or check box (no
// radio button: an option) while the run has saved a form it typed the
// command's values into (runState.committed) for a command that creates
// something and sets nothing on or off: "new entry plumber that repeats every
// fortnight" is done once the entry is saved, and its words left over
// describe the entry — never "Begin the fortnight on Tuesday" in the
// app's settings.
func (rs *runState) settingAfterCreated(d screen.Descriptor) bool {
	return rs.committed && rs.adds && rs.typed > 0 && !rs.switches && isToggle(d) && !isRadio(d)
}

// onlyDoneVerb reports whether candidate c covers nothing but the
// command's creating word ("add" of "add entry 'plumber'", the concept
// add) once a step covered that concept ("New entry"): "Add another
// alert" would create another thing. Only creating: a commit's word
// ("save" once a dialog's OK covered the concept save) still asks for
// the form's own save.
func (rs *runState) onlyDoneVerb(c candidate) bool {
	n := 0
	for _, t := range c.covers {
		if strings.HasPrefix(string(t), "@") {
			if rs.covered[t] {
				continue
			}
			return false
		}
		if !intent.ActionWord(rs.words[t]) || !rs.means(t, "@add") || !rs.covered["@add"] {
			return false
		}
		n++
	}
	return n > 0
}

// createsAgain reports whether an element labelled label creates
// something — its first word has the concept add: "Add ledger
// birthdays", "New entry"; not "When created", which describes — once
// the run has saved the form of what the command creates and has no
// value left to type: tapped, or as the end of a path, for a word left
// over, it would create another thing nobody asked for.
func (rs *runState) createsAgain(label string) bool {
	if !rs.committed || !rs.adds || rs.pendingValues() > 0 {
		return false
	}
	first, _, _ := strings.Cut(strings.TrimSpace(label), " ")
	return slices.Contains(termsOf(first), "@add")
}

// narrowsScope reports whether d is a switch or check box whose label
// narrows what a change applies to ("Apply to this album only") with a
// word the command does not say (intent.IsScopeWord): ticking it is no
// part of "sort the albums by weight".
func (rs *runState) narrowsScope(d screen.Descriptor) bool {
	if !isToggle(d) {
		return false
	}
	for _, w := range strings.Fields(strings.ToLower(d.Label())) {
		// the command is read only for a label that holds a scope word:
		// this runs for every switch of the app's graph, every step
		if intent.IsScopeWord(w) && !slices.Contains(strings.Fields(strings.ToLower(rs.cmd)), w) {
			return true
		}
	}
	return false
}

// coveredBy reports whether a tap on d covers a term of the command
// other than a navigation word or a word of the app's name ("Clock" in
// an app named Clock says nothing of the command): by its words or
// concepts, or by meaning (semCovers).
func (rs *runState) coveredBy(d screen.Descriptor) bool {
	ts := append(targetTerms(d), rs.semCovers[d.Key()]...)
	return slices.ContainsFunc(rs.terms, func(ct cmdTerm) bool { return !ct.nav && !rs.appWords[ct.t] && slices.Contains(ts, ct.t) })
}

// otherTab reports whether c taps, now, another item of the row of
// look-alikes (a list laid out side by side: one class, ancestor path and
// resource-id — a tab bar, a segmented control) whose item the run's last
// effective tap chose for a word of the command: one of them shows at a
// time, and the command named the first ("show my starred people"
// after "Starred", not "People"). Rows of a vertical list are not
// side by side.
func (rs *runState) otherTab(st *daemon.PlanState, c candidate) bool {
	e := elementOf(st, c)
	if c.action != device.Tap || e == nil {
		return false
	}
	d := screen.Describe(st.Screen, e.NodeID)
	if !d.InList {
		return false
	}
	for i := len(st.History) - 1; i >= 0; i-- {
		h := st.History[i]
		if !h.OK || h.Backtracked || h.Undo || h.Action != device.Tap {
			continue
		}
		t := h.Target
		if !t.InList || t.ResourceID != d.ResourceID || t.Class != d.Class || !slices.Equal(t.Path, d.Path) || h.Label == e.Label || !rs.coveredBy(t) {
			return false
		}
		m, ok := screen.Ground(st.Screen, t)
		if !ok || m.NodeID == e.NodeID {
			return false
		}
		chosen := st.Screen.Node(m.NodeID).Bounds
		side := chosen[2] <= e.Bounds[0] || e.Bounds[2] <= chosen[0]
		dy := chosen[1] - e.Bounds[1]
		return side && max(dy, -dy) < max(1, chosen.Height()/2)
	}
	return false
}

// savesAs reports whether c is a commit on this screen ("Save as") while
// the command gives a name still to type ("… and save it as scan7.png")
// and this screen has no text field for it: the commit opens the dialog
// where the name is typed, so it comes before the name, not after it, and
// is no overshoot.
func (rs *runState) savesAs(st *daemon.PlanState, c candidate) bool {
	if c.via != 0 || !rs.commitOnly(c.covers) || slices.ContainsFunc(st.Elements, func(e screen.Element) bool { return e.Kind == screen.KindInput && !isSearchField(&e) }) {
		return false
	}
	return slices.ContainsFunc(rs.values, func(v value) bool { return v.quoted && v.names && !v.done })
}

// keyWithoutNumber reports whether c taps a key of the keypad on screen
// (isKeypad) while the command has no number to enter there (nextKey):
// "hide the numbers on the keypad" names the keys, it does not
// press "Nine".
func (rs *runState) keyWithoutNumber(st *daemon.PlanState, c candidate) bool {
	e := elementOf(st, c)
	if c.action != device.Tap || e == nil {
		return false
	}
	if !keypadKeyOn(st, e) {
		return false
	}
	_, _, keys := rs.nextKey()
	return !keys
}

// elementOf returns the element of the current screen candidate c acts
// on, nil for a global action (back, a path's scroll without one).
func elementOf(st *daemon.PlanState, c candidate) *screen.Element {
	if c.element < 0 || c.element >= len(st.Elements) {
		return nil
	}
	return &st.Elements[c.element]
}

// onScreenFirst ranks a candidate that takes a path elsewhere (via > 0)
// below an element of this screen that covers every word it covers, with
// at least half its score: going elsewhere for the same words is no
// better than acting here (an option "Roomy" in the dialog it opened,
// not back to the row whose summary reads "Roomy"). Text that is no
// element to act on (a dialog's message) dominates nothing, nor does the
// very tap the path begins with: ranked as low as its weaker self, the
// path to a row behind a tab would lose to a rival path (the "Latest"
// tab on the way to the file the command names, below the overflow menu
// on the way to a setting that only shares the tab's words).
func onScreenFirst(st *daemon.PlanState, cands []candidate) {
	for i := range cands {
		if cands[i].via == 0 || len(cands[i].covers) == 0 {
			continue
		}
		for j := range cands {
			c := &cands[j]
			if e := elementOf(st, *c); c.via != 0 || c.score < MinScore || c.rank > cands[i].rank || e == nil || e.Kind == screen.KindText || c.element == cands[i].element && c.action == cands[i].action {
				continue
			}
			if c.score >= cands[i].score/2 && subset(cands[i].covers, c.covers) {
				cands[i].rank = cands[j].rank * 0.99
			}
		}
	}
}

// commitVerbs are the actions that complete what was typed: sending it,
// saving it.
var commitVerbs = []term{"@send", "@save"}

// typeFirst ranks a value's typing into a field of this screen before a
// path away from it that promises a commit and nothing but that and the
// field's own words ("Attach" on the way to the send button, before the
// message is typed): a form is filled where it is shown, and its commit
// comes after. A path to a place the command names ("search the call
// history for Sam") still goes first.
func (rs *runState) typeFirst(st *daemon.PlanState, cands []candidate) {
	for j := range cands {
		in := &cands[j]
		e := elementOf(st, *in)
		if in.action != device.Input || in.via != 0 || in.score < MinScore || e == nil {
			continue
		}
		field := elementTerms(e, "")
		for i := range cands {
			c := &cands[i]
			if c.via == 0 || c.rank <= in.rank {
				continue
			}
			if slices.ContainsFunc(c.covers, rs.commits) && !slices.ContainsFunc(c.covers, func(t term) bool { return !slices.Contains(field, t) && !rs.commits(t) }) {
				c.rank = in.rank * 0.99
			}
		}
	}
}

// commits reports whether t, a term of the command, means a commit verb
// (commitVerbs).
func (rs *runState) commits(t term) bool {
	return slices.ContainsFunc(commitVerbs, func(c term) bool { return rs.means(t, c) })
}

// subset reports whether every term of a is in b.
func subset(a, b []term) bool {
	for _, t := range a {
		if !slices.Contains(b, t) {
			return false
		}
	}
	return true
}

// othersNumber reports whether candidate c taps, now, a row whose title
// says nothing of the command and whose summary holds one of its numbers
// ("Reminder length · 5 minutes" for "set the nap time to 5 minutes"): a
// number is a value many settings share, and a summary says what its own
// setting holds now, not which setting the command names.
func othersNumber(st *daemon.PlanState, c candidate) bool {
	e := elementOf(st, c)
	if c.action != device.Tap || e == nil {
		return false
	}
	title, _, ok := strings.Cut(e.Label, " · ")
	if !ok {
		return false
	}
	own := termsOf(title)
	number := false
	for _, t := range c.covers {
		if slices.Contains(own, t) {
			return false
		}
		number = number || isNumber(string(t))
	}
	return number
}

// switchForNumber reports whether candidate c taps, now, a switch or check
// box (not an option of a choice) for a command that gives a number its
// label does not carry and says nothing of turning on or off ("set the nap
// time to 5 minutes" against "Always use the same nap time"): a switch
// holds no number, so the command names another setting.
func (rs *runState) switchForNumber(st *daemon.PlanState, c candidate) bool {
	e := elementOf(st, c)
	if rs.switches || c.action != device.Tap || e == nil || e.Kind == screen.KindInput ||
		!holdsSetting(st.Screen, e.NodeID) || holdsChoice(st.Screen, e.NodeID) {
		return false
	}
	own := termsOf(e.Label)
	for _, ct := range rs.terms {
		if isNumber(string(ct.t)) && !slices.Contains(own, ct.t) {
			return true
		}
	}
	return false
}

// isNumber: s is all ASCII digits (a term of a number in a label).
func isNumber(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// createsUnasked reports whether candidate c taps, now, an element that
// creates something ("Create a new note", "New event": the concept add)
// for a command that changes or deletes what exists (edit, delete) and
// does not ask to add: "rename the note 'Ledger'" or "delete contact Dora"
// must find the item, and a new one made on the way (a note named
// "Ledger") is a side effect nobody asked for; so must a command that only
// asks to see something ("view my starred people"), and one that adds
// something the app shows to something else ("add contact Dora to
// favorites": addsShown). A command that asks to add or send nothing and
// gives no value for a new thing (makesNothing: "wipe every entry" in
// words the vocabulary lacks) never taps what makes a new one ("New
// entry"), though it may tap an "Add …" that puts something the app has
// in place. A command that adds a new thing ("set an alarm", "add a
// number to Dora Lind") keeps every element.
func createsUnasked(rs *runState, st *daemon.PlanState, c candidate) bool {
	e := elementOf(st, c)
	if e == nil || c.action != device.Tap {
		return false
	}
	ts := termsOf(e.Label)
	// a thing the app shows, added somewhere: only what makes a new one
	// ("Create new entry", "New task") is unasked; "Add to starred"
	// is the add itself
	return slices.Contains(ts, "@add") && (rs.changesOnly || rs.viewing && !rs.adds || rs.makesNothing() && (slices.Contains(ts, "new") || slices.Contains(ts, "creat")) ||
		rs.addsExisting && (slices.Contains(ts, "new") || slices.Contains(ts, "creat")))
}

// makesNothing reports whether the command asks to add or send nothing
// and gives no value (a name, a number, a time) a new thing would hold,
// or only searches: what it searches for is no new thing's name.
func (rs *runState) makesNothing() bool {
	return !rs.adds && !rs.sends && (len(rs.values) == 0 || rs.search)
}

// discards reports whether candidate c taps, now, a button that cancels
// (the concept close: "Cancel", "Dismiss") right after a step on this
// screen did part of the command (a sound picked in its list): it would
// throw that choice away.
func discards(rs *runState, st *daemon.PlanState, c candidate) bool {
	n := len(st.History)
	e := elementOf(st, c)
	if c.action != device.Tap || e == nil || n == 0 || !rs.tapCovered(st, st.History[n-1]) {
		return false
	}
	return e.Kind == screen.KindButton && slices.Contains(termsOf(e.Label), "@close")
}

// retoggles reports whether candidate c taps, now, a toggle (isToggle:
// checkable, or named "toggle") the run already tapped, in a step that
// took effect and was not undone: the second tap would undo the first (a
// radio option tapped again merely does nothing).
func retoggles(st *daemon.PlanState, c candidate) bool {
	e := elementOf(st, c)
	if c.action != device.Tap || e == nil {
		return false
	}
	d := screen.Describe(st.Screen, e.NodeID)
	if !isToggle(d) {
		return false
	}
	return slices.ContainsFunc(st.History, func(h daemon.StepRecord) bool {
		return h.Action == device.Tap && h.OK && !h.Backtracked && !h.Undo && h.Target.Key() == d.Key()
	})
}

// unasked reports whether candidate c acts, now, on an element the
// sensitive-action policy puts in the category Destroy, Call or Money for
// a command that does not ask for it (safety.Requested): "print the last
// photo" or "pin the thread" never taps Delete on its way, "add Dora to
// favorites" never taps "Place call", though the engine's guard lets a
// tap that only opens a confirmation through. Other categories are left
// to the guard: "Share" is often only the way to a menu.
func unasked(st *daemon.PlanState, c candidate) bool {
	e := elementOf(st, c)
	if e == nil || st.Screen == nil {
		return false
	}
	t := daemon.PolicyTarget(st.Screen, device.Action{Type: c.action, Label: e.Label}, e)
	v := classify(t)
	return slices.ContainsFunc(v.Categories, func(c safety.Category) bool {
		return c == safety.Destroy || c == safety.Call || c == safety.Money
	}) && !safety.Requested(st.Command, v)
}

// classify is safety.Classify, remembered per target: the policy reads
// every word of a label in seven languages, and a run asks about the same
// elements step after step.
func classify(t safety.Target) safety.Verdict {
	parts := []string{t.Action, t.Label, t.ContentDesc, t.ResourceID, fmt.Sprint(t.Toggle, t.Replaces)}
	parts = append(append(parts, t.Dialog...), "\x01")
	key := strings.Join(append(parts, t.Beside...), "\x00")
	verdictMu.Lock()
	v, ok := verdicts[key]
	verdictMu.Unlock()
	if ok {
		return v
	}
	v = safety.Classify(t)
	verdictMu.Lock()
	if len(verdicts) > 20_000 {
		verdicts = map[string]safety.Verdict{}
	}
	verdicts[key] = v
	verdictMu.Unlock()
	return v
}

var (
	verdictMu sync.Mutex
	verdicts  = map[string]safety.Verdict{}
)

// destroys reports whether the action candidate c takes now (on this
// screen, also as the first step of a path through the UI graph) deletes
// something: the sensitive-action policy's category Destroy for its
// element.
func destroys(st *daemon.PlanState, c candidate) bool {
	e := elementOf(st, c)
	if e == nil {
		return false
	}
	return slices.Contains(classify(safety.Target{Action: c.action, Label: e.Label, ResourceID: e.Resource}).Categories, safety.Destroy)
}

// namesAll reports whether every word of label is a word of the command
// (label has at least one), or label is a value the command picks by
// name (value.selects).
func (rs *runState) namesAll(label string) bool {
	if slices.ContainsFunc(rs.values, func(v value) bool { return v.selects && namedBy(label, v.text) }) {
		return true // a value the command picks by name ("by 'Day and time'")
	}
	n := 0
	for _, t := range termsOf(label) {
		if strings.HasPrefix(string(t), "@") {
			continue
		}
		n++
		if !slices.ContainsFunc(rs.terms, func(ct cmdTerm) bool { return ct.t == t }) {
			return false
		}
	}
	return n > 0
}

// modifiedHead drops, on a dialog, the on-screen options that cover only
// the head word of a two-word phrase of the command ("clips" of "loop
// clips") when another option of the same kind covers the word that
// modifies it ("Loops"), or a step on this screen took that one already:
// the phrase names it, a kind of the head's thing, not the head's own
// option. "do not show loop clips" would untick a filter's "Clips" and
// "Raw clips" before "Loops" (TestModifiedHead).
func (rs *runState) modifiedHead(st *daemon.PlanState, cands []candidate) []candidate {
	if !daemon.IsDialog(st.Screen) {
		return cands // a dialog's options: a screen's other controls are no kinds of one thing
	}
	var words []intent.Token
	for _, tok := range intent.Tokenize(rs.cmd) {
		if tok.Kind == intent.KindWord {
			words = append(words, tok)
		}
	}
	literal := func(w string) map[term]bool { // a word's terms as written, not its concepts
		out := map[term]bool{}
		for _, t := range termsOf(w) {
			if !strings.HasPrefix(string(t), "@") {
				out[t] = true
			}
		}
		return out
	}
	drop := map[int]bool{}
	for k := 1; k < len(words); k++ {
		a, b := words[k-1], words[k]
		if intent.IsStopword(a.Text) || intent.IsStopword(b.Text) {
			continue
		}
		mod, head := literal(a.Orig), literal(b.Orig)
		headAll := termsOf(b.Orig)
		taken := slices.ContainsFunc(st.History, func(h daemon.StepRecord) bool {
			// the phrase's option, taken already on this screen
			return h.Screen == st.Print && h.OK && anyIn(targetTerms(h.Target), mod) && !anyIn(targetTerms(h.Target), head)
		})
		for i, c1 := range cands {
			e1 := elementOf(st, c1)
			if c1.via != 0 || e1 == nil || !anyIn(c1.covers, head) || slices.ContainsFunc(c1.covers, func(t term) bool { return !slices.Contains(headAll, t) }) {
				continue // not an option covering the head word alone
			}
			drop[i] = drop[i] || taken || slices.ContainsFunc(cands, func(c2 candidate) bool {
				e2 := elementOf(st, c2)
				return c2.via == 0 && e2 != nil && c2.element != c1.element && e2.Kind == e1.Kind && anyIn(c2.covers, mod) && !anyIn(c2.covers, head)
			})
		}
	}
	if len(drop) == 0 {
		return cands
	}
	out := cands[:0:0]
	for i, c := range cands {
		if !drop[i] {
			out = append(out, c)
		} else if debugGraph {
			fmt.Fprintf(os.Stderr, "graphplan: %q covers only the head of a phrase another option is named by\n", st.Elements[c.element].Label)
		}
	}
	return out
}

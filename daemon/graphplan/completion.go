// Completion: what the steps taken so far have covered, and when the
// command is done (every term covered, values typed and committed, the
// screen asked for shown).

package graphplan

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

func confidence(remaining float64, rs *runState) float64 {
	if remaining < 1e-9 {
		return 0.9
	}
	return 0.5
}

func (rs *runState) pendingValues() int {
	n := 0
	for _, v := range rs.values {
		if !v.done {
			n++
		}
	}
	return n
}

// actedAny reports whether a term of the command that names an action
// (an action concept, "@delete", or a word naming one) is covered.
func (rs *runState) actedAny() bool {
	for _, ct := range rs.terms {
		if !rs.covered[ct.t] {
			continue
		}
		if id, concept := strings.CutPrefix(string(ct.t), "@"); concept && intent.IsAction(id) || !concept && intent.ActionWord(rs.words[ct.t]) {
			return true
		}
	}
	return false
}

// coveredAny reports whether some term of the command (not merely of the
// labels tapped on the way) is covered, or a value typed.
func (rs *runState) coveredAny() bool {
	if rs.typed > 0 {
		return true
	}
	for _, v := range rs.values {
		if v.done {
			return true
		}
	}
	for _, ct := range rs.terms {
		if rs.covered[ct.t] && !ct.nav {
			return true
		}
	}
	return false
}

// viewingCommand reports whether cmd is one clause that starts with a
// verb of looking (open / view / check / show / go to: the generic
// vocabulary's "open" concept), e.g. "view starred people", or with a
// question word ("how much storage is free").
func viewingCommand(cmd string) bool {
	lc := strings.ToLower(cmd)
	if strings.Contains(lc, " and ") || strings.ContainsAny(lc, ",;") {
		return false
	}
	words := strings.Fields(lc)
	if len(words) > 1 && questionWords[words[0]] && !(words[0] == "how" && howTo[words[1]]) {
		return true // "how much storage …", "where is the faq": asks to be shown
	}
	if len(words) > 2 {
		words = words[:2]
	}
	u := intent.Understand(strings.Join(words, " "))
	return len(u.Verbs) > 0 && u.Verbs[0] == "open"
}

// questionWords begin a question, which asks to be shown something —
// but for "how do I …" (howTo), which asks how to do a thing.
var (
	questionWords = map[string]bool{"how": true, "what": true, "what's": true, "whats": true, "where": true, "where's": true, "which": true}
	howTo         = map[string]bool{"do": true, "can": true, "to": true, "should": true, "would": true, "could": true, "does": true, "i": true}
)

// opensSomething reports whether cmd begins with a strong word of the
// concept open ("open", "launch", "go to"), not a weak one ("show",
// "view", "see").
func opensSomething(cmd string) bool {
	lc := strings.ToLower(strings.TrimSpace(cmd))
	for _, w := range intent.StrongSurfaces("open") {
		if strings.HasPrefix(lc, w+" ") {
			return true
		}
	}
	return false
}

// inView reports, for a command that only asks to see something, whether
// the last step did part of it and everything else it names is on the
// screen now ("view my starred people" after tapping Starred, which
// lists people), or the last step led here and the screen shows, on
// what is no setting, some and all of what the command names (a path's
// step toward a text to read, an exploratory tap): going on would leave
// the screen asked for.
func (rs *runState) inView(st *daemon.PlanState, w map[term]float64) bool {
	// arrived: the last step led here covering nothing (an exploratory
	// tap, or a path's step toward a text now shown); then the command's
	// words must be shown on what is no setting, or the command asks to
	// turn it on ("display the reading time" beside a reading-time switch)
	covered := rs.lastStepCovered(st)
	arrived := !covered && moved(st)
	if !rs.viewing || !covered && !arrived {
		return false
	}
	shown := map[term]bool{}
	for i := range st.Elements {
		e := &st.Elements[i]
		if arrived && (e.Kind == screen.KindCheckbox || holdsSetting(st.Screen, e.NodeID)) {
			continue
		}
		for _, t := range elementTerms(e, "") {
			shown[t] = true
		}
	}
	named := false // a term of the command is shown here
	var left []term
	// the looking verb's other senses ("check" also ticks a box) ask for
	// nothing to do once what it looks at is shown
	senses, skipped := termsOf(string(rs.verb)), false
	for _, ct := range rs.terms {
		if ct.nav || w[ct.t] <= 0 || rs.covered[ct.t] {
			continue
		}
		if slices.Contains(senses, ct.t) {
			skipped = true
			continue
		}
		if !shown[ct.t] && !anyIn(rs.alias[ct.t], shown) {
			return false
		}
		named = true
		left = append(left, ct.t)
	}
	// a name the command gives as written ("view ledger.pdf", "view
	// 'Q3 plan'") must be shown; "open …" still opens its row
	for _, v := range rs.values {
		if !v.quoted || v.done {
			continue
		}
		shows := func(e screen.Element) bool { return containsFold(e.Label, v.text) }
		if !slices.ContainsFunc(st.Elements, shows) {
			return false
		}
		if rs.opens && slices.ContainsFunc(st.Elements, func(e screen.Element) bool {
			return shows(e) && e.Kind != screen.KindText && e.Kind != screen.KindInput
		}) {
			return false
		}
		named = true
	}
	if rs.opens && len(left) > 0 && slices.ContainsFunc(st.Elements, func(e screen.Element) bool {
		return e.Kind != screen.KindText && e.Kind != screen.KindInput && rs.namedIn(left, elementTerms(&e, ""))
	}) {
		// "open ledger.pdf", "open the virtual private network": what is
		// left names an element here to open, not a screen already shown
		return false
	}
	said := make([]term, 0, len(rs.terms))
	for _, ct := range rs.terms {
		said = append(said, ct.t)
	}
	if skipped && len(left) > 0 && slices.ContainsFunc(st.Elements, func(e screen.Element) bool {
		ts := termsOf(e.Label)
		if e.Kind == screen.KindCheckbox || holdsSetting(st.Screen, e.NodeID) {
			// "check use dark theme": a box the rest names is to tick
			return rs.namedIn(left, ts)
		}
		return e.Kind != screen.KindText && e.Kind != screen.KindInput && len(ts) > 0 && rs.namedIn(left, ts) && rs.namedIn(ts, said)
	}) {
		// "check the help page" beside a button labelled only with the
		// command's words: that names a page to open; a row whose label
		// also shows a value ("8 GB · Disk space") is what was to be
		// checked
		return false
	}
	// a screen the last step led to, covering nothing, shows what the
	// command asks only if it shows some of it
	return named || !arrived
}

// openResult taps the search result that carries the searched value when
// the command asks to do something with it ("search 'X' and open it"):
// the tap is that action, so the command's words after the value are
// covered by it.
func (rs *runState) openResult(st *daemon.PlanState) (candidate, bool) {
	if rs.searched == "" || len(rs.afterSearch) == 0 || rs.resultOpened {
		return candidate{}, false
	}
	for i := range st.Elements {
		e := &st.Elements[i]
		if e.Kind == screen.KindInput || e.Disabled || isSearchField(e) || !containsFold(e.Label, rs.searched) {
			continue
		}
		if penalty(st, device.Tap, screen.Describe(st.Screen, e.NodeID)) > 0 {
			continue
		}
		rs.openedResult()
		return candidate{action: device.Tap, element: i, reason: fmt.Sprintf("open the search result %q", e.Label)}, true
	}
	return candidate{}, false
}

// isToggle reports whether a tapped element switches a state: checkable,
// or labelled "toggle" (the platform's convention for such buttons).
func isToggle(d screen.Descriptor) bool {
	return d.Checkable || strings.Contains(strings.ToLower(d.Label()+" "+d.Desc+" "+d.ResourceID), "toggle")
}

// isRadio reports whether d is a radio button (by its class: the
// platform's RadioButton and its subclasses).
func isRadio(d screen.Descriptor) bool {
	return strings.Contains(strings.ToLower(screen.ShortClass(d.Class)), "radio")
}

// switchVerb reports whether t is a verb that sets a switch other than
// on / off ones: tick or untick, mute or unmute, and stop when the
// command stops doing something ("stop syncing drafts",
// intent.StopsDoing).
func (rs *runState) switchVerb(t term) bool {
	switch t {
	case "@select", "@deselect", "@mute", "@unmute":
		return true
	case "@stop":
		return intent.StopsDoing(rs.cmd)
	}
	return false
}

// isSetVerb reports whether t is, or is a word of, the add / delete / on /
// off concepts.
func isSetVerb(t term) bool {
	for _, c := range termsOf(strings.TrimPrefix(string(t), "@")) {
		switch c {
		case "@add", "@delete", "@on", "@off":
			return true
		}
	}
	return false
}

// lastStepCovered reports whether the last step was a tap that covered a
// word of the command (not a navigation word) and led to this screen.
func (rs *runState) lastStepCovered(st *daemon.PlanState) bool {
	n := len(st.History)
	if n == 0 {
		return false
	}
	h := st.History[n-1]
	if h.Screen == st.Print {
		return false
	}
	return rs.tapCovered(st, h)
}

// tapCovered reports whether step h, the run's last, is a tap that took
// effect, led to the current screen and did part of the command (a word
// of its target is one of the command's, not a navigation word).
func (rs *runState) tapCovered(st *daemon.PlanState, h daemon.StepRecord) bool {
	if h.Action != device.Tap || !h.OK || h.Backtracked || h.Undo || h.After != st.Print {
		return false
	}
	tapped := map[term]bool{}
	for _, t := range targetTerms(h.Target) {
		tapped[t] = true
	}
	for _, t := range rs.semCovers[h.Target.Key()] {
		tapped[t] = true
	}
	for _, ct := range rs.terms {
		if !ct.nav && tapped[ct.t] {
			return true
		}
	}
	return false
}

// unknownAction returns a word of the command that names an action (a
// verb of the generic vocabulary: "mute", "print") which no element of
// the app carries, by word or by meaning, and which no step covered: the
// steps taken cannot have done it, so the command is not done ("" when
// there is none). A switch set on the way is taken to be that action
// ("stop the music fading in" → a "Fade music in" switch set off).
// Navigation words are not waited for.
func (rs *runState) unknownAction(w map[term]float64) string {
	if rs.toggled {
		return ""
	}
	for _, ct := range rs.terms {
		id, ok := strings.CutPrefix(string(ct.t), "@")
		if !ok || ct.nav || rs.covered[ct.t] || w[ct.t] > 0 || len(rs.alias[ct.t]) > 0 || !intent.IsAction(id) {
			continue
		}
		return id
	}
	return ""
}

// unsure reports whether a "done" with remaining weight of the command
// uncovered is not sure (daemon.Decision.Unsure): some of the command is
// left (a word the app carries, or one it never shows: unknownLeft), or
// it asked for all of something and a step picked one row of a
// list it does not name ("delete all notes" done by opening one note and
// deleting it). w are the terms' weights remaining was summed with; the
// words naming the app among it do not count (appLeft).
func (rs *runState) unsure(remaining float64, w map[term]float64) bool {
	if debugGraph {
		fmt.Fprintf(os.Stderr, "graphplan: unsure: remaining %.3f app %.3f universal %v picked %v unknownLeft %v\n", remaining, rs.appLeft(w), rs.universal, rs.pickedRow, rs.unknownLeft())
		for _, ct := range rs.terms {
			if !rs.covered[ct.t] {
				fmt.Fprintf(os.Stderr, "graphplan:   uncovered %q w %.3f unknownW %.3f nav %v\n", ct.t, w[ct.t], rs.unknownW[ct.t], ct.nav)
			}
		}
	}
	return remaining-rs.appLeft(w) > 1e-9 || rs.universal && rs.pickedRow && !rs.recordedAll || rs.unknownLeft()
}

// namedIn reports whether every term of a is in b, or means one of b's in
// the app's words, either way (runState.alias: "frequent" of the command
// and "often" of a label): subset, with the words the model ties.
func (rs *runState) namedIn(a, b []term) bool {
	for _, t := range a {
		if !slices.Contains(b, t) && !slices.ContainsFunc(rs.alias[t], func(x term) bool { return slices.Contains(b, x) }) &&
			!slices.ContainsFunc(b, func(x term) bool { return slices.Contains(rs.alias[x], t) }) {
			return false
		}
	}
	return true
}

// ownTerms are the command's own words as terms: literal (no concept), no
// navigation word, not a word of the app's name — what an element must
// carry to offer what the command asks (interstitial, optionBeforeAccept,
// addsSomethingElse).
func (rs *runState) ownTerms() map[term]bool {
	own := map[term]bool{}
	for _, ct := range rs.terms {
		if !ct.nav && !rs.appWords[ct.t] && !strings.HasPrefix(string(ct.t), "@") {
			own[ct.t] = true
		}
	}
	return own
}

// appLeft is the weight (w) of the words naming the app
// (runState.appWords) that no step covered: the app is open, so they are
// no reason to doubt a "done" ("… in Notebook"), though they may still
// lead to a tab of the same name. In a route check, the words the walked
// flow's own command carries (runState.recorded) count with them: its
// recording did them.
func (rs *runState) appLeft(w map[term]float64) float64 {
	left := 0.0
	for _, ct := range rs.terms {
		if (rs.appWords[ct.t] || rs.recorded[ct.t]) && !rs.covered[ct.t] && !ct.nav {
			left += w[ct.t]
		}
	}
	return left
}

// unknownLeft reports whether a word of the command that no element of
// the app carries (runState.unknownW; not one that only says where to
// look) was not covered by meaning by a step either: the planner cannot
// tell that the command is done ("record a time-lapse" where only "Record"
// matched). The app's own name is no such word: the app is open; nor is
// one whose concept a step covered (conceptCovered: "mark" of "mark it as
// a favourite" by a tap on "Toggle favorite", which covers its concept).
func (rs *runState) unknownLeft() bool {
	var given map[term]bool
	for _, ct := range rs.terms {
		if !ct.nav && rs.unknownW[ct.t] > 0 && !rs.covered[ct.t] && !rs.appWords[ct.t] && !rs.recorded[ct.t] && !rs.conceptCovered(ct.t) {
			if given == nil {
				given = rs.givenTerms()
			}
			if given[ct.t] {
				continue
			}
			return true
		}
	}
	return false
}

// conceptCovered reports whether a step covered a concept of the command
// word literal term t came from (runState.words): "make" of "make an
// event" done by a tap on "New Event", which carries the concept create.
func (rs *runState) conceptCovered(t term) bool {
	return slices.ContainsFunc(termsOf(rs.words[t]), func(c term) bool { return strings.HasPrefix(string(c), "@") && rs.covered[c] })
}

// givenTerms are the terms of the command's values a step typed or
// picked (value.done), with the unit of a length of time ("5 minutes":
// value.durTerms): a value given is a word accounted for ("… number
// 5550123" typed into a field), though no element of the app carries it.
func (rs *runState) givenTerms() map[term]bool {
	out := map[term]bool{}
	for _, v := range rs.values {
		if v.done {
			for _, t := range slices.Concat(termsOf(v.text), v.durTerms) {
				out[t] = true
			}
		}
	}
	return out
}

// recordAs notes, for a route check, the terms of the command that
// learned, the flow walked (daemon.PlanState.Learned), carries: the
// flow's recording did them (runState.recorded).
func (rs *runState) recordAs(learned string) {
	theirs := termsOf(learned)
	rs.recorded = map[term]bool{}
	for _, ct := range rs.terms {
		if slices.Contains(theirs, ct.t) {
			rs.recorded[ct.t] = true
		}
	}
	rs.recordedAll = intent.Universal(learned)
}

// names reports whether a literal word of the command is a word of label.
func (rs *runState) names(label string) bool { return rs.literalIn(termsOf(label), true) }

// literalIn reports whether a literal term of the command (no concept:
// "display" and "Show all" share only the concept on), a navigation word
// only when withNav, is in ts.
func (rs *runState) literalIn(ts []term, withNav bool) bool {
	return slices.ContainsFunc(rs.terms, func(ct cmdTerm) bool {
		return (withNav || !ct.nav) && !strings.HasPrefix(string(ct.t), "@") && slices.Contains(ts, ct.t)
	})
}

// answeredAbout reports whether step h answered a dialog whose text names
// value ("Delete the note "Ledger"?" → Delete): the dialog asked about the
// item the value names, so the command's action on it is done.
func answeredAbout(h daemon.StepRecord, value string) bool {
	if h.Where == nil || !h.Where.Dialog {
		return false
	}
	for _, l := range h.Where.Labels {
		if l != strings.ToLower(h.Target.Label()) && containsValue(l, value) {
			return true
		}
	}
	return false
}

// carryOn taps the one button of this screen that carries the command's
// leading verb when the last step, a tap that did that verb, handed the
// operation to another package: a menu's "Print" opening the system's
// print screen, whose button prints; "Export" opening another app's
// screen whose button exports. That screen is the second half of the same
// operation; leaving it untouched would drop it. The verb is the
// command's first word that is no stopword ("print …", "please export
// …"), as written or, when the tap that handed over does not write it,
// by its concept ("phone Dora": "Dial her", then "Ring now"); on the
// app's own screens (a tab, a menu of the app) nothing is
// carried on this way, nor after a tap made on the other package's
// screen already ("Tilt left" in an editor the app opened: the operation
// is done there, not handed over; runState.pkgAt), nor where two buttons
// carry the verb, nor by a button that also names another action
// (otherAction).
func (rs *runState) carryOn(st *daemon.PlanState) (candidate, bool) {
	n := len(st.History)
	if rs.carried || n == 0 || st.Screen == nil || st.Package == "" || st.Screen.ForegroundPackage() == "" || st.Screen.ForegroundPackage() == st.Package {
		return candidate{}, false
	}
	last := st.History[n-1]
	if last.Action != device.Tap || !last.OK || last.After != st.Print || last.Screen == st.Print {
		return candidate{}, false
	}
	if pkg, ok := rs.pkgAt[last.Screen]; ok && pkg == st.Screen.ForegroundPackage() {
		return candidate{}, false // the tap was made on this package's screen: it handed nothing over
	}
	verb := rs.verb
	if !rs.hasVerb {
		return candidate{}, false
	}
	if !slices.Contains(targetTerms(last.Target), verb) {
		// the verb's concept, when the first word has one
		ts := termsOf(string(verb))
		c := slices.IndexFunc(ts, func(t term) bool { return strings.HasPrefix(string(t), "@") })
		if c < 0 || !slices.Contains(targetTerms(last.Target), ts[c]) {
			return candidate{}, false
		}
		verb = ts[c]
	}
	found := -1
	for i := range st.Elements {
		e := &st.Elements[i]
		if e.Disabled || e.Kind == screen.KindText || e.Kind == screen.KindInput || strings.EqualFold(e.Label, last.Target.Label()) ||
			!slices.Contains(elementTerms(e, ""), verb) || otherAction(e.Label, verb) {
			continue
		}
		if found >= 0 {
			return candidate{}, false
		}
		found = i
	}
	if found < 0 || penalty(st, device.Tap, screen.Describe(st.Screen, st.Elements[found].NodeID)) > 0 {
		return candidate{}, false
	}
	rs.carried = true
	return candidate{action: device.Tap, element: found, reason: fmt.Sprintf("%q carries on the %q the last step began", st.Elements[found].Label, verb)}, true
}

// otherAction reports whether label names an action other than verb
// and the accepting words of a dialog (positiveWords): "Stop call" after
// "Call …" ends what the tap began.
func otherAction(label string, verb term) bool {
	for _, t := range intent.Tokenize(label) {
		if t.Kind == intent.KindWord && intent.ActionWord(t.Text) && !slices.Contains(positiveWords, t.Text) && !slices.Contains(termsOf(t.Text), verb) {
			return true
		}
	}
	return false
}

// leadingVerb returns the term of the command's first word that is no
// stopword: in an imperative, its verb.
func leadingVerb(cmd string) (term, bool) {
	for _, t := range intent.Tokenize(cmd) {
		if t.Kind != intent.KindWord {
			return "", false
		}
		if intent.IsStopword(t.Text) {
			continue
		}
		ts := termsOf(t.Text)
		if len(ts) == 0 {
			return "", false
		}
		return ts[len(ts)-1], true
	}
	return "", false
}

// sawPackage records the foreground package of st's screen under its
// fingerprint (runState.pkgAt).
func (rs *runState) sawPackage(st *daemon.PlanState) {
	if st.Screen == nil || st.Print == "" {
		return
	}
	if rs.pkgAt == nil {
		rs.pkgAt = map[string]string{}
	}
	rs.pkgAt[st.Print] = st.Screen.ForegroundPackage()
}

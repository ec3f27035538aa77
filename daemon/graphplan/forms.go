// Forms and fields: which field a value goes into, the dialogs a tap
// opened, settings, scrolling (commits.go: what commits a form).

package graphplan

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// reopenInDialog handles a tap that opened a dialog of choices ("Font
// size" opens Small / Medium / Large): the terms the tap covered that the
// dialog's options also carry are the choice still to make, so they are
// uncovered again for the options. Check boxes and switches are no
// options (holdsToggle). A term the tap covered only by meaning (its
// label was the one meaning the command: nearestCovers) is uncovered on
// any screen the tap opened whose options carry it in their labels
// (reopenShown: "Regional weather" opening a list of regions, the command
// naming one): the graph did not know what the tap opens, and a label
// carrying the word beats one meaning it.
func (rs *runState) reopenInDialog(st *daemon.PlanState) {
	n := len(st.History)
	if n == 0 || rs.reopened == n {
		return
	}
	last := st.History[n-1]
	if last.Action != device.Tap || last.After != st.Print || last.Screen == st.Print {
		return
	}
	rs.reopened = n
	rs.reopenShown(st, last)
	if !daemon.IsDialog(st.Screen) || isToggle(last.Target) {
		return // a dialog's option picked in place opens nothing
	}
	tapped := map[term]bool{}
	for _, t := range targetTerms(last.Target) {
		tapped[t] = true
	}
	for i := range st.Elements {
		e := &st.Elements[i]
		if e.Kind != screen.KindCheckbox && e.Kind != screen.KindButton || holdsToggle(st.Screen, e.NodeID) {
			// a check box or switch is a setting of its own, not one of
			// the choices ("Export ledgers" opening "Export drafts ☑",
			// "Export archive ☑": nothing is left to choose)
			continue
		}
		ts := elementTerms(e, "")
		if e.Kind != screen.KindCheckbox {
			// a button of the dialog as the owner sees it, not by its
			// resource-id ("OK" of a "new_ledger_dialog"): only an option
			// that is checked when chosen is one by its id
			ts = termsOf(e.Label)
		}
		for _, t := range ts {
			if tapped[t] && !strings.HasPrefix(string(t), "@") {
				delete(rs.covered, t)
			}
		}
	}
}

// reopenShown uncovers the terms tap last covered only by meaning
// (semCovers, not its own words) that the label of an option of the
// screen it opened carries: a radio button or check box, or any element
// of a dialog but a text field (not a resource-id, which the owner does
// not see; not a tab or a row of a screen the tap returned to). A
// switch, or a screen still showing the tapped element, was changed in
// place, not opened.
func (rs *runState) reopenShown(st *daemon.PlanState, last daemon.StepRecord) {
	label := strings.TrimSpace(last.Target.Label())
	if isToggle(last.Target) || label != "" && slices.ContainsFunc(st.Elements, func(e screen.Element) bool { return strings.TrimSpace(e.Label) == label }) {
		return // the tap changed its screen in place (a switch): nothing opened
	}
	own, dialog := targetTerms(last.Target), daemon.IsDialog(st.Screen)
	for _, t := range rs.semCovers[last.Target.Key()] {
		if slices.Contains(own, t) || strings.HasPrefix(string(t), "@") {
			continue
		}
		if slices.ContainsFunc(st.Elements, func(e screen.Element) bool {
			return (e.Kind == screen.KindCheckbox || dialog && e.Kind != screen.KindInput) && slices.Contains(termsOf(e.Label), t)
		}) {
			delete(rs.covered, t)
		}
	}
}

// chosenShown covers the words of a dialog's radio button that is
// already chosen and that the command names whole ("Descending" checked
// for "… in descending order"): the choice is made, and tapping it
// again changes nothing. Another option checked (the command says
// "ascending") covers nothing.
func (rs *runState) chosenShown(st *daemon.PlanState) {
	if !daemon.IsDialog(st.Screen) {
		return
	}
	if _, ok := confirmButton(st); !ok {
		return // a choice that closes its dialog: tapping it is how it is left
	}
	said, from := map[term]bool{}, fromOnly(rs.cmd)
	for _, t := range termsOf(rs.cmd) {
		said[t] = !from[t] // the state a change starts from ("from grid to list") is no choice it asks for
	}
	for i := range st.Elements {
		e := &st.Elements[i]
		if !e.Checked || !isRadio(screen.Describe(st.Screen, e.NodeID)) {
			continue
		}
		ts := termsOf(e.Label)
		if len(ts) == 0 || slices.ContainsFunc(ts, func(t term) bool { return !said[t] }) {
			continue
		}
		for _, t := range ts {
			rs.covered[t], rs.worded[t] = true, true
		}
	}
}

// nextValueFor returns the index of the pending value that fits field e
// best, or -1. Quoted values go into any field (the best-labelled one
// first); numbers, times and dates only into a field whose label shares a
// word with the words before the value ("resize to width 1000"), since
// they are more often picked from a list than typed. A value equal to the
// field's text is never typed there.
func (rs *runState) nextValueFor(e *screen.Element) int {
	for _, v := range rs.values {
		if v.done && v.typed && strings.EqualFold(strings.TrimSpace(e.Value), strings.TrimSpace(v.text)) {
			// the field holds a value the run typed: another one typed
			// there would replace it
			return -1
		}
	}
	composes := composer(e)
	best, bestScore := -1, -1.0
	for i, v := range rs.values {
		if v.selects && !isSearchField(e) {
			continue // a label of the app names what to pick, not what to type
		}
		if isSearchField(e) && !rs.search && !v.selects && (v.names || rs.adds) {
			// a search field finds what exists: the name of something the
			// command creates is no search ("add an album 'X'"; "export
			// the note 'X'", which may exist unseen, is)
			continue
		}
		if composes && !rs.sends {
			continue // a message's text only for a command that sends one
		}
		if namesFile(v) && !takesFileName(e) {
			continue // a file name into a field for something else
		}
		if v.done || strings.EqualFold(strings.TrimSpace(e.Value), strings.TrimSpace(v.text)) {
			// a value the field holds already names what is there (the
			// note "rename 'Ledger' to 'chores'" renames): typing it
			// changes nothing
			continue
		}
		s := overlap(v.context, elementTerms(e, ""))
		if !v.quoted && overlap(v.context, termsOf(shownName(e))) == 0 && !(rs.search && isSearchField(e)) && !replacesLike(e, v) {
			// an unquoted value goes only where the field's shown words
			// fit the words before it; its resource-id words do not count
			// ("a countdown of 7:30" and a "countdown_label" field) unless
			// the field shows nothing but a value like the command's
			// (replacesLike)
			continue
		}
		if s > bestScore {
			best, bestScore = i, s
		}
	}
	return best
}

// hasField reports whether the screen has a text field.
func hasField(st *daemon.PlanState) bool {
	return slices.ContainsFunc(st.Elements, func(e screen.Element) bool { return e.Kind == screen.KindInput })
}

// replacesLike reports whether field e shows no name (no hint, its label
// is the text it holds), holds a number as value v is one, and its
// resource-id shares a word with the words before v (a word, not only a
// concept: "image" is no "photo" here): the field of a form being
// edited whose name the dump leaves out once it holds a value ("change
// the home number to 5550100" and a field "…:id/home_number" holding
// "5550123"). Digits, spaces and "+-()." make a number.
func replacesLike(e *screen.Element, v value) bool {
	if strings.TrimSpace(shownName(e)) != "" || !numberLike(e.Value) || !numberLike(v.text) {
		return false
	}
	rid := termsOf(idWords(e.Resource))
	return slices.ContainsFunc(v.context, func(t term) bool { return !strings.HasPrefix(string(t), "@") && slices.Contains(rid, t) })
}

// numberLike: s holds a digit and nothing but digits, spaces and "+-().".
func numberLike(s string) bool {
	s = strings.TrimSpace(s)
	return strings.ContainsFunc(s, unicode.IsDigit) && !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsDigit(r) && !strings.ContainsRune(" +-().", r) })
}

// shownName returns the words a text field shows to say what it is for:
// its hint and its label, unless the label is only the text it holds
// (a name field holding "Dora" is no field for Dora's number). Text made
// only of the words of the field's resource-id is its hint shown as text
// (an empty "…:id/trip_venue" showing "Venue", as dumps of empty fields
// report it), not something typed.
func shownName(e *screen.Element) string {
	if strings.EqualFold(strings.TrimSpace(e.Label), strings.TrimSpace(e.Value)) && !hintAsText(e) {
		return e.Hint
	}
	return e.Label + " " + e.Hint
}

// hintAsText reports whether the text of field e is made only of words of
// its resource-id.
func hintAsText(e *screen.Element) bool {
	ts := termsOf(e.Value)
	if len(ts) == 0 || e.Resource == "" {
		return false
	}
	rid := termsOf(idWords(e.Resource))
	return !slices.ContainsFunc(ts, func(t term) bool { return !slices.Contains(rid, t) })
}

// holdsToggle reports whether node id of s, or a node under it, is a
// check box or a switch (screen.IsToggleClass): an independent setting,
// not one option of a choice.
func holdsToggle(s *screen.Snapshot, id int) bool {
	found := false
	s.Walk(id, func(n *screen.Node, _ int) bool {
		found = found || n.Checkable && screen.IsToggleClass(n.Class)
		return !found
	})
	return found
}

// shownValues marks the command's values that the current screen holds
// already (value.done), as a switch already in the wanted state holds
// its setting: a field that holds the value (heldIn), a name the command
// picks shown as the title of what is open (titled), or a dialog that
// shows its length of time as a clock (durationShown: "04:00" for "a 4
// minute countdown"), whose number and unit are then covered. What is
// left is to accept the form.
func (rs *runState) shownValues(st *daemon.PlanState) {
	for i := range rs.values {
		v := &rs.values[i]
		if v.done {
			continue
		}
		if durationShown(st, *v) {
			v.done = true
			for _, t := range v.durTerms {
				rs.covered[t] = true
			}
			continue
		}
		// a screen that lists files by their full names (a save picker)
		// keeps the name as typed: one without its extension is another
		listed := slices.ContainsFunc(st.Elements, func(e screen.Element) bool {
			return e.Kind != screen.KindInput && len(intent.FileNames(e.Label)) > 0
		})
		for j := range st.Elements {
			if heldIn(&st.Elements[j], v.text, !listed) {
				v.done = true
				break
			}
		}
		if !v.done && v.selects && titled(st, v.text) {
			v.done = true
		}
	}
}

// titled reports whether the screen shows name as text that no element
// of it to act on carries: the title of the thing open here ("Ledger"
// over the note's text, beside the tabs of other notes), not a row to
// pick. A pager, list or text field that takes the text as its label
// does not count.
func titled(st *daemon.PlanState, name string) bool {
	shown := false
	for i := range st.Elements {
		e := &st.Elements[i]
		if e.Kind == screen.KindScroll || e.Kind == screen.KindInput || !namedBy(e.Label, name) {
			continue
		}
		if e.Kind != screen.KindText {
			return false
		}
		shown = true
	}
	return shown
}

// heldIn reports whether e is a text field (no search field) that holds
// value already: the same text, case and surrounding space aside, or,
// when extAdded, the value without its file extension, which the app
// adds ("Ledger" for "Ledger.json").
func heldIn(e *screen.Element, value string, extAdded bool) bool {
	return e.Kind == screen.KindInput && !e.Disabled && !isSearchField(e) && sameName(e.Value, value, extAdded)
}

func scrollable(st *daemon.PlanState) int {
	for i := range st.Elements {
		if st.Elements[i].Kind == screen.KindScroll {
			return i
		}
	}
	return -1
}

// markSelectors marks the quoted values that are the label of an element
// the app shows (on this screen or in its UI graph), not introduced as a
// name or a new value, or that of an option of a choice, which cannot be
// typed whatever the word before it ("change the preset to 'Velvet'" where
// "Velvet" labels a radio button) (value.selects); once per run.
func (rs *runState) markSelectors(st *daemon.PlanState, g *appGraph) {
	if rs.selectorsMarked {
		return
	}
	rs.selectorsMarked = true
	labels := map[string]bool{}
	heads := map[string]bool{} // rows by their name ("Trips" of "Trips · 4 items": screen.RowName)
	add := func(label string) {
		labels[strings.ToLower(strings.TrimSpace(label))] = true
		if strings.Contains(label, screen.RowTextSep) {
			heads[strings.ToLower(screen.RowName(label))] = true
		}
	}
	options := map[string]bool{} // labels of the options of a choice (radio buttons)
	option := func(d screen.Descriptor) {
		if d.Checkable && !screen.IsToggleClass(d.Class) {
			options[strings.ToLower(strings.TrimSpace(d.Label()))] = true
		}
	}
	for i := range st.Elements {
		if st.Elements[i].Kind != screen.KindInput {
			add(st.Elements[i].Label)
			option(screen.Describe(st.Screen, st.Elements[i].NodeID))
		}
	}
	for _, e := range g.elems {
		if !e.Descriptor.Editable {
			add(e.Descriptor.Label())
			option(e.Descriptor)
		}
	}
	for i := range rs.values {
		v := &rs.values[i]
		t := strings.ToLower(strings.TrimSpace(v.text))
		v.selects = v.quoted && (!v.names && (labels[t] || heads[t]) || options[t])
	}
	rs.addsExisting = rs.adds && addsShown(rs.cmd, labels)
}

// picksValue reports whether candidate c taps, on this screen, an element
// whose label holds a value the command picks by name and no step picked
// yet (value.selects: the 'Trips' of "… to the 'Trips' folder").
func (rs *runState) picksValue(st *daemon.PlanState, c candidate) bool {
	if c.action != device.Tap || c.via != 0 || c.element < 0 || c.element >= len(st.Elements) {
		return false
	}
	return rs.picked(st.Elements[c.element].Label, true)
}

// pickFirst moves to the front of cands (sorted, best first) a tap on a
// row of this screen that picks a value the command names (picksValue)
// before every word the best candidate covers, some of those in a later
// clause (clauseBetween): "open 'Attic' folder, sort the files by
// name" opens the folder before it sorts — the command says what it
// acts on first, and what comes after may be done there.
func (rs *runState) pickFirst(st *daemon.PlanState, cands []candidate) {
	if len(cands) < 2 || rs.picksValue(st, cands[0]) {
		return
	}
	for i := 1; i < len(cands); i++ {
		c := cands[i]
		if c.score < MinScore || !rs.picksValue(st, c) {
			continue
		}
		label := st.Elements[c.element].Label
		start, end := -1, -1
		for _, v := range rs.values {
			if !v.done && v.selects && namedBy(label, v.text) {
				start, end = v.at, v.at+len(v.text)
			}
		}
		if start < 0 {
			return
		}
		later := false
		for _, t := range cands[0].covers {
			w := rs.firstAt(t)
			if w < start {
				return // a word the best candidate covers comes before the value
			}
			later = later || w > end && clauseBetween(rs.cmd[end:w])
		}
		if !later {
			return
		}
		copy(cands[1:i+1], cands[:i])
		cands[0] = c
		return
	}
}

// clauseBetween reports whether text, what a command says between two of
// its words, ends one clause and begins another (a comma, "and", "then"):
// "open 'X', sort …", not "check 'X' in the folders", where the words
// after the value say where it is.
func clauseBetween(text string) bool {
	if strings.ContainsAny(text, clauseMarks) {
		return true
	}
	return slices.ContainsFunc(strings.Fields(strings.ToLower(text)), func(w string) bool { return clauseJoiners[w] })
}

// clauseMarks and clauseJoiners end one clause of a command and begin the
// next (clauseBetween, clauseVerbs).
const clauseMarks = ",;"

var clauseJoiners = map[string]bool{"and": true, "then": true}

// firstAt returns the byte offset in the command of the first word that
// carries term t, or -1.
func (rs *runState) firstAt(t term) int {
	for _, tok := range intent.Tokenize(rs.cmd) {
		if tok.Kind == intent.KindWord && slices.Contains(termsOf(tok.Orig), t) {
			return tok.Start
		}
	}
	return -1
}

// picked reports whether label is a row the command picks by name
// (value.selects, namedBy), among the values not done yet when pending.
func (rs *runState) picked(label string, pending bool) bool {
	return slices.ContainsFunc(rs.values, func(v value) bool {
		return v.selects && !(pending && v.done) && namedBy(label, v.text)
	})
}

// addsShown reports whether command cmd adds something it names, that
// the app shows (labels, lower case; a row by its first text), to
// something else: "add contact Dora to favorites", "put 'Ledger' into the
// archive". The thing exists; the add is to a collection, and creating a
// new one is not on the way. A name after "to" ("add a number to Dora")
// is where the new thing goes, not the thing.
func addsShown(cmd string, labels map[string]bool) bool {
	shown := func(name string) bool {
		for l := range labels {
			if namedBy(l, name) {
				return true
			}
		}
		return false
	}
	lower := strings.ToLower(cmd)
	for _, v := range intent.Understand(cmd).Values {
		if v.Kind != intent.KindWord && v.Kind != intent.KindQuoted || !shown(v.Text) {
			continue
		}
		rest := " " + lower[v.End:] + " "
		before := " " + lower[:v.Start] + " "
		if (strings.Contains(rest, " to ") || strings.Contains(rest, " into ")) && !strings.Contains(before, " to ") && !strings.Contains(before, " into ") {
			return true
		}
	}
	return false
}

// formFilled reports whether the run's last step typed a value on this
// screen and every text field of it (search fields aside) now holds what
// the run typed there: nothing is left to type here.
func formFilled(st *daemon.PlanState) bool {
	if !typedLast(st) {
		return false
	}
	typed := map[string]bool{}
	for _, h := range st.History {
		if h.Action == device.Input && h.OK && !h.Undo && h.After == st.Print {
			typed[h.Target.Key()] = true
		}
	}
	fields := 0
	for i := range st.Elements {
		e := &st.Elements[i]
		if e.Kind != screen.KindInput || isSearchField(e) {
			continue
		}
		fields++
		if !typed[screen.Describe(st.Screen, e.NodeID).Key()] {
			return false
		}
	}
	return fields > 0
}

// composer reports whether input field e is where a message is written:
// its label or hint asks to type, write or enter a message ("Write a
// message…"), not merely a text holding the word (a file name
// "Messages_2024_backup").
func composer(e *screen.Element) bool {
	ts := termsOf(e.Label + " " + e.Hint)
	if !slices.Contains(ts, "@message") {
		return false
	}
	for _, w := range []string{"type", "write", "enter", "compos"} {
		if slices.Contains(ts, term(w)) {
			return true
		}
	}
	return false
}

func isSearchField(e *screen.Element) bool {
	for _, t := range elementTerms(e, "") {
		if t == "@search" {
			return true
		}
	}
	return false
}

// settingsHub finds the way into the app's settings on this screen: an
// element named settings first, else the overflow menu ("More options",
// "⋮"), unless already tried.
func settingsHub(st *daemon.PlanState) (candidate, bool) {
	for pass := 0; pass < 2; pass++ {
		for i := range st.Elements {
			e := &st.Elements[i]
			if e.Kind != screen.KindButton || e.Disabled {
				continue
			}
			hit := false
			for _, t := range elementTerms(e, "") {
				hit = hit || (pass == 0 && t == "set") || (pass == 0 && t == "setting") || (pass == 1 && t == "@settings")
			}
			if hit && penalty(st, device.Tap, screen.Describe(st.Screen, e.NodeID)) == 0 {
				return candidate{action: device.Tap, element: i, reason: fmt.Sprintf("nothing known matches; options like this live in settings: %q", e.Label)}, true
			}
		}
	}
	return candidate{}, false
}

// inSettings reports whether the run already went into settings.
func inSettings(st *daemon.PlanState) bool {
	for _, h := range st.History {
		for _, t := range termsOf(h.Target.Label()) {
			if t == "set" || t == "setting" {
				return true
			}
		}
	}
	return false
}

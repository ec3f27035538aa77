// Commits: the buttons that commit a form or accept a dialog, the choice
// made in a form before it is committed, and the notices acknowledged.

package graphplan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// afterCommit is the step once a committed form left little of the
// command to do: done, after accepting a choice the last step made in a
// picker (acceptChoice: "sort by Newest", then OK).
func (rs *runState) afterCommit(st *daemon.PlanState, remaining float64, w map[term]float64) daemon.Decision {
	if c, ok := rs.optionAsked(st); ok {
		return decision(c, 0.7)
	}
	if c, ok := rs.acceptChoice(st); ok {
		rs.confirmedDialog = true
		return decision(c, 0.7)
	}
	if c, ok := rs.commitAsked(st); ok {
		rs.confirmedDialog = true
		return decision(c, 0.7)
	}
	return daemon.Decision{Action: daemon.ActDone, Element: -1, Confidence: confidence(remaining, rs), Unsure: rs.unsure(remaining, w),
		Reason: "the typed values are committed"}
}

// commitAsked returns the positive button of a dialog the run's last
// step opened once the form was committed, unless a dialog was accepted
// already: the commit asks to be confirmed ("Overwrite the file?" after
// OK), and its work is not done until it is. A dialog whose accepting
// button is the command's own verb ("Send" and "Cancel" after a message's
// send button) is accepted with it.
func (rs *runState) commitAsked(st *daemon.PlanState) (candidate, bool) {
	n := len(st.History)
	if n == 0 || rs.confirmedDialog || !daemon.IsDialog(st.Screen) {
		return candidate{}, false
	}
	if h := st.History[n-1]; !h.OK || h.Backtracked || h.Undo || h.After != st.Print || h.Screen == st.Print {
		return candidate{}, false
	}
	if c, ok := positiveButton(st); ok {
		return c, true
	}
	return rs.verbButton(st)
}

// verbButton returns the one enabled button of a dialog labelled with a
// single word that is a verb of the command (a concept the command says,
// "Send" for "send … a text"), or none: two such buttons leave the choice
// open.
func (rs *runState) verbButton(st *daemon.PlanState) (candidate, bool) {
	found, at := 0, -1
	for i := range st.Elements {
		e := &st.Elements[i]
		if e.Kind != screen.KindButton || e.Disabled || len(strings.Fields(e.Label)) != 1 {
			continue
		}
		ts := termsOf(e.Label)
		if slices.ContainsFunc(ts, func(t term) bool {
			return strings.HasPrefix(string(t), "@") && slices.ContainsFunc(rs.terms, func(ct cmdTerm) bool { return ct.t == t && !ct.nav })
		}) {
			found, at = found+1, i
		}
	}
	if found != 1 || penalty(st, device.Tap, screen.Describe(st.Screen, st.Elements[at].NodeID)) > 0 {
		return candidate{}, false
	}
	return candidate{action: device.Tap, element: at, reason: fmt.Sprintf("confirm the commit with %q, what the command asks", st.Elements[at].Label)}, true
}

// formChoice returns, before a form is committed, a tap on a radio button
// of the form whose label carries a word of the command that no step
// covered and no other label of the screen carries ("a task list named
// 'X'": the page's kind is chosen before OK, though the rest of the
// command is elsewhere; not "page" of "Plain page" in a dialog titled
// "New page", nor a resource-id's word). Only radio buttons: a tap never
// unsets one.
func (rs *runState) formChoice(st *daemon.PlanState, cands []candidate) (candidate, bool) {
	for _, c := range cands {
		if c.via != 0 || c.action != device.Tap || c.element < 0 || c.score < MinScore || !isRadio(screen.Describe(st.Screen, st.Elements[c.element].NodeID)) {
			continue
		}
		own := termsOf(st.Elements[c.element].Label)
		for _, t := range c.covers {
			if !slices.Contains(own, t) || !rs.literalIn([]term{t}, false) {
				continue
			}
			if !slices.ContainsFunc(st.Elements, func(e screen.Element) bool {
				return e.Label != st.Elements[c.element].Label && slices.Contains(termsOf(e.Label), t)
			}) {
				return c, true
			}
		}
	}
	return candidate{}, false
}

// confirmButton finds the button that commits a form on this screen:
// one that saves before one that sends before one that adds ("Save"
// rather than "New directory" in a save picker), the first on screen among
// equals.
func confirmButton(st *daemon.PlanState) (candidate, bool) {
	best := commitButton(st, false)
	if best < 0 {
		return candidate{}, false
	}
	return candidate{action: device.Tap, element: best, reason: fmt.Sprintf("commit the typed values with %q", st.Elements[best].Label)}, true
}

// commitDisabled reports whether the surest commit button of the screen
// is disabled ("Send" greyed out beside a message typed, whatever "Add
// member" offers): the app has not taken what was typed, or wants more,
// and nothing is sent or saved yet.
func commitDisabled(st *daemon.PlanState) bool {
	i := commitButton(st, true)
	return i >= 0 && st.Elements[i].Disabled
}

// typedLast reports whether the run's last step typed into a field and
// left the phone on this screen.
func typedLast(st *daemon.PlanState) bool {
	n := len(st.History)
	return n > 0 && st.History[n-1].Action == device.Input && st.History[n-1].OK && st.History[n-1].After == st.Print
}

// commitButton returns the index of the button of the screen that commits
// a form (confirmOrder: one that saves before one that sends before one
// that adds, the first on screen among equals), among the disabled ones
// too when asked, or -1.
func commitButton(st *daemon.PlanState, disabledToo bool) int {
	best, rank := -1, len(confirmOrder)
	for i := range st.Elements {
		e := &st.Elements[i]
		if e.Kind != screen.KindButton || e.Disabled && !disabledToo {
			continue
		}
		for r, c := range confirmOrder[:rank] {
			if slices.Contains(termsOf(e.Label+" "+e.Resource), term("@"+c)) {
				best, rank = i, r
				break
			}
		}
	}
	return best
}

// addsSomethingElse reports whether label is an "add" button (the
// weakest of the commits, confirmOrder) that names something the command
// does not: "Add person" beside a typed message adds a recipient, it
// sends nothing; "Add" or "Create" alone, or "Add contact" for "add a
// contact …", commits. Words are read one by one, each with its concepts:
// a stem ("creat") is no word of the vocabulary's.
func (rs *runState) addsSomethingElse(label string) bool {
	ts := termsOf(label)
	if slices.ContainsFunc(ts, func(t term) bool { return t == "@save" || t == "@send" }) || !slices.Contains(ts, "@add") {
		return false
	}
	said := func(t term) bool { return slices.ContainsFunc(rs.terms, func(ct cmdTerm) bool { return ct.t == t }) }
	for _, w := range strings.Fields(label) {
		wt := termsOf(w)
		if slices.Contains(wt, "@add") {
			continue // the button's own verb, however written ("Add", "New", "Create")
		}
		if slices.ContainsFunc(wt, func(t term) bool { return !strings.HasPrefix(string(t), "@") && !said(t) }) {
			return true
		}
	}
	return false
}

// confirmation reports whether the screen is a confirmation prompt drawn
// full-screen (permission prompts are), reached by the last step: one of
// its buttons positive, and a handful of buttons at most — or any number
// on a screen of another app than the command's (the system's "save as"
// picker an export or a print opens: a folder list, a name field, SAVE),
// where the command's work waits for that button.
func confirmation(st *daemon.PlanState) bool {
	n := len(st.History)
	if n == 0 || st.History[n-1].After != st.Print || st.History[n-1].Screen == st.Print {
		return false
	}
	buttons := 0
	for i := range st.Elements {
		if st.Elements[i].Kind == screen.KindButton || st.Elements[i].Kind == screen.KindCheckbox || st.Elements[i].Kind == screen.KindInput {
			buttons++
		}
	}
	c, ok := positiveButton(st)
	return ok && (buttons <= 4 || saveAs(st, c))
}

// saveAs reports whether the screen is another app's than the command's,
// with c a save button (the concept save: "Save", "OK", "Done") and one
// text field, filled in: the system's "save as" picker an export or a
// print opens (a folder list, the file's name, SAVE). A form of another
// app (a new contact: empty fields) is not one.
func saveAs(st *daemon.PlanState, c candidate) bool {
	if st.Package == "" || st.Screen.ForegroundPackage() == st.Package || !slices.Contains(termsOf(st.Elements[c.element].Label), "@save") {
		return false
	}
	fields := 0
	filled := false
	for _, e := range st.Elements {
		if e.Kind == screen.KindInput && !e.Disabled {
			fields++
			filled = e.Value != ""
		}
	}
	return fields == 1 && filled
}

// choicePending reports whether the run's last step brought up a screen
// offering a choice (two or more options: checkable, no switch or check
// box; a dialog, whether or not its window says so) with none of them
// chosen: what the command asked for is still to be picked there ("add
// kenyan holidays" stopped on the list of countries, "kenyan" covered
// only by what the whole command means), so a "done" here is unsure (the
// owner confirms it; no flow is learned without a yes).
func choicePending(st *daemon.PlanState) bool {
	n := len(st.History)
	if n == 0 || st.Screen == nil {
		return false
	}
	if h := st.History[n-1]; h.Screen == st.Print || h.After != st.Print {
		return false
	}
	options := 0
	for _, e := range st.Elements {
		nd := st.Screen.Node(e.NodeID)
		if nd == nil || !nd.Checkable || screen.IsToggleClass(nd.Class) {
			continue
		}
		if nd.Checked {
			return false
		}
		options++
	}
	return options >= 2
}

// actedHere reports whether the run changed something on the current
// screen or in a dialog it opened: a step taken since the run first came
// to this screen, not undone.
func actedHere(st *daemon.PlanState) bool {
	// a choice picked in a dialog that closed onto this screen ("Look" →
	// "Pale") changed this screen's form, though the screen is new
	if n := len(st.History); n > 0 {
		h := st.History[n-1]
		if h.Action == device.Tap && h.OK && !h.Backtracked && h.Target.Checkable && h.After == st.Print && h.Screen != st.Print {
			return true
		}
	}
	arrived := false
	for _, h := range st.History {
		arrived = arrived || h.Screen == st.Print
		if arrived && h.OK && !h.Backtracked && !h.Undo && h.Action != device.Back && h.Action != device.Scroll {
			return true
		}
	}
	return false
}

// failedHere reports whether a tap on element i of this screen was tried
// and did nothing or was taken back, with nothing done on this screen
// since: a commit that failed is not tried again on the same form, but
// is once the form changed (a value typed after it). Not penalty: its
// retriable gives a failed tap another chance only after a tap that
// changed this screen in place, and counts a value typed as no change;
// nor does a commit decided here pass through the scored candidates that
// penalty weighs.
func failedHere(st *daemon.PlanState, i int) bool {
	key := screen.Describe(st.Screen, st.Elements[i].NodeID).Key()
	failed := false
	for _, h := range st.History {
		switch {
		case h.Screen != st.Print:
		case h.Action == device.Tap && (!h.OK || h.Backtracked) && h.Target.Key() == key:
			failed = true
		case h.OK && !h.Backtracked && !h.Undo && h.Action != device.Scroll:
			failed = false
		}
	}
	return failed
}

// saveButton finds a button named save on this screen (the literal word:
// "OK" or "Done" on a full screen often only closes it).
func saveButton(st *daemon.PlanState) (candidate, bool) {
	for i := range st.Elements {
		e := &st.Elements[i]
		if e.Kind != screen.KindButton || e.Disabled || holdsSetting(st.Screen, e.NodeID) || len(strings.Fields(e.Label)) > 2 {
			// a row holding a switch, or a setting's row of many words
			// ("Save clips to · Movies"), is no save button
			continue
		}
		for _, t := range termsOf(e.Label + " " + e.Hint) { // what the owner sees: an id's "save" may name a setting's row
			if t == "save" && penalty(st, device.Tap, screen.Describe(st.Screen, e.NodeID)) == 0 {
				return candidate{action: device.Tap, element: i, reason: fmt.Sprintf("save the changes made on this screen with %q", e.Label)}, true
			}
		}
	}
	return candidate{}, false
}

// acceptChoice returns the positive button of the current screen when the
// run's last step picked an option here (a checkable element tapped,
// staying on this screen), or picked what the command names by its
// label (value.selects: a folder of a folder picker, opened; or a row
// named in plain words, rowOfCommand), and the
// screen also offers to cancel (a button of the concept close): a picker,
// full-screen or not, whose choice is kept only once accepted.
func (rs *runState) acceptChoice(st *daemon.PlanState) (candidate, bool) {
	if _, ok := rs.pickedHere(st); !ok {
		return candidate{}, false
	}
	return positiveButton(st)
}

// pickedHere returns the run's last step when it picked an option on
// st's screen, which also offers to cancel (acceptChoice's picker).
func (rs *runState) pickedHere(st *daemon.PlanState) (daemon.StepRecord, bool) {
	n := len(st.History)
	if n == 0 {
		return daemon.StepRecord{}, false
	}
	h := st.History[n-1]
	if h.Action != device.Tap || !h.OK || h.Backtracked || h.Undo || h.After != st.Print {
		return daemon.StepRecord{}, false
	}
	if !h.Target.Checkable && !rs.picked(h.Target.Label(), false) && !rs.rowOfCommand(h.Target.Label()) {
		return daemon.StepRecord{}, false
	}
	cancel := slices.ContainsFunc(st.Elements, func(e screen.Element) bool {
		return e.Kind == screen.KindButton && !e.Disabled && slices.Contains(termsOf(e.Label), "@close")
	})
	return h, cancel
}

// optionAsked returns, on a picker whose last step picked an option
// (pickedHere), a tap on a radio button of another group of the screen
// that is not chosen yet and carries a word of the command no step
// covered by its own words (runState.worded: the meaning of the whole
// command on the option picked is no choice of the other): a dialog of
// two groups keeps both choices only once accepted ("sort by date added,
// newest first": "Date added", then "Descending", then OK). A radio
// button of the picked one's own group would undo the pick; a check box
// is a setting of its own ("Only this playlist"), never picked on a word
// it shares.
func (rs *runState) optionAsked(st *daemon.PlanState) (candidate, bool) {
	h, ok := rs.pickedHere(st)
	if !ok || !isRadio(h.Target) {
		return candidate{}, false
	}
	group := -2 // the parent of the picked radio button
	for i := range st.Elements {
		if e := &st.Elements[i]; screen.Describe(st.Screen, e.NodeID).Key() == h.Target.Key() {
			if n := st.Screen.Node(e.NodeID); n != nil {
				group = n.Parent
			}
		}
	}
	if group == -2 {
		return candidate{}, false
	}
	for i := range st.Elements {
		e := &st.Elements[i]
		n := st.Screen.Node(e.NodeID)
		if e.Checked || e.Disabled || n == nil || n.Parent == group || !isRadio(screen.Describe(st.Screen, e.NodeID)) {
			continue
		}
		ts := termsOf(e.Label)
		for _, ct := range rs.terms {
			if !ct.nav && !rs.worded[ct.t] && !rs.appWords[ct.t] && slices.Contains(ts, ct.t) {
				return candidate{action: device.Tap, element: i, covers: []term{ct.t}, reason: fmt.Sprintf("pick %q too, as the command asks, before accepting", e.Label)}, true
			}
		}
	}
	return candidate{}, false
}

// optionBeforeAccept returns, on a dialog about to be accepted, a tap on
// one of its options (a radio button) not chosen yet whose label carries
// a word of the command no step covered ("Name" of "sort the folders by
// name in descending order", the order already reached on the way): a
// choice the dialog keeps only once accepted, which accepting first would
// drop. Not in a group whose chosen option the command names already
// ("Manual order" beside a chosen "Due date" for "… by due date, in
// order"): that would undo the choice. A check box is a
// setting of its own, never ticked on a word it shares (optionAsked).
func (rs *runState) optionBeforeAccept(st *daemon.PlanState) (candidate, bool) {
	own := rs.ownTerms()
	asked := func(t term, covered bool) bool { return own[t] && (covered || !rs.covered[t]) }
	chosen := map[int]bool{} // groups whose chosen option the command names
	for i := range st.Elements {
		if e := &st.Elements[i]; e.Checked && isRadio(screen.Describe(st.Screen, e.NodeID)) && slices.ContainsFunc(termsOf(e.Label), func(t term) bool { return asked(t, true) }) {
			if n := st.Screen.Node(e.NodeID); n != nil {
				chosen[n.Parent] = true
			}
		}
	}
	for i := range st.Elements {
		e := &st.Elements[i]
		d := screen.Describe(st.Screen, e.NodeID)
		n := st.Screen.Node(e.NodeID)
		if e.Checked || e.Disabled || !isRadio(d) || n == nil || chosen[n.Parent] || penalty(st, device.Tap, d) > 0 {
			continue
		}
		for _, t := range termsOf(e.Label) {
			if asked(t, false) {
				return candidate{action: device.Tap, element: i, covers: []term{t}, reason: fmt.Sprintf("pick %q, as the command asks, before accepting", e.Label)}, true
			}
		}
	}
	return candidate{}, false
}

// rowOfCommand reports whether label is a row whose name (screen.RowName:
// its first text, or the first after a count) is made of words of the
// command only ("Scans · 6 items" for "… into the scans folder"): a row
// the command names in plain words.
func (rs *runState) rowOfCommand(label string) bool {
	if !strings.Contains(label, screen.RowTextSep) {
		return false
	}
	ts := termsOf(screen.RowName(label))
	return len(ts) > 0 && !slices.ContainsFunc(ts, func(t term) bool {
		return !slices.ContainsFunc(rs.terms, func(ct cmdTerm) bool { return ct.t == t && !ct.nav })
	})
}

// positiveWords label the button that accepts a dialog (generic UI
// vocabulary).
var positiveWords = []string{"ok", "okay", "yes", "allow", "save", "done", "apply", "confirm", "continue", "accept", "set", "delete", "remove", "add", "create"}

// positiveButton finds the button that accepts the dialog on screen.
func positiveButton(st *daemon.PlanState) (candidate, bool) {
	for _, w := range positiveWords {
		for i := range st.Elements {
			e := &st.Elements[i]
			if e.Kind == screen.KindButton && !e.Disabled && strings.EqualFold(strings.TrimSpace(e.Label), w) {
				if penalty(st, device.Tap, screen.Describe(st.Screen, e.NodeID)) > 0 {
					continue
				}
				return candidate{action: device.Tap, element: i, reason: fmt.Sprintf("accept the dialog with %q", e.Label)}, true
			}
		}
	}
	return candidate{}, false
}

// acknowledgements: the labels (lower case) of a notice's one button,
// the platform's convention for a dialog that only informs.
var acknowledgements = []string{"ok", "okay", "got it", "close", "dismiss"}

// notice returns a tap on the one button of a dialog that only informs
// (a message and "OK": "make sure the alarm works before relying on it"),
// which the last step opened: acknowledging it returns to the app, where
// the command's work ends. A dialog with another control (a second
// button, a check box, a field) or a button of another word asks
// something, and is not one.
func notice(st *daemon.PlanState) (candidate, bool) {
	n := len(st.History)
	if n == 0 || st.History[n-1].After != st.Print || st.History[n-1].Screen == st.Print || !daemon.IsDialog(st.Screen) {
		return candidate{}, false
	}
	button, message := -1, false
	for i := range st.Elements {
		e := &st.Elements[i]
		switch e.Kind {
		case screen.KindText:
			message = message || len(strings.Fields(e.Label)) >= 4
		case screen.KindScroll: // the message's container, no control
		default:
			if button >= 0 || e.Kind != screen.KindButton || e.Disabled {
				return candidate{}, false
			}
			button = i
		}
	}
	if button < 0 || !message || !slices.Contains(acknowledgements, strings.ToLower(strings.TrimSpace(st.Elements[button].Label))) {
		return candidate{}, false
	}
	if penalty(st, device.Tap, screen.Describe(st.Screen, st.Elements[button].NodeID)) > 0 {
		return candidate{}, false
	}
	return candidate{action: device.Tap, element: button, reason: fmt.Sprintf("acknowledge the notice with %q", st.Elements[button].Label)}, true
}

func isConfirm(label string) bool {
	return slices.ContainsFunc(termsOf(label), func(t term) bool {
		c, ok := strings.CutPrefix(string(t), "@")
		return ok && slices.Contains(confirmOrder, c)
	})
}

// deletionDone ends the command once the deletion it asks for was
// confirmed in its dialog (runState.deleteConfirmed), no value is
// pending and every action its clauses ask for is covered
// (runState.verbsDone): what it deleted is gone, and its other words
// described it ("delete Sam's message records" opens no recorder).
func (rs *runState) deletionDone(weights map[term]float64, pending int) (daemon.Decision, bool) {
	if !rs.deleteConfirmed || pending > 0 || !rs.verbsDone() {
		return daemon.Decision{}, false
	}
	remaining := rs.remaining(weights)
	return daemon.Decision{Action: daemon.ActDone, Element: -1, Confidence: confidence(remaining, rs), Unsure: rs.unsure(remaining, weights),
		Reason: "the deletion the command asks for is confirmed"}, true
}

// formRow returns, before a form is committed, a tap on an element of the
// form (no switch or check box) whose own label carries a word of the
// command no step covered, as written or by its meaning (meantBy: "No
// recurrence" for "repeating", a row then scored down to half the bar),
// when the UI graph records that its tap offers another such word (a
// "Never repeats" row whose dialog offers "Fortnightly" for "… repeating
// fortnightly, and save it"): the rest of the command is done from the
// form, and its commit comes after.
func (rs *runState) formRow(st *daemon.PlanState, g *appGraph, cands []candidate) (candidate, bool) {
	for _, c := range cands {
		if c.via != 0 || c.action != device.Tap || c.element < 0 || c.score < MinScore/2 {
			continue
		}
		el := &st.Elements[c.element]
		d := screen.Describe(st.Screen, el.NodeID)
		if d.Checkable {
			continue
		}
		if c.score < MinScore && !slices.ContainsFunc(c.covers, func(t term) bool { return rs.meantBy(d, t) }) {
			continue // a row covering a word by its meaning alone is scored down; what its tap offers vouches for it
		}
		own := termsOf(el.Label)
		if !slices.ContainsFunc(c.covers, func(t term) bool {
			return (slices.Contains(own, t) && rs.literalIn([]term{t}, false) || rs.meantBy(d, t)) && !rs.commitOnly([]term{t})
		}) {
			continue
		}
		next := g.offeredAfter(semText(el.Label, el.Resource))
		for _, ct := range rs.terms {
			if !ct.nav && !rs.covered[ct.t] && next[ct.t] && !slices.Contains(c.covers, ct.t) && !rs.commitOnly([]term{ct.t}) {
				return c, true
			}
		}
	}
	return candidate{}, false
}

// meantBy reports whether the command's word t (a term as written, no
// concept) is covered by the meaning of d's own text — the word's
// embedding near it (semantic.go: "repeating" by "Never recurs") — not
// only as part of the text meaning the whole command (semWhole).
func (rs *runState) meantBy(d screen.Descriptor, t term) bool {
	k := d.Key()
	return !strings.HasPrefix(string(t), "@") && slices.Contains(rs.semCovers[k], t) && !slices.Contains(rs.semWhole[k], t)
}

// Folding steps: what the steps taken so far (the planner's own, a replay's,
// a route check's walk) have covered of the command, done of its values
// and opened, for completion (completion.go) to judge.

package graphplan

import (
	"regexp"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// fold updates coverage from the steps taken since the last call.
func (p *Planner) fold(rs *runState, st *daemon.PlanState) {
	for ; rs.seen < len(st.History); rs.seen++ {
		h := st.History[rs.seen]
		if h.Backtracked || h.Undo || !h.OK {
			if rs.commitAt == rs.seen+1 {
				rs.committed, rs.commitAt = false, 0
			}
			continue
		}
		before := rs.progress()
		rs.foldStep(h)
		if rs.progress() > before {
			rs.stale = 0
		} else {
			rs.stale++
		}
	}
}

// commit notes that the step being decided commits the form: the next
// entry of the history, once it comes (fold undoes it if that step did
// nothing).
func (rs *runState) commit() { rs.committed, rs.commitAt = true, rs.seen+1 }

// progress counts what the command asked that the steps have done: its
// terms covered (not navigation words) and its values typed or picked.
func (rs *runState) progress() int {
	n := rs.typed + rs.keys
	for _, ct := range rs.terms {
		if !ct.nav && rs.covered[ct.t] {
			n++
		}
	}
	for _, v := range rs.values {
		if v.done {
			n++
		}
	}
	return n
}

// foldStep updates coverage from one step taken.
func (rs *runState) foldStep(h daemon.StepRecord) {
	defer rs.coverPhrases()
	switch h.Action {
	case device.Input:
		// the field typed into is part of what the command asked
		// ("search …" is done by typing into Search), by its descriptor
		// and by the label the step read on it (h.Label: the placeholder
		// an empty field shows, the label beside it), which is all that
		// says what a field is for where its resource-id has no words
		field := termsOf(h.Target.Label() + " " + h.Target.Desc + " " + h.Target.Hint + " " + h.Target.ResourceID + " " + h.Label)
		for i := range rs.values {
			if v := rs.values[i]; !v.done && (strings.EqualFold(v.text, h.Text) || v.file && sameName(h.Text, v.text, true) || rs.values[i].typedPart(h.Text)) {
				rs.values[i].done, rs.values[i].typed = true, true
				rs.typed++
				if v.query {
					for _, t := range termsOf(v.text) {
						rs.covered[t] = true
					}
				}
				if !slices.Contains(field, "@search") {
					// typed to search, it names what to find: the words
					// before it are done once that is opened (openedResult)
					rs.coverDescribing(v)
				}
				if v.names {
					// a new name or value typed is the change the command
					// asks ("rename … to chores"): its verb is done
					rs.coverEdit()
				}
				break
			}
		}
		for i := range rs.values {
			// a value the field held before (its label: an input's own
			// text) named what was changed ("rename 'Ledger' to 'chores'"
			// typed over "Ledger"); nothing is left to do with it
			if !rs.values[i].done && strings.EqualFold(strings.TrimSpace(rs.values[i].text), strings.TrimSpace(h.Label)) {
				rs.values[i].done = true
			}
		}
		for _, t := range field {
			rs.covered[t], rs.worded[t] = true, true
			if t == "@search" && h.Text != "" {
				rs.searched = h.Text
			}
		}
	case device.Tap, device.LongPress, daemon.ActEnsureOn, daemon.ActEnsureOff:
		if h.Target.InList && !rs.names(h.Target.Label()) {
			rs.pickedRow = true
			// a row of the screen's content, not of a popup menu
			rs.pickedItem = rs.pickedItem || h.Where != nil && !h.Where.Dialog
		}
		if h.Action == device.Tap && rs.keypadAt[h.Screen] {
			rs.foldKey(h.Target.Label())
		}
		if h.Action == device.Tap && rs.searched != "" && !rs.resultOpened && !h.Target.Editable && containsFold(h.Label, rs.searched) {
			// a row showing what was searched for was opened (openResult),
			// whoever chose it (a path step, a replayed step, a route
			// check's walk: daemon/routecheck.go), with a verb after the
			// search or none ("find chats with Dora")
			rs.openedResult()
		}
		for _, t := range targetTerms(h.Target) {
			rs.covered[t], rs.worded[t] = true, true
		}
		if h.Action == device.Tap && h.Target.InList {
			// a row the command names as written, unquoted ("open the
			// Ledgers folder"): the word after the name says what it is
			if name := screen.RowName(h.Target.Label()); name != "" {
				if at, end, ok := wordSpanFold(rs.cmd, name); ok {
					rs.coverOpening(value{at: at, text: rs.cmd[at:end]})
				}
			}
		}
		for _, t := range rs.semCovers[h.Target.Key()] {
			rs.covered[t] = true
			// a word the target means by itself, not only as part of
			// what the whole command means
			rs.worded[t] = rs.worded[t] || !slices.Contains(rs.semWhole[h.Target.Key()], t)
		}
		rs.coverAliases(targetTerms(h.Target))
		if h.Action == device.Tap && slices.Contains(targetTerms(h.Target), "@add") {
			rs.created = true
		}
		if isToggle(h.Target) {
			rs.toggled = true
			// a toggle is the add / remove, on / off or change the
			// command asks for ("add Dora to starred" → "Toggle star",
			// "adjust the text size to large" → the "Large" option); a radio
			// button picks one value among others and deletes nothing
			// ("Compact list" is no "delete all …")
			for _, ct := range rs.terms {
				if (isSetVerb(ct.t) || ct.t == "@edit" || rs.switchVerb(ct.t)) && !(isRadio(h.Target) && slices.Contains(termsOf(strings.TrimPrefix(string(ct.t), "@")), "@delete")) {
					rs.covered[ct.t], rs.worded[ct.t] = true, true
				}
			}
		}
		for i := range rs.values {
			if !rs.values[i].done && (containsValue(h.Target.Label(), rs.values[i].text) || answeredAbout(h, rs.values[i].text)) {
				rs.values[i].done = true
				if h.Action == device.Tap && h.Target.InList {
					rs.coverOpening(rs.values[i])
				}
			}
		}
		if isToggle(h.Target) && h.Where != nil && h.Where.Dialog {
			rs.pickedInDialog = true
		}
		if (rs.typed > 0 || rs.pickedInDialog) && isConfirm(h.Target.Label()) {
			// a form's values, or a dialog's option, confirmed
			rs.committed = true
		}
	}
}

// openedResult notes that a result of the search was opened: what the
// command asks after the search is done, so are the words before the
// searched value that say what it is, and the text typed to search is
// no value waiting to be committed.
func (rs *runState) openedResult() {
	rs.resultOpened, rs.searchTyped = true, rs.typed
	for _, t := range rs.afterSearch {
		rs.covered[t] = true
	}
	for _, v := range rs.values {
		if strings.EqualFold(v.text, rs.searched) {
			// the words naming what the value is ("the tune 'Evening'"):
			// the result opened is that thing
			for _, t := range v.context {
				rs.covered[t] = true
			}
		}
	}
}

// coverDescribing covers the terms of the word right before value v when
// it is no action ("type '1234'", "write 'milk'"): typing v did what it
// says. Words further before it may name something still to choose ("a
// checklist note called 'Ledger'"), and an action ("send 'hi'") is still
// to do.
func (rs *runState) coverDescribing(v value) {
	if v.at <= 0 || v.at > len(rs.cmd) {
		return
	}
	w := wordBefore(rs.cmd, v.at)
	if w == "" || intent.ActionWord(w) {
		return
	}
	for _, t := range termsOf(w) {
		if slices.Contains(v.context, t) {
			rs.covered[t] = true
		}
	}
}

// openingVerbs are the actions a tap on a list's row does to the item it
// shows: it opens it, or plays it.
var openingVerbs = []term{"@open", "@play"}

// coverOpening covers the terms just before value v (value.context) that
// name what v is or say to open or play it ("play the song 'Evening'"),
// and the word right after it naming what it is ("the 'Ledgers' folder"):
// the tap on the row showing v opened that very thing, and another tap
// (a "Pause" button) would undo it. Another action the words ask for
// ("delete the note 'Ledger'") is still to do.
func (rs *runState) coverOpening(v value) {
	if end := v.at + len(v.text); v.at >= 0 && end <= len(rs.cmd) {
		if w := wordAfter(rs.cmd, end); w != "" && !intent.IsStopword(w) && !intent.ActionWord(w) {
			for _, t := range termsOf(w) {
				rs.covered[t] = true
			}
		}
	}
	for _, t := range v.context {
		verbs := []term{t}
		if !strings.HasPrefix(string(t), "@") {
			verbs = termsOf(string(t))
		}
		opens := slices.ContainsFunc(verbs, func(c term) bool { return slices.Contains(openingVerbs, c) })
		if opens || !intent.ActionWord(strings.TrimPrefix(string(t), "@")) {
			rs.covered[t] = true
		}
	}
}

// coverPhrases covers the words of an object phrase of the command whose
// concept a step covered ("Descending" covers "newest first"): the
// phrase's words mean the concept together, not each its own thing.
func (rs *runState) coverPhrases() {
	for t, c := range rs.phraseOf {
		if rs.covered[c] {
			rs.covered[t] = true
			rs.worded[t] = rs.worded[t] || rs.worded[c]
		}
	}
}

// coverEdit covers the command's change verb, the concept edit and the
// words that mean it ("rename", "change"): a new value typed made the
// change.
func (rs *runState) coverEdit() {
	for _, ct := range rs.terms {
		if ct.t == "@edit" || !strings.HasPrefix(string(ct.t), "@") && slices.Contains(termsOf(rs.words[ct.t]), "@edit") {
			rs.covered[ct.t], rs.worded[ct.t] = true, true
		}
	}
}

// wordSpanFold returns the byte span [start, end) of cmd where name
// occurs as whole words, case folded; ok false when it does not.
func wordSpanFold(cmd, name string) (start, end int, ok bool) {
	name = strings.TrimSpace(name)
	if name == "" {
		return 0, 0, false
	}
	loc := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(name) + `\b`).FindStringIndex(cmd)
	if loc == nil {
		return 0, 0, false
	}
	return loc[0], loc[1], true
}

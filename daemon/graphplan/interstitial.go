package graphplan

// A dialog nobody asked for ("What's new", "Enjoying the app?") that an
// app puts before the screen a step leads to: it is closed with its
// button that puts it off, and the run goes on on the screen behind it as
// if the dialog had not been there (withoutPutOffs).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// putOffWords label the button that closes a dialog without doing what it
// offers (generic UI vocabulary, lower case), in order of preference. "OK"
// closes one only when it is its one button: beside another it agrees to
// something. "Cancel" and "No" are not among them: they answer a question
// the run's own step may have asked.
var putOffWords = []string{"not now", "later", "maybe later", "remind me later", "no thanks", "no, thanks", "skip", "got it", "dismiss", "close"}

// interstitial returns a tap on the button that puts off a dialog the
// command did not ask for, when the last step led to one (or the run
// starts on one): no field, check box or option to set in it, no button
// carrying a word of the command (literal, no navigation word, not the
// app's name) or one of its values, and its texts showing less than half
// of the command's words. "Rate the app" taps the dialog's "Rate", not its
// "Not now"; a dialog the command's own step opened ("Delete 3 memos?")
// has no button that only puts it off. The same dialog may come back
// before the same screen, and is put off again; a tap the run undid, or
// that did nothing (daemon.PlanState.Penalties), is not made again.
func (rs *runState) interstitial(st *daemon.PlanState) (candidate, bool) {
	if st.Screen == nil || !daemon.IsDialog(st.Screen) {
		return candidate{}, false
	}
	if n := len(st.History); n > 0 && (st.History[n-1].After != st.Print || st.History[n-1].Screen == st.Print) {
		return candidate{}, false
	}
	own := rs.ownTerms()
	shown := map[term]bool{}
	var buttons []int
	for i := range st.Elements {
		e := &st.Elements[i]
		switch {
		case e.Kind == screen.KindInput || e.Kind == screen.KindCheckbox || screen.Describe(st.Screen, e.NodeID).Checkable:
			return candidate{}, false // it asks for something
		case slices.ContainsFunc(rs.values, func(v value) bool { return containsValue(e.Label, v.text) }):
			return candidate{}, false
		}
		for _, t := range elementTerms(e, "") {
			if own[t] {
				if e.Kind == screen.KindButton {
					return candidate{}, false // it offers what the command asks
				}
				shown[t] = true
			}
		}
		if e.Kind == screen.KindButton && !e.Disabled {
			buttons = append(buttons, i)
		}
	}
	if len(own) > 0 && 2*len(shown) >= len(own) {
		return candidate{}, false // it is about what the command asks
	}
	words := putOffWords
	if len(buttons) == 1 {
		words = append(slices.Clone(putOffWords), "ok", "okay")
	}
	for _, w := range words {
		for _, i := range buttons {
			e := &st.Elements[i]
			if !strings.EqualFold(strings.TrimSpace(e.Label), w) || st.Penalties[daemon.OperationKey(st.Print, device.Tap, screen.Describe(st.Screen, e.NodeID))] > 0 {
				continue
			}
			return candidate{action: device.Tap, element: i, reason: fmt.Sprintf("close a dialog the command did not ask for with %q", e.Label)}, true
		}
	}
	return candidate{}, false
}

// withoutPutOffs returns st as the run's rules read it: the steps that put
// off a dialog nobody asked for (runState.putOff, by history index) left
// out, the step before each leading where the dismissal led. Such a
// dialog is no part of the command's route: the step that brought it up
// picked an option, opened a print screen or a form, and the rules that
// look at the last step ("accept the dialog the last step picked in",
// "save the form the last step changed") look at that one. st itself is
// not changed; without any put-off step it is returned as is.
func (rs *runState) withoutPutOffs(st *daemon.PlanState) *daemon.PlanState {
	if len(rs.putOff) == 0 {
		return st
	}
	var hist []daemon.StepRecord
	for i, h := range st.History {
		if rs.putOff[i] && h.OK && !h.Backtracked && !h.Undo {
			if n := len(hist); n > 0 && hist[n-1].After == h.Screen {
				hist[n-1].After = h.After
			}
			continue
		}
		hist = append(hist, h)
	}
	if len(hist) == len(st.History) {
		return st
	}
	c := *st
	c.History = hist
	return &c
}

// Beyond the known paths: where the UI graph holds the command's words on
// a screen no recorded path reaches (a settings screen, a popup menu, a
// dialog of choices, a keypad), the element here that most likely opens
// it: the settings or overflow button, the current choice, the element
// named as the screen's activity.

package graphplan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// unreachable returns what the graph holds on the screens no known path
// reaches from start (dist) that the command's words match (farTargets):
// the best element, whether its screen is of a settings activity (its
// name says settings: the platform's convention), a popup (a dialog or
// menu) of start's activity, and a popup menu there (a popup with nothing
// to tick: not a dialog of choices, which a button of its own opens); and
// the best option of a dialog labelled with a word of the command
// (showsChoiceOf). The graph knows where the command's words are but not
// the way there.
func (g *appGraph) unreachable(rs *runState, start int64, dist map[int64]float64, sem *semStep, w map[term]float64) farTargets {
	var far farTargets
	for _, scr := range g.ids { // in order: map order must not decide ties
		if _, ok := dist[scr]; ok {
			continue
		}
		for _, e := range g.onScr[scr] {
			sc, _ := g.matchTarget(rs, e, sem, w)
			if sc > far.optionScore && e.Descriptor.Checkable && g.dialog[scr] && rs.literalIn(termsOf(e.Descriptor.Label()), false) {
				far.optionScore, far.optionScreen, far.optionLabel = sc, scr, e.Descriptor.Label()
			}
			if sc > far.score {
				far.score, far.label, far.settings = sc, e.Descriptor.Label(), strings.Contains(strings.ToLower(g.act[scr]), "setting")
				far.here = g.dialog[scr] && g.act[scr] != "" && g.act[scr] == g.act[start]
				far.menu = far.here && !slices.ContainsFunc(g.onScr[scr], func(o *knowledge.Element) bool { return o.Descriptor.Checkable })
			}
		}
	}
	return far
}

// showsChoiceOf returns a tap on the element of the screen labelled as
// another option of dialog scr (a check box or radio button there) than
// want, the one the command names: a spinner or a breadcrumb showing the
// current choice opens the list of the others ("Near" opens Near /
// Far). An element the command names is not the current choice but
// what it asks for (a tab "Starred" for "show my starred"), and so
// is one the run tapped already, or an item of a list (a tab of a bar:
// the tabs are the options of a dialog that shows or hides them).
func (g *appGraph) showsChoiceOf(rs *runState, st *daemon.PlanState, scr int64, want string) (candidate, bool) {
	opts := map[string]bool{}
	for _, e := range g.onScr[scr] {
		if e.Descriptor.Checkable {
			if l := strings.ToLower(strings.TrimSpace(e.Descriptor.Label())); l != "" {
				opts[l] = true
			}
		}
	}
	delete(opts, strings.ToLower(strings.TrimSpace(want)))
	for _, h := range st.History { // a tab the run went to is where it is, not a choice to open
		delete(opts, strings.ToLower(strings.TrimSpace(h.Target.Label())))
	}
	for i := range st.Elements {
		e := &st.Elements[i]
		if opts[strings.ToLower(strings.TrimSpace(e.Label))] && e.Kind != screen.KindInput && e.Kind != screen.KindCheckbox && !e.Disabled && !rs.names(e.Label) &&
			!screen.Describe(st.Screen, e.NodeID).InList {
			return candidate{action: device.Tap, element: i, reason: fmt.Sprintf("%q shows a choice of the dialog that holds the command's words", e.Label)}, true
		}
	}
	return candidate{}, false
}

// keypadActivity returns the activity of the first keypad screen of the
// graph (keypad.go) that has one, or "": a number to key goes there.
func (g *appGraph) keypadActivity() string {
	for _, scr := range g.ids {
		if g.keypad(scr) && g.act[scr] != "" {
			return g.act[scr]
		}
	}
	return ""
}

// overflowOn returns a tap on the screen's overflow menu button
// (overflowMenu), if it has one worth a try (explorable).
func overflowOn(st *daemon.PlanState) (candidate, bool) {
	for i := range st.Elements {
		if e := &st.Elements[i]; overflowMenu(e) && explorable(st, e) {
			return candidate{action: device.Tap, element: i, reason: fmt.Sprintf("the command's words are on a popup of this screen no known path opens: %q", e.Label)}, true
		}
	}
	return candidate{}, false
}

// namedAsActivity returns a tap on the element of the screen named as
// activity act is ("Touch tones" for "….TouchTonesActivity": every word of the
// class name but "activity"), when it is worth a try (explorable) and the
// screen is not of that activity already.
func namedAsActivity(st *daemon.PlanState, act string) (candidate, bool) {
	if st.Screen == nil || st.Screen.Activity == act {
		return candidate{}, false
	}
	name := strings.TrimSuffix(act[strings.LastIndexAny(act, "./")+1:], "Activity")
	var want []term
	for _, t := range termsOf(splitIdentifier(name)) {
		if !strings.HasPrefix(string(t), "@") {
			want = append(want, t)
		}
	}
	if len(want) == 0 {
		return candidate{}, false
	}
	for i := range st.Elements {
		e := &st.Elements[i]
		if got := termsOf(e.Label); explorable(st, e) && !slices.ContainsFunc(want, func(t term) bool { return !slices.Contains(got, t) }) {
			return candidate{action: device.Tap, element: i, reason: fmt.Sprintf("%q is named as the screen the command needs (%s)", e.Label, name)}, true
		}
	}
	return candidate{}, false
}

// opensHere reports whether an element of the screen carries the first
// word of rs.far.label, the item of a popup menu the graph knows no way
// to: that element, not the overflow menu, is what opens it ("Crop"
// for "Crop to square").
func (rs *runState) opensHere(st *daemon.PlanState) bool {
	words := strings.Fields(rs.far.label)
	if len(words) == 0 {
		return false
	}
	ts := termsOf(words[0])
	return len(ts) > 0 && slices.ContainsFunc(st.Elements, func(e screen.Element) bool { return slices.Contains(termsOf(e.Label), ts[0]) })
}

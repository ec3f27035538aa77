// Exploration: when nothing on the screen or in the known UI graph
// matches the command, try the elements whose effect the graph does not
// know, and come back when they lead nowhere useful.

package graphplan

import (
	"fmt"
	"slices"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/safety"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// MaxExplores is how many elements of unknown effect one run may try
// (explore): taps that led somewhere; one that changed nothing costs
// nothing. The run's MaxStale ends it sooner when nothing it asks is
// done.
const MaxExplores = 4

// MaxExploreDepth is how many exploratory taps may follow one another
// before the run goes back: a menu button, then an item of the menu.
const MaxExploreDepth = 2

// exploration is a run's record of its exploratory taps (explore).
type exploration struct {
	origin string          // the screen the first try was taken on
	depth  int             // tries taken since the run was last on origin
	taken  int             // tries that led somewhere
	last   string          // the key of the last try, until its effect is seen
	from   string          // the screen the last try was taken on
	tried  map[string]bool // tries taken, by elementKey
	// leadsTo: where a try led; untried: per screen, how many elements
	// worth a try it still has
	leadsTo map[string]string
	untried map[string]int
}

// elementKey names element e of screen print for exploration.
func elementKey(print string, e *screen.Element) string {
	return print + "\x00" + e.Label + "\x00" + e.Resource
}

// explore returns the step to take when no candidate is relevant and
// nothing the command asks was done yet, or the run is about to give up
// on what is left of it. It is AutoTask's trial and error
// (Pan, Wang et al., §3: forward exploration, then backtracking, §4.4)
// without a model to choose: the app's knowledge is partial, and the way to an option nobody recorded is most
// often behind a button nobody tapped. In order: a tap on an element of
// this screen whose effect is unknown (no transition of the UI graph
// starts from it, and the run has not tried it); a tap that opens again
// a menu the run explored and that still has items to try; a tap into a
// menu of the UI graph with an item whose effect is unknown; else, away
// from the screen exploration began on, a back press. Only elements no
// sensitive-action category applies to (safety.Classify) are tried,
// never one that creates something, edits a field or flips a setting, nor
// a row of the app's content; the first in reading order first (toolbar
// and menu buttons come before a screen's content); none outside the
// app. With menusOnly, the only elements tried are the screen's menus of
// unknown effect (overflowMenu): what they show is then scored like any
// screen. ok is false when there is nothing to try or go back from.
func (p *Planner) explore(rs *runState, st *daemon.PlanState, g *appGraph, menusOnly bool) (daemon.Decision, bool) {
	x := &rs.explore
	if x.tried == nil {
		x.tried, x.leadsTo, x.untried, x.origin = map[string]bool{}, map[string]string{}, map[string]int{}, st.Print
	}
	if x.last != "" {
		if to := st.Print; to != x.from {
			x.leadsTo[x.last] = to
			x.taken++
		} else {
			x.depth-- // it did not leave the screen
		}
		x.last = ""
	}
	if st.Print == x.origin {
		x.depth = 0
	}
	inApp := st.Package == "" || st.Screen.ForegroundPackage() == "" || st.Screen.ForegroundPackage() == st.Package
	// try: elements of unknown effect; reopen: tried ones that opened a
	// menu with items left to try; menu: those the graph knows open one
	var try, reopen, menu []int
	if inApp && !choices(st) {
		known := knownHere(g, st)
		content := listItems(st)
		for i := range st.Elements {
			e := &st.Elements[i]
			if content[e.Resource] || !explorable(st, e) {
				continue
			}
			k := elementKey(st.Print, e)
			to, isKnown := known[i]
			switch {
			case x.tried[k]:
				if t, ok := x.leadsTo[k]; ok && x.untried[t] > 0 {
					reopen = append(reopen, i)
				}
			case !isKnown && (!menusOnly || overflowMenu(e)):
				try = append(try, i)
			case g.unexploredMenu(to):
				menu = append(menu, i)
			}
		}
	}
	x.untried[st.Print] = len(try)
	if x.depth < MaxExploreDepth && x.taken < MaxExplores {
		lists := [][]int{try, reopen, menu}
		if menusOnly {
			lists = lists[:1]
		}
		for pass, list := range lists {
			if len(list) == 0 {
				continue
			}
			if pass == 0 {
				x.untried[st.Print]-- // this one is tried now
			}
			e := &st.Elements[list[0]]
			k := elementKey(st.Print, e)
			x.tried[k] = true
			x.last, x.from = k, st.Print
			x.depth++
			return daemon.Decision{Action: device.Tap, Element: list[0], Confidence: 0.2,
				Reason: fmt.Sprintf("nothing known matches the command; trying %q to see where it leads", e.Label)}, true
		}
	}
	if st.Print != x.origin && x.depth > 0 {
		x.depth--
		return daemon.Decision{Action: device.Back, Element: -1, Confidence: 0.2,
			Reason: "what the last try opened holds nothing the command asks; going back"}, true
	}
	return daemon.Decision{}, false
}

// overflowMenu reports whether e opens a screen's menu of further
// operations ("More options", "⋮", "Menu"): its label carries the
// concept settings but is no settings screen's name ("Settings").
func overflowMenu(e *screen.Element) bool {
	ts := termsOf(e.Label)
	return slices.Contains(ts, "@settings") && !slices.Contains(ts, "set") && !slices.Contains(ts, "setting")
}

// moved reports whether the run's last step took effect and changed the
// screen.
func moved(st *daemon.PlanState) bool {
	n := len(st.History)
	return n > 0 && st.History[n-1].OK && !st.History[n-1].Backtracked && st.History[n-1].After != st.History[n-1].Screen && st.History[n-1].After == st.Print
}

// explorable reports whether e may be tapped to see where it leads: a
// button with a name, enabled, no text field or setting (a switch, check
// box or radio button would change something), no key of a keypad (it
// enters a digit), no element that creates something ("New note", the
// concept add) or that the sensitive-action policy puts in any category
// (delete, send, pay, …).
func explorable(st *daemon.PlanState, e *screen.Element) bool {
	if e.Kind != screen.KindButton || e.Disabled || e.Label == "" || e.Password {
		return false
	}
	if holdsSetting(st.Screen, e.NodeID) {
		return false
	}
	if slices.Contains(termsOf(e.Label), "@add") {
		return false
	}
	if keypadKeyOn(st, e) {
		return false // a keypad's key enters a digit
	}
	d := screen.Describe(st.Screen, e.NodeID)
	if penalty(st, device.Tap, d) > 0 && !slices.ContainsFunc(st.History, func(h daemon.StepRecord) bool { return h.Target.Key() == d.Key() && h.OK }) {
		return false
	}
	return len(safety.Classify(safety.Target{Action: device.Tap, Label: e.Label, ResourceID: e.Resource}).Categories) == 0
}

// knownHere maps the elements of the current screen a known transition
// of the UI graph starts from to the screen it leads to: what is there
// is known, and the graph's candidates already weighed it.
func knownHere(g *appGraph, st *daemon.PlanState) map[int]int64 {
	out := map[int]int64{}
	start, ok := g.byPrint[st.Print]
	if !ok {
		return out
	}
	for _, ed := range g.out[start] {
		ke := g.elems[ed.element]
		if ke == nil || ed.action != device.Tap {
			continue
		}
		if m, ok := screen.Ground(st.Screen, ke.Descriptor); ok {
			if idx := daemon.ElementIndex(st.Screen, st.Elements, m.NodeID); idx >= 0 {
				out[idx] = ed.to
			}
		}
	}
	return out
}

// holdsSetting reports whether node id or a node under it is a text
// field or a setting (checkable, or of a toggle class): tapping it would
// change something rather than lead somewhere.
func holdsSetting(s *screen.Snapshot, id int) bool {
	if s.Node(id) == nil {
		return true
	}
	found := false
	s.Walk(id, func(n *screen.Node, _ int) bool {
		found = found || n.Checkable || n.Editable || screen.IsToggleClass(n.Class)
		return !found
	})
	return found
}

// choices reports whether the screen is a dialog offering a choice (a
// node of it is checkable): a tap on any of its rows picks a value.
func choices(st *daemon.PlanState) bool {
	if !daemon.IsDialog(st.Screen) {
		return false
	}
	for i := range st.Screen.Nodes {
		if st.Screen.Nodes[i].Checkable {
			return true
		}
	}
	return false
}

// listItems returns the resource-ids that three or more elements of the
// screen share, unless it is a dialog: the rows of a list of the app's
// content (files, contacts, notes), which open an item rather than a
// feature. A popup menu's items share one too, and are kept.
func listItems(st *daemon.PlanState) map[string]bool {
	out := map[string]bool{}
	if daemon.IsDialog(st.Screen) {
		return out
	}
	n := map[string]int{}
	for i := range st.Elements {
		if r := st.Elements[i].Resource; r != "" {
			n[r]++
			if n[r] >= 3 {
				out[r] = true
			}
		}
	}
	return out
}

// unexploredMenu reports whether screen id of the graph is a dialog or
// popup menu with an item no known transition starts from: a menu is
// where an app keeps the features its screens do not show.
func (g *appGraph) unexploredMenu(id int64) bool {
	if !g.dialog[id] {
		return false
	}
	from := map[int64]bool{}
	for _, ed := range g.out[id] {
		from[ed.element] = true
	}
	for _, e := range g.onScr[id] {
		d := e.Descriptor
		if !from[e.ID] && d.Label() != "" && !d.Checkable && !d.Editable {
			return true
		}
	}
	return false
}

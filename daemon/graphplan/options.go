// Options of a single choice (radio buttons, a choice list's checked
// texts): which of them the planner passes over.

package graphplan

import (
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// anotherOptionNamed reports whether candidate c taps, now, an option (a
// checkable element) the command does not name while it names every word
// of another option on this screen: "sort the scans newest first" never
// taps "Oldest first", whatever else it shares with the command.
func (rs *runState) anotherOptionNamed(st *daemon.PlanState, c candidate) bool {
	e := elementOf(st, c)
	if c.action != device.Tap || e == nil || !rs.isOption(st, e) || rs.namesAll(e.Label) {
		return false
	}
	for i := range st.Elements {
		o := &st.Elements[i]
		if o != e && rs.isOption(st, o) && rs.namesAll(o.Label) {
			return true
		}
	}
	return false
}

// isOption reports whether e is an option of a single choice: a radio
// button or a checked text of a choice list, or a row holding one. A
// check box or a switch is a setting of its own ("Use for this folder
// only" beside the sort options), no sibling of the options.
func (rs *runState) isOption(st *daemon.PlanState, e *screen.Element) bool {
	return e.Kind != screen.KindInput && holdsChoice(st.Screen, e.NodeID)
}

// holdsChoice reports whether node id or a node under it is a radio
// button or a checked text (the single-choice list's row).
func holdsChoice(s *screen.Snapshot, id int) bool {
	found := false
	s.Walk(id, func(n *screen.Node, _ int) bool {
		c := strings.ToLower(screen.ShortClass(n.Class))
		found = found || strings.Contains(c, "radio") || strings.Contains(c, "checkedtext")
		return !found
	})
	return found
}

// groupChosen reports whether candidate c taps, now, an option (isOption)
// of a single choice whose other option the run already tapped on this
// screen, and the command does not name all of c's label (namesAll): the
// choice was made for the command ("Plain page" tapped for "make a plain
// page …", doing nothing since it was chosen already, leaves "Tick list"
// no way on).
func (rs *runState) groupChosen(st *daemon.PlanState, c candidate) bool {
	e := elementOf(st, c)
	if c.action != device.Tap || e == nil || st.Screen == nil || !rs.isOption(st, e) || rs.namesAll(e.Label) {
		return false
	}
	parent := st.Screen.Nodes[e.NodeID].Parent
	for i := range st.Elements {
		o := &st.Elements[i]
		if o == e || !rs.isOption(st, o) || st.Screen.Nodes[o.NodeID].Parent != parent {
			continue
		}
		key := screen.Describe(st.Screen, o.NodeID).Key()
		if slices.ContainsFunc(st.History, func(h daemon.StepRecord) bool {
			return h.Action == device.Tap && h.Screen == st.Print && h.Target.Key() == key
		}) {
			return true
		}
	}
	return false
}

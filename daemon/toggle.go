package daemon

import (
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// Toggles: a tap on a switch, a check box, or a settings row that holds one
// (not a radio button or another option of a group: isOption) flips it, so
// replaying the tap when the toggle is already where the owner wanted it
// would undo the command ("turn off vibration" when it is off already
// turns it on). A learned tap that flipped a toggle (found again after
// the tap in the other state: toggledIn) is kept as "switch on/off"
// (ActEnsureOn, ActEnsureOff), which taps only when the state differs.

// Toggle states kept in StepRecord.Toggle.
const (
	toggleOn  = "on"
	toggleOff = "off"
)

// toggleState returns whether the toggle el is, or the one toggle its row
// holds (a checkable node among its descendants), is checked, and whether
// there is exactly one such toggle.
func toggleState(s *screen.Snapshot, el *screen.Element) (on, ok bool) {
	if s == nil || el == nil {
		return false, false
	}
	return nodeToggle(s, el.NodeID)
}

// nodeToggle is toggleState for the node id of s.
func nodeToggle(s *screen.Snapshot, id int) (on, ok bool) {
	n := s.Node(id)
	if n == nil {
		return false, false
	}
	if n.Checkable {
		return n.Checked, true
	}
	found := 0
	s.Walk(id, func(c *screen.Node, depth int) bool {
		if depth > 0 && c.Checkable {
			found++
			on = c.Checked
		}
		return found < 2
	})
	if found != 1 {
		return false, false
	}
	return on, true
}

// toggledIn reports whether the toggle rec tapped (rec.Target, in the
// state rec.Toggle) is found on after, the screen the tap left, in the
// other state. A label that shows the state ("… OFF") changes with it, and
// so may the screen's fingerprint: the element is grounded by its whole
// descriptor (screen.Ground), never by node id.
func toggledIn(after *screen.Snapshot, rec StepRecord) bool {
	if after == nil || rec.Toggle == "" {
		return false
	}
	m, ok := screen.Ground(after, rec.Target)
	if !ok {
		return false
	}
	on, ok := nodeToggle(after, m.NodeID)
	return ok && on != (rec.Toggle == toggleOn)
}

// toggleOf is toggleState as a StepRecord.Toggle value: "on", "off", or ""
// when el is no toggle and holds none, or several.
func toggleOf(s *screen.Snapshot, el *screen.Element) string {
	on, ok := toggleState(s, el)
	switch {
	case !ok:
		return ""
	case on:
		return toggleOn
	}
	return toggleOff
}

// flipped returns the action that sets the toggle of a learned tap the way
// the tap set it — ActEnsureOff for a toggle that was on, ActEnsureOn for
// one that was off — and true, when the tap flipped it (rec.Toggled: a
// tap that opened a dialog or another page left the toggle as it was, and
// is navigation).
func flipped(rec StepRecord) (string, bool) {
	if rec.Action != device.Tap || !rec.OK || !rec.Toggled {
		return "", false
	}
	switch rec.Toggle {
	case toggleOn:
		return ActEnsureOff, true
	case toggleOff:
		return ActEnsureOn, true
	}
	return "", false
}

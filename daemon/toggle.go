package daemon

import (
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// Toggles: a tap on a switch, a check box, or a settings row that holds one
// (not a radio button or another option of a group: isOption) flips it, so
// replaying the tap when the toggle is already where the owner wanted it
// would undo the command ("turn off vibration" when it is off already
// turns it on). A learned tap that flipped a toggle in place is kept as
// "switch on/off" (ActEnsureOn, ActEnsureOff), which taps only when the
// state differs.

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
	n := s.Node(el.NodeID)
	if n == nil {
		return false, false
	}
	if n.Checkable {
		return n.Checked, true
	}
	found := 0
	s.Walk(el.NodeID, func(c *screen.Node, depth int) bool {
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
// one that was off — and true, when the tap flipped a toggle in place: it
// held one (rec.Toggle) and left the screen as it was (a tap that opened a
// dialog or another page is navigation, and a radio button that closed its
// dialog is a choice).
func flipped(rec StepRecord) (string, bool) {
	if rec.Action != device.Tap || rec.Screen == "" || rec.After != rec.Screen || !rec.OK {
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

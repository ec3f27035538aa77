package daemon

import (
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Two saved flows that do the same thing: "find messages with Ana" and
// "view messages with Ben", the second's row swapped for the command's
// ("show my conversation with Ana"), both tap Ana's row on the same
// screen. When the route check confirms several flows, replaying any of
// them is no guess between them if, as the replay would take them, their
// routes are one: the same screen to start from, and step for step the
// same action on the same element (a row by its name) with the same text.

// routeStep is one step of a flow as a replay takes it after a route
// check: a row the walk took in place of the flow's (rows) by its name,
// any other element by its label, and a slot's text by the walk's value.
type routeStep struct{ action, element, text string }

// replayedRoute returns flow f's steps as replayed with rows (step index
// → row name) and slot values slots.
func replayedRoute(f *knowledge.Flow, rows map[int]string, slots map[string]string) []routeStep {
	out := make([]routeStep, len(f.Steps))
	for i, st := range f.Steps {
		el := screen.RowName(st.Target.Label())
		if r, ok := rows[st.Index]; ok {
			el = r
		}
		text := st.Text
		if name, ok := knowledge.SlotRef(text); ok {
			text = slots[name]
		}
		out[i] = routeStep{st.Action, strings.ToLower(el), strings.ToLower(strings.TrimSpace(text))}
	}
	return out
}

// oneRoute reports whether the flows of fits (confirmed by the route
// check, with their walks' slot values) replay as one route: the same
// first screen and the same replayed steps (replayedRoute, with the rows
// of routeRows).
func oneRoute(fits []candidateRoute) bool {
	if len(fits) < 2 {
		return len(fits) == 1
	}
	first := fits[0]
	if len(first.f.Steps) == 0 {
		return false
	}
	want := replayedRoute(first.f, first.rows, first.slots)
	for _, c := range fits[1:] {
		if len(c.f.Steps) == 0 || c.f.Steps[0].Screen != first.f.Steps[0].Screen || !slices.Equal(replayedRoute(c.f, c.rows, c.slots), want) {
			return false
		}
	}
	return true
}

// candidateRoute is a flow the route check confirmed, with the rows and
// slot values its walk took.
type candidateRoute struct {
	f     *knowledge.Flow
	rows  map[int]string
	slots map[string]string
}

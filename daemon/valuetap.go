package daemon

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Taps bound to a typed value ("values picked, not typed", for lists): a
// flow that typed a value and then tapped the list row carrying it —
// search "Weather", tap the "Weather" result; search "Dora", open
// Dora's contact — taps, at replay, the row carrying the new value
// ("Tides", "Eli"), never the row it tapped when learned. Such a step is a tap
// whose Text is the slot reference "{name}" and that has no Choices (an
// option group's tap has them, see choice.go). When no row, or more than
// one, carries the value the step is not found: a replay never guesses.

// valueSlot returns the slot, among those typed by earlier steps (typed:
// slot names, in order), whose value the tapped element t carries, or "";
// when several typed values fit, the last typed one wins (the search that
// led to the row). An input field is never bound, nor a value shorter
// than two characters.
func valueSlot(t screen.Descriptor, typed []string, slots map[string]string) string {
	if t.Editable {
		return ""
	}
	for i := len(typed) - 1; i >= 0; i-- {
		if v := slots[typed[i]]; len([]rune(strings.TrimSpace(v))) >= 2 && intent.Says(t.Label(), v) {
			return typed[i]
		}
	}
	return ""
}

// valueRow returns the index in elems (screen.Elements of s) of the row a
// value-bound tap step acts on: among the elements of the step's class
// that are not input fields, the one whose label is the value, else the
// one that carries it; -1 when none does, or several do equally. Being a
// list row is not compared: a list filtered down to one row is no longer
// a list to screen.Describe.
func valueRow(s *screen.Snapshot, elems []screen.Element, step knowledge.Step, value string) int {
	exact, carrying := -1, -1
	nExact, nCarrying := 0, 0
	want := strings.Join(choiceWords(value), " ")
	for i := range elems {
		e := &elems[i]
		if e.Label == "" || !intent.Says(e.Label, value) {
			continue
		}
		d := screen.Describe(s, e.NodeID)
		if d.Editable || d.Class != step.Target.Class {
			continue
		}
		if strings.Join(choiceWords(e.Label), " ") == want {
			exact, nExact = i, nExact+1
		}
		carrying, nCarrying = i, nCarrying+1
	}
	switch {
	case nExact == 1:
		return exact
	case nExact == 0 && nCarrying == 1:
		return carrying
	}
	return -1
}

// IsValueTap reports whether step taps the element carrying a slot's
// value (a search result for the text typed before), and names the slot.
func IsValueTap(step knowledge.Step) (string, bool) {
	if step.Action != device.Tap || len(step.Choices) > 0 {
		return "", false
	}
	return knowledge.SlotRef(step.Text)
}

// rebound returns a copy of f whose taps on rows picked by name
// (run.rows, by step index) tap the row carrying the owner's name
// instead: each becomes a tap bound to a slot of this run only
// (IsValueTap), whose value joins run.slots. f itself, the owner's
// saved flow, is not changed.
func (r *run) rebound(f *knowledge.Flow) *knowledge.Flow {
	g := *f
	g.Steps = slices.Clone(f.Steps)
	// a new map: the one matched may travel in a published event
	r.slots = maps.Clone(r.slots)
	if r.slots == nil {
		r.slots = map[string]string{}
	}
	for i := range g.Steps {
		v, ok := r.rows[g.Steps[i].Index]
		if !ok {
			continue
		}
		name := fmt.Sprintf("row_%d", g.Steps[i].Index)
		g.Steps[i].Text = "{" + name + "}"
		r.slots[name] = v
	}
	return &g
}

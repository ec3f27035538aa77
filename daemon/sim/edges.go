package sim

// Which recorded transition (edge) an action on the current screen
// follows: a row revealed by scrolling, else the episode's own recording
// (used up when the episode repeats the action later), else any recording
// of the screen; for the element acted on, or the clickable owner of the
// one tapped. Acting on them is sim.go's.

import (
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// match finds the recorded edge for an action on node of the current
// screen.
func (p *Phone) match(cur *screen.Snapshot, typ string, node int, text string) (edge, bool) {
	if typ == device.Tap {
		if e, ok := p.revealed[node]; ok {
			return e, true
		}
	}
	if e, ok := matchIn(cur, p.scenario[p.cur], typ, node, text); ok {
		p.consume(e)
		return e, true
	}
	return matchIn(cur, p.edges[p.cur], typ, node, text)
}

// consume drops a used episode edge when the episode repeats the same
// action on the same screen later (a task that comes back to a screen and
// does the same thing again, with another result): the next use gets the
// later recording.
func (p *Phone) consume(used edge) {
	list := p.scenario[p.cur]
	for _, e := range list {
		if e.order > used.order && e.action == used.action && e.node == used.node && e.label == used.label {
			out := list[:0:0]
			for _, x := range list {
				if x.order != used.order {
					out = append(out, x)
				}
			}
			p.scenario[p.cur] = out
			return
		}
	}
}

// matchIn picks the edge of edges for the action: the same node first,
// else the same clickable owner; among several, recorded input text equal
// to the typed text first, then the most frequent, then the most recently
// recorded, then the first in file order.
func matchIn(cur *screen.Snapshot, edges []edge, typ string, node int, text string) (edge, bool) {
	var best edge
	found := false
	better := func(e edge) bool {
		if typ == device.Input && (e.text == text) != (best.text == text) {
			return e.text == text
		}
		if e.count != best.count {
			return e.count > best.count
		}
		if e.latest != best.latest {
			return e.latest > best.latest
		}
		return e.order < best.order
	}
	take := func(e edge) {
		if !found || better(e) {
			best, found = e, true
		}
	}
	if typ == device.Back {
		for _, e := range edges {
			if e.action == device.Back {
				take(e)
			}
		}
		return best, found
	}
	if typ == device.ImeEnter { // on this field, or recorded as a key event without a target
		for _, e := range edges {
			if e.action == device.ImeEnter && (e.node < 0 || e.node == node) {
				take(e)
			}
		}
		return best, found
	}
	// exact node first, then the same clickable owner
	for _, e := range edges {
		if e.action == typ && e.node == node {
			take(e)
		}
	}
	if found {
		return best, true
	}
	owner := cur.ClickableAncestor(node)
	for _, e := range edges {
		if e.action != typ || e.node < 0 || cur.Node(e.node) == nil {
			continue
		}
		if cur.ClickableAncestor(e.node) == owner || isInside(cur, node, e.node) {
			take(e)
		}
	}
	if found {
		return best, true
	}
	// the recording may name an invisible twin of the acted-on view (a
	// pager's off-screen page): the same class and resource-id, no area
	acted := cur.Node(node)
	for _, e := range edges {
		t := cur.Node(e.node)
		if e.action == typ && t != nil && acted != nil && t.Bounds.Empty() && t.ResourceID != "" &&
			t.ResourceID == acted.ResourceID && t.Class == acted.Class {
			take(e)
		}
	}
	return best, found
}

// isInside reports whether target is a non-clickable descendant of the
// tapped node whose own subtree holds no other clickable owner: tapping a
// row reaches the label inside it.
func isInside(s *screen.Snapshot, tapped, target int) bool {
	for _, a := range s.Ancestors(target) {
		if a == tapped {
			return true
		}
		n := s.Node(a)
		if n.Clickable || n.Checkable || n.Editable {
			return false
		}
	}
	return false
}

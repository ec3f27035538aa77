package graphplan

import (
	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
)

// Where a step leads: a saved flow reaches what the command asks by its
// own route ("More options", "Settings", "Manage favorites", then "Add
// favorites"), while the planner, asked on the flow's first screen, may
// take another way there or stop at an element of the screen that shares
// the command's words ("Add to favorites" of the folder shown). The route
// check (daemon/routeways.go) then asks whether the planner weighed the
// flow's step at all: as a relevant step on its way, through the UI
// transition graph, to an element that matches the command.

// noteWays keeps, for the route check, the taps among cands (ranked, best
// first) that lead through the UI graph to an element matching the
// command: relevant (MinScore), with the descriptor key of that element.
// An element on the way to several keeps the best-ranked.
func (rs *runState) noteWays(cands []candidate) {
	for _, c := range cands {
		if c.via == 0 || c.dest == "" || c.action != device.Tap || c.element < 0 || c.score < MinScore {
			continue
		}
		if rs.ways == nil {
			rs.ways = map[int]string{}
		}
		if _, seen := rs.ways[c.element]; !seen {
			rs.ways[c.element] = c.dest
		}
	}
}

// WayTo implements daemon.WayTeller.
func (p *Planner) WayTo(element int) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.run == nil {
		return "", false
	}
	dest, ok := p.run.ways[element]
	return dest, ok
}

var _ daemon.WayTeller = (*Planner)(nil)

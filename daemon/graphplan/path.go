// Path search: the cheapest known paths through the UI transition graph
// (uigraph.go), and the targets on other screens reached by them.

package graphplan

import (
	"container/heap"
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// graphCandidates scores targets on other screens, reached through the
// cheapest known path; the candidate is the path's first operation,
// grounded on the current screen.
func (p *Planner) graphCandidates(ctx context.Context, rs *runState, st *daemon.PlanState, g *appGraph, sem *semStep, w map[term]float64) []candidate {
	rs.far = farTargets{}
	start, ok := g.byPrint[st.Print]
	if !ok {
		return nil
	}
	named := func(e gEdge) bool { return g.namesEdge(rs, e) }
	dist, first, hops := g.dijkstra(start, named, g.borrowed(start, st)...)
	_, kv, keys := rs.nextKey() // a number to enter: a keypad's screen is where it goes
	byScroll := g.reachByScroll(start, dist, first, hops)
	best := map[int64]candidate{} // first-edge element -> best candidate through it
	here := ""
	if st.Screen != nil {
		here = st.Screen.ForegroundPackage()
	}
	// the texts this screen shows that are no element to act on (a
	// title): one shown again elsewhere is no place to go for its words
	// (a folder picker's "Choose a folder" over every folder it opens)
	titles := map[string]bool{}
	for _, e := range st.Elements {
		if l := screen.Normalize(e.Label); l != "" && e.Kind == screen.KindText {
			titles[l] = true
		}
	}
	// firstTerms of each path's first element, by element id; none to
	// seek when the command names no element of this screen
	var siblings map[int64][]term
	if slices.ContainsFunc(st.Elements, func(e screen.Element) bool { return rs.namesRow(screen.RowName(e.Label)) }) {
		siblings = map[int64][]term{}
	}
	for _, scr := range g.ids { // in order: map order must not decide ties
		d, reached := dist[scr]
		if !reached || scr == start || math.IsInf(d, 1) {
			continue
		}
		// another package's screen (the system's print screen, file picker
		// or dialer an operation of the app hands off to) holds the
		// platform's texts and ids, not the app's: from a screen of the app
		// or of another package, only an element whose label carries the command's
		// leading verb ("Place call" for "call Dora") is a target there,
		// matched by its label alone
		foreign := st.Package != "" && here != "" && !g.ofApp(scr, st.Package) && !g.ofApp(scr, here)
		fe := first[scr]
		firstTerms := rs.firstTerms(st, g, fe, siblings) // the path's first element covers its words too
		for _, e := range g.onScr[scr] {
			label := e.Descriptor.Label()
			if !rs.viewing && (len(strings.Fields(label)) > maxTargetWords || !g.dialog[scr] && strings.HasSuffix(strings.TrimSpace(label), "?")) {
				// a paragraph (a message, an answer), or a question on a
				// full screen (a help page's; a dialog's asks to confirm
				// what it does), is read, not acted on
				continue
			}
			if titles[screen.Normalize(label)] || rs.narrowsScope(e.Descriptor) || rs.settingAfterCreated(e.Descriptor) || rs.createsAgain(label) {
				continue
			}
			if !keys && g.keypad(scr) {
				if _, key := keyOf(label); key {
					continue // a keypad's key, and no number to enter (keyWithoutNumber)
				}
			}
			terms, text, rid := g.terms[e.ID], g.texts[e.ID], e.Descriptor.ResourceID
			if foreign {
				terms, rid = termsOf(label), ""
				if !rs.hasVerb || !slices.Contains(terms, rs.verb) {
					continue
				}
				if !g.labelled[text] {
					text = ""
				}
			}
			if len(firstTerms) > 0 {
				terms = append(append([]term(nil), terms...), firstTerms...)
			}
			hit := sem.hit(text)
			keyed := -1
			if keys && g.keypad(scr) {
				keyed = kv
			}
			sc, covers := rs.match(label+" "+rid, terms, hit, w, keyed)
			if sc <= 0 {
				continue
			}
			sc *= math.Pow(PathDiscount, float64(hops[scr]))
			if byScroll[scr] {
				sc *= ScrollDiscount
			}
			key := fe.element
			if c, ok := best[key]; ok && c.score >= sc {
				continue
			}
			best[key] = candidate{action: fe.action, score: sc, covers: covers, via: hops[scr], tie: hit.cmdSim, dest: e.Descriptor.Key(),
				reason: fmt.Sprintf("on the way to %q (%d steps away in the UI graph)", label, hops[scr])}
		}
	}
	if !inSettings(st) { // only read to head for settings, a menu or a dialog (next)
		rs.far = g.unreachable(rs, start, dist, sem, w)
	}
	if keys && !slices.ContainsFunc(g.ids, func(scr int64) bool { _, ok := dist[scr]; return ok && g.keypad(scr) }) {
		rs.far.keypadAct = g.keypadActivity()
	}
	if c, ok := rs.hiddenHere(st, g, start, sem, w); ok {
		if b, seen := best[0]; !seen || b.score < c.score {
			best[0] = c
		}
	}
	var out []candidate
	ids := make([]int64, 0, len(best))
	for id := range best {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, elemID := range ids {
		c := best[elemID]
		if c.action == device.Scroll {
			c.element, c.direction = scrollable(st), device.Forward
			var d screen.Descriptor
			if c.element >= 0 {
				d = screen.Describe(st.Screen, st.Elements[c.element].NodeID)
			}
			c.score /= 1 + penalty(st, c.action, d)
			out = append(out, c)
			continue
		}
		if c.action == device.Back || c.action == device.Home {
			c.element = -1
			c.score /= 1 + penalty(st, c.action, screen.Descriptor{})
			out = append(out, c)
			continue
		}
		ke := g.elems[elemID]
		if ke == nil {
			continue
		}
		m, ok := screen.Ground(st.Screen, ke.Descriptor)
		if !ok {
			continue
		}
		idx := daemon.ElementIndex(st.Screen, st.Elements, m.NodeID)
		if idx < 0 {
			continue
		}
		c.element = idx
		if c.action == device.Input {
			continue // paths through typing are taken by the value logic
		}
		if c.action == device.Tap {
			if j := rs.namedSibling(st, idx); j >= 0 {
				c.element = j
				c.reason += fmt.Sprintf(" (through %q, the row the command names, in place of %q)", st.Elements[j].Label, st.Elements[idx].Label)
				idx = j
			}
		}
		c.score /= 1 + penalty(st, c.action, screen.Describe(st.Screen, st.Elements[idx].NodeID))
		out = append(out, c)
	}
	return out
}

// firstTerms returns the terms the first operation of a path covers: its
// element's (label, resource-id words, documentation), or — a tap on a
// list row the path takes in place of the row the command names
// (namedSibling) — the named row's label; only a row the UI graph
// recorded in a list is grounded to look for one. Memoized in seen by
// element id for one step; a nil seen: the command names no element of
// the screen, and the element's own terms are returned. None for an
// operation on no element (a scroll, back).
func (rs *runState) firstTerms(st *daemon.PlanState, g *appGraph, fe gEdge, seen map[int64][]term) []term {
	if fe.element == 0 {
		return nil
	}
	if seen == nil {
		return g.terms[fe.element]
	}
	if ts, ok := seen[fe.element]; ok {
		return ts
	}
	ts := g.terms[fe.element]
	if ke := g.elems[fe.element]; fe.action == device.Tap && ke != nil && ke.Descriptor.InList {
		if m, ok := screen.Ground(st.Screen, ke.Descriptor); ok {
			if i := daemon.ElementIndex(st.Screen, st.Elements, m.NodeID); i >= 0 {
				if j := rs.namedSibling(st, i); j >= 0 {
					ts = termsOf(st.Elements[j].Label)
				}
			}
		}
	}
	seen[fe.element] = ts
	return ts
}

// hiddenHere returns a scroll toward the best element the graph recorded
// on this very screen that the command names and that is not in view now
// (a country further down a list of them, recorded where the list was
// scrolled): scored as a path of one scroll (PathDiscount,
// ScrollDiscount). ok is false when the screen has nothing to scroll or no
// such element matches.
func (rs *runState) hiddenHere(st *daemon.PlanState, g *appGraph, start int64, sem *semStep, w map[term]float64) (candidate, bool) {
	if scrollable(st) < 0 {
		return candidate{}, false
	}
	var best candidate
	found := false
	for _, e := range g.onScr[start] {
		sc, covers := g.matchTarget(rs, e, sem, w)
		if sc <= 0 {
			continue
		}
		label := e.Descriptor.Label()
		if m, ok := screen.Ground(st.Screen, e.Descriptor); ok && screen.Describe(st.Screen, m.NodeID).Key() == e.Key {
			continue // in view: scored among the screen's own elements
		}
		sc *= PathDiscount * ScrollDiscount
		if !found || sc > best.score {
			best = candidate{action: device.Scroll, score: sc, covers: covers, via: 1,
				reason: fmt.Sprintf("%q is on this screen further down", label)}
			found = true
		}
	}
	return best, found
}

// matchTarget scores recorded element e as a target the command names
// (runState.match on its label, resource-id, terms and meaning); 0 for a
// paragraph (maxTargetWords).
func (g *appGraph) matchTarget(rs *runState, e *knowledge.Element, sem *semStep, w map[term]float64) (float64, []term) {
	label := e.Descriptor.Label()
	if len(strings.Fields(label)) > maxTargetWords {
		return 0, nil
	}
	return rs.match(label+" "+e.Descriptor.ResourceID, g.terms[e.ID], sem.hit(g.texts[e.ID]), w, -1)
}

// maxTargetWords: a label of more words is a paragraph (a dialog's
// message, an answer in a help page), a path's target only for a command
// that asks to see something.
const maxTargetWords = 12

// ScrollCost is the path cost of reaching, by scrolling, a recorded
// screen of the same activity as a reachable one that no known transition
// leads to (a capture further down the same list).
const ScrollCost = 2.0

// ScrollDiscount scales the score of a target reached only by assuming a
// scroll (reachByScroll): weaker evidence than a recorded path. On the
// development apps any value from 0.5 to 0.7 gives the same results; 1
// (no discount) loses five tasks.
const ScrollDiscount = 0.6

// BorrowCost is the path cost added to an edge borrowed from another
// recorded state of the same screen (borrowed): weaker evidence than an
// edge recorded from this state.
const BorrowCost = 0.5

// borrowed returns edges from screen start, the one the run is on, that
// the graph recorded only from other states of the same activity: an
// element of this screen (grounded by its descriptor: "More options" in
// the toolbar) taken on another state of it led somewhere, so it is taken
// to lead there from this one too. UI states of one screen differ in
// their content (another photo, another list) and share their controls;
// a recording seldom visits each state. Dialogs neither lend nor borrow,
// nor does an element start already has a recorded edge for.
func (g *appGraph) borrowed(start int64, st *daemon.PlanState) []gEdge {
	act := g.act[start]
	if act == "" || g.dialog[start] || st.Screen == nil {
		return nil
	}
	own := map[string]bool{}
	for _, e := range g.out[start] {
		if ke := g.elems[e.element]; ke != nil {
			own[ke.Key] = true
		}
	}
	grounded := map[string]bool{}
	var out []gEdge
	seen := map[[2]int64]bool{}
	for _, scr := range g.ofAct[act] {
		if scr == start {
			continue
		}
		for _, e := range g.out[scr] {
			ke := g.elems[e.element]
			if e.action != device.Tap || ke == nil || own[ke.Key] || e.to == scr || e.to == start {
				continue
			}
			ok, known := grounded[ke.Key]
			if !known {
				// the same element, not a look-alike: grounding for a
				// replay forgives a changed label, borrowing must not
				m, found := screen.Ground(st.Screen, ke.Descriptor)
				ok = found && screen.Describe(st.Screen, m.NodeID).Key() == ke.Key
				grounded[ke.Key] = ok
			}
			if !ok || seen[[2]int64{e.element, e.to}] {
				continue
			}
			seen[[2]int64{e.element, e.to}] = true
			e.cost += BorrowCost
			out = append(out, e)
		}
	}
	return out
}

// reachByScroll extends a dijkstra result to the screens no known path
// reaches: a screen of the same activity as a reached screen is taken to
// be further down that screen, one scroll away. Dialogs are neither.
func (g *appGraph) reachByScroll(start int64, dist map[int64]float64, first map[int64]gEdge, hops map[int64]int) map[int64]bool {
	virtual := map[int64]bool{}
	bestOf := map[string]int64{} // activity -> cheapest reached screen
	for id, d := range dist {
		a := g.act[id]
		if a == "" || g.dialog[id] {
			continue
		}
		if b, ok := bestOf[a]; !ok || d < dist[b] || (d == dist[b] && id < b) {
			bestOf[a] = id
		}
	}
	for id, a := range g.act {
		if _, ok := dist[id]; ok || g.dialog[id] {
			continue
		}
		r, ok := bestOf[a]
		if !ok || hops[r]+1 > maxDepth {
			continue
		}
		dist[id] = dist[r] + ScrollCost
		hops[id] = hops[r] + 1
		virtual[id] = true
		if r == start {
			first[id] = gEdge{to: id, action: device.Scroll, cost: ScrollCost}
		} else {
			first[id] = first[r]
		}
	}
	return virtual
}

// dijkstra returns, for every screen reachable from start, its path cost,
// the first edge of the cheapest path and the path's length in steps;
// extra are edges from start beside the recorded ones (borrowed). An edge
// that flips a setting is taken only from start, and only when flipOK
// (nil: never) says the command asks for it.
func (g *appGraph) dijkstra(start int64, flipOK func(gEdge) bool, extra ...gEdge) (map[int64]float64, map[int64]gEdge, map[int64]int) {
	dist := map[int64]float64{start: 0}
	first := map[int64]gEdge{}
	hops := map[int64]int{start: 0}
	prev := map[int64]int64{} // the screen each was reached from
	pq := &pqueue{{id: start}}
	for pq.Len() > 0 {
		it := heap.Pop(pq).(pqItem)
		if it.cost > dist[it.id] || hops[it.id] >= maxDepth {
			continue
		}
		out := g.out[it.id]
		if it.id == start && len(extra) > 0 {
			out = append(slices.Clip(out), extra...)
		}
		for _, e := range out {
			if e.commit && it.id != start || e.flips && (it.id != start || flipOK == nil || !flipOK(e)) {
				continue
			}
			if p, ok := prev[it.id]; ok && g.dialog[it.id] && !g.dialog[p] && e.to != p &&
				(e.action == device.Back || !g.dialog[e.to] && g.act[e.to] == g.act[p]) {
				// leaving a dialog returns to the screen that opened it
				// (by a button perhaps with a setting changed): a recording
				// that shows that screen otherwise (scrolled elsewhere
				// meanwhile) is no way there, nor a round trip through
				// another setting's dialog
				continue
			}
			nd := it.cost + e.cost
			if old, ok := dist[e.to]; ok && old <= nd {
				continue
			}
			dist[e.to] = nd
			prev[e.to] = it.id
			hops[e.to] = hops[it.id] + 1
			if it.id == start {
				first[e.to] = e
			} else {
				first[e.to] = first[it.id]
			}
			heap.Push(pq, pqItem{id: e.to, cost: nd})
		}
	}
	return dist, first, hops
}

// commits reports whether a dialog button labelled label accepts what the
// dialog holds (positiveWords but those that only let the app go on:
// "Allow", "Continue").
func commits(label string) bool {
	l := strings.ToLower(strings.TrimSpace(label))
	return l != "allow" && l != "continue" && slices.Contains(positiveWords, l)
}

type pqItem struct {
	id   int64
	cost float64
}

type pqueue []pqItem

func (q pqueue) Len() int           { return len(q) }
func (q pqueue) Less(i, j int) bool { return q[i].cost < q[j].cost }
func (q pqueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *pqueue) Push(x any)        { *q = append(*q, x.(pqItem)) }
func (q *pqueue) Pop() any          { o := *q; it := o[len(o)-1]; *q = o[:len(o)-1]; return it }

// namedSibling returns the index in st.Elements of the row of the same
// list as row i (a list row: same kind and class, both in a list) whose
// name — its first text, before " · " — the command gives as a value (a
// name, a quoted text, a number, a file name) or says in plain words
// ("mark ezra's thread …", written in lower case; "… the Ledger tab"; not
// the app's own name: namesRow), when row i's name is neither: a path
// the UI graph knows through one contact's row ("Dora" → More options →
// "Archive thread") goes through the named one's ("… with Ezra …")
// instead, the rows of a list leading to screens alike. -1 when row i is
// no list row, or not exactly one other row is named.
func (rs *runState) namedSibling(st *daemon.PlanState, i int) int {
	e := &st.Elements[i]
	if rs.givesValue(screen.RowName(e.Label)) || intent.Says(rs.cmd, screen.RowName(e.Label)) {
		return -1
	}
	found := -1
	for j := range st.Elements {
		if o := &st.Elements[j]; j != i && o.Kind == e.Kind && rs.namesRow(screen.RowName(o.Label)) {
			if found >= 0 {
				return -1
			}
			found = j
		}
	}
	if found < 0 {
		return -1
	}
	d, od := screen.Describe(st.Screen, e.NodeID), screen.Describe(st.Screen, st.Elements[found].NodeID)
	if !d.InList || !od.InList || od.Class != d.Class {
		return -1
	}
	return found
}

// namesRow reports whether the command names a row called name: as a
// value it gives, or in plain words — but not as the app's own name
// ("… in the ledger app" names no "Ledger" tab of the Ledger app).
func (rs *runState) namesRow(name string) bool {
	return rs.givesValue(name) || intent.Says(rs.cmd, name) && !rs.namesApp(name)
}

// givesValue reports whether name is a name the command gives
// (runState.valueNames, intent.NameKey).
func (rs *runState) givesValue(name string) bool {
	k := intent.NameKey(name)
	return k != "" && rs.valueNames[k]
}

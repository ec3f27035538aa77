// The UI transition graph of an app as the planner reads it: screens,
// elements and the transitions recorded between them (knowledge.Graph),
// indexed by fingerprint and by the text of each element.

package graphplan

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// gEdge is a recorded transition out of a screen: the action on one of
// its elements, the screen it led to and the path cost of taking it.
type gEdge struct {
	to      int64
	action  string
	element int64
	cost    float64
	// commit: the edge accepts a dialog holding a choice or a text field
	// (OK, Save): it commits what the dialog holds, so a path takes it
	// only as its first step, from the dialog the run is on, never on its
	// way through one (an OK that only acknowledges a message is a way)
	commit bool
	// flips: the edge's tap changed a setting in place (flipsInPlace): a
	// path takes it only as its first step, and only when the command
	// names what it flips ("… with the front camera"), never on its way
	// to something else
	flips bool
}

// appGraph is one app's UI transition graph with the indexes the planner
// scores by: screens by fingerprint, elements and their terms by screen
// and by embedded text, and term document frequencies.
type appGraph struct {
	byPrint map[string]int64
	out     map[int64][]gEdge
	elems   map[int64]*knowledge.Element
	onScr   map[int64][]*knowledge.Element
	terms   map[int64][]term   // element id -> terms
	texts   map[int64]string   // element id -> text embedded (semText)
	byText  map[string][]int64 // text embedded -> the elements carrying it
	// labelled: the embedded texts that are labels (text, content-desc or
	// hint), not resource-id words
	labelled map[string]bool
	vocab    map[term]string // literal term of the elements' texts -> a word it came from
	df       map[term]int
	n        int
	ids      []int64            // screen ids, ascending
	act      map[int64]string   // screen id -> activity
	ofAct    map[string][]int64 // activity -> its screens that are no dialogs, by id
	dialog   map[int64]bool
	keypads  map[int64]bool // screens holding a keypad (keypad.go)
	// oneWord: the terms that are an element's whole text, one word of no
	// concept of the vocabulary ("Ledger", "Mosaic"): the element is what
	// the word names
	oneWord map[term]bool
}

// ofApp reports whether screen scr belongs to package pkg by its recorded
// activity ("pkg/.Activity"); a screen without one, or an empty pkg,
// counts as the app's.
func (g *appGraph) ofApp(scr int64, pkg string) bool {
	act := g.act[scr]
	owner, _, ok := strings.Cut(act, "/")
	return pkg == "" || act == "" || !ok || owner == pkg
}

// keypad reports whether screen scr holds a keypad.
func (g *appGraph) keypad(scr int64) bool { return g.keypads[scr] }

func (p *Planner) graph(ctx context.Context, st *daemon.PlanState) (*appGraph, error) {
	p.mu.Lock()
	g := p.graphs[st.AppID]
	p.mu.Unlock()
	if g != nil && (st.Print == "" || g.byPrint[st.Print] != 0 || len(st.History) == 0) {
		return g, nil
	}
	kg, err := p.store.Graph(ctx, st.AppID)
	if err != nil {
		return nil, fmt.Errorf("graph planner: %w", err)
	}
	p.mu.Lock()
	excl := p.exclude
	p.mu.Unlock()
	g = buildGraph(kg, excl)
	p.mu.Lock()
	p.graphs[st.AppID] = g
	p.mu.Unlock()
	return g, nil
}

func buildGraph(kg *knowledge.Graph, exclude map[string]bool) *appGraph {
	g := &appGraph{byPrint: map[string]int64{}, out: map[int64][]gEdge{}, elems: map[int64]*knowledge.Element{},
		onScr: map[int64][]*knowledge.Element{}, terms: map[int64][]term{}, df: map[term]int{}, texts: map[int64]string{}, byText: map[string][]int64{}, labelled: map[string]bool{}, oneWord: map[term]bool{}, vocab: map[term]string{}}
	g.act, g.dialog, g.ofAct = map[int64]string{}, map[int64]bool{}, map[string][]int64{}
	for _, s := range kg.Screens {
		g.ids = append(g.ids, s.ID)
		g.byPrint[s.Fingerprint] = s.ID
		g.act[s.ID] = s.Activity
		g.dialog[s.ID] = s.Dialog
		if s.Activity != "" && !s.Dialog {
			g.ofAct[s.Activity] = append(g.ofAct[s.Activity], s.ID)
		}
	}
	for i := range kg.Elements {
		e := &kg.Elements[i]
		g.elems[e.ID] = e
		g.onScr[e.ScreenID] = append(g.onScr[e.ScreenID], e)
		ts := termsOf(e.Descriptor.Label() + " " + e.Descriptor.Desc + " " + e.Descriptor.Hint + " " + e.Descriptor.ResourceID)
		g.terms[e.ID] = ts
		if t := semText(e.Descriptor.Label(), e.Descriptor.ResourceID); t != "" {
			if w := termsOf(t); len(w) == 1 && !strings.HasPrefix(string(w[0]), "@") && !strings.Contains(t, " ") {
				g.oneWord[w[0]] = true
			}
			g.texts[e.ID] = t
			g.byText[t] = append(g.byText[t], e.ID)
			if d := e.Descriptor; strings.TrimSpace(d.Text+d.Desc+d.Hint) != "" {
				g.labelled[t] = true
			}
			addWords(g.vocab, t)
		}
		seen := map[term]bool{}
		for _, t := range ts {
			if !seen[t] {
				seen[t] = true
				g.df[t]++
			}
		}
		g.n++
	}
	slices.Sort(g.ids)
	g.keypads = map[int64]bool{}
	for scr, es := range g.onScr {
		labels := make([]string, 0, 2*len(es))
		for _, e := range es {
			labels = append(labels, e.Descriptor.Text, e.Descriptor.Desc)
		}
		g.keypads[scr] = isKeypad(labels)
	}
	form := map[int64]bool{} // screens holding a choice or a text field
	for _, e := range kg.Elements {
		if e.Descriptor.Checkable || e.Descriptor.Editable {
			form[e.ScreenID] = true
		}
	}
	prints := map[int64]string{}
	for _, s := range kg.Screens {
		prints[s.ID] = s.Fingerprint
	}
	for _, t := range kg.Transitions {
		if t.From == t.To || t.Count <= 0 {
			continue
		}
		if len(exclude) > 0 && t.Source == knowledge.SourceExploration {
			ek := ""
			if e := g.elems[t.ElementID]; e != nil {
				ek = e.Key
			}
			if exclude[EdgeKey(prints[t.From], t.Action, ek, prints[t.To])] {
				continue
			}
		}
		if e := g.elems[t.ElementID]; e != nil && e.Descriptor.Checkable {
			// a tap on a switch, check box or radio button changes a
			// setting: never a way through to somewhere else
			continue
		}
		cost := 1/(1+math.Log(float64(t.Count))) + float64(t.Failures)
		e := g.elems[t.ElementID]
		commit := e != nil && g.dialog[t.From] && form[t.From] && commits(e.Descriptor.Label())
		flips := e != nil && g.flipsInPlace(e, t.From, t.To)
		g.out[t.From] = append(g.out[t.From], gEdge{to: t.To, action: t.Action, element: t.ElementID, cost: cost, commit: commit, flips: flips})
	}
	return g
}

// flipsInPlace reports whether a tap on e that led from screen from to
// screen to changed a setting rather than went somewhere: e is named as
// a toggle or by turning something on or off ("Toggle thumbnails", "Show
// hidden items": intent.Polarity) and both screens are states of one
// activity, neither a dialog.
func (g *appGraph) flipsInPlace(e *knowledge.Element, from, to int64) bool {
	if g.act[from] == "" || g.act[from] != g.act[to] || g.dialog[from] || g.dialog[to] {
		return false
	}
	return isToggle(e.Descriptor) || intent.Polarity(e.Descriptor.Label()) != 0
}

// namesEdge reports whether the command names the element edge e taps
// by a word the owner sees (its label or content-desc, not its
// resource-id: "…track_shuffle" names no shuffle for "play the tracks"):
// only then may a path start by flipping it (dijkstra's flipOK).
func (g *appGraph) namesEdge(rs *runState, e gEdge) bool {
	ke := g.elems[e.element]
	return ke != nil && rs.literalIn(termsOf(ke.Descriptor.Label()+" "+ke.Descriptor.Desc), false)
}

package droidtask

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// ExplorationGraph builds an app's environmental knowledge from its
// recorded DroidBot transitions — exploration edges only, never the task
// demonstrations (source task_demo) — as a knowledge.Graph whose IDs are
// local to the graph (knowledge.Store.ImportGraph remaps them). Recorded
// states are merged by screen.Fingerprint; an edge's element is the
// clickable owner of its recorded target, described by screen.Describe, so
// keys agree with what the agent records at run time. Edges whose target
// cannot be located on the canonical capture, and edges from or to states
// without a capture, are skipped and counted in Skipped.
func (d *Dataset) ExplorationGraph(app string) (*knowledge.Graph, ImportStats, error) {
	info, ok := d.Apps[app]
	if !ok {
		return nil, ImportStats{}, fmt.Errorf("droidtask: no app %q", app)
	}
	g := &knowledge.Graph{App: knowledge.App{Package: info.MainPackage, Label: AppLabel(app)}}
	var st ImportStats
	screenID := map[string]int64{} // fingerprint -> local id
	stateScreen := map[string]int64{}
	elemID := map[string]int64{} // screen|key -> local id
	type tkey struct {
		from, to int64
		action   string
		elem     int64
	}
	edges := map[tkey]int{}
	var order []tkey
	screenOf := func(state string) (int64, error) {
		s, err := d.State(app, state)
		if err != nil {
			return 0, err
		}
		if id, ok := stateScreen[state]; ok {
			return id, nil
		}
		fp := screen.Fingerprint(s)
		id, ok := screenID[fp]
		if !ok {
			id = int64(len(g.Screens) + 1)
			screenID[fp] = id
			g.Screens = append(g.Screens, knowledge.Screen{ID: id, Fingerprint: fp, Activity: s.Activity, Description: describeScreen(s), Dialog: screen.IsDialog(s)})
			// the screen's manual: every element it shows, acted on or not
			for _, e := range screen.Elements(s) {
				if e.Label == "" && e.Resource == "" {
					continue
				}
				desc := screen.Describe(s, e.NodeID)
				k := fmt.Sprintf("%d|%s", id, desc.Key())
				if _, ok := elemID[k]; !ok {
					elemID[k] = int64(len(g.Elements) + 1)
					g.Elements = append(g.Elements, knowledge.Element{ID: elemID[k], ScreenID: id, Key: desc.Key(), Descriptor: desc, Label: desc.Label()})
				}
			}
		}
		stateScreen[state] = id
		return id, nil
	}
	for _, t := range d.AppTransitions(app) {
		if !t.Exploration() {
			st.Demonstrations++
			continue
		}
		re, ok, err := d.ResolveEdge(app, t)
		if err != nil {
			return nil, st, err
		}
		if !ok {
			st.Skipped++
			continue
		}
		from, err := screenOf(t.From)
		if err != nil {
			return nil, st, err
		}
		to, err := screenOf(t.To)
		if err != nil {
			return nil, st, err
		}
		var elem int64
		if re.Element != nil {
			desc := *re.Element
			k := fmt.Sprintf("%d|%s", from, desc.Key())
			id, ok := elemID[k]
			if !ok {
				id = int64(len(g.Elements) + 1)
				elemID[k] = id
				g.Elements = append(g.Elements, knowledge.Element{ID: id, ScreenID: from, Key: desc.Key(), Descriptor: desc, Label: desc.Label()})
			}
			elem = id
		}
		if elem != 0 && from != to {
			// AppAgent-style documentation from exploration: what using the
			// element shows next
			if e := &g.Elements[elem-1]; e.Doc == "" {
				e.Doc = "Opens " + describeScreen(re.To)
			}
		}
		k := tkey{from: from, to: to, action: re.Action, elem: elem}
		if _, ok := edges[k]; !ok {
			order = append(order, k)
		}
		edges[k] += max(t.Count, 1)
	}
	for _, k := range order {
		g.Transitions = append(g.Transitions, knowledge.Transition{ID: int64(len(g.Transitions) + 1), From: k.from, To: k.to,
			Action: k.action, ElementID: k.elem, Count: edges[k], Source: knowledge.SourceExploration})
	}
	st.Screens, st.Elements, st.Transitions, st.States = len(g.Screens), len(g.Elements), len(g.Transitions), len(stateScreen)
	return g, st, nil
}

// Edge is a recorded transition placed on the screen model: its two
// captures, the agent's action name (tap, input, back, launch) and, for
// tap and input, the descriptor of the clickable owner of the recorded
// target — the same key the agent records at run time.
type Edge struct {
	From, To *screen.Snapshot
	Action   string
	Element  *screen.Descriptor
}

// ResolveEdge places one transition of app on the screen model. ok is
// false for edges that cannot be placed: kill_app, keys other than BACK,
// a state without a capture, or a target missing from the canonical
// capture. The error is a state file that failed to load.
func (d *Dataset) ResolveEdge(app string, t Transition) (e Edge, ok bool, err error) {
	switch t.Action.Type {
	case "click":
		e.Action = "tap"
	case "input":
		e.Action = "input"
	case "key":
		if !strings.EqualFold(t.Action.Key, "BACK") {
			return e, false, nil
		}
		e.Action = "back"
	case "intent":
		e.Action = "launch"
	default:
		return e, false, nil
	}
	if !t.FromKnown || !t.ToKnown || !d.HasState(app, t.From) || !d.HasState(app, t.To) {
		return e, false, nil
	}
	if e.From, err = d.State(app, t.From); err != nil {
		return e, false, err
	}
	if e.To, err = d.State(app, t.To); err != nil {
		return e, false, err
	}
	if e.Action == "tap" || e.Action == "input" {
		if t.Target == nil || t.Target.CanonicalTempID == nil || e.From.Node(*t.Target.CanonicalTempID) == nil {
			return e, false, nil
		}
		owner := e.From.ClickableAncestor(*t.Target.CanonicalTempID)
		desc := screen.Describe(e.From, owner.ID)
		e.Element = &desc
	}
	return e, true, nil
}

// ImportStats counts what ExplorationGraph built and left out.
type ImportStats struct {
	States         int `json:"states"`         // recorded states touched
	Screens        int `json:"screens"`        // after merging by fingerprint
	Elements       int `json:"elements"`       // distinct acted-on elements
	Transitions    int `json:"transitions"`    // distinct edges
	Skipped        int `json:"skipped"`        // edges that could not be placed
	Demonstrations int `json:"demonstrations"` // task-demonstration edges left out
}

// describeScreen summarises a screen for the UI manual: its activity and
// its first labels.
func describeScreen(s *screen.Snapshot) string {
	var labels []string
	for _, e := range screen.Elements(s) {
		if e.Label != "" && len(labels) < 6 {
			labels = append(labels, e.Label)
		}
	}
	act := s.Activity
	if i := strings.LastIndexByte(act, '.'); i >= 0 {
		act = act[i+1:]
	}
	return strings.TrimSpace(act + ": " + strings.Join(labels, ", "))
}

// Label returns the label app's launcher icon shows, as its recorded
// screens show it: the text or content-desc, among those of its recorded
// states, that is the data-set name with spaces and case aside (the name
// "photoeditor" for "Photo Editor"), the most frequent one, else the same
// among the other apps' states (a launcher's); else AppLabel(app). A
// phone gives the launcher's label; a data set only its name. Computed
// once per app (it may read every recorded state).
func (d *Dataset) Label(app string) string {
	d.mu.Lock()
	l, ok := d.labels[app]
	d.mu.Unlock()
	if ok {
		return l
	}
	want := lettersOf(app)
	count := map[string]int{}
	// its own screens first (a title bar, an "About" page), then the other
	// apps' (a launcher lists it)
	for _, in := range append([]string{app}, d.AppNames()...) {
		if len(count) > 0 {
			break
		}
		ids, _ := d.StateIDs(in)
		for _, id := range ids {
			s, err := d.State(in, id)
			if err != nil {
				continue
			}
			for i := range s.Nodes {
				for _, t := range []string{s.Nodes[i].Text, s.Nodes[i].ContentDesc} {
					if t = strings.TrimSpace(t); t != "" && len(t) <= 2*len(app)+8 && lettersOf(t) == want {
						count[t]++
					}
				}
			}
		}
	}
	l = AppLabel(app)
	best := 0
	for t, n := range count {
		if n > best || n == best && t < l {
			l, best = t, n
		}
	}
	d.mu.Lock()
	d.labels[app] = l
	d.mu.Unlock()
	return l
}

// lettersOf returns s's letters, lower case.
func lettersOf(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// AppLabel makes a display label from a data-set app name ("jotter" ->
// "Jotter").
func AppLabel(name string) string {
	if name == "" {
		return ""
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

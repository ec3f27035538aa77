package daemon

import (
	"context"
	"fmt"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// replanDepth bounds the taps a re-planned detour may take: an app update
// moves a setting one level deeper. Longer detours found paths that left
// the screen and came back to another variant of it (a wrong tap on the
// way), so the bound stays at one.
const replanDepth = 1

// replanStep handles a step whose element is gone from the screen it was
// learned on (an app update moved the entry deeper): when s is
// recognisably that screen and the app's UI graph in the store knows a
// screen of the same activity, at most replanDepth navigation taps away,
// holding an element with the step's label that otherwise matches the
// step's target (relaxedScore), it follows that path (each edge's element
// grounded by its descriptor) and reports whether the phone got there.
// A detour that cannot be followed stops where it failed; the caller's
// recovery and the planner take it from there.
func (r *run) replanStep(ctx context.Context, s *screen.Snapshot, fp string, step knowledge.Step) (bool, error) {
	want := relaxedLabel(step.Target)
	if want == "" || !screenLike(step.Where, s) {
		return false, nil
	}
	g, err := r.e.store.Graph(ctx, r.app.ID)
	if err != nil {
		return false, nil // no graph: nothing to plan with
	}
	// the destination: a screen of the step's activity (a moved entry
	// stays in its settings) holding the element — same role, same label,
	// and otherwise like it (relaxedScore)
	activity := map[int64]string{}
	for _, sc := range g.Screens {
		activity[sc.ID] = shortActivity(sc.Activity)
	}
	path := detour(g, fp, func(e knowledge.Element) bool {
		return activity[e.ScreenID] == step.Where.Activity && relaxedLabel(e.Descriptor) == want &&
			relaxedScore(step.Target, e.Descriptor, r.cfg.LabelSimilarity) >= regroundMin
	})
	if len(path) == 0 {
		return false, nil
	}
	for i, el := range path {
		if i > 0 {
			if s, fp, err = r.observe(ctx, len(r.steps)); err != nil {
				return false, err
			}
		}
		m, ok := screen.Ground(s, el.Descriptor)
		if !ok {
			return false, nil
		}
		elems := screen.Elements(s)
		idx := ElementIndex(s, elems, m.NodeID)
		if idx < 0 {
			return false, nil
		}
		e := &elems[idx]
		a := device.Action{Type: device.Tap, Node: e.NodeID, Bounds: e.Bounds, Label: e.Label}
		rec, err := r.act(ctx, s, fp, a, e, Decision{Action: device.Tap, Mode: "replay",
			Reason: fmt.Sprintf("re-plan: the element of %s moved; step %d of %d through the UI graph", describeStep(step), i+1, len(path))}, 0)
		if err != nil {
			return false, err
		}
		if !hadEffect(rec) {
			return false, nil
		}
	}
	return true, nil
}

// detour finds in g the shortest tap path (at most replanDepth taps) from
// the screen with fingerprint fp to another screen holding an element
// that has; it returns the elements to tap, in order (nil: none).
func detour(g *knowledge.Graph, fp string, has func(knowledge.Element) bool) []knowledge.Element {
	start := int64(-1)
	for _, sc := range g.Screens {
		if sc.Fingerprint == fp {
			start = sc.ID
		}
	}
	if start < 0 {
		return nil
	}
	elems := map[int64]knowledge.Element{}
	holds := map[int64]bool{}
	for _, e := range g.Elements {
		elems[e.ID] = e
		if has(e) {
			holds[e.ScreenID] = true
		}
	}
	// navigation only: taps on elements that are neither toggles nor
	// fields (a detour must not change a setting on its way)
	out := map[int64][]knowledge.Transition{}
	for _, t := range g.Transitions {
		e, ok := elems[t.ElementID]
		if t.Action == device.Tap && ok && t.From != t.To && t.Count > 0 && !e.Descriptor.Checkable && !e.Descriptor.Editable {
			out[t.From] = append(out[t.From], t)
		}
	}
	type item struct {
		screen int64
		path   []knowledge.Element
	}
	seen := map[int64]bool{start: true}
	queue := []item{{screen: start}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if it.screen != start && holds[it.screen] {
			return it.path
		}
		if len(it.path) >= replanDepth {
			continue
		}
		for _, t := range out[it.screen] {
			if seen[t.To] {
				continue
			}
			seen[t.To] = true
			queue = append(queue, item{screen: t.To, path: append(append([]knowledge.Element(nil), it.path...), elems[t.ElementID])})
		}
	}
	return nil
}

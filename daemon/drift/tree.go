package drift

import "fmt"

// tnode is a view in a state's tree; old is its temp_id before the
// change (-1 for a view the drift added).
type tnode struct {
	v    map[string]any
	kids []*tnode
	old  int
}

// tree builds the view tree of st from the views' parent fields.
func (st *state) tree() []*tnode {
	nodes := make([]*tnode, len(st.views))
	for i, v := range st.views {
		nodes[i] = &tnode{v: v, old: i}
	}
	var roots []*tnode
	for i, v := range st.views {
		p := num(v["parent"])
		if p < 0 || p >= len(nodes) || p == i {
			roots = append(roots, nodes[i])
			continue
		}
		nodes[p].kids = append(nodes[p].kids, nodes[i])
	}
	return roots
}

// setTree writes roots back as st's views in pre-order, renumbering
// temp_id, parent and children, and returns the old-to-new id map of the
// views that existed before.
func (st *state) setTree(roots []*tnode) map[int]int {
	var views []map[string]any
	remap := map[int]int{}
	var walk func(n *tnode, parent int)
	walk = func(n *tnode, parent int) {
		id := len(views)
		views = append(views, n.v)
		n.v["temp_id"] = id
		n.v["parent"] = parent
		if n.old >= 0 {
			remap[n.old] = id
		}
		kids := make([]int, 0, len(n.kids))
		for _, k := range n.kids {
			kids = append(kids, len(views))
			walk(k, id)
		}
		n.v["children"] = kids
		n.v["child_count"] = len(kids)
	}
	for _, r := range roots {
		walk(r, -1)
	}
	st.views = views
	return remap
}

// translate moves a subtree by (dx, dy).
func translate(n *tnode, dx, dy int) {
	if b, ok := bounds(n.v["bounds"]); ok {
		setBounds(n.v, [4]int{b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy})
	}
	for _, k := range n.kids {
		translate(k, dx, dy)
	}
}

// refs calls fn for every place the app's tasks and transitions name a
// view of a recorded state: the state, the object holding the id, and
// the key of the id in it.
func (a *app) refs(fn func(state string, holder map[string]any, key string)) {
	for _, t := range a.tasks {
		for _, s := range list(t["steps"]) {
			step := obj(s)
			st := str(step["state"])
			if tgt := obj(obj(step["action"])["target"]); tgt != nil {
				fn(st, tgt, "temp_id")
			}
			if et := obj(step["event_target"]); et != nil {
				fn(st, et, "temp_id")
			}
			for _, c := range list(step["target_candidates_in_other_states"]) {
				if cm := obj(c); cm != nil {
					fn(str(cm["state"]), cm, "temp_id")
				}
			}
		}
	}
	for _, t := range a.trans {
		for _, tgt := range transTargets(t) {
			fn(str(t["from"]), tgt, "canonical_temp_id")
		}
	}
}

// transTargets returns the target objects of a transition (top level and
// inside the action).
func transTargets(t map[string]any) []map[string]any {
	var out []map[string]any
	if tgt := obj(t["target"]); tgt != nil {
		out = append(out, tgt)
	}
	if tgt := obj(obj(t["action"])["target"]); tgt != nil && (len(out) == 0 || fmt.Sprintf("%p", tgt) != fmt.Sprintf("%p", out[0])) {
		out = append(out, tgt)
	}
	return out
}

// remap renumbers the references to views of state id after setTree; a
// view that no longer exists leaves a null reference.
func (a *app) remap(id string, m map[int]int) {
	a.refs(func(state string, h map[string]any, key string) {
		if state != id {
			return
		}
		old := num(h[key])
		if old < 0 {
			return
		}
		if n, ok := m[old]; ok {
			h[key] = n
		} else {
			h[key] = nil
		}
		if key == "canonical_temp_id" {
			h["temp_id"] = h[key] // the raw capture it named is not in the output
		}
	})
}

// refreshTargets copies each referenced view's class, resource-id, text,
// content-desc and bounds into the reference, so the ground truth
// describes the changed app.
func (a *app) refreshTargets() {
	a.refs(func(state string, h map[string]any, key string) {
		st := a.states[state]
		id := num(h[key])
		if st == nil || id < 0 || id >= len(st.views) {
			return
		}
		v := st.views[id]
		for _, k := range []string{"class", "resource_id", "text", "content_description", "bounds"} {
			if _, has := h[k]; has {
				h[k] = v[k]
			}
		}
	})
}

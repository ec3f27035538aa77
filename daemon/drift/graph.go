package drift

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Texts of the screens the drift adds: generic app-update chrome, not
// taken from any recorded app.
var dialogs = []struct {
	title, message string
	buttons        []string // the first one dismisses
}{
	{"What's new", "This version brings a fresh look and faster search.", []string{"Got it"}},
	{"Enjoying the app?", "Rate us on the store, it helps a lot.", []string{"Not now", "Rate"}},
}

const deeperTitle = "Advanced"

// isDialogState reports whether a state's first root is smaller than the
// screen (drawn as a dialog), as screen.IsDialog decides.
func isDialogState(st *state) bool {
	w, h := num(st.doc["width"]), num(st.doc["height"])
	for _, v := range st.views {
		if num(v["parent"]) < 0 {
			b, ok := bounds(v["bounds"])
			return ok && w > 0 && h > 0 && (b[2]-b[0] < w*9/10 || b[3]-b[1] < h*8/10)
		}
	}
	return false
}

// newState adds a state shaped like like (activity, size) with views.
func (a *app) newState(id string, like *state, views []map[string]any) *state {
	doc := map[string]any{}
	for _, k := range []string{"tag", "foreground_activity", "activity_stack", "width", "height"} {
		doc[k] = like.doc[k]
	}
	doc["state_str"] = id
	doc["source_files"] = []string{}
	st := &state{id: id, doc: doc}
	st.setTree(flat(views))
	a.states[id] = st
	a.added = append(a.added, id)
	return st
}

// flat turns views whose "parent" fields index the list into a tree.
func flat(views []map[string]any) []*tnode {
	s := &state{views: views}
	for i, v := range views {
		v["temp_id"] = i
	}
	return s.tree()
}

// view makes a plain view of the app.
func (a *app) view(class string, parent int, b [4]int, text string) map[string]any {
	v := map[string]any{"class": class, "package": a.pkg, "parent": parent, "resource_id": nil, "text": nil, "content_description": nil,
		"visible": true, "enabled": true, "clickable": false, "long_clickable": false, "checkable": false, "checked": false,
		"editable": false, "scrollable": false, "selected": false, "focusable": false, "focused": false, "is_password": false}
	if text != "" {
		v["text"] = text
	}
	setBounds(v, b)
	v["view_str"] = fmt.Sprintf("%016x", hash(class, text, fmt.Sprint(b)))
	return v
}

// interstitial puts a dialog before a share s of the screens that task
// steps tap their way to (not start screens, not dialogs): every tap that
// led there now shows the dialog first, and its first button (or BACK)
// leads on. Tasks get the dismissing tap as an extra step.
func (a *app) interstitial(s float64, r *rand.Rand) (int, error) {
	salt := r.Uint64()
	starts := map[string]bool{}
	for _, k := range []string{"task_start_states", "launch_entry_states"} {
		for _, v := range list(a.info[k]) {
			starts[str(v)] = true
		}
	}
	for _, t := range a.tasks {
		starts[str(t["start_state"])] = true
	}
	var targets []string
	for _, t := range a.tasks {
		for _, st := range list(t["steps"]) {
			step := obj(st)
			to := str(step["next_state"])
			if str(obj(step["action"])["type"]) != "click" || to == str(step["state"]) || starts[to] || a.states[to] == nil ||
				isDialogState(a.states[to]) || slices.Contains(targets, to) {
				continue
			}
			targets = append(targets, to)
		}
	}
	slices.Sort(targets)
	n := 0
	for _, x := range targets {
		if !chance(salt, "dialog\x00"+x, s) {
			continue
		}
		dl := dialogs[hash(fmt.Sprint(salt), x)%uint64(len(dialogs))]
		xs := a.states[x]
		w, h := num(xs.doc["width"]), num(xs.doc["height"])
		l, t, rt, b := w*8/100, h*35/100, w*92/100, h*62/100
		views := []map[string]any{
			a.view("android.widget.FrameLayout", -1, [4]int{l, t, rt, b}, ""),
			a.view("android.widget.TextView", 0, [4]int{l + 60, t + 60, rt - 60, t + 160}, dl.title),
			a.view("android.widget.TextView", 0, [4]int{l + 60, t + 180, rt - 60, t + 330}, dl.message),
		}
		bw := (rt - l - 120) / len(dl.buttons)
		for i, label := range dl.buttons {
			v := a.view("android.widget.Button", 0, [4]int{l + 60 + i*bw, b - 180, l + 60 + (i+1)*bw - 20, b - 60}, label)
			v["clickable"], v["focusable"] = true, true
			views = append(views, v)
		}
		id := fmt.Sprintf("drift-dialog-%016x", hash(fmt.Sprint(salt), x))
		d := a.newState(id, xs, views)
		dismiss := 3 // the first button
		for _, t := range a.trans {
			if str(t["to"]) == x && str(t["from"]) != x && str(obj(t["action"])["type"]) == "click" {
				t["to"] = id
			}
		}
		a.addTrans(a.edge(id, x, "click", d, dismiss), a.edge(id, x, "key", d, -1))
		for _, t := range a.tasks {
			a.insertAfter(t, func(step map[string]any) (map[string]any, bool) {
				if str(step["next_state"]) != x || str(step["state"]) == x || str(obj(step["action"])["type"]) != "click" {
					return nil, false
				}
				step["next_state"] = id
				return map[string]any{"state": id, "next_state": x, "action": map[string]any{"type": "click", "target": target(d, dismiss)},
					"target_source": "drift"}, true
			})
		}
		n++
	}
	return n, nil
}

// edge makes a recorded transition from a drift-made state: a click on
// node (or BACK when node < 0).
func (a *app) edge(from, to, typ string, st *state, node int) map[string]any {
	t := map[string]any{"app": a.name, "source": "droidbot_event", "from": from, "to": to, "count": 1, "event_tags": []string{},
		"from_known": true, "to_known": true}
	if node < 0 {
		t["action"] = map[string]any{"type": "key", "key": "BACK"}
		t["target"] = nil
		return t
	}
	tgt := target(st, node)
	tgt["canonical_temp_id"] = node
	t["action"] = map[string]any{"type": typ}
	t["target"] = tgt
	return t
}

// target describes view node of st as a task or transition target.
func target(st *state, node int) map[string]any {
	v := st.views[node]
	tgt := map[string]any{"temp_id": node}
	for _, k := range []string{"class", "resource_id", "text", "content_description", "bounds", "clickable", "view_str"} {
		tgt[k] = v[k]
	}
	return tgt
}

// insertAfter walks a task's steps; where fn returns a step, it is
// inserted after the current one. Step indexes and num_actions follow.
func (a *app) insertAfter(task map[string]any, fn func(step map[string]any) (map[string]any, bool)) {
	var out []any
	for _, s := range list(task["steps"]) {
		out = append(out, s)
		if extra, ok := fn(obj(s)); ok {
			out = append(out, extra)
		}
	}
	actions := 0
	for i, s := range out {
		obj(s)["index"] = i
		if str(obj(obj(s)["action"])["type"]) != "done" {
			actions++
		}
	}
	task["steps"] = out
	task["num_actions"] = actions
}

// owner returns the nearest clickable view at or above id.
func owner(st *state, id int) int {
	for i := id; i >= 0 && i < len(st.views); i = num(st.views[i]["parent"]) {
		if st.views[i]["clickable"] == true {
			return i
		}
	}
	return -1
}

// inside reports whether id is row or under it.
func inside(st *state, id, row int) bool {
	for i := id; i >= 0 && i < len(st.views); i = num(st.views[i]["parent"]) {
		if i == row {
			return true
		}
	}
	return false
}

// deeper moves a share s of the settings entries that task steps tap to
// open another screen (at most one per screen) (an entry of a screen whose activity names settings
// or preferences; toggles that stay on the page are left) onto a new page
// behind an "Advanced" entry, which takes the old entry's place. Tasks get
// the extra tap.
func (a *app) deeper(s float64, r *rand.Rand) (int, error) {
	salt := r.Uint64()
	type entry struct {
		state string
		row   int
	}
	var entries []entry
	for _, t := range a.tasks {
		for _, st := range list(t["steps"]) {
			step := obj(st)
			from, to := a.states[str(step["state"])], a.states[str(step["next_state"])]
			act := obj(step["action"])
			node := num(obj(act["target"])["temp_id"])
			if from == nil || to == nil || from == to || str(act["type"]) != "click" || node < 0 || !settingsScreen(from) || isDialogState(from) {
				continue
			}
			if str(to.doc["foreground_activity"]) == str(from.doc["foreground_activity"]) && len(to.views) == len(from.views) {
				continue // a toggle that stays on the page
			}
			row := owner(from, node)
			if row < 0 || slices.Contains(entries, entry{from.id, row}) {
				continue
			}
			entries = append(entries, entry{from.id, row})
		}
	}
	slices.SortFunc(entries, func(x, y entry) int {
		if c := strings.Compare(x.state, y.state); c != 0 {
			return c
		}
		return x.row - y.row
	})
	n := 0
	moved := map[string]bool{} // one entry per screen moves (one "Advanced" page)
	for _, e := range entries {
		src := a.states[e.state]
		if moved[e.state] || !chance(salt, "deeper\x00"+e.state+"\x00"+viewKey(src.views[e.row]), s) {
			continue
		}
		moved[e.state] = true
		page, copies, err := a.deeperPage(src, e.row, salt)
		if err != nil {
			return n, err
		}
		// the old entry becomes the way to the new page
		for i, v := range src.views {
			if !inside(src, i, e.row) {
				continue
			}
			v["content_description"] = nil
			if i == e.row && str(v["resource_id"]) != "" {
				v["resource_id"] = a.pkg + ":id/more_settings"
			}
			if str(v["text"]) != "" {
				v["text"] = nil
			}
		}
		label := firstText(src, e.row)
		src.views[label]["text"] = deeperTitle
		// transitions and task steps that tapped the entry go through the page
		var added []map[string]any
		for _, t := range a.trans {
			if str(t["from"]) != e.state || str(obj(t["action"])["type"]) != "click" {
				continue
			}
			tg := transTargets(t)
			if len(tg) == 0 || !inside(src, num(tg[0]["canonical_temp_id"]), e.row) {
				continue
			}
			moved := clone(t)
			moved["from"] = page.id
			for _, mt := range transTargets(moved) {
				mt["canonical_temp_id"] = copies[num(mt["canonical_temp_id"])]
				mt["temp_id"] = mt["canonical_temp_id"]
			}
			added = append(added, moved)
			t["to"] = page.id
		}
		a.addTrans(added...)
		a.addTrans(a.edge(page.id, e.state, "key", page, -1))
		for _, t := range a.tasks {
			a.insertAfter(t, func(step map[string]any) (map[string]any, bool) {
				tgt := obj(obj(step["action"])["target"])
				if str(step["state"]) != e.state || str(obj(step["action"])["type"]) != "click" || tgt == nil || !inside(src, num(tgt["temp_id"]), e.row) {
					return nil, false
				}
				next := step["next_state"]
				step["next_state"] = page.id
				moved := clone(step)
				moved["state"], moved["next_state"], moved["target_source"] = page.id, next, "drift"
				delete(moved, "screen_html")
				mt := obj(obj(moved["action"])["target"])
				mt["temp_id"] = copies[num(tgt["temp_id"])]
				return moved, true
			})
		}
		n++
	}
	return n, nil
}

// settingsScreen reports whether a screen's activity names settings or
// preferences.
func settingsScreen(st *state) bool {
	a := strings.ToLower(str(st.doc["foreground_activity"]))
	return strings.Contains(a, "setting") || strings.Contains(a, "preference")
}

// firstText returns the first view at or under row with text, else row.
func firstText(st *state, row int) int {
	for i := row; i < len(st.views); i++ {
		if inside(st, i, row) && str(st.views[i]["text"]) != "" {
			return i
		}
	}
	return row
}

// deeperPage makes the page an entry moves to: a header and a copy of the
// entry's row at the top. copies maps the row's views to their copies.
func (a *app) deeperPage(src *state, row int, salt uint64) (*state, map[int]int, error) {
	w, h := num(src.doc["width"]), num(src.doc["height"])
	views := []map[string]any{
		a.view("android.widget.FrameLayout", -1, [4]int{0, 0, w, h}, ""),
		a.view("android.widget.LinearLayout", 0, [4]int{0, 0, w, h}, ""),
		a.view("android.widget.TextView", 1, [4]int{40, 80, w - 40, 220}, deeperTitle),
	}
	rb, ok := bounds(src.views[row]["bounds"])
	if !ok {
		return nil, nil, fmt.Errorf("state %s view %d: no bounds", src.id, row)
	}
	dy := 260 - rb[1]
	copies := map[int]int{}
	for i, v := range src.views {
		if !inside(src, i, row) {
			continue
		}
		c := clone(v)
		copies[i] = len(views)
		if i == row {
			c["parent"] = 1
		} else {
			c["parent"] = copies[num(v["parent"])]
		}
		if b, ok := bounds(v["bounds"]); ok {
			setBounds(c, [4]int{b[0], b[1] + dy, b[2], b[3] + dy})
		}
		views = append(views, c)
	}
	id := fmt.Sprintf("drift-deeper-%016x", hash(fmt.Sprint(salt), src.id, fmt.Sprint(row)))
	page := a.newState(id, src, views)
	// newState renumbers in pre-order; the copies were appended in
	// pre-order after the header, so their ids stand
	return page, copies, nil
}

// clone deep-copies a JSON object as decode and the drift build them.
func clone(m map[string]any) map[string]any {
	return deepCopy(m).(map[string]any)
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	case [][2]int:
		return slices.Clone(x)
	case []int:
		return slices.Clone(x)
	case []string:
		return slices.Clone(x)
	}
	return v // strings, numbers, booleans, nil
}

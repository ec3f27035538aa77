package drift

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"unicode"
)

// stateIDs returns the app's state ids, sorted (deterministic order).
func (a *app) stateIDs() []string {
	ids := make([]string, 0, len(a.states))
	for id := range a.states {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// retext recases or rewords a share s of the app's distinct texts (text
// and content-desc of views that are not input fields), the same way on
// every screen; texts with digits and words the tasks name as data (a
// contact, a note title) are left alone. The HTML labels of the tasks'
// below-the-fold targets follow.
func (a *app) retext(s float64, syn Synonyms, r *rand.Rand) int {
	salt := r.Uint64()
	mapping := map[string]string{}
	change := func(t string) string {
		if t == "" || strings.ContainsFunc(t, unicode.IsDigit) || len(strings.Fields(t)) > 4 {
			return t
		}
		if m, ok := mapping[t]; ok {
			return m
		}
		out := t
		if chance(salt, "text\x00"+t, s) {
			out = a.reword(t, salt, syn)
		}
		mapping[t] = out
		return out
	}
	n := 0
	for _, id := range a.stateIDs() {
		for _, v := range a.states[id].views {
			if v["editable"] == true {
				continue
			}
			for _, k := range []string{"text", "content_description"} {
				if t, ok := v[k].(string); ok {
					if u := change(t); u != t {
						v[k] = u
						n++
					}
				}
			}
		}
	}
	var htmls []map[string]any
	for _, t := range a.trans {
		for _, tgt := range transTargets(t) {
			if h := obj(tgt["html_only"]); h != nil {
				htmls = append(htmls, h)
			}
		}
	}
	for _, t := range a.tasks {
		for _, st := range list(t["steps"]) {
			if h := obj(obj(st)["target_html"]); h != nil {
				htmls = append(htmls, h)
			}
		}
	}
	for _, h := range htmls {
		inner := str(h["inner"])
		first, rest, cut := strings.Cut(inner, "<br>")
		if u := change(strings.TrimSpace(first)); u != strings.TrimSpace(first) {
			if cut {
				u += "<br>" + rest
			}
			h["inner"] = u
		}
	}
	return n
}

// reword changes one text: with a synonym for one of its words when the
// source knows one and the coin says so, else its case.
func (a *app) reword(t string, salt uint64, syn Synonyms) string {
	words := strings.Fields(t)
	if syn != nil && hash(fmt.Sprint(salt), "how\x00"+t)%2 == 0 {
		for i, w := range words {
			lw := strings.ToLower(strings.Trim(w, ".,:;!?…"))
			if len(lw) < 3 || a.dataWords[lw] {
				continue
			}
			if alt := syn.Synonym(lw); alt != "" && alt != lw {
				words[i] = matchCase(w, alt)
				return strings.Join(words, " ")
			}
		}
	}
	switch {
	case t == strings.ToUpper(t):
		return titleCase(strings.ToLower(t))
	case hash(fmt.Sprint(salt), "case\x00"+t)%2 == 0:
		return strings.ToUpper(t)
	default:
		return strings.ToLower(t)
	}
}

func matchCase(like, w string) string {
	switch {
	case like == strings.ToUpper(like) && len(like) > 1:
		return strings.ToUpper(w)
	case len(like) > 0 && unicode.IsUpper([]rune(like)[0]):
		return titleCase(w)
	}
	return w
}

func titleCase(s string) string {
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

// dataWordsOf returns the words a command names as data: quoted, or
// capitalised but not first (a contact, a file, a note title).
func dataWordsOf(cmd string) map[string]bool {
	out := map[string]bool{}
	quoted := false
	for i, w := range strings.Fields(cmd) {
		open := strings.HasPrefix(w, "'") || strings.HasPrefix(w, "\"")
		clean := strings.Trim(w, "'\".,:;!?")
		if open {
			quoted = true
		}
		r := []rune(clean)
		if len(r) > 0 && (quoted || (i > 0 && unicode.IsUpper(r[0]))) {
			out[strings.ToLower(strings.TrimSuffix(clean, "'s"))] = true
		}
		if strings.HasSuffix(strings.TrimRight(w, ".,:;!?"), "'") || strings.HasSuffix(w, "\"") {
			quoted = false
		}
	}
	return out
}

// renameIDs obfuscates a share s of the app's own distinct resource
// names ("pkg:id/save_button" -> "pkg:id/b7q"; the framework's "android:id/…"
// stay), the same way everywhere.
func (a *app) renameIDs(s float64, r *rand.Rand) int {
	salt := r.Uint64()
	n := 0
	for _, id := range a.stateIDs() {
		for _, v := range a.states[id].views {
			rid, ok := v["resource_id"].(string)
			if !ok || rid == "" {
				continue
			}
			prefix, name, found := strings.Cut(rid, ":id/")
			if !found || prefix != a.pkg || !chance(salt, "rid\x00"+name, s) {
				continue
			}
			v["resource_id"] = prefix + ":id/" + obfuscated(salt, name)
			n++
		}
	}
	return n
}

// obfuscated is an R8-style short name for name: a letter and two base-36
// characters from a hash.
func obfuscated(salt uint64, name string) string {
	h := hash(fmt.Sprint(salt), "obf\x00"+name)
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	return string([]byte{digits[10+h%26], digits[(h/26)%36], digits[(h/936)%36]})
}

// rescale maps every screen to another size: a scale of 1 ± 0.3·s (the
// sign by seed) and a shift down by 100·s px, the same for all screens
// (one device).
func (a *app) rescale(s float64, r *rand.Rand) int {
	f := 1 + 0.3*s
	if r.IntN(2) == 0 {
		f = 1 - 0.3*s
	}
	dy := int(math.Round(100 * s))
	tr := func(b [4]int) [4]int {
		return [4]int{int(math.Round(float64(b[0]) * f)), int(math.Round(float64(b[1])*f)) + dy,
			int(math.Round(float64(b[2]) * f)), int(math.Round(float64(b[3])*f)) + dy}
	}
	n := 0
	for _, id := range a.stateIDs() {
		st := a.states[id]
		for _, k := range []string{"width", "height"} {
			if w := num(st.doc[k]); w > 0 {
				st.doc[k] = int(math.Round(float64(w) * f))
			}
		}
		if h := num(st.doc["height"]); h > 0 {
			st.doc["height"] = h + dy
		}
		for _, v := range st.views {
			if b, ok := bounds(v["bounds"]); ok {
				setBounds(v, tr(b))
				n++
			}
		}
	}
	return n
}

// interactive reports whether a view is something a person taps or types
// into.
func interactive(v map[string]any) bool {
	return v["clickable"] == true || v["checkable"] == true || v["editable"] == true || v["long_clickable"] == true
}

// viewKey names a view across screens (class, resource-id, label) for
// consistent choices.
func viewKey(v map[string]any) string {
	return str(v["class"]) + "\x00" + str(v["resource_id"]) + "\x00" + str(v["text"]) + "\x00" + str(v["content_description"])
}

// wrap puts a share s of the interactive views (chosen by identity, so the
// same on every screen) inside a new FrameLayout of the same bounds.
func (a *app) wrap(s float64, r *rand.Rand) (int, error) {
	salt := r.Uint64()
	n := 0
	for _, id := range a.stateIDs() {
		st := a.states[id]
		roots := st.tree()
		var walk func(list []*tnode) []*tnode
		walk = func(list []*tnode) []*tnode {
			out := make([]*tnode, len(list))
			for i, c := range list {
				c.kids = walk(c.kids)
				out[i] = c
				if interactive(c.v) && chance(salt, "wrap\x00"+viewKey(c.v), s) {
					out[i] = &tnode{v: wrapper(c.v), kids: []*tnode{c}, old: -1}
					n++
				}
			}
			return out
		}
		roots = walk(roots)
		a.remap(id, st.setTree(roots))
	}
	return n, nil
}

// wrapper is a plain container view around v.
func wrapper(v map[string]any) map[string]any {
	w := map[string]any{"class": "android.widget.FrameLayout", "package": v["package"], "resource_id": nil, "text": nil,
		"content_description": nil, "visible": v["visible"], "enabled": true, "clickable": false, "long_clickable": false,
		"checkable": false, "checked": false, "editable": false, "scrollable": false, "selected": false, "focusable": false,
		"focused": false, "is_password": false}
	if b, ok := bounds(v["bounds"]); ok {
		setBounds(w, b)
	}
	w["signature"] = "[class]android.widget.FrameLayout[resource_id][text][enabled,,]"
	w["view_str"] = fmt.Sprintf("%016x", hash("wrapper", str(v["view_str"])))
	return w
}

// shuffle reorders the children of a share s of the views with two or
// more children; children of one size (rows) also swap places on screen.
func (a *app) shuffle(s float64, r *rand.Rand) (int, error) {
	n := 0
	for _, id := range a.stateIDs() {
		st := a.states[id]
		roots := st.tree()
		var walk func(t *tnode)
		walk = func(t *tnode) {
			for _, k := range t.kids {
				walk(k)
			}
			if len(t.kids) < 2 || r.Float64() >= s {
				return
			}
			perm := r.Perm(len(t.kids))
			kids := make([]*tnode, len(t.kids))
			for i, p := range perm {
				kids[i] = t.kids[p]
			}
			if sameSize(t.kids) {
				// the i-th child in the new order takes the i-th place
				places := make([][4]int, len(t.kids))
				for i, k := range t.kids {
					places[i], _ = bounds(k.v["bounds"])
				}
				for i, k := range kids {
					from, _ := bounds(k.v["bounds"])
					translate(k, places[i][0]-from[0], places[i][1]-from[1])
				}
			}
			t.kids = kids
			n++
		}
		for _, root := range roots {
			walk(root)
		}
		a.remap(id, st.setTree(roots))
	}
	return n, nil
}

func sameSize(list []*tnode) bool {
	first, ok := bounds(list[0].v["bounds"])
	if !ok {
		return false
	}
	for _, k := range list[1:] {
		b, ok := bounds(k.v["bounds"])
		if !ok || b[2]-b[0] != first[2]-first[0] || b[3]-b[1] != first[3]-first[1] {
			return false
		}
	}
	return true
}

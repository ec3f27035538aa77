package screen

import (
	"math"
	"strings"
	"testing"
)

func mutateVolatile(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= '0' && c <= '9' {
			b[i] = '0' + (c-'0'+7)%10
		}
	}
	return reWord.ReplaceAllStringFunc(string(b), func(w string) string {
		r, ok := volatileSwap[strings.ToLower(w)]
		if !ok {
			return w
		}
		if w == strings.ToUpper(w) {
			return strings.ToUpper(r)
		}
		if w[0] >= 'A' && w[0] <= 'Z' {
			return strings.ToUpper(r[:1]) + r[1:]
		}
		return r
	})
}

// TestFingerprintVolatileText: on every DroidTask state, changing clock
// times, dates, counters, month and weekday names keeps the fingerprint.
func TestFingerprintVolatileText(t *testing.T) {
	states := loadDroidTask(t)
	changed := 0
	for _, st := range states {
		s := st.Snap
		m := s.Clone()
		diff := false
		for i := range m.Nodes {
			n := &m.Nodes[i]
			n.Text, n.ContentDesc = mutateVolatile(n.Text), mutateVolatile(n.ContentDesc)
			diff = diff || n.Text != s.Nodes[i].Text || n.ContentDesc != s.Nodes[i].ContentDesc
		}
		m.Changed()
		if !diff {
			continue
		}
		changed++
		if a, b := Fingerprint(s), Fingerprint(m); a != b {
			t.Errorf("%s/%s: fingerprint %s became %s when only volatile text changed", st.App, st.Name, a, b)
		}
		if sim := Similarity(s, m); sim != 1 {
			t.Errorf("%s/%s: similarity %v", st.App, st.Name, sim)
		}
	}
	t.Logf("%d of %d states have volatile text; all kept their fingerprint", changed, len(states))
	if changed == 0 {
		t.Error("no state had volatile text to change")
	}
	if got := mutateVolatile("Mon, Jan 5 at 10:30 AM · 3 items"); got != "Sat, Mar 2 at 87:07 PM · 0 items" {
		t.Errorf("mutateVolatile = %q", got)
	}
}

// rebuild returns s without the subtree of drop (when >= 0) and with a copy
// of the subtree of dup (when >= 0) inserted after it, its texts prefixed
// by "copy ", renumbered and re-validated.
func rebuild(t testing.TB, s *Snapshot, drop, dup int) *Snapshot {
	t.Helper()
	subtree := func(root int) []int {
		var ids []int
		if root >= 0 {
			s.Walk(root, func(n *Node, _ int) bool { ids = append(ids, n.ID); return true })
		}
		return ids
	}
	dropped := map[int]bool{}
	for _, id := range subtree(drop) {
		dropped[id] = true
	}
	dupIDs := subtree(dup)
	last := -1
	if len(dupIDs) > 0 {
		last = dupIDs[len(dupIDs)-1] // pre-order: the subtree ends here
	}
	c := &Snapshot{Width: s.Width, Height: s.Height, Activity: s.Activity, Package: s.Package, Windows: append([]Window(nil), s.Windows...)}
	remap := map[int]int{}
	add := func(n Node, parent int) int {
		n.ID, n.Parent, n.Children = len(c.Nodes), parent, nil
		c.Nodes = append(c.Nodes, n)
		return n.ID
	}
	for i := range s.Nodes {
		if dropped[i] {
			continue
		}
		n := s.Nodes[i]
		p := -1
		if n.Parent >= 0 {
			p = remap[n.Parent]
		}
		remap[i] = add(n, p)
		if i == last {
			cp := map[int]int{}
			for _, id := range dupIDs {
				m := s.Nodes[id]
				if m.Text != "" {
					m.Text = "copy " + m.Text
				}
				q := remap[s.Nodes[dup].Parent]
				if id != dup {
					q = cp[m.Parent]
				}
				cp[id] = add(m, q)
			}
		}
	}
	if err := c.finish("test"); err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	return c
}

// TestFingerprintListGrowsShrinks: on real list screens, removing an item
// of a list (of 3 or more items of one shape) or adding a copy of an item
// keeps the fingerprint; removing a static element changes it.
func TestFingerprintListGrowsShrinks(t *testing.T) {
	states := loadDroidTask(t)
	shrunk, grown, statics := 0, 0, 0
	for _, st := range states {
		s := st.Snap
		keep, list := Keep(s), s.analysis().list
		fp := Fingerprint(s)
		var item, static = -1, -1
		for i := range s.Nodes {
			n := &s.Nodes[i]
			if n.Parent < 0 || !keep[i] {
				continue
			}
			if item < 0 && list[i] && !list[n.Parent] && countListSiblings(s, i) >= 3 {
				item = i
			}
			if static < 0 && !list[i] && n.Interactive() && n.ResourceID != "" && len(n.Children) == 0 && uniqueRID(s, n.ResourceID) {
				static = i
			}
		}
		if item >= 0 {
			if got := Fingerprint(rebuild(t, s, item, -1)); got != fp {
				t.Errorf("%s/%s: removing list item %d changed the fingerprint", st.App, st.Name, item)
			}
			shrunk++
			if got := Fingerprint(rebuild(t, s, -1, item)); got != fp {
				t.Errorf("%s/%s: adding a copy of list item %d changed the fingerprint", st.App, st.Name, item)
			}
			grown++
		}
		if static >= 0 {
			statics++
			if got := Fingerprint(rebuild(t, s, static, -1)); got == fp {
				t.Errorf("%s/%s: removing %s kept the fingerprint", st.App, st.Name, s.Nodes[static].ResourceID)
			}
		}
	}
	t.Logf("lists shrunk in %d states, grown in %d; a static element removed in %d", shrunk, grown, statics)
	if shrunk == 0 || statics == 0 {
		t.Error("no real list or static element found")
	}
}

// countListSiblings counts the kept siblings of i (itself included) that are
// list items of i's shape, judged by equal tokens.
func countListSiblings(s *Snapshot, i int) int {
	keep, list := Keep(s), s.analysis().list
	ref := subtreeTokens(s, i)
	n := 0
	for _, sib := range s.Nodes[s.Nodes[i].Parent].Children {
		if keep[sib] && list[sib] && subtreeTokens(s, sib) == ref {
			n++
		}
	}
	return n
}

func subtreeTokens(s *Snapshot, id int) string {
	keep := Keep(s)
	var b strings.Builder
	s.Walk(id, func(n *Node, d int) bool {
		if !keep[n.ID] {
			return false
		}
		b.WriteString(nodeToken(n, d, true))
		b.WriteByte(';')
		return true
	})
	return b.String()
}

func uniqueRID(s *Snapshot, rid string) bool {
	c := 0
	for i := range s.Nodes {
		if s.Nodes[i].ResourceID == rid {
			c++
		}
	}
	return c == 1
}

// TestFingerprintChanges: a dialog window, a changed static label, an
// added button or another activity change the fingerprint; the keyboard,
// a system window, bounds and typed text do not.
func TestFingerprintChanges(t *testing.T) {
	base := []string{
		nd(0, -1, full, `"class":"android.widget.FrameLayout"`),
		nd(1, 0, Rect{0, 0, 1000, 100}, `"class":"android.widget.TextView","text":"Notes","resource_id":"a:id/title"`),
		nd(2, 0, Rect{0, 100, 1000, 200}, `"class":"android.widget.EditText","editable":true,"text":"Groceries"`),
		nd(3, 0, Rect{0, 200, 1000, 300}, `"class":"android.widget.Button","clickable":true,"text":"Save","resource_id":"a:id/save"`),
	}
	with := func(i int, attrs string) []string {
		c := append([]string(nil), base...)
		c[i] = nd(i, c2p(i), [4]int{0, 100 * i, 1000, 100*i + 100}, attrs)
		return c
	}
	dialog := win(WindowApplication, 2, nd(10, -1, Rect{100, 800, 900, 1200}, `"class":"android.widget.FrameLayout"`),
		nd(11, 10, Rect{100, 800, 900, 1000}, `"class":"android.widget.TextView","text":"Discard?"`),
		nd(12, 10, Rect{100, 1000, 900, 1200}, `"class":"android.widget.Button","clickable":true,"text":"OK"`))
	keyboard := win(WindowInputMethod, 3, nd(20, -1, Rect{0, 1200, 1000, 2000}, ""), nd(21, 20, Rect{0, 1200, 100, 1300}, `"clickable":true,"text":"q"`))
	system := win(WindowSystem, 4, nd(30, -1, Rect{0, 0, 1000, 50}, ""), nd(31, 30, Rect{0, 0, 100, 50}, `"text":"12:30"`))

	ref := Fingerprint(build(t, "a/.Main", win(WindowApplication, 0, base...)))
	tests := []struct {
		name string
		s    *Snapshot
		same bool
	}{
		{"identical", build(t, "a/.Main", win(WindowApplication, 0, base...)), true},
		{"keyboard shown", build(t, "a/.Main", win(WindowApplication, 0, base...), keyboard), true},
		{"system window", build(t, "a/.Main", win(WindowApplication, 0, base...), system), true},
		{"typed text", build(t, "a/.Main", win(WindowApplication, 0, with(2, `"class":"android.widget.EditText","editable":true,"text":"Holiday"`)...)), true},
		{"package prefix of activity", build(t, "other.pkg/.Main", win(WindowApplication, 0, base...)), true},
		{"dialog opened", build(t, "a/.Main", win(WindowApplication, 0, base...), dialog), false},
		{"title changed", build(t, "a/.Main", win(WindowApplication, 0, with(1, `"class":"android.widget.TextView","text":"Archive","resource_id":"a:id/title"`)...)), false},
		{"button gone", build(t, "a/.Main", win(WindowApplication, 0, base[:3]...)), false},
		{"button disabled into a label", build(t, "a/.Main", win(WindowApplication, 0, with(3, `"class":"android.widget.Button","text":"Save","resource_id":"a:id/save"`)...)), false},
		{"other activity", build(t, "a/.Settings", win(WindowApplication, 0, base...)), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Fingerprint(tt.s); (got == ref) != tt.same {
				t.Errorf("fingerprint equal = %v, want %v", got == ref, tt.same)
			}
			sim := Similarity(build(t, "a/.Main", win(WindowApplication, 0, base...)), tt.s)
			if sim < 0 || sim > 1 || (tt.same && sim != 1) || (!tt.same && sim == 1) {
				t.Errorf("similarity %v", sim)
			}
		})
	}
}

func c2p(i int) int {
	if i == 0 {
		return -1
	}
	return 0
}

// TestFingerprintRealDialog: adding a real dialog (the root subtree of
// another real state, as its own window on top) changes the fingerprint
// of every real state; a shifted copy keeps it.
func TestFingerprintRealDialog(t *testing.T) {
	states := loadDroidTask(t)
	var dlg *Snapshot
	for _, st := range states {
		if s := st.Snap; len(s.Windows) == 1 && s.Nodes[0].Bounds != (Rect{0, 0, s.Width, s.Height}) && len(Elements(s)) >= 2 {
			dlg = s // a dialog: its root does not cover the screen
			break
		}
	}
	if dlg == nil {
		t.Skip("no dialog state found")
	}
	dlgToks := structureTokens(dlg)
	tested, same := 0, 0
	for _, st := range states {
		s := st.Snap
		if subsetSorted(dlgToks, structureTokens(s)) {
			same++ // the screen already shows this dialog's structure (or is it)
			continue
		}
		tested++
		c := s.Clone()
		off := len(c.Nodes)
		c.Windows = append(c.Windows, Window{ID: 99, Type: WindowApplication, Layer: 99, Bounds: dlg.Nodes[0].Bounds})
		for _, n := range dlg.Nodes {
			n.ID += off
			if n.Parent >= 0 {
				n.Parent += off
			}
			n.Window = len(c.Windows) - 1
			c.Nodes = append(c.Nodes, n)
		}
		if err := c.finish("test"); err != nil {
			t.Fatal(err)
		}
		if Fingerprint(c) == Fingerprint(s) {
			t.Errorf("%s/%s: a dialog on top kept the fingerprint", st.App, st.Name)
		}
		if sim := Similarity(s, c); sim >= 1 || sim < 0 {
			t.Errorf("%s/%s: similarity with the dialog %v", st.App, st.Name, sim)
		}
	}
	t.Logf("dialog added on %d states (skipped %d that already hold its structure)", tested, same)
}

// subsetSorted reports whether every string of sorted a is in sorted b.
func subsetSorted(a, b []string) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
	}
	return true
}

// TestSimilarityRange: Similarity is in [0, 1], symmetric, 1 for a screen
// with itself and its copy, at most 0.5 across activities.
func TestSimilarityRange(t *testing.T) {
	states := loadDroidTask(t)
	pairs := 0
	for i := 0; i < len(states); i += 3 {
		a := states[i].Snap
		if sim := Similarity(a, a.Clone()); sim != 1 {
			t.Errorf("%s: Similarity with its clone %v", states[i].Name, sim)
		}
		for j := i + 1; j < len(states); j += 17 {
			b := states[j].Snap
			x, y := Similarity(a, b), Similarity(b, a)
			pairs++
			if x < 0 || x > 1 || math.Abs(x-y) > 1e-12 {
				t.Fatalf("Similarity %v / %v", x, y)
			}
			if activityName(a.Activity) != activityName(b.Activity) && x > 0.5 {
				t.Errorf("Similarity %v across activities", x)
			}
			if Fingerprint(a) == Fingerprint(b) && x != 1 {
				t.Errorf("same fingerprint, similarity %v", x)
			}
		}
	}
	t.Logf("%d pairs compared", pairs)
	empty := build(t, "")
	if Similarity(empty, empty) != 1 {
		t.Error("two empty screens differ")
	}
}

// TestMaskVolatile documents what counts as volatile text.
func TestMaskVolatile(t *testing.T) {
	tests := []struct{ in, want string }{
		{"10:30 AM", "#:# #"},
		{"  Mon,\tJan 5 ", "#, # #"},
		{"3 items", "# items"},
		{"Sunrise", "sunrise"},
		{"Mayday", "mayday"},
		{"Today", "#"},
		{"Save", "save"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := MaskVolatile(tt.in); got != tt.want {
			t.Errorf("MaskVolatile(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

package screen

import (
	"math"
	"math/rand"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
)

// describeRef is the straightforward, uncached Describe: the ordinal scans
// the earlier nodes with Describe1. The cached Describe must equal it.
func describeRef(s *Snapshot, id int) Descriptor {
	n := s.Node(id)
	if n == nil {
		return Descriptor{}
	}
	d := Describe1(s, id)
	d.Checkable, d.Scrollable, d.Password = n.Checkable, n.Scrollable, n.Password
	d.InList = s.analysis().list[id]
	d.Neighbors = neighbors(s, id)
	key := d.Key()
	for i := 0; i < id; i++ {
		if s.Nodes[i].Class == n.Class && s.Nodes[i].ResourceID == n.ResourceID && Describe1(s, i).Key() == key {
			d.Ordinal++
		}
	}
	return d
}

// groundRef is Ground on describeRef, scoring every candidate from scratch.
func groundRef(s *Snapshot, d Descriptor) (Match, bool) {
	keep := Keep(s)
	best := Match{NodeID: -1}
	var ties []int
	for i := range s.Nodes {
		n := &s.Nodes[i]
		if !keep[i] || n.Class == "" || (d.ResourceID != "" && n.ResourceID != "" && n.ResourceID != d.ResourceID) {
			continue
		}
		sc := ElementSimilarity(d, describeRef(s, i))
		switch {
		case sc > best.Score+1e-9:
			best, ties = Match{NodeID: i, Score: sc}, []int{i}
		case sc > best.Score-1e-9 && best.NodeID >= 0:
			ties = append(ties, i)
		}
	}
	if best.NodeID < 0 || best.Score < GroundThreshold {
		return best, false
	}
	if len(ties) > 1 {
		pick := -1
		for _, t := range ties {
			if dt := describeRef(s, t); dt.Ordinal == d.Ordinal && dt.Key() == d.Key() {
				pick = t
				break
			}
		}
		for _, t := range ties {
			if pick < 0 && describeRef(s, t).Ordinal == d.Ordinal {
				pick = t
			}
		}
		if pick < 0 && d.Ordinal < len(ties) {
			pick = ties[d.Ordinal]
		}
		if pick >= 0 {
			best.NodeID = pick
		}
	}
	return best, true
}

// TestDescribeMatchesReference: the cached descriptors equal the uncached
// computation on every node of every DroidTask state, and Describe's
// result is a copy callers may modify.
func TestDescribeMatchesReference(t *testing.T) {
	states := loadDroidTask(t)
	nodes := 0
	for si, st := range states {
		if testing.Short() && si%10 != 0 {
			continue
		}
		s := st.Snap
		for i := range s.Nodes {
			nodes++
			got, want := Describe(s, i), describeRef(s, i)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s/%s node %d:\n got %+v\nwant %+v", st.App, st.Name, i, got, want)
			}
		}
	}
	s := states[0].Snap
	last := len(s.Nodes) - 1
	d := Describe(s, last)
	if len(d.Path) == 0 {
		t.Fatal("no path to modify")
	}
	d.Path[0] = "changed"
	if Describe(s, last).Path[0] == "changed" {
		t.Error("Describe returned the cached slice")
	}
	if !reflect.DeepEqual(Describe(s, -1), Descriptor{}) || !reflect.DeepEqual(Describe1(s, len(s.Nodes)), Descriptor{}) {
		t.Error("out-of-range ids must give the zero Descriptor")
	}
	t.Logf("%d nodes described", nodes)
}

// TestGroundSelf: every kept node of every DroidTask state grounds back to
// itself, twins included (by Ordinal).
func TestGroundSelf(t *testing.T) {
	states := loadDroidTask(t)
	total, twins := 0, 0
	for si, st := range states {
		if testing.Short() && si%5 != 0 {
			continue
		}
		s := st.Snap
		keep := Keep(s)
		for i := range s.Nodes {
			if !keep[i] || s.Nodes[i].Class == "" {
				continue
			}
			total++
			d := Describe(s, i)
			if d.Ordinal > 0 {
				twins++
			}
			m, ok := Ground(s, d)
			if !ok || m.NodeID != i || math.Abs(m.Score-1) > 1e-9 {
				t.Errorf("%s/%s: Ground(Describe(%d)) = %+v, %v", st.App, st.Name, i, m, ok)
			}
		}
	}
	t.Logf("%d kept nodes grounded to themselves (%d with ordinal > 0)", total, twins)
}

// shifted returns a copy of s with every bound moved by (dx, dy) px and the
// display grown by the same, so nothing leaves the screen.
func shifted(s *Snapshot, dx, dy int) *Snapshot {
	c := s.Clone()
	for i := range c.Nodes {
		b := &c.Nodes[i].Bounds
		*b = Rect{b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy}
	}
	for i := range c.Windows {
		b := &c.Windows[i].Bounds
		*b = Rect{b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy}
	}
	c.Width += dx
	c.Height += dy
	c.Changed()
	return c
}

// TestGroundIgnoresBounds: with every bound shifted by 100 px, Ground still
// finds each element of every DroidTask state: descriptors hold no bounds.
func TestGroundIgnoresBounds(t *testing.T) {
	states := loadDroidTask(t)
	total := 0
	for si, st := range states {
		if testing.Short() && si%5 != 0 {
			continue
		}
		s := st.Snap
		moved := shifted(s, 100, 100)
		keep, keep2 := Keep(s), Keep(moved)
		for i := range s.Nodes {
			if keep[i] != keep2[i] {
				t.Fatalf("%s/%s: shifting changed Keep of node %d", st.App, st.Name, i)
			}
			if !keep[i] || s.Nodes[i].Class == "" {
				continue
			}
			total++
			if m, ok := Ground(moved, Describe(s, i)); !ok || m.NodeID != i {
				t.Errorf("%s/%s: node %d grounded to %+v, %v after the shift", st.App, st.Name, i, m, ok)
			}
		}
		if Fingerprint(moved) != Fingerprint(s) {
			t.Errorf("%s/%s: bounds changed the fingerprint", st.App, st.Name)
		}
	}
	t.Logf("%d elements found again after a 100 px shift", total)
}

// capturePair is two states of one app with the same activity, and the
// nodes DroidBot itself calls the same view (equal view_str, an md5 over
// the activity, the view's own signature, its ancestors' and its
// children's; once in each state).
type capturePair struct {
	a, b   *droidState
	shared [][2]int // node in a, node in b
}

// capturePairs pairs each state with up to 3 later states of the same app
// and activity that share at least one view.
func capturePairs(states []droidState) []capturePair {
	type key struct{ app, act string }
	groups := map[key][]int{}
	for i := range states {
		k := key{states[i].App, states[i].Snap.Activity}
		groups[k] = append(groups[k], i)
	}
	keys := make([]key, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].app+keys[i].act < keys[j].app+keys[j].act })
	unique := func(st *droidState) map[string]int {
		count := map[string]int{}
		for _, v := range st.Extra.Views {
			count[v.ViewStr]++
		}
		out := map[string]int{}
		for _, v := range st.Extra.Views {
			if count[v.ViewStr] == 1 {
				out[v.ViewStr] = v.TempID
			}
		}
		return out
	}
	var pairs []capturePair
	for _, k := range keys {
		g := groups[k]
		for x := range g {
			a := &states[g[x]]
			ua := unique(a)
			for y := x + 1; y < len(g) && y <= x+3; y++ {
				b := &states[g[y]]
				ub := unique(b)
				p := capturePair{a: a, b: b}
				for vs, i := range ua {
					if j, ok := ub[vs]; ok {
						p.shared = append(p.shared, [2]int{i, j})
					}
				}
				sort.Slice(p.shared, func(i, j int) bool { return p.shared[i][0] < p.shared[j][0] })
				if len(p.shared) > 0 {
					pairs = append(pairs, p)
				}
			}
		}
	}
	return pairs
}

// TestGroundAcrossCaptures: an element described on one screen is found
// again on another capture of the same activity, judged by DroidBot's own
// view identity (view_str), never by bounds. view_str hashes a view's own
// text but only text-free signatures of its descendants and its selected
// flag, so for views without own text it is no identity (the icon of the
// selected tab is "the same view" whichever tab is selected): the rate is
// asserted (>= 97%) for views with own text and only logged for all.
func TestGroundAcrossCaptures(t *testing.T) {
	states := loadDroidTask(t)
	pairs := capturePairs(states)
	type tally struct{ total, found, wrong, missed int }
	var all, text tally
	shown := 0
	for pi, p := range pairs {
		if testing.Short() && pi%5 != 0 {
			continue
		}
		ka, kb := Keep(p.a.Snap), Keep(p.b.Snap)
		for _, ij := range p.shared {
			i, j := ij[0], ij[1]
			na := p.a.Snap.Node(i)
			if !ka[i] || !kb[j] || na.Class == "" {
				continue
			}
			own := strings.TrimSpace(na.Text) != ""
			m, ok := Ground(p.b.Snap, Describe(p.a.Snap, i))
			for _, c := range []*tally{&all, &text} {
				if c == &text && !own {
					continue
				}
				c.total++
				switch {
				case ok && m.NodeID == j:
					c.found++
				case ok:
					c.wrong++
				default:
					c.missed++
				}
			}
			if own && (!ok || m.NodeID != j) && shown < 10 {
				shown++
				t.Logf("miss: %s %s node %d %q -> %s node %d %v (want %d %q), score %.2f", p.a.App, p.a.Name[:8], i, Describe(p.a.Snap, i).Label(),
					p.b.Name[:8], m.NodeID, ok, j, Describe(p.b.Snap, j).Label(), m.Score)
			}
		}
	}
	if text.total == 0 {
		t.Fatal("no shared views to ground")
	}
	t.Logf("%d screen pairs (same app and activity)", len(pairs))
	for _, c := range []struct {
		name string
		tally
	}{{"views with own text", text}, {"all shared views", all}} {
		t.Logf("%-20s %6d: %6d found (%.1f%%), %4d another node, %4d not found", c.name, c.total, c.found,
			100*float64(c.found)/float64(c.total), c.wrong, c.missed)
	}
	if rate := float64(text.found) / float64(text.total); rate < 0.97 {
		t.Errorf("grounding rate %.3f below 0.97 for views with own text", rate)
	}
}

// TestGroundMatchesReference: the cached Ground gives exactly the result of
// the uncached reference on real screen pairs.
func TestGroundMatchesReference(t *testing.T) {
	states := loadDroidTask(t)
	pairs := capturePairs(states)
	n := 0
	for pi, p := range pairs {
		if pi%7 != 0 || (testing.Short() && pi%70 != 0) { // the reference is O(n²) per call: a sample suffices
			continue
		}
		for _, ij := range p.shared {
			d := Describe(p.a.Snap, ij[0])
			m, ok := Ground(p.b.Snap, d)
			rm, rok := groundRef(p.b.Snap, d)
			n++
			if m != rm || ok != rok {
				t.Fatalf("%s/%s node %d on %s: Ground %+v %v, reference %+v %v", p.a.App, p.a.Name, ij[0], p.b.Name, m, ok, rm, rok)
			}
		}
	}
	t.Logf("%d groundings equal the reference", n)
}

// twinSnapshot builds a dialog-like screen by hand: rows of buttons, each
// row a LinearLayout with an optional label beside the buttons.
func twinSnapshot(t testing.TB, rows ...[]string) *Snapshot {
	t.Helper()
	var nodes []string
	nodes = append(nodes, `{"id":0,"parent":-1,"class":"android.widget.FrameLayout","bounds":[0,0,1000,2000],"visible_to_user":true}`)
	id := 1
	for r, row := range rows {
		rowID := id
		y := 100 + r*200
		nodes = append(nodes, `{"id":`+itoa(id)+`,"parent":0,"class":"android.widget.LinearLayout","bounds":[0,`+itoa(y)+`,1000,`+itoa(y+150)+`],"visible_to_user":true}`)
		id++
		for c, label := range row {
			x := c * 200
			b := `[` + itoa(x) + `,` + itoa(y) + `,` + itoa(x+150) + `,` + itoa(y+150) + `]`
			if strings.HasPrefix(label, "label:") {
				nodes = append(nodes, `{"id":`+itoa(id)+`,"parent":`+itoa(rowID)+`,"class":"android.widget.TextView","text":"`+label[6:]+`","bounds":`+b+`,"visible_to_user":true}`)
			} else {
				nodes = append(nodes, `{"id":`+itoa(id)+`,"parent":`+itoa(rowID)+`,"class":"android.widget.Button","resource_id":"android:id/button1","text":"`+label+`","clickable":true,"bounds":`+b+`,"visible_to_user":true}`)
			}
			id++
		}
	}
	s, err := ParseJSON([]byte(`{"width":1000,"height":2000,"activity":"a/.Main","windows":[{"type":"application","nodes":[` + strings.Join(nodes, ",") + `]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGroundTwins: identical "OK" buttons are told apart by Ordinal, also
// when an earlier look-alike differs in its neighbours (so it does not tie).
func TestGroundTwins(t *testing.T) {
	tests := []struct {
		name string
		rows [][]string
	}{
		{"two OK side by side", [][]string{{"OK", "OK"}}},
		{"two OK in twin rows", [][]string{{"OK"}, {"OK"}}},
		{"first OK has other neighbours", [][]string{{"label:Alarm", "OK"}, {"OK"}, {"OK"}}},
		{"three OK, middle labelled", [][]string{{"OK"}, {"label:Timer", "OK"}, {"OK"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := twinSnapshot(t, tt.rows...)
			var oks []int
			for i := range s.Nodes {
				if s.Nodes[i].Text == "OK" {
					oks = append(oks, i)
				}
			}
			for k, i := range oks {
				d := Describe(s, i)
				if d.Ordinal != k {
					t.Errorf("OK #%d: ordinal %d", k, d.Ordinal)
				}
				if m, ok := Ground(s, d); !ok || m.NodeID != i {
					t.Errorf("OK #%d (node %d) grounded to %+v, %v", k, i, m, ok)
				}
				// and on a fresh capture of the same screen, moved down
				if m, ok := Ground(shifted(s, 0, 50), d); !ok || m.NodeID != i {
					t.Errorf("OK #%d (node %d) grounded to %+v, %v on the shifted capture", k, i, m, ok)
				}
			}
		})
	}
}

// TestGroundNotFound: an element that is not on the screen is not found.
func TestGroundNotFound(t *testing.T) {
	s := twinSnapshot(t, []string{"label:Delete note?", "OK"}, []string{"Cancel"})
	other := twinSnapshot(t, []string{"label:Settings"})
	for i := range s.Nodes {
		if !Keep(s)[i] {
			continue
		}
		d := Describe(s, i)
		if d.Text == "OK" || d.Text == "Cancel" {
			if m, ok := Ground(other, d); ok {
				t.Errorf("%q found on a screen without it: %+v", d.Text, m)
			}
		}
	}
	// the same label under another resource-id is another element
	d := Describe(s, 3)
	if d.Text != "OK" {
		t.Fatalf("node 3 is %q", d.Text)
	}
	d.ResourceID = "android:id/button2"
	if m, ok := Ground(s, d); ok {
		t.Errorf("OK with another resource-id found: %+v", m)
	}
}

// TestElementSimilarity checks the documented bounds and caps of the score.
func TestElementSimilarity(t *testing.T) {
	base := Descriptor{ResourceID: "a:id/ok", Class: "android.widget.Button", Text: "7 items", Path: []string{"LinearLayout#", "FrameLayout#"}, Neighbors: []string{"delete?"}}
	mod := func(f func(*Descriptor)) Descriptor {
		d := base
		d.Path = append([]string(nil), base.Path...)
		f(&d)
		return d
	}
	tests := []struct {
		name     string
		b        Descriptor
		min, max float64
	}{
		{"identical", base, 1, 1},
		{"other resource-id", mod(func(d *Descriptor) { d.ResourceID = "a:id/cancel" }), 0, 0.4},
		{"editable differs", mod(func(d *Descriptor) { d.Editable = true }), 0, 0.4},
		{"no resource-id", mod(func(d *Descriptor) { d.ResourceID = "" }), 0.75, 0.85},
		{"other label", mod(func(d *Descriptor) { d.Text = "Cancel" }), 0.6, 0.75},
		{"other volatile label", mod(func(d *Descriptor) { d.Text = "12 items" }), 1, 1},
		{"other path", mod(func(d *Descriptor) { d.Path = []string{"ScrollView#"} }), 0.8, 0.9},
		{"list rows", mod(func(d *Descriptor) { d.Text = "Buy milk"; d.InList = true }), 0.5, 0.95},
		{"empty", Descriptor{}, 0, 0.4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := base
			if tt.name == "list rows" {
				b.InList = true
			}
			for _, pair := range [][2]Descriptor{{b, tt.b}, {tt.b, b}} {
				got := ElementSimilarity(pair[0], pair[1])
				if got < tt.min-1e-9 || got > tt.max+1e-9 {
					t.Errorf("ElementSimilarity = %.3f, want in [%.2f, %.2f]", got, tt.min, tt.max)
				}
			}
		})
	}
	if ElementSimilarity(base, mod(func(d *Descriptor) { d.Text = "Cancel" })) >= GroundThreshold+0.2 {
		t.Error("a different label scores too close to a match")
	}
}

// TestElementSimilarityRealRange: on real descriptors the score is in [0, 1],
// symmetric, and 1 for a descriptor with itself.
func TestElementSimilarityRealRange(t *testing.T) {
	states := loadDroidTask(t)
	var ds []Descriptor
	for si := 0; si < len(states); si += 40 {
		s := states[si].Snap
		for i := 0; i < len(s.Nodes); i += 5 {
			ds = append(ds, Describe(s, i))
		}
	}
	for i := range ds {
		if sim := ElementSimilarity(ds[i], ds[i]); math.Abs(sim-1) > 1e-9 {
			t.Fatalf("self similarity %v for %+v", sim, ds[i])
		}
		for j := i + 1; j < len(ds); j += 3 {
			a, b := ElementSimilarity(ds[i], ds[j]), ElementSimilarity(ds[j], ds[i])
			if a < 0 || a > 1 || math.Abs(a-b) > 1e-9 {
				t.Fatalf("ElementSimilarity %v / %v for %+v, %+v", a, b, ds[i], ds[j])
			}
		}
	}
	t.Logf("%d descriptors compared", len(ds))
}

// TestDescriptorKey: Key ignores volatile text and an input's content, and
// changes with the label, the resource-id or the place.
func TestDescriptorKey(t *testing.T) {
	mk := func(json string) *Snapshot {
		s, err := ParseJSON([]byte(`{"width":100,"height":100,"windows":[{"type":"application","nodes":[{"id":0,"parent":-1,"class":"F","bounds":[0,0,100,100],"visible_to_user":true},` + json + `]}]}`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	key := func(json string) string { return Describe(mk(json), 1).Key() }
	base := key(`{"id":1,"parent":0,"class":"B","resource_id":"a:id/t","text":"Alarm at 7:30 on Monday","bounds":[0,0,9,9],"visible_to_user":true}`)
	same := []string{
		`{"id":1,"parent":0,"class":"B","resource_id":"a:id/t","text":"Alarm at 10:45 on Friday","bounds":[5,5,50,50],"visible_to_user":true}`,
		`{"id":1,"parent":0,"class":"B","resource_id":"a:id/t","text":"  alarm AT 7:30 on monday ","bounds":[0,0,9,9],"visible_to_user":true}`,
	}
	for _, j := range same {
		if k := key(j); k != base || len(k) != 16 {
			t.Errorf("key %s != %s for %s", k, base, j)
		}
	}
	differ := []string{
		`{"id":1,"parent":0,"class":"B","resource_id":"a:id/t","text":"Timer at 7:30","bounds":[0,0,9,9],"visible_to_user":true}`,
		`{"id":1,"parent":0,"class":"B","resource_id":"a:id/u","text":"Alarm at 7:30 on Monday","bounds":[0,0,9,9],"visible_to_user":true}`,
		`{"id":1,"parent":0,"class":"C","resource_id":"a:id/t","text":"Alarm at 7:30 on Monday","bounds":[0,0,9,9],"visible_to_user":true}`,
	}
	for _, j := range differ {
		if key(j) == base {
			t.Errorf("same key for %s", j)
		}
	}
	in1 := key(`{"id":1,"parent":0,"class":"android.widget.EditText","editable":true,"hint":"Title","text":"Groceries","bounds":[0,0,9,9],"visible_to_user":true}`)
	in2 := key(`{"id":1,"parent":0,"class":"android.widget.EditText","editable":true,"hint":"Title","text":"Holiday plans","bounds":[0,0,9,9],"visible_to_user":true}`)
	if in1 != in2 {
		t.Error("an input's typed text changed its key")
	}
	if d := Describe(mk(`{"id":1,"parent":0,"class":"B","resource_id":"a:id/save_btn","bounds":[0,0,9,9],"visible_to_user":true}`), 1); d.Label() != "save_btn" {
		t.Errorf("Label falls back to the resource name: %q", d.Label())
	}
}

// randTree builds a random valid snapshot of n nodes: chains, bushes and
// wide fans under the root, with repeated, volatile and empty labels.
func randTree(r *rand.Rand, n int) *Snapshot {
	labels := []string{"", "", "a", "b", "OK", "3 pm", "same", "Mon", "x · y", "c", "d", "e"}
	s := &Snapshot{Width: 1000, Height: 1000, Windows: []Window{{Type: WindowApplication}}}
	for i := 0; i < n; i++ {
		p := -1
		if i > 0 {
			switch r.Intn(3) {
			case 0:
				p = i - 1
			case 1:
				p = r.Intn(i)
			default:
				p = 0
			}
		}
		nd := Node{ID: i, Parent: p, Class: []string{"A", "B", "C"}[r.Intn(3)], Text: labels[r.Intn(len(labels))],
			ContentDesc: labels[r.Intn(len(labels))], ResourceID: []string{"", "r1", "r2"}[r.Intn(3)],
			Bounds: Rect{0, 0, 100 + r.Intn(900), 100 + r.Intn(900)}, Visible: r.Intn(10) > 0,
			Clickable: r.Intn(4) == 0, Editable: r.Intn(10) == 0, Checkable: r.Intn(10) == 0, Scrollable: r.Intn(10) == 0}
		if r.Intn(10) == 0 {
			nd.Bounds = Rect{}
		}
		s.Nodes = append(s.Nodes, nd)
	}
	if err := s.finish("test"); err != nil {
		panic(err)
	}
	return s
}

// TestDescribeMatchesReferenceRandom: on random trees (wide fans with many
// equal labels exercise the tabulated neighbours and merged texts) the
// cached descriptors equal the straightforward ones, and every kept node
// grounds back to itself.
func TestDescribeMatchesReferenceRandom(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	trees := 2000
	if testing.Short() {
		trees = 200
	}
	for k := 0; k < trees; k++ {
		s := randTree(r, 1+r.Intn(80))
		keep := Keep(s)
		for i := range s.Nodes {
			got, want := Describe(s, i), describeRef(s, i)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("tree %d node %d:\n got %+v\nwant %+v", k, i, got, want)
			}
			if keep[i] {
				if m, ok := Ground(s, got); !ok || m.NodeID != i {
					t.Fatalf("tree %d: node %d grounded to %+v %v", k, i, m, ok)
				}
			}
		}
	}
}

// TestConcurrentUse: a parsed snapshot's derived data is computed once and
// safely under concurrent first use (run with -race).
func TestConcurrentUse(t *testing.T) {
	s := twinSnapshot(t, []string{"label:Delete?", "OK"}, []string{"OK", "Cancel"})
	d := Describe(twinSnapshot(t, []string{"label:Delete?", "OK"}, []string{"OK", "Cancel"}), 5)
	var wg sync.WaitGroup
	results := make([]Match, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = Fingerprint(s)
			_ = Render(Elements(s))
			results[g], _ = Ground(s, d)
			_ = Describe(s, g%len(s.Nodes))
		}()
	}
	wg.Wait()
	for _, m := range results {
		if m != results[0] || m.NodeID != 5 {
			t.Fatalf("results differ: %+v", results)
		}
	}
}

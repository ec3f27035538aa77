package screen

import (
	"regexp"
	"strings"
	"testing"
)

// Hand-built snapshots in the snapshot JSON: nd is one visible node (attrs
// may override visible_to_user), win one window, build the snapshot.

func nd(id, parent int, b Rect, attrs string) string {
	s := `{"id":` + itoa(id) + `,"parent":` + itoa(parent) + `,"class":"android.view.View","visible_to_user":true,"enabled":true,` +
		`"bounds":[` + itoa(b[0]) + `,` + itoa(b[1]) + `,` + itoa(b[2]) + `,` + itoa(b[3]) + `]`
	if attrs != "" {
		s += "," + attrs
	}
	return s + "}"
}

func win(typ string, layer int, nodes ...string) string {
	return `{"id":` + itoa(layer) + `,"type":"` + typ + `","layer":` + itoa(layer) + `,"bounds":[0,0,1000,2000],"nodes":[` + strings.Join(nodes, ",") + `]}`
}

func build(t testing.TB, activity string, windows ...string) *Snapshot {
	t.Helper()
	s, err := ParseJSON([]byte(`{"width":1000,"height":2000,"activity":"` + activity + `","windows":[` + strings.Join(windows, ",") + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var full = Rect{0, 0, 1000, 2000}

// TestKeep: AutoTask §4.4 pruning on hand-built trees. want lists the kept
// node IDs.
func TestKeep(t *testing.T) {
	txt := func(s string) string { return `"class":"android.widget.TextView","text":"` + s + `"` }
	tests := []struct {
		name  string
		nodes []string
		want  []int
	}{
		{"invisible node and its subtree dropped", []string{
			nd(0, -1, full, ""), nd(1, 0, Rect{0, 0, 100, 100}, txt("a")),
			nd(2, 0, Rect{0, 100, 100, 200}, `"visible_to_user":false`), nd(3, 2, Rect{0, 100, 100, 200}, txt("hidden")),
		}, []int{0, 1}},
		{"zero-area node dropped", []string{
			nd(0, -1, full, ""), nd(1, 0, Rect{0, 0, 100, 100}, txt("a")), nd(2, 0, Rect{50, 50, 50, 90}, txt("collapsed")),
		}, []int{0, 1}},
		{"off-screen node dropped", []string{
			nd(0, -1, full, ""), nd(1, 0, Rect{0, 0, 100, 100}, txt("a")), nd(2, 0, Rect{1000, 0, 1100, 100}, txt("right")),
			nd(3, 0, Rect{0, 2000, 100, 2100}, txt("below")), nd(4, 0, Rect{-200, 0, 0, 100}, txt("left")),
		}, []int{0, 1}},
		{"lone empty leaf container dropped", []string{
			nd(0, -1, full, ""), nd(1, 0, Rect{0, 0, 500, 500}, ""), nd(2, 1, Rect{0, 0, 100, 100}, ""),
		}, nil},
		{"empty chain above a text kept", []string{
			nd(0, -1, full, ""), nd(1, 0, Rect{0, 0, 500, 500}, ""), nd(2, 1, Rect{0, 0, 100, 100}, txt("Title")),
		}, []int{0, 1, 2}},
		{"empty leaf beside an important sibling kept (layout importance)", []string{
			nd(0, -1, full, ""), nd(1, 0, Rect{0, 0, 100, 100}, `"clickable":true`), nd(2, 0, Rect{0, 100, 100, 200}, ""),
		}, []int{0, 1, 2}},
		{"empty siblings of an empty container dropped", []string{
			nd(0, -1, full, ""), nd(1, 0, Rect{0, 0, 100, 100}, txt("a")), nd(2, 0, Rect{0, 100, 500, 500}, ""),
			nd(3, 2, Rect{0, 100, 100, 200}, ""), nd(4, 2, Rect{0, 200, 100, 300}, ""),
		}, []int{0, 1, 2}},
		{"hint, content-desc, scrollable and checkable make a node important", []string{
			nd(0, -1, full, ""), nd(1, 0, Rect{0, 0, 100, 100}, ""), nd(2, 1, Rect{0, 0, 10, 10}, `"hint":"Search"`),
			nd(3, 0, Rect{0, 100, 100, 200}, ""), nd(4, 3, Rect{0, 100, 10, 110}, `"content_desc":"Back"`),
			nd(5, 0, Rect{0, 200, 100, 300}, ""), nd(6, 5, Rect{0, 200, 10, 210}, `"scrollable":true`),
			nd(7, 0, Rect{0, 300, 100, 400}, ""), nd(8, 7, Rect{0, 300, 10, 310}, `"checkable":true`),
		}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}},
		{"whitespace is no label", []string{
			nd(0, -1, full, ""), nd(1, 0, Rect{0, 0, 100, 100}, txt("  ")),
		}, nil},
		{"important child under an invisible parent dropped", []string{
			nd(0, -1, full, ""), nd(1, 0, Rect{0, 0, 100, 100}, txt("a")), nd(2, 0, Rect{0, 100, 100, 200}, `"visible_to_user":false`),
			nd(3, 2, Rect{0, 100, 100, 200}, `"clickable":true`),
		}, []int{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := build(t, "a/.Main", win(WindowApplication, 0, tt.nodes...))
			keep := Keep(s)
			var got []int
			for i, k := range keep {
				if k {
					got = append(got, i)
				}
			}
			if !equalInts(got, tt.want) {
				t.Errorf("kept %v, want %v", got, tt.want)
			}
		})
	}
	t.Run("an accessibility overlay is no part of the screen", func(t *testing.T) {
		// an assistant's overlay over the app: its text is not the app's,
		// and its buttons are not the agent's to press
		s := build(t, "a/.Main",
			win(WindowApplication, 0, nd(0, -1, full, ""), nd(1, 0, Rect{0, 0, 100, 100}, `"clickable":true,"text":"Archive"`)),
			win(WindowOverlay, 2, nd(2, -1, Rect{0, 1500, 1000, 2000}, ""), nd(3, 2, Rect{0, 1500, 500, 1600}, `"clickable":true,"text":"Always allow"`), nd(4, 2, Rect{500, 1500, 1000, 1600}, `"clickable":true,"text":"Stop"`)))
		keep := Keep(s)
		if !keep[1] || keep[2] || keep[3] || keep[4] {
			t.Errorf("keep %v", keep)
		}
		for _, e := range Elements(s) {
			if e.Label == "Always allow" || e.Label == "Stop" {
				t.Errorf("overlay element listed: %+v", e)
			}
		}
	})
	t.Run("input method window dropped whole", func(t *testing.T) {
		s := build(t, "a/.Main",
			win(WindowApplication, 0, nd(0, -1, full, ""), nd(1, 0, Rect{0, 0, 100, 100}, `"clickable":true,"text":"Send"`)),
			win(WindowInputMethod, 1, nd(2, -1, Rect{0, 1200, 1000, 2000}, ""), nd(3, 2, Rect{0, 1200, 100, 1300}, `"clickable":true,"text":"q"`)))
		keep := Keep(s)
		if !keep[1] || keep[2] || keep[3] {
			t.Errorf("keep %v", keep)
		}
		for _, e := range Elements(s) {
			if e.Label == "q" {
				t.Errorf("keyboard key listed: %+v", e)
			}
		}
	})
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestKeepRealStates: on every DroidTask state pruning keeps every
// interactive visible node whose ancestors are visible, drops a good share
// of the nodes, and keeps all ancestors of a kept node.
func TestKeepRealStates(t *testing.T) {
	states := loadDroidTask(t)
	total, kept := 0, 0
	for _, st := range states {
		s := st.Snap
		keep := Keep(s)
		for i := range s.Nodes {
			total++
			n := &s.Nodes[i]
			if !keep[i] {
				continue
			}
			kept++
			if n.Parent >= 0 && !keep[n.Parent] {
				t.Fatalf("%s/%s: node %d kept under a dropped parent", st.App, st.Name, i)
			}
			if !visible(s, n) {
				t.Fatalf("%s/%s: invisible node %d kept", st.App, st.Name, i)
			}
		}
		for i := range s.Nodes {
			n := &s.Nodes[i]
			if !n.Interactive() || keep[i] {
				continue
			}
			allVisible := visible(s, n)
			for _, a := range s.Ancestors(i) {
				allVisible = allVisible && visible(s, s.Node(a))
			}
			if allVisible {
				t.Errorf("%s/%s: visible interactive node %d dropped", st.App, st.Name, i)
			}
		}
	}
	t.Logf("kept %d of %d nodes (%.1f%%)", kept, total, 100*float64(kept)/float64(total))
	if kept == total || kept == 0 {
		t.Errorf("pruning kept %d of %d", kept, total)
	}
}

// TestElements: interactive nodes get the text of their non-interactive
// descendants as label; those texts are not listed again; nested
// interactive nodes are listed on their own; inputs show their value and a
// label from the hint or a sibling; reading order is topmost window first.
func TestElements(t *testing.T) {
	s := build(t, "a/.Main",
		win(WindowApplication, 0,
			nd(0, -1, full, `"class":"android.widget.FrameLayout"`),
			nd(1, 0, Rect{0, 0, 1000, 100}, `"class":"android.widget.TextView","text":"Settings","resource_id":"a:id/title"`),
			nd(2, 0, Rect{0, 100, 1000, 300}, `"class":"android.widget.LinearLayout","clickable":true,"resource_id":"a:id/row"`),
			nd(3, 2, Rect{0, 100, 500, 200}, `"class":"android.widget.TextView","text":"Wi-Fi"`),
			nd(4, 2, Rect{0, 200, 500, 300}, `"class":"android.widget.TextView","text":"Connected"`),
			nd(5, 2, Rect{800, 100, 1000, 300}, `"class":"android.widget.Switch","checkable":true,"checked":true,"text":"Wi-Fi switch"`),
			nd(6, 0, Rect{0, 300, 1000, 400}, `"class":"android.widget.LinearLayout"`),
			nd(7, 6, Rect{0, 300, 300, 400}, `"class":"android.widget.TextView","text":"Name"`),
			nd(8, 6, Rect{300, 300, 1000, 400}, `"class":"android.widget.EditText","editable":true,"text":"Bob"`),
			nd(9, 0, Rect{0, 400, 1000, 500}, `"class":"android.widget.EditText","editable":true,"hint":"Search","focused":true`),
			nd(10, 0, Rect{0, 500, 1000, 600}, `"class":"android.widget.Button","clickable":true,"content_desc":"More options","enabled":false`),
			nd(11, 0, Rect{0, 600, 1000, 1900}, `"class":"android.widget.ListView","scrollable":true`),
			nd(12, 11, Rect{0, 600, 1000, 700}, `"class":"android.widget.TextView","text":"Item one","selected":true`),
		),
		win(WindowApplication, 5,
			nd(13, -1, Rect{100, 800, 900, 1200}, `"class":"android.widget.FrameLayout"`),
			nd(14, 13, Rect{100, 800, 900, 1000}, `"class":"android.widget.TextView","text":"Discard changes?"`),
			nd(15, 13, Rect{100, 1000, 900, 1200}, `"class":"android.widget.Button","clickable":true,"text":"OK"`),
		))
	want := []Element{
		{Index: 0, NodeID: 14, Kind: KindText, Label: "Discard changes?", Bounds: Rect{100, 800, 900, 1000}},
		{Index: 1, NodeID: 15, Kind: KindButton, Label: "OK", Bounds: Rect{100, 1000, 900, 1200}},
		{Index: 2, NodeID: 1, Kind: KindText, Label: "Settings", Resource: "title", Bounds: Rect{0, 0, 1000, 100}},
		{Index: 3, NodeID: 2, Kind: KindButton, Label: "Wi-Fi · Connected", Resource: "row", Bounds: Rect{0, 100, 1000, 300}},
		{Index: 4, NodeID: 5, Kind: KindCheckbox, Label: "Wi-Fi switch", Checked: true, Bounds: Rect{800, 100, 1000, 300}},
		{Index: 5, NodeID: 7, Kind: KindText, Label: "Name", Bounds: Rect{0, 300, 300, 400}},
		{Index: 6, NodeID: 8, Kind: KindInput, Label: "Name", Value: "Bob", Bounds: Rect{300, 300, 1000, 400}},
		{Index: 7, NodeID: 9, Kind: KindInput, Label: "Search", Hint: "Search", Focused: true, Bounds: Rect{0, 400, 1000, 500}},
		{Index: 8, NodeID: 10, Kind: KindButton, Label: "More options", Disabled: true, Bounds: Rect{0, 500, 1000, 600}},
		{Index: 9, NodeID: 11, Kind: KindScroll, Label: "Item one", Bounds: Rect{0, 600, 1000, 1900}},
		{Index: 10, NodeID: 12, Kind: KindText, Label: "Item one", Selected: true, Bounds: Rect{0, 600, 1000, 700}},
	}
	got := Elements(s)
	if len(got) != len(want) {
		t.Fatalf("%d elements, want %d:\n%s", len(got), len(want), Render(got))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("element %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}

	// Render: one element a line, "[index] kind "label" attributes".
	wantRender := `[0] text "Discard changes?"
[1] button "OK"
[2] text "Settings" id=title
[3] button "Wi-Fi · Connected" id=row
[4] checkbox "Wi-Fi switch" checked
[5] text "Name"
[6] input "Name" value="Bob"
[7] input "Search" focused
[8] button "More options" disabled
[9] scroll "Item one"
[10] text "Item one" selected
`
	if r := Render(got); r != wantRender {
		t.Errorf("Render:\n%s\nwant:\n%s", r, wantRender)
	}
}

// TestFieldLabelsInAForm: in a form whose captions and fields alternate
// under one parent, each field takes the caption right before it; a
// field with none before it takes the first after it.
func TestFieldLabelsInAForm(t *testing.T) {
	s := build(t, "a/.Export",
		win(WindowApplication, 0,
			nd(0, -1, full, `"class":"android.widget.LinearLayout"`),
			nd(1, 0, Rect{0, 0, 1000, 100}, `"class":"android.widget.EditText","editable":true,"text":"x"`),
			nd(2, 0, Rect{0, 100, 1000, 200}, `"class":"android.widget.TextView","text":"Folder"`),
			nd(3, 0, Rect{0, 200, 1000, 300}, `"class":"android.widget.EditText","editable":true,"text":"Internal/Docs"`),
			nd(4, 0, Rect{0, 300, 1000, 400}, `"class":"android.widget.TextView","text":"File name"`),
			nd(5, 0, Rect{0, 400, 1000, 500}, `"class":"android.widget.EditText","editable":true,"text":"backup_01"`),
		))
	want := map[int]string{1: "Folder", 3: "Folder", 5: "File name"}
	for _, e := range Elements(s) {
		if w, ok := want[e.NodeID]; ok && e.Label != w {
			t.Errorf("field %d (%q): label %q, want %q", e.NodeID, e.Value, e.Label, w)
		}
	}
}

// TestMergedTextLimits: a row's label joins at most 3 descendant texts and
// 80 runes, and Render truncates long labels.
func TestMergedTextLimits(t *testing.T) {
	long := strings.Repeat("é", 100)
	s := build(t, "a/.Main", win(WindowApplication, 0,
		nd(0, -1, full, ""),
		nd(1, 0, Rect{0, 0, 1000, 500}, `"clickable":true`),
		nd(2, 1, Rect{0, 0, 100, 100}, `"text":"one"`), nd(3, 1, Rect{0, 100, 100, 200}, `"text":"two"`),
		nd(4, 1, Rect{0, 200, 100, 300}, `"text":"three"`), nd(5, 1, Rect{0, 300, 100, 400}, `"text":"four"`),
		nd(6, 0, Rect{0, 500, 1000, 600}, `"clickable":true`), nd(7, 6, Rect{0, 500, 100, 600}, `"text":"`+long+`"`),
		nd(8, 0, Rect{0, 600, 1000, 700}, `"editable":true,"text":"`+long+`","hint":"Note"`),
	))
	e := Elements(s)
	if len(e) != 3 || e[0].Label != "one · two · three" {
		t.Fatalf("elements %+v", e)
	}
	if r := []rune(e[1].Label); len(r) != 80 || r[79] != '…' {
		t.Errorf("label of %d runes: %q", len(r), e[1].Label)
	}
	lines := strings.Split(strings.TrimSpace(Render(e)), "\n")
	if want := `[2] input "Note" value="` + strings.Repeat("é", 59) + `…"`; lines[2] != want {
		t.Errorf("render %q, want %q", lines[2], want)
	}
}

// mutateVolatile changes what MaskVolatile hides in every text and
// content-desc: each digit, and whole month, weekday and am/pm words.
var volatileSwap = map[string]string{
	"jan": "mar", "january": "october", "feb": "nov", "february": "june", "mar": "apr", "march": "may",
	"apr": "aug", "april": "july", "may": "dec", "jun": "sep", "june": "august", "jul": "oct",
	"july": "march", "aug": "jan", "august": "june", "sep": "feb", "sept": "dec", "september": "april",
	"oct": "jun", "october": "may", "nov": "jul", "november": "january", "dec": "may", "december": "february",
	"mon": "sat", "monday": "friday", "tue": "sun", "tues": "fri", "tuesday": "sunday", "wed": "thu",
	"wednesday": "thursday", "thu": "mon", "thurs": "tue", "thursday": "monday", "fri": "wed", "friday": "tuesday",
	"sat": "mon", "saturday": "wednesday", "sun": "tue", "sunday": "saturday", "am": "pm", "pm": "am",
	"today": "yesterday", "yesterday": "tomorrow", "tomorrow": "today",
}

var reWord = regexp.MustCompile(`\b[A-Za-z]+\b`)

// TestHitTestAndClickableAncestor on a hand-built screen: the deepest
// clickable node under the point of the topmost window wins.
func TestHitTestAndClickableAncestor(t *testing.T) {
	s := build(t, "a/.Main",
		win(WindowApplication, 0, nd(0, -1, full, ""), nd(1, 0, Rect{0, 0, 1000, 500}, `"clickable":true`),
			nd(2, 1, Rect{0, 0, 500, 500}, `"text":"label"`), nd(3, 1, Rect{500, 0, 1000, 500}, `"checkable":true`)),
		win(WindowApplication, 1, nd(4, -1, Rect{0, 1000, 1000, 2000}, ""), nd(5, 4, Rect{0, 1000, 1000, 1500}, `"clickable":true`)))
	for _, tt := range []struct{ x, y, want int }{{10, 10, 1}, {600, 10, 3}, {10, 1200, 5}, {10, 700, -1}, {1000, 10, -1}} {
		if got := s.HitTest(tt.x, tt.y); got != tt.want {
			t.Errorf("HitTest(%d,%d) = %d, want %d", tt.x, tt.y, got, tt.want)
		}
	}
	if a := s.ClickableAncestor(2); a.ID != 1 {
		t.Errorf("ClickableAncestor(2) = %d", a.ID)
	}
	if a := s.ClickableAncestor(4); a.ID != 4 {
		t.Errorf("ClickableAncestor(4) = %d", a.ID)
	}
	if s.ClickableAncestor(99) != nil || s.Node(-1) != nil {
		t.Error("out-of-range ids must give nil")
	}
}

// TestRowName: a row's name is its first text, unless an app put a count,
// size, date or position first; a label of one text is itself.
func TestRowName(t *testing.T) {
	for _, tc := range []struct{ label, want string }{
		{"Dora · See you · 12.04", "Dora"},
		{"Scans · 6 items", "Scans"},
		{"6 items · Scans", "Scans"},
		{"3 · Intro · 02:10", "Intro"},
		{"scan7.png · 1.2 MB", "scan7.png"},
		{"09:41", "09:41"},
		{"6:15 am · Mon, Wed", "6:15 am"},
		{"0 · Intro · 02:10", "Intro"},
		{"124 kB · 14.03.2024, 9:02 AM · draft.txt", "draft.txt"},
		{"4 · 5", "4"},
		{" Ledger ", "Ledger"},
	} {
		if got := RowName(tc.label); got != tc.want {
			t.Errorf("RowName(%q) = %q, want %q", tc.label, got, tc.want)
		}
	}
}

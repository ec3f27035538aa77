// Paths through the UI graph: what a step on the way may and may not do.

package graphplan

import (
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestPathsNeverChangeASetting: a tap on a switch, check box or radio
// button is never a step on the way somewhere else. Screen 1 opens a
// dialog (2) whose radio option leads to screen 3; screen 3 is reached
// through a plain entry of screen 1 too, and a screen (4) reached only
// through a switch is not reached at all.
func TestPathsNeverChangeASetting(t *testing.T) {
	radio := desc("Huge")
	radio.Checkable = true
	sw := desc("Dark theme")
	sw.Checkable = true
	els := []knowledge.Element{
		{ID: 10, ScreenID: 1, Descriptor: desc("Text size")},
		{ID: 11, ScreenID: 1, Descriptor: desc("More")},
		{ID: 12, ScreenID: 1, Descriptor: sw},
		{ID: 20, ScreenID: 2, Descriptor: radio},
	}
	kg := &knowledge.Graph{Screens: []knowledge.Screen{{ID: 1, Fingerprint: "a"}, {ID: 2, Fingerprint: "b", Dialog: true}, {ID: 3, Fingerprint: "c"}, {ID: 4, Fingerprint: "d"}},
		Elements: els, Transitions: []knowledge.Transition{
			{From: 1, To: 2, Action: "tap", ElementID: 10, Count: 9},
			{From: 2, To: 3, Action: "tap", ElementID: 20, Count: 9},
			{From: 1, To: 3, Action: "tap", ElementID: 11, Count: 1},
			{From: 1, To: 4, Action: "tap", ElementID: 12, Count: 1},
		}}
	dist, first, _ := buildGraph(kg, nil).dijkstra(1, nil)
	if e, ok := first[3]; !ok || e.element != 11 {
		t.Errorf("screen 3 reached through element %d (%v), want the plain entry 11", e.element, ok)
	}
	if _, ok := dist[4]; ok {
		t.Error("a screen reached only by flipping a switch is on a path")
	}
	if _, ok := dist[2]; !ok {
		t.Error("the dialog opened by a plain entry must stay reachable")
	}
}

// TestBackFromADialogReturns: leaving a dialog, by back or by its OK, leads
// to the screen that opened it. A recording in which leaving the dialog showed another
// state of that screen (2 → 3, scrolled further meanwhile) is no path from
// 1; screen 3 stays reachable by its own scroll, and a dialog opened from
// 3 still leads back to 3.
func TestBackFromADialogReturns(t *testing.T) {
	els := []knowledge.Element{
		{ID: 10, ScreenID: 1, Descriptor: desc("Text size")},
		{ID: 30, ScreenID: 3, Descriptor: desc("Keep drafts")},
		{ID: 31, ScreenID: 3, Descriptor: desc("Palette")},
		{ID: 20, ScreenID: 2, Descriptor: desc("OK")},
	}
	kg := &knowledge.Graph{Screens: []knowledge.Screen{{ID: 1, Fingerprint: "a", Activity: "S"}, {ID: 2, Fingerprint: "b", Activity: "S", Dialog: true}, {ID: 3, Fingerprint: "c", Activity: "S"}, {ID: 4, Fingerprint: "d", Activity: "S", Dialog: true}},
		Elements: els, Transitions: []knowledge.Transition{
			{From: 1, To: 2, Action: "tap", ElementID: 10, Count: 5},
			{From: 2, To: 3, Action: "back", Count: 5},
			{From: 2, To: 3, Action: "tap", ElementID: 20, Count: 5}, // OK: the same round trip
			{From: 2, To: 1, Action: "back", Count: 1},
			{From: 1, To: 3, Action: "scroll", Count: 1},
			{From: 3, To: 4, Action: "tap", ElementID: 31, Count: 1},
			{From: 4, To: 3, Action: "back", Count: 1},
		}}
	dist, first, hops := buildGraph(kg, nil).dijkstra(1, nil)
	if e := first[3]; e.action != "scroll" || hops[3] != 1 {
		t.Errorf("screen 3 reached by %q in %d hops, want its own scroll in 1", e.action, hops[3])
	}
	if _, ok := dist[4]; !ok {
		t.Error("the dialog screen 3 opens must stay reachable")
	}
	if d, _, _ := buildGraph(kg, nil).dijkstra(4, nil); d[3] == 0 {
		t.Error("from the dialog itself, back leads to where the recording went")
	}
}

// TestNoPathCommitsADialog: a path does not accept, on its way, a dialog
// holding a choice or a text field (its OK would commit another setting);
// from that dialog itself, OK is a first step like any other; the OK of a
// dialog that only shows a message is a way through (here to another
// activity: a dialog's exit to its opener's activity returns to the opener).
func TestNoPathCommitsADialog(t *testing.T) {
	option := desc("Roomy")
	option.Checkable = true
	els := []knowledge.Element{
		{ID: 10, ScreenID: 1, Descriptor: desc("Spacing · Snug")},
		{ID: 20, ScreenID: 2, Descriptor: option},
		{ID: 21, ScreenID: 2, Descriptor: desc("OK")},
		{ID: 11, ScreenID: 1, Descriptor: desc("Palette")},
		{ID: 40, ScreenID: 4, Descriptor: desc("OK")},
	}
	kg := &knowledge.Graph{Screens: []knowledge.Screen{{ID: 1, Fingerprint: "a"}, {ID: 2, Fingerprint: "b", Dialog: true},
		{ID: 3, Fingerprint: "c", Activity: "Colors"}, {ID: 4, Fingerprint: "d", Dialog: true}, {ID: 5, Fingerprint: "e", Activity: "Colors"}},
		Elements: els, Transitions: []knowledge.Transition{
			{From: 1, To: 2, Action: "tap", ElementID: 10, Count: 1},
			{From: 2, To: 3, Action: "tap", ElementID: 21, Count: 1},
			{From: 1, To: 4, Action: "tap", ElementID: 11, Count: 1},
			{From: 4, To: 5, Action: "tap", ElementID: 40, Count: 1},
		}}
	g := buildGraph(kg, nil)
	dist, _, _ := g.dijkstra(1, nil)
	if _, ok := dist[3]; ok {
		t.Error("screen 3 is reached by accepting another setting's dialog on the way")
	}
	if _, ok := dist[5]; !ok {
		t.Error("the OK of a dialog that only shows a message must stay a way through")
	}
	if d, first, _ := g.dijkstra(2, nil); first[3].element != 21 || d[3] == 0 {
		t.Error("from the dialog itself, its OK is a first step")
	}
}

// TestNoPathFlipsASetting: a tap that changed a setting in place (a
// toggle, or a button that shows or hides something, leading to another
// state of the same screen) is no way through: a path to the settings
// does not flip the camera first because the recording did. It is a first
// step only when the command names what it flips; a button that opens
// another screen or a dialog is a way whatever its name.
func TestNoPathFlipsASetting(t *testing.T) {
	els := []knowledge.Element{
		{ID: 10, ScreenID: 1, Descriptor: desc("Toggle front/back lens")},
		{ID: 11, ScreenID: 1, Descriptor: desc("Show hidden albums")},
		{ID: 20, ScreenID: 2, Descriptor: desc("Preferences")},
		{ID: 30, ScreenID: 5, Descriptor: desc("Show details")},
	}
	kg := &knowledge.Graph{Screens: []knowledge.Screen{{ID: 1, Fingerprint: "a", Activity: "Main"}, {ID: 2, Fingerprint: "b", Activity: "Main"},
		{ID: 3, Fingerprint: "c", Activity: "Prefs"}, {ID: 4, Fingerprint: "d", Activity: "Main"}, {ID: 5, Fingerprint: "e", Activity: "Viewer"}, {ID: 6, Fingerprint: "f", Activity: "Details"}},
		Elements: els, Transitions: []knowledge.Transition{
			{From: 1, To: 2, Action: "tap", ElementID: 10, Count: 9},
			{From: 2, To: 3, Action: "tap", ElementID: 20, Count: 1},
			{From: 1, To: 4, Action: "tap", ElementID: 11, Count: 1},
			{From: 4, To: 5, Action: "tap", ElementID: 12, Count: 1},
			{From: 5, To: 6, Action: "tap", ElementID: 30, Count: 1},
		}}
	g := buildGraph(kg, nil)
	for _, tc := range []struct {
		name   string
		flipOK func(gEdge) bool
		want   map[int64]bool // screen -> reachable
	}{
		{"never", nil, map[int64]bool{2: false, 3: false, 4: false}},
		{"the command names the toggle", func(e gEdge) bool { return e.element == 10 }, map[int64]bool{2: true, 3: true, 4: false}},
	} {
		dist, _, _ := g.dijkstra(1, tc.flipOK)
		for scr, want := range tc.want {
			if _, ok := dist[scr]; ok != want {
				t.Errorf("%s: screen %d reachable %v, want %v", tc.name, scr, ok, want)
			}
		}
	}
	if dist, _, _ := g.dijkstra(5, nil); dist[6] == 0 {
		t.Error(`"Show details" opening another screen must stay a way through`)
	}
	if dist, _, _ := g.dijkstra(2, nil); dist[3] == 0 {
		t.Error("from the flipped state, the way on is open")
	}
	// the command names the toggle by a word the owner sees, not by its
	// resource-id's
	g.elems[10].Descriptor.ResourceID = "org.example.lens:id/album_lens_toggle"
	g.terms[10] = termsOf(g.elems[10].Descriptor.Label() + " " + g.elems[10].Descriptor.ResourceID)
	for cmd, want := range map[string]bool{"switch to the front lens": true, "show my albums": false} {
		if got := g.namesEdge(newRunState(cmd, ""), gEdge{element: 10}); got != want {
			t.Errorf("%q names the toggle: %v, want %v", cmd, got, want)
		}
	}
}

// TestSharedResourceNamesNoRow: the rows of a list share a resource-id
// whose words name the list ("recent_call_row"), not the row: "erase all
// recent calls" finds no row by it, and the button that clears the list
// wins; a lone element's resource-id still names it.
func TestSharedResourceNamesNoRow(t *testing.T) {
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.LinearLayout","resource_id":"org.example.phone:id/recent_call_row","text":"Dora · 12.05","bounds":[0,200,1080,360],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.LinearLayout","resource_id":"org.example.phone:id/recent_call_row","text":"Sam · 11.05","bounds":[0,360,1080,520],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Wipe the log","bounds":[0,600,1080,700],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.ImageButton","resource_id":"org.example.phone:id/recent_filter","content_desc":"Filter","bounds":[0,800,200,900],"clickable":true,"enabled":true,"visible_to_user":true}`)
	st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s), Print: "log"}
	rs := newRunState("wipe all recent calls", "")
	w := map[term]float64{}
	for _, ct := range rs.terms {
		w[ct.t] = 1
	}
	covers := map[string][]term{}
	best, label := 0.0, ""
	for _, c := range (&Planner{}).screenCandidates(rs, st, nil, w) {
		l := st.Elements[c.element].Label
		covers[l] = c.covers
		if c.score > best {
			best, label = c.score, l
		}
	}
	for _, row := range []string{"Dora · 12.05", "Sam · 11.05"} {
		if slices.Contains(covers[row], "recent") {
			t.Errorf("row %q covers %q by the list's resource-id", row, "recent")
		}
	}
	if !slices.Contains(covers["Filter"], "recent") {
		t.Errorf("a lone element's resource-id no longer names it: %v", covers["Filter"])
	}
	if label != "Wipe the log" {
		t.Errorf("best candidate %q, want the button that clears the list", label)
	}
}

// TestAnotherTabLeavesTheChosenOne: after a tab chosen for a word of the
// command ("Starred"), a tab beside it ("People") is passed over even if
// the command names it too; rows of a vertical list are not tabs, and a
// tab that only named the app was no choice.
func TestAnotherTabLeavesTheChosenOne(t *testing.T) {
	const tabs = `
	 {"id":1,"parent":0,"class":"android.widget.HorizontalScrollView","resource_id":"org.example.book:id/tabs","bounds":[0,100,1080,250],"scrollable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":1,"class":"android.widget.LinearLayout","bounds":[0,100,360,250],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":2,"class":"android.widget.TextView","text":"People","bounds":[0,100,360,250],"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":1,"class":"android.widget.LinearLayout","bounds":[360,100,720,250],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":4,"class":"android.widget.TextView","text":"Starred","bounds":[360,100,720,250],"enabled":true,"visible_to_user":true},
	 {"id":6,"parent":1,"class":"android.widget.LinearLayout","bounds":[720,100,1080,250],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":7,"parent":6,"class":"android.widget.TextView","text":"Book","bounds":[720,100,1080,250],"enabled":true,"visible_to_user":true}`
	const rows = `
	 {"id":1,"parent":0,"class":"android.widget.ListView","bounds":[0,100,1080,1000],"scrollable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":1,"class":"android.widget.LinearLayout","bounds":[0,100,1080,250],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":2,"class":"android.widget.TextView","text":"People","bounds":[0,100,1080,250],"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":1,"class":"android.widget.LinearLayout","bounds":[0,250,1080,400],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":4,"class":"android.widget.TextView","text":"Starred","bounds":[0,250,1080,400],"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		name, nodes, cmd, chosen, next string
		want                           bool
	}{
		{"a tab beside", tabs, "show my starred people", "Starred", "People", true},
		{"rows of a list", rows, "show my starred people", "Starred", "People", false},
		{"the app's name was no choice", tabs, "show the people in my book", "Book", "People", false},
	} {
		s := screenOf(t, tc.nodes)
		st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s), Print: "main"}
		idx := func(label string) int {
			return slices.IndexFunc(st.Elements, func(e screen.Element) bool { return e.Label == label })
		}
		rs := newRunState(tc.cmd, "Book")
		st.History = []daemon.StepRecord{{Action: device.Tap, Target: screen.Describe(s, st.Elements[idx(tc.chosen)].NodeID), Label: tc.chosen, Screen: "main", After: "main", OK: true, Changed: true}}
		if got := rs.otherTab(st, candidate{action: device.Tap, element: idx(tc.next)}); got != tc.want {
			t.Errorf("%s: %q after %q passed over %v, want %v", tc.name, tc.next, tc.chosen, got, tc.want)
		}
	}
}

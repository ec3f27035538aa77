package graphplan

import (
	"context"
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestForeignScreenTargets: the graph knows a way from the app's viewer
// through its menu's "Output" to the system's print screen (another
// package), whose button's resource-id is "details_panel" and whose
// "Print now" names the verb. A question about the photo's details does not
// head for the print screen's id words, nor a command whose verb its
// labels lack for one of them ("A4"); "print the photo" may head for its
// "Print now".
func TestForeignScreenTargets(t *testing.T) {
	ctx := context.Background()
	store, appID := storeWithApp(t, "org.example.snaps", "Snaps")
	viewer, ve := recordScreen(t, store, appID, "viewer", "org.example.snaps/.Viewer", screen.Descriptor{Desc: "More options"}, screen.Descriptor{Desc: "Share"})
	menu, me := recordScreen(t, store, appID, "menu", "org.example.snaps/.Viewer", screen.Descriptor{Text: "Output"}, screen.Descriptor{Text: "Rename"})
	spool, _ := recordScreen(t, store, appID, "spool", "org.example.spooler/.Print", screen.Descriptor{Text: "Print now"}, screen.Descriptor{Text: "A4", ResourceID: "org.example.spooler:id/details_panel"})
	for _, tr := range []knowledge.Transition{
		{From: viewer.ID, To: menu.ID, Action: device.Tap, ElementID: ve[0].ID},
		{From: menu.ID, To: spool.ID, Action: device.Tap, ElementID: me[0].ID},
	} {
		if _, err := store.RecordTransition(ctx, tr); err != nil {
			t.Fatal(err)
		}
	}
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.ImageView","content_desc":"More options","bounds":[920,80,1060,210],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageView","content_desc":"Share","bounds":[760,80,900,210],"clickable":true,"enabled":true,"visible_to_user":true}`)
	s.Package = "org.example.snaps"
	p := New(store)
	for _, tc := range []struct {
		cmd    string
		target string // the path's target on the print screen, "" for none
	}{
		{"what are the details of this photo", ""},
		{"print this photo", "Print now"},
		{"choose the A4 size", ""}, // a label of the print screen, without the command's verb
	} {
		st := &daemon.PlanState{Command: tc.cmd, Package: "org.example.snaps", AppID: appID, Screen: s, Elements: screen.Elements(s), Print: "viewer"}
		g, err := p.graph(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		rs := newRunState(tc.cmd, "Snaps")
		w := g.weights(rs, st)
		cands := p.graphCandidates(ctx, rs, st, g, nil, w)
		got := slices.ContainsFunc(cands, func(c candidate) bool { return c.via == 2 })
		if got != (tc.target != "") {
			t.Errorf("%q: candidates %+v; want one toward the print screen: %v", tc.cmd, cands, tc.target != "")
		}
	}
}

// TestBorrowedEdges: the graph recorded "More options" → menu only from
// another state of the viewer (another photo shown); on this state the
// same toolbar button is taken to lead there too, so "rename this photo"
// heads for the menu's "Rename". A look-alike ("More settings") borrows
// nothing, and neither does a state of another activity.
func TestBorrowedEdges(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, desc, act string
		want            bool
	}{
		{"same button, same activity", "More options", "org.example.snaps/.Viewer", true},
		{"another activity", "More options", "org.example.snaps/.Settings", false},
		{"a look-alike", "More settings", "org.example.snaps/.Viewer", false},
	} {
		store, appID := storeWithApp(t, "org.example.snaps", "Snaps")
		s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.ImageView","content_desc":"More options","bounds":[920,80,1060,210],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageView","content_desc":"Share","bounds":[760,80,900,210],"clickable":true,"enabled":true,"visible_to_user":true}`)
		button := screen.Describe(s, 1) // as recorded on the other state
		button.Desc = tc.desc
		recordScreen(t, store, appID, "photo-1", "org.example.snaps/.Viewer", screen.Describe(s, 2))
		other, oe := recordScreen(t, store, appID, "photo-2", tc.act, button)
		menu, _ := recordScreen(t, store, appID, "menu", "org.example.snaps/.Viewer", screen.Descriptor{Text: "Rename"}, screen.Descriptor{Text: "Hide"})
		if _, err := store.RecordTransition(ctx, knowledge.Transition{From: other.ID, To: menu.ID, Action: device.Tap, ElementID: oe[0].ID}); err != nil {
			t.Fatal(err)
		}
		s.Package = "org.example.snaps"
		st := &daemon.PlanState{Command: "rename this photo", Package: "org.example.snaps", AppID: appID, Screen: s, Elements: screen.Elements(s), Print: "photo-1"}
		p := New(store)
		g, err := p.graph(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		rs := newRunState(st.Command, "Snaps")
		cands := p.graphCandidates(ctx, rs, st, g, nil, g.weights(rs, st))
		got := slices.ContainsFunc(cands, func(c candidate) bool {
			return c.via == 1 && c.element >= 0 && st.Elements[c.element].Label == "More options"
		})
		if got != tc.want {
			t.Errorf("%s: candidates %+v; want More options toward Rename: %v", tc.name, cands, tc.want)
		}
	}
}

// TestHiddenHereIsScrolledTo: the graph recorded "Avalon" on this very list
// of countries, further down than the screen shows now; "add the holidays
// of Avalon" scrolls the list rather than ending "done". A country in view,
// or a screen with nothing to scroll, gives no such scroll.
func TestHiddenHereIsScrolledTo(t *testing.T) {
	ctx := context.Background()
	list := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.ListView","scrollable":true,"bounds":[0,200,1080,2000],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":1,"class":"android.widget.CheckedTextView","text":"Lemuria","checkable":true,"clickable":true,"bounds":[0,200,1080,350],"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":1,"class":"android.widget.CheckedTextView","text":"Atlantis","checkable":true,"clickable":true,"bounds":[0,350,1080,500],"enabled":true,"visible_to_user":true}`)
	flat := screenOf(t, `
	 {"id":2,"parent":0,"class":"android.widget.CheckedTextView","text":"Lemuria","checkable":true,"clickable":true,"bounds":[0,200,1080,350],"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.CheckedTextView","text":"Atlantis","checkable":true,"clickable":true,"bounds":[0,350,1080,500],"enabled":true,"visible_to_user":true}`)
	for _, tc := range []struct {
		name, cmd string
		s         *screen.Snapshot
		want      bool
	}{
		{"further down", "add the holidays of Avalon", list, true},
		{"in view", "add the holidays of Atlantis", list, false},
		{"nothing to scroll", "add the holidays of Avalon", flat, false},
	} {
		store, appID := storeWithApp(t, "org.example.almanac", "Almanac")
		avalon := screen.Describe(list, 3)
		avalon.Text = "Avalon"
		recordScreen(t, store, appID, "countries", "org.example.almanac/.Main", screen.Describe(list, 2), screen.Describe(list, 3), avalon)
		st := &daemon.PlanState{Command: tc.cmd, Package: "org.example.almanac", AppID: appID, Screen: tc.s, Elements: screen.Elements(tc.s), Print: "countries"}
		p := New(store)
		g, err := p.graph(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		rs := newRunState(tc.cmd, "Almanac")
		cands := p.graphCandidates(ctx, rs, st, g, nil, g.weights(rs, st))
		got := slices.ContainsFunc(cands, func(c candidate) bool { return c.action == device.Scroll })
		if got != tc.want {
			t.Errorf("%s: candidates %+v; want a scroll: %v", tc.name, cands, tc.want)
		}
	}
}

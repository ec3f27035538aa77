package graphplan

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestSettingsTheGraphKnowsNoWayTo: the graph recorded the element the
// command names ("Erase all trips") on a settings screen that no known
// path reaches, and only a weak match is reachable here ("Trips"): the
// planner heads for the settings, also with a value left to pick there
// ("30 days"). Not when that screen is of another activity than
// settings, nor once the run went into settings.
func TestSettingsTheGraphKnowsNoWayTo(t *testing.T) {
	main := `
	 {"id":1,"parent":0,"class":"android.widget.Button","text":"Trips","bounds":[0,200,540,300],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageButton","content_desc":"Settings","bounds":[900,60,1060,180],"clickable":true,"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		name, cmd, act string
		history        []daemon.StepRecord
		want           bool
	}{
		{"settings", "erase all trips", "org.example.go/.SettingsActivity", nil, true},
		{"a value to pick there", "erase all trips older than 30 days", "org.example.go/.SettingsActivity", nil, true},
		{"another activity", "erase all trips", "org.example.go/.ArchiveActivity", nil, false},
		{"already in settings", "erase all trips", "org.example.go/.SettingsActivity", []daemon.StepRecord{{Action: device.Tap, Target: screen.Descriptor{Desc: "Settings"}, Screen: "main", After: "prefs", OK: true, Changed: true}}, false},
	} {
		store, appID := storeWithApp(t, "org.example.go", "Go")
		recordScreen(t, store, appID, "main", "org.example.go/.MainActivity", screen.Descriptor{Text: "Trips"}, screen.Descriptor{Desc: "Settings"})
		recordScreen(t, store, appID, "prefs", tc.act, screen.Descriptor{Text: "Erase all trips", ResourceID: "org.example.go:id/erase_holder"}, screen.Descriptor{Text: "Units"})
		d, st := nextOn(t, store, appID, main, "main", tc.cmd, tc.history)
		got := tapsLabel(d, st, "Settings")
		if got != tc.want {
			t.Errorf("%s: %s %d (%s); want settings: %v", tc.name, d.Action, d.Element, d.Reason, tc.want)
		}
	}
}

// TestMenuTheGraphKnowsNoWayTo: the graph recorded the element the
// command names on a popup of this screen's activity that no known path
// opens, and only a weak match is reachable here: the planner opens the
// screen's overflow menu. Not for a popup of another activity, nor for a
// full screen of this one (a capture further down this screen: scrolled
// to, hiddenHere), nor for a dialog of choices or when a button here
// carries the item's first word (they open those).
func TestMenuTheGraphKnowsNoWayTo(t *testing.T) {
	ctx := context.Background()
	main := `
	 {"id":1,"parent":0,"class":"android.widget.Button","text":"Trips","bounds":[0,200,540,300],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageView","content_desc":"More options","bounds":[900,60,1060,180],"clickable":true,"enabled":true,"visible_to_user":true}`
	opener := `,
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Erase","bounds":[0,400,540,500],"clickable":true,"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		name, act, extra string
		dialog, ticks    bool
		want             bool
	}{
		{"a popup of this activity", "org.example.go/.MainActivity", "", true, false, true},
		{"a popup of another activity", "org.example.go/.ArchiveActivity", "", true, false, false},
		{"a full screen of this activity (taken for further down this one)", "org.example.go/.MainActivity", "", false, false, false},
		{"a dialog of choices", "org.example.go/.MainActivity", "", true, true, false},
		{"a button here carries the item's first word", "org.example.go/.MainActivity", opener, true, false, false},
	} {
		store, appID := storeWithApp(t, "org.example.go", "Go")
		recordScreen(t, store, appID, "main", "org.example.go/.MainActivity", screen.Descriptor{Text: "Trips"}, screen.Descriptor{Desc: "More options"})
		popup, err := store.UpsertScreen(ctx, knowledge.Screen{AppID: appID, Fingerprint: "popup", Activity: tc.act, Dialog: tc.dialog})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []screen.Descriptor{{Text: "Erase all saved trips"}, {Text: "Credits", Checkable: tc.ticks}} {
			if _, err := store.UpsertElement(ctx, knowledge.Element{ScreenID: popup.ID, Descriptor: d}); err != nil {
				t.Fatal(err)
			}
		}
		d, st := nextOn(t, store, appID, main+tc.extra, "main", "erase all saved trips", nil)
		got := tapsLabel(d, st, "More options")
		if got != tc.want {
			t.Errorf("%s: %s %d (%s); want the overflow menu: %v", tc.name, d.Action, d.Element, d.Reason, tc.want)
		}
	}
}

// TestUnknownItemBeforeSettings: nothing here matches a setting the
// command changes, and the graph recorded its words in a dialog of
// choices of this activity that no known path opens: an item of this
// menu whose effect is unknown is tried before the app's settings. Not
// when the dialog is of another activity (settings first, as before).
func TestUnknownItemBeforeSettings(t *testing.T) {
	ctx := context.Background()
	menu := `
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"Appearance","bounds":[600,100,1060,200],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.TextView","text":"Settings","bounds":[600,200,1060,300],"clickable":true,"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		name, act, want string
	}{
		{"a dialog of this activity", "org.example.go/.MainActivity", "Appearance"},
		{"a dialog of another activity", "org.example.go/.ArchiveActivity", "Settings"},
	} {
		store, appID := storeWithApp(t, "org.example.go", "Go")
		m, els := recordScreen(t, store, appID, "menu", "org.example.go/.MainActivity", screen.Descriptor{Text: "Appearance"}, screen.Descriptor{Text: "Settings"})
		prefs, _ := recordScreen(t, store, appID, "prefs", "org.example.go/.SettingsActivity", screen.Descriptor{Text: "Units"})
		if _, err := store.RecordTransition(ctx, knowledge.Transition{From: m.ID, To: prefs.ID, Action: "tap", ElementID: els[1].ID}); err != nil {
			t.Fatal(err)
		}
		dlg, err := store.UpsertScreen(ctx, knowledge.Screen{AppID: appID, Fingerprint: "choices", Activity: tc.act, Dialog: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range []screen.Descriptor{{Text: "Tiles", Checkable: true}, {Text: "Rows", Checkable: true}} {
			if _, err := store.UpsertElement(ctx, knowledge.Element{ScreenID: dlg.ID, Descriptor: d}); err != nil {
				t.Fatal(err)
			}
		}
		d, st := nextOn(t, store, appID, menu, "menu", "change the trips to rows", nil)
		got := ""
		if d.Action == device.Tap && d.Element >= 0 {
			got = st.Elements[d.Element].Label
		}
		if got != tc.want {
			t.Errorf("%s: %s %q (%s), want a tap on %q", tc.name, d.Action, got, d.Reason, tc.want)
		}
	}
}

// TestCurrentChoiceOpensItsDialog: the option the command names ("Far")
// is in a dialog no known path opens, and this screen shows another
// option of it ("Near", a spinner's or a breadcrumb's current choice):
// that element opens the dialog. Not when the command names the element
// itself, nor for an item of a list (a tab of a bar), nor once tapped.
func TestCurrentChoiceOpensItsDialog(t *testing.T) {
	kg := &knowledge.Graph{Screens: []knowledge.Screen{{ID: 1, Fingerprint: "main", Activity: "Hub"}, {ID: 2, Fingerprint: "pick", Activity: "Hub", Dialog: true}},
		Elements: []knowledge.Element{
			{ID: 10, ScreenID: 1, Descriptor: desc("Near")},
			{ID: 20, ScreenID: 2, Descriptor: screen.Descriptor{Text: "Near", Checkable: true}},
			{ID: 21, ScreenID: 2, Descriptor: screen.Descriptor{Text: "Far", Checkable: true}},
		}}
	g := buildGraph(kg, nil)
	spinner := `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Near","resource_id":"org.example.go:id/range","bounds":[0,200,540,300],"clickable":true,"enabled":true,"visible_to_user":true}`
	var tabs strings.Builder
	tabs.WriteString(`{"id":1,"parent":0,"class":"androidx.recyclerview.widget.RecyclerView","resource_id":"org.example.go:id/bar","bounds":[0,200,1080,300],"scrollable":true,"enabled":true,"visible_to_user":true}`)
	for i, l := range []string{"Near", "Mid", "Yonder"} {
		fmt.Fprintf(&tabs, `,{"id":%d,"parent":1,"class":"android.widget.TextView","text":%q,"resource_id":"org.example.go:id/tab","bounds":[%d,200,%d,300],"clickable":true,"enabled":true,"visible_to_user":true}`, i+2, l, i*360, i*360+350)
	}
	for _, tc := range []struct {
		name, cmd, nodes string
		tapped           bool
		want             bool
	}{
		{"the current choice", "switch the range to far", spinner, false, true},
		{"the command names it", "switch the range from near to far", spinner, false, false},
		{"a tab of a bar", "switch the range to far", tabs.String(), false, false},
		{"tapped already", "switch the range to far", spinner, true, false},
	} {
		s := screenOf(t, tc.nodes)
		st := &daemon.PlanState{Command: tc.cmd, Screen: s, Elements: screen.Elements(s), Print: "main"}
		if tc.tapped {
			st.History = []daemon.StepRecord{{Action: device.Tap, Target: screen.Descriptor{Text: "Near"}, OK: true}}
		}
		_, got := g.showsChoiceOf(newRunState(tc.cmd, ""), st, 2, "Far")
		if got != tc.want {
			t.Errorf("%s: opens the dialog %v, want %v", tc.name, got, tc.want)
		}
	}
}

// nextOn returns the graph planner's decision for cmd on a screen of
// nodes (fingerprint print) of the app "org.example.go", in its
// MainActivity, after history.
func nextOn(t *testing.T, store *knowledge.Store, appID int64, nodes, print, cmd string, history []daemon.StepRecord) (daemon.Decision, *daemon.PlanState) {
	t.Helper()
	s := screenOf(t, nodes)
	s.Package, s.Activity = "org.example.go", "org.example.go/.MainActivity"
	st := &daemon.PlanState{Command: cmd, Package: "org.example.go", AppID: appID, Screen: s, Elements: screen.Elements(s), Print: print, History: history}
	d, err := New(store).Next(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	return d, st
}

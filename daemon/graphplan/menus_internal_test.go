package graphplan

import (
	"context"
	"fmt"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestActionLeftOpensTheMenu: the run opened the thing the command is
// about (a chat) but none of what it asks to do there ("flag … as
// unread", which the app shows somewhere the graph has no way to), and
// nothing on the screen matches: the planner opens the screen's overflow
// menu before declaring done. It does not when the command's action was
// done, when the command only asks to see the thing, or for a button that
// names settings rather than a menu.
func TestActionLeftOpensTheMenu(t *testing.T) {
	ctx := context.Background()
	chat := `
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"Sam","bounds":[150,80,700,210],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageButton","content_desc":"Call","bounds":[760,80,900,210],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.ImageView","content_desc":"%s","bounds":[920,80,1060,210],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.TextView","text":"See you at noon","bounds":[40,400,1040,500],"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		name, cmd, menu string
		tapped          screen.Descriptor
		wantMenu        bool
	}{
		{"action left", "flag the thread with Sam as unread", "More options", screen.Descriptor{Text: "Sam · See you at noon"}, true},
		{"settings, no menu", "flag the thread with Sam as unread", "Settings", screen.Descriptor{Text: "Sam · See you at noon"}, false},
		{"only to see it", "show me the chat with Sam", "More options", screen.Descriptor{Text: "Sam · See you at noon"}, false},
		{"action done", "archive the chat with Sam", "More options", screen.Descriptor{Text: "Archive"}, false},
	} {
		store, appID := storeWithApp(t, "org.example.talk", "Talk")
		// the app shows "Flag as unread" and "Archive" somewhere the graph
		// has no way to: their words are the app's
		recordScreen(t, store, appID, "elsewhere", "", screen.Descriptor{Text: "Flag as unread"}, screen.Descriptor{Text: "Archive"}, screen.Descriptor{Text: "Chats"})
		s := screenOf(t, fmt.Sprintf(chat, tc.menu))
		s.Package = "org.example.talk"
		st := &daemon.PlanState{Command: tc.cmd, Package: "org.example.talk", AppID: appID, Screen: s, Elements: screen.Elements(s), Print: "chat", Step: 1,
			History: []daemon.StepRecord{{Action: device.Tap, Target: tc.tapped, Screen: "chats", After: "chat", OK: true, Changed: true}}}
		d, err := New(store).Next(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		menu := tapsLabel(d, st, tc.menu)
		if menu != tc.wantMenu {
			t.Errorf("%s: %s %d (%s); want the menu opened: %v", tc.name, d.Action, d.Element, d.Reason, tc.wantMenu)
		}
	}
}

// TestAddingWhatExistsCreatesNothing: a command that adds something the
// app shows to something else ("add contact Dora to favorites") does not
// tap what makes a new one ("Create new entry"), but may tap the add
// itself ("Add to starred"); a command that adds a new thing to what
// the app shows ("add a number to Dora") may create.
func TestAddingWhatExistsCreatesNothing(t *testing.T) {
	labels := map[string]bool{"dora · 555 0100": true, "favorites": true}
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"add contact Dora to favorites", true},
		{"put 'Dora' into my favorites", true},
		{"add a number to Dora", false},
		{"add contact Sam to favorites", false}, // not shown: may be new
		{"call Dora", false},
	} {
		if got := addsShown(tc.cmd, labels); got != tc.want {
			t.Errorf("addsShown(%q) = %v, want %v", tc.cmd, got, tc.want)
		}
	}
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.Button","text":"Create new entry","bounds":[0,200,540,300],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.Button","text":"Add to starred","bounds":[540,200,1080,300],"clickable":true,"enabled":true,"visible_to_user":true}`)
	st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s)}
	rs := newRunState("add contact Dora to favorites", "")
	rs.addsExisting = true
	for i, want := range []bool{true, false} {
		if got := createsUnasked(rs, st, candidate{action: device.Tap, element: i}); got != want {
			t.Errorf("%q: unasked %v, want %v", st.Elements[i].Label, got, want)
		}
	}
	// a command that only asks to see something creates nothing
	if !createsUnasked(newRunState("view my starred people", ""), st, candidate{action: device.Tap, element: 0}) {
		t.Error("view my starred people: Create new entry not passed over")
	}
}

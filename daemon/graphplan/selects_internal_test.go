package graphplan

import (
	"context"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestNamedRowIsTappedNotSearched: a quoted name the command picks
// ("check the 'Ledgers' folder") whose row is on screen ("Ledgers · 2
// notes") is tapped there, not typed into the screen's search field; a
// command that asks to search still types it.
func TestNamedRowIsTappedNotSearched(t *testing.T) {
	ctx := context.Background()
	store, appID := storeWithApp(t, "org.example.jotter", "Jotter")
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.EditText","hint":"Search","resource_id":"org.example.jotter:id/search","bounds":[0,100,1080,200],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"androidx.recyclerview.widget.RecyclerView","bounds":[0,300,1080,2000],"scrollable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":2,"class":"android.widget.LinearLayout","bounds":[0,300,1080,450],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":3,"class":"android.widget.TextView","text":"Ledgers","bounds":[20,310,800,380],"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":3,"class":"android.widget.TextView","text":"2 notes","bounds":[20,380,800,440],"enabled":true,"visible_to_user":true},
	 {"id":6,"parent":2,"class":"android.widget.LinearLayout","bounds":[0,450,1080,600],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":7,"parent":6,"class":"android.widget.TextView","text":"Recipes","bounds":[20,460,800,530],"enabled":true,"visible_to_user":true},
	 {"id":8,"parent":6,"class":"android.widget.TextView","text":"5 notes","bounds":[20,530,800,590],"enabled":true,"visible_to_user":true}`)
	s.Package = "org.example.jotter"
	for _, tc := range []struct {
		cmd        string
		wantAction string
	}{
		{"check the 'Ledgers' folder", device.Tap},
		{"search for 'Ledgers'", device.Input},
	} {
		st := &daemon.PlanState{Command: tc.cmd, Package: "org.example.jotter", AppID: appID, Screen: s, Elements: screen.Elements(s), Print: "folders"}
		d, err := New(store).Next(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if d.Action != tc.wantAction || d.Element < 0 {
			t.Errorf("%q: %s %d (%s), want %s", tc.cmd, d.Action, d.Element, d.Reason, tc.wantAction)
			continue
		}
		if tc.wantAction == device.Tap && st.Elements[d.Element].Label != "Ledgers · 2 notes" {
			t.Errorf("%q: taps %q, want the Ledgers row", tc.cmd, st.Elements[d.Element].Label)
		}
	}
}

// TestNamedRowWeighsAsTheObject: the label of what the command picks by
// name scores as the command's heaviest word, not as a stray value, and
// the search field is not offered for it while its row is on screen.
func TestNamedRowWeighsAsTheObject(t *testing.T) {
	w := map[term]float64{"@open": 0.5, "@select": 3, "@folder": 2, "folder": 3}
	rs := newRunState("check the 'Ledgers' in the folders", "")
	rs.covered["@folder"], rs.covered["folder"] = true, true
	rs.values[0].selects = true
	picked, _ := rs.match("Ledgers · 2 notes", termsOf("Ledgers · 2 notes"), semHit{}, w, -1)
	rs.values[0].selects = false
	typed, _ := rs.match("Ledgers · 2 notes", termsOf("Ledgers · 2 notes"), semHit{}, w, -1)
	if picked < 2*typed {
		t.Errorf("the picked name scores %.3f, a plain value %.3f: want it to weigh as the heaviest word", picked, typed)
	}

	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.EditText","hint":"Search","bounds":[0,100,1080,200],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.TextView","text":"Ledgers","bounds":[20,310,800,380],"clickable":true,"enabled":true,"visible_to_user":true}`)
	st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s)}
	for _, tc := range []struct {
		cmd   string
		input bool
	}{
		{"check the 'Ledgers' in the folders", false},
		{"search for 'Ledgers'", true},
	} {
		rs := newRunState(tc.cmd, "")
		rs.values[0].selects = true
		input := false
		for _, c := range (&Planner{}).screenCandidates(rs, st, nil, w) {
			input = input || c.action == device.Input
		}
		if input != tc.input {
			t.Errorf("%q: typing offered = %v, want %v", tc.cmd, input, tc.input)
		}
	}
}

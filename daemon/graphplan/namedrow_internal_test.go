package graphplan

import (
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestNamedSibling: a path the UI graph knows through one row of a list
// goes through the row the command names instead — by a value of the
// command (a name) or in plain words — and only when the path's own row
// is not named, and one other row is.
func TestNamedSibling(t *testing.T) {
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"androidx.recyclerview.widget.RecyclerView","bounds":[0,200,1080,2000],"scrollable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":1,"class":"android.widget.LinearLayout","bounds":[0,200,1080,400],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":2,"class":"android.widget.TextView","text":"Dora · See you · 12.04","bounds":[40,220,1000,380],"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":1,"class":"android.widget.LinearLayout","bounds":[0,400,1080,600],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":4,"class":"android.widget.TextView","text":"Ezra · On my way · 11.04","bounds":[40,420,1000,580],"enabled":true,"visible_to_user":true},
	 {"id":6,"parent":1,"class":"android.widget.LinearLayout","bounds":[0,600,1080,800],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":7,"parent":6,"class":"android.widget.TextView","text":"Archive","bounds":[40,620,1000,780],"enabled":true,"visible_to_user":true}`)
	st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s)}
	index := func(label string) int {
		for i, e := range st.Elements {
			if e.Label == label {
				return i
			}
		}
		t.Fatalf("no element %q", label)
		return -1
	}
	dora, bob := index("Dora · See you · 12.04"), index("Ezra · On my way · 11.04")
	for _, tt := range []struct {
		command string
		from    int
		want    int
	}{
		{"mark the thread with Ezra as unread", dora, bob},
		{"mark Ezra's thread as unread", dora, bob},
		{"mark ezra's thread as unread", dora, bob}, // a name in lower case: no value, said
		{"mark the dora and ezra threads as unread", dora, -1},
		{"mark the thread with Dora as unread", dora, -1}, // the path's own row
		{"mark the thread as unread", dora, -1},           // no row named
		{"mark the threads with Dora and Ezra as unread", dora, -1},
		{"mark the thread with Nina as unread", dora, -1},
		{"open the archive with Ezra", index("Archive"), -1},         // the path's own row, said as a plain word
		{"mark the ezra thread in the ezra app as unread", dora, -1}, // the app's own name
	} {
		app := ""
		if tt.command == "mark the ezra thread in the ezra app as unread" {
			app = "Ezra"
		}
		rs := newRunState(tt.command, app)
		if got := rs.namedSibling(st, tt.from); got != tt.want {
			t.Errorf("%q from %q: %d, want %d", tt.command, st.Elements[tt.from].Label, got, tt.want)
		}
	}
}

// TestFirstTermsNamedRow: a path through one row of a list, taken
// through the row the command names instead, covers that row's words,
// not the words of the row the UI graph recorded it through.
func TestFirstTermsNamedRow(t *testing.T) {
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"androidx.recyclerview.widget.RecyclerView","bounds":[0,200,1080,2000],"scrollable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":1,"class":"android.widget.LinearLayout","bounds":[0,200,1080,400],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":2,"class":"android.widget.TextView","text":"Dora · See you · 12.04","bounds":[40,220,1000,380],"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":1,"class":"android.widget.LinearLayout","bounds":[0,400,1080,600],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":4,"class":"android.widget.TextView","text":"Ezra · On my way · 11.04","bounds":[40,420,1000,580],"enabled":true,"visible_to_user":true}`)
	st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s)}
	var dora screen.Descriptor
	for _, e := range st.Elements {
		if e.Label == "Dora · See you · 12.04" {
			dora = screen.Describe(s, e.NodeID)
		}
	}
	g := &appGraph{elems: map[int64]*knowledge.Element{9: {ID: 9, Descriptor: dora}}, terms: map[int64][]term{9: termsOf(dora.Label())}}
	for _, tc := range []struct {
		command string
		want    string // the row whose words the path covers
	}{
		{"archive the thread with Ezra", "Ezra · On my way · 11.04"},
		{"archive the thread with Dora", "Dora · See you · 12.04"},
		{"archive the thread", "Dora · See you · 12.04"},
	} {
		rs := newRunState(tc.command, "")
		got := rs.firstTerms(st, g, gEdge{action: device.Tap, element: 9}, map[int64][]term{})
		if want := termsOf(tc.want); !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v (%q)", tc.command, got, want, tc.want)
		}
	}
	if got := newRunState("archive it", "").firstTerms(st, g, gEdge{action: device.Scroll}, map[int64][]term{}); got != nil {
		t.Errorf("a scroll: %v, want none", got)
	}
}

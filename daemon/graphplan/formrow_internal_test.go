// A form's row taken before its commit when its tap offers more of the
// command (formRow).

package graphplan

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestFormRowBeforeCommit: once a form's typed value is in, a row of the
// form that carries a word of the command and whose tap, in the UI graph,
// offers more of it ("No alert" → "Two hours ahead") comes before the
// form's Save; a row whose tap offers nothing of the command does not.
func TestFormRowBeforeCommit(t *testing.T) {
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.EditText","text":"Standup","resource_id":"org.example.agenda:id/meeting_title","bounds":[40,300,1040,420],"editable":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.TextView","text":"No alert","bounds":[40,460,1040,560],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.TextView","text":"Attachments","bounds":[40,580,1040,680],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.Button","text":"Save","bounds":[800,100,1040,200],"clickable":true,"enabled":true,"visible_to_user":true}`)
	kg := &knowledge.Graph{
		Screens: []knowledge.Screen{{ID: 1, Fingerprint: "form"}, {ID: 2, Fingerprint: "when", Dialog: true}},
		Elements: []knowledge.Element{
			{ID: 10, ScreenID: 1, Descriptor: desc("No alert")},
			{ID: 11, ScreenID: 1, Descriptor: desc("Attachments")},
			{ID: 20, ScreenID: 2, Descriptor: desc("At start time")},
			{ID: 21, ScreenID: 2, Descriptor: desc("Two hours ahead")},
		},
		Transitions: []knowledge.Transition{{From: 1, To: 2, Action: "tap", ElementID: 10, Count: 1}},
	}
	g := buildGraph(kg, nil)
	for _, tc := range []struct{ cmd, want string }{
		{"add the meeting 'Standup' with an alert two hours ahead and save it", "No alert"},
		{"add the meeting 'Standup' with attachments and save it", ""},
	} {
		pick := func(rs *runState, st *daemon.PlanState, cands []candidate) (candidate, bool) {
			return rs.formRow(st, g, cands)
		}
		if got := formPick(s, tc.cmd, pick); got != tc.want {
			t.Errorf("%q: chose %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

// TestFormRowByMeaning: a row of the form whose label shares no word with
// the command but means one of its words (the embedding's word-level
// cover: "Never recurs" for "repeating") is taken before Save, scored down
// as such a row is, when its tap offers another word of the command
// ("Fortnightly"); not when it means the word only as the label nearest
// the whole command (semWhole), nor without the cover.
func TestFormRowByMeaning(t *testing.T) {
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.EditText","text":"Standup","resource_id":"org.example.agenda:id/meeting_title","bounds":[40,300,1040,420],"editable":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.TextView","text":"Never recurs","bounds":[40,460,1040,560],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Save","bounds":[800,100,1040,200],"clickable":true,"enabled":true,"visible_to_user":true}`)
	kg := &knowledge.Graph{
		Screens: []knowledge.Screen{{ID: 1, Fingerprint: "form"}, {ID: 2, Fingerprint: "how often", Dialog: true}},
		Elements: []knowledge.Element{
			{ID: 10, ScreenID: 1, Descriptor: desc("Never recurs")},
			{ID: 20, ScreenID: 2, Descriptor: desc("Workdays")},
			{ID: 21, ScreenID: 2, Descriptor: desc("Fortnightly")},
		},
		Transitions: []knowledge.Transition{{From: 1, To: 2, Action: "tap", ElementID: 10, Count: 1}},
	}
	g := buildGraph(kg, nil)
	const cmd = "add the meeting 'Standup' repeating fortnightly and save it"
	els := screen.Elements(s)
	row := byLabel(els)["Never recurs"]
	key := screen.Describe(s, els[row].NodeID).Key()
	for _, tc := range []struct {
		name         string
		cover, whole []term
		want         bool
	}{
		{"meant by the row", []term{"repeat"}, nil, true},
		{"only as the label nearest the whole command", []term{"repeat"}, []term{"repeat"}, false},
		{"no cover", nil, nil, false},
	} {
		rs := newRunState(cmd, "")
		rs.semCovers = map[string][]term{key: tc.cover}
		rs.semWhole = map[string][]term{key: tc.whole}
		st := &daemon.PlanState{Command: cmd, Screen: s, Elements: els, Print: "form"}
		cands := []candidate{{action: device.Tap, element: row, score: 0.75 * MinScore, covers: tc.cover}}
		if _, got := rs.formRow(st, g, cands); got != tc.want {
			t.Errorf("%s: formRow took the row %v, want %v", tc.name, got, tc.want)
		}
	}
}

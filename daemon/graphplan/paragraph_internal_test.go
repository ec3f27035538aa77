package graphplan

import (
	"context"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestParagraphsAreNoTargets: a paragraph on another screen (a dialog's
// message sharing the command's words) is no path target for a command
// that acts; a short label there is, and the paragraph is for a command
// that asks to see something.
func TestParagraphsAreNoTargets(t *testing.T) {
	const paragraph = "Some players stop early: to play every clip, turn shuffle back on after an update and restart the app"
	kg := &knowledge.Graph{Screens: []knowledge.Screen{{ID: 1, Fingerprint: "p"}, {ID: 2, Fingerprint: "q", Dialog: true}, {ID: 3, Fingerprint: "r"}},
		Elements: []knowledge.Element{
			{ID: 10, ScreenID: 1, Descriptor: desc("Palette")},
			{ID: 11, ScreenID: 1, Descriptor: desc("Shelf")},
			{ID: 20, ScreenID: 2, Descriptor: desc(paragraph)},
			{ID: 30, ScreenID: 3, Descriptor: desc("Shuffle order")},
		},
		Transitions: []knowledge.Transition{
			{From: 1, To: 2, Action: "tap", ElementID: 10, Count: 1},
			{From: 1, To: 3, Action: "tap", ElementID: 11, Count: 1},
		}}
	g := buildGraph(kg, nil)
	s := screenOf(t, `	 {"id":1,"parent":0,"class":"android.widget.Button","text":"Palette","bounds":[0,100,500,200],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.Button","text":"Shelf","bounds":[500,100,1080,200],"clickable":true,"enabled":true,"visible_to_user":true}`)
	for _, tc := range []struct {
		cmd, want string
	}{
		{"play every clip on shuffle", "Shuffle order"},
		{"open the help on players that stop early", paragraph},
	} {
		rs := newRunState(tc.cmd, "")
		st := &daemon.PlanState{Command: tc.cmd, Screen: s, Print: "p"}
		st.Elements = screen.Elements(s)
		var targets []string
		for _, c := range (&Planner{}).graphCandidates(context.Background(), rs, st, g, nil, g.weights(rs, st)) {
			targets = append(targets, c.reason)
		}
		if !strings.Contains(strings.Join(targets, "\n"), `"`+tc.want+`"`) {
			t.Errorf("%q: targets %q, want one on the way to %q", tc.cmd, targets, tc.want)
		}
		if tc.want != paragraph && strings.Contains(strings.Join(targets, "\n"), paragraph) {
			t.Errorf("%q: the paragraph is a target: %q", tc.cmd, targets)
		}
	}
}

// TestHelpQuestionsAreNoTargets: a question on a full screen (a help
// page's "How do I …?") is no path target for a command that acts, though
// it shares the command's words; a dialog's question (a confirmation of
// what the command does) is.
func TestHelpQuestionsAreNoTargets(t *testing.T) {
	const help, confirm = "How can I sort the shelves by colour?", "Sort every shelf by colour?"
	kg := &knowledge.Graph{Screens: []knowledge.Screen{{ID: 1, Fingerprint: "p"}, {ID: 2, Fingerprint: "q"}, {ID: 3, Fingerprint: "r", Dialog: true}},
		Elements: []knowledge.Element{
			{ID: 10, ScreenID: 1, Descriptor: desc("Help")},
			{ID: 11, ScreenID: 1, Descriptor: desc("Shelf")},
			{ID: 20, ScreenID: 2, Descriptor: desc(help)},
			{ID: 30, ScreenID: 3, Descriptor: desc(confirm)},
		},
		Transitions: []knowledge.Transition{
			{From: 1, To: 2, Action: "tap", ElementID: 10, Count: 1},
			{From: 1, To: 3, Action: "tap", ElementID: 11, Count: 1},
		}}
	g := buildGraph(kg, nil)
	s := screenOf(t, `	 {"id":1,"parent":0,"class":"android.widget.Button","text":"Help","bounds":[0,100,500,200],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.Button","text":"Shelf","bounds":[500,100,1080,200],"clickable":true,"enabled":true,"visible_to_user":true}`)
	const cmd = "sort the shelves by colour"
	rs := newRunState(cmd, "")
	st := &daemon.PlanState{Command: cmd, Screen: s, Print: "p"}
	st.Elements = screen.Elements(s)
	var targets []string
	for _, c := range (&Planner{}).graphCandidates(context.Background(), rs, st, g, nil, g.weights(rs, st)) {
		targets = append(targets, c.reason)
	}
	all := strings.Join(targets, "\n")
	if strings.Contains(all, help) {
		t.Errorf("the help page's question is a target: %q", targets)
	}
	if !strings.Contains(all, confirm) {
		t.Errorf("targets %q, want one on the way to the dialog's question", targets)
	}
}

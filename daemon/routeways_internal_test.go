package daemon

import (
	"context"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
	"github.com/wayfinder-agent/wayfinder/knowledge/knowledgetest"
)

// wayPlanner taps, at each step, the element labelled taps[step] (done
// past them), and tells the ways of ways[step]: element label → the
// descriptor key it leads to. With noWays it is no WayTeller.
type wayPlanner struct {
	taps []string
	ways []map[string]string
	last *PlanState
}

func (p *wayPlanner) Name() string { return "graph" }

func (p *wayPlanner) Next(_ context.Context, st *PlanState) (Decision, error) {
	p.last = st
	if st.Step >= len(p.taps) {
		return Decision{Action: ActDone, Element: -1}, nil
	}
	for i, e := range st.Elements {
		if e.Label == p.taps[st.Step] {
			return Decision{Action: device.Tap, Element: i}, nil
		}
	}
	return Decision{Action: ActDone, Element: -1}, nil
}

func (p *wayPlanner) WayTo(element int) (string, bool) {
	if p.last == nil || p.last.Step >= len(p.ways) || element < 0 || element >= len(p.last.Elements) {
		return "", false
	}
	dest, ok := p.ways[p.last.Step][p.last.Elements[element].Label]
	return dest, ok
}

// plainPlanner is a wayPlanner that tells no ways.
type plainPlanner struct{ p *wayPlanner }

func (p plainPlanner) Name() string { return "graph" }
func (p plainPlanner) Next(ctx context.Context, st *PlanState) (Decision, error) {
	return p.p.Next(ctx, st)
}

// TestOnTheWay: a flow reaches "Starred folders" by "More options" and
// "Settings" where the checker would tap "Star this folder" on the first
// screen. The walk takes the flow's steps when the checker weighed them
// as on its way to that very element, which the flow taps later and the
// checker then chooses itself; not when they lead elsewhere, when what
// they lead to is on the screen already (a detour), when the checker
// differs at the element owed, or when the planner tells no ways.
func TestOnTheWay(t *testing.T) {
	ctx := context.Background()
	home, menu, set, end := searchResults(t, "", "Star this folder", "More options"), searchResults(t, "", "Settings", "Help"),
		searchResults(t, "", "Starred folders", "Theme"), searchResults(t, "", "Folder starred", "OK")
	homeBoth := searchResults(t, "", "Star this folder", "More options", "Starred folders")
	key := func(s *screen.Snapshot, label string) screen.Descriptor {
		return screen.Describe(s, elementNamed(t, s, label).NodeID)
	}
	starred, ok := key(set, "Starred folders").Key(), key(end, "OK").Key()
	done := searchResults(t, "", "Folders")
	for _, tc := range []struct {
		name  string
		first *screen.Snapshot
		taps  []string
		ways  []map[string]string
		plain bool
		ok    bool
	}{
		{"on its way", home, []string{"Star this folder", "Settings", "Starred folders", "OK"}, []map[string]string{{"More options": starred}}, false, true},
		{"each step on its way", home, []string{"Star this folder", "Help", "Starred folders", "OK"},
			[]map[string]string{{"More options": starred}, {"Settings": starred}}, false, true},
		{"leads elsewhere", home, []string{"Star this folder", "Settings", "Starred folders", "OK"},
			[]map[string]string{{"More options": key(set, "Theme").Key()}}, false, false},
		{"a detour", homeBoth, []string{"Starred folders", "Settings", "Starred folders", "OK"}, []map[string]string{{"More options": starred}}, false, false},
		{"differs at the element owed", home, []string{"Star this folder", "Settings", "Theme", "OK"},
			[]map[string]string{{"More options": starred}, nil, {"Starred folders": ok}}, false, false},
		{"leads past the element owed", home, []string{"Star this folder", "Help", "Starred folders", "OK"},
			[]map[string]string{{"More options": starred}, {"Settings": ok}}, false, false},
		{"no ways told", home, []string{"Star this folder", "Settings", "Starred folders", "OK"}, []map[string]string{{"More options": starred}}, true, false},
		{"the checker agrees", home, []string{"More options", "Settings", "Starred folders", "OK"}, nil, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := knowledgetest.Open(t)
			f := knowledge.Flow{Package: "com.example.files", Name: "star the folder", Intent: "star the folder", Goal: &knowledge.Goal{Screen: "fe"},
				Steps: []knowledge.Step{
					{Screen: "fa", Action: device.Tap, Target: key(tc.first, "More options"), Expect: "fb"},
					{Screen: "fb", Action: device.Tap, Target: key(menu, "Settings"), Expect: "fc"},
					{Screen: "fc", Action: device.Tap, Target: key(set, "Starred folders"), Expect: "fd"},
					{Screen: "fd", Action: device.Tap, Target: key(end, "OK"), Expect: "fe"},
				}}
			saveWalked(t, st, &f, tc.first, menu, set, end, done)
			r := &run{e: &Engine{store: st}, res: &Result{Command: "star this folder", Package: f.Package}}
			wp := &wayPlanner{taps: tc.taps, ways: tc.ways}
			var p Planner = wp
			if tc.plain {
				p = plainPlanner{wp}
			}
			_, _, why := r.walkRoute(ctx, p, &f, substitution{})
			if (why == "") != tc.ok {
				t.Errorf("walk: why %q, want confirmed %v", why, tc.ok)
			}
		})
	}
}

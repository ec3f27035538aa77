package graphplan

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestOpenNamesSomethingToOpen: after the tab a command names, "view …"
// is done when the rest of its words are on the screen, but "open …" is
// not while they name an element there to open (a file's row).
func TestOpenNamesSomethingToOpen(t *testing.T) {
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"Shared","bounds":[0,100,300,200],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.LinearLayout","bounds":[0,300,1080,450],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":2,"class":"android.widget.TextView","text":"ledger.pdf","bounds":[40,310,900,380],"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":2,"class":"android.widget.TextView","text":"6 kB","bounds":[40,380,900,440],"enabled":true,"visible_to_user":true}`)
	els := screen.Elements(s)
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"view ledger.pdf in the shared tab", true},
		{"open ledger.pdf in the shared tab", false},
		{"view budget.pdf in the shared tab", false}, // a name as written that is not shown
	} {
		if got := inViewAfterTap(s, els, tc.cmd, "Shared"); got != tc.want {
			t.Errorf("%q: in view = %v, want %v", tc.cmd, got, tc.want)
		}
	}
}

// TestLookingVerbsOtherSenses: "check" also means ticking a box, but a
// command that checks something asks for nothing more once the screen
// shows it — a row whose label also gives a value ("8 GB · Disk space")
// is what was to be checked, and tapping it would leave it. A button
// labelled only with the command's words ("Usage tips") still names a
// page to open, and a check box the rest of the command names ("Spare
// copies of notes") is still to tick.
func TestLookingVerbsOtherSenses(t *testing.T) {
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"Disk","bounds":[0,100,300,200],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.LinearLayout","bounds":[0,300,1080,450],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":2,"class":"android.widget.TextView","text":"3 GB free","bounds":[40,310,900,380],"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":2,"class":"android.widget.TextView","text":"Disk space: 8 GB","bounds":[40,380,900,440],"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":0,"class":"android.widget.LinearLayout","bounds":[0,500,1080,650],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":6,"parent":5,"class":"android.widget.TextView","text":"Usage tips","bounds":[40,510,900,640],"enabled":true,"visible_to_user":true},
	 {"id":7,"parent":0,"class":"android.widget.CheckBox","text":"Spare copies of drafts","bounds":[0,700,1080,850],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true}`)
	els := screen.Elements(s)
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"check the disk space in disk", true},
		{"check the usage tips in disk", false},
		{"check the battery in disk", false},  // not shown
		{"check spare copies in disk", false}, // a box to tick
	} {
		if got := inViewAfterTap(s, els, tc.cmd, "Disk"); got != tc.want {
			t.Errorf("%q: in view = %v, want %v", tc.cmd, got, tc.want)
		}
	}
}

// TestPageNamedInOtherWords: a button whose label says the rest of a
// "check" command in words the model ties to the command's ("Often asked
// questions" for "frequently asked questions": runState.alias) names a
// page to open, as it does in the command's own words; a label with more
// than the command's words shows what was asked.
func TestPageNamedInOtherWords(t *testing.T) {
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"About","bounds":[0,100,300,200],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.LinearLayout","bounds":[0,500,1080,650],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":2,"class":"android.widget.TextView","text":"Often asked questions","bounds":[40,510,900,640],"enabled":true,"visible_to_user":true}`)
	els := screen.Elements(s)
	for _, tc := range []struct {
		name, cmd string
		alias     map[term][]term
		want      bool
	}{
		{"its words tied by the model", "check the frequently asked questions about", map[term][]term{"frequent": {"often"}}, false},
		{"its own words", "check the often asked questions about", nil, false},
		{"not all its words", "check the questions about", nil, true}, // "Often" is more than asked
	} {
		cmd := tc.cmd
		rs := newRunState(cmd, "")
		st := &daemon.PlanState{Screen: s, Elements: els, Print: "here",
			History: []daemon.StepRecord{{Action: device.Tap, Target: screen.Descriptor{Text: "About"}, Screen: "main", After: "here", OK: true}}}
		rs.foldStep(st.History[0])
		rs.alias = tc.alias
		w := map[term]float64{}
		for _, ct := range rs.terms {
			w[ct.t] = 1
		}
		if got := rs.inView(st, w); got != tc.want {
			t.Errorf("%s: in view = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// inViewAfterTap is runState.inView for cmd on screen s (elements els),
// the run's one step a tap on the tab labelled tab that led here, every
// term of the command weighing 1.
func inViewAfterTap(s *screen.Snapshot, els []screen.Element, cmd, tab string) bool {
	rs := newRunState(cmd, "")
	st := &daemon.PlanState{Screen: s, Elements: els, Print: "here",
		History: []daemon.StepRecord{{Action: device.Tap, Target: screen.Descriptor{Text: tab}, Screen: "main", After: "here", OK: true}}}
	rs.foldStep(st.History[0])
	w := map[term]float64{}
	for _, ct := range rs.terms {
		w[ct.t] = 1
	}
	return rs.inView(st, w)
}

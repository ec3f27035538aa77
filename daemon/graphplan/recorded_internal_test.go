package graphplan

// The route check's words accounted for by the walked flow: by its own
// command's recording (daemon.PlanState.Learned), or, for a word standing
// in for one of its words, only as written (daemon.PlanState.Strict).

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/embedtest"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestWordLeftStandingIn: a word of the command standing in for one of
// the flow's (daemon.PlanState.Strict) is accounted for only by a step's
// own target carrying it as written — not by meaning, and not on a
// target that carries the flow's word it replaced too (Replaced).
func TestWordLeftStandingIn(t *testing.T) {
	both := daemon.StepRecord{Action: device.Tap, OK: true, Target: screen.Descriptor{Desc: "Open latest", ResourceID: "a:id/latest_photo_clip"}}
	clip := tapOn("Latest clip")
	plain := tapOn("Open latest")
	for _, tc := range []struct {
		name    string
		strict  []string
		step    daemon.StepRecord
		meaning bool // "clip" covered by meaning only
		left    bool
	}{
		{"no word standing in", nil, both, false, false},
		{"on a target carrying the flow's word too", []string{"clip"}, both, false, true},
		{"on a target of its own", []string{"clip"}, clip, false, false},
		{"by meaning only", []string{"clip"}, plain, true, true},
		{"by meaning, no word standing in", nil, plain, true, false},
	} {
		p := &Planner{}
		p.run = newRunState("star the latest clip", "")
		p.run.foldStep(tc.step)
		p.run.foldStep(tapOn("Toggle star"))
		if tc.meaning {
			for _, tm := range termsOf("clip") {
				p.run.covered[tm], p.run.worded[tm] = true, true
			}
		}
		st := &daemon.PlanState{History: []daemon.StepRecord{tc.step, tapOn("Toggle star")}, Strict: tc.strict, Replaced: []string{"photo"}}
		if got := p.wordLeft(t.Context(), st); got != tc.left {
			t.Errorf("%s: wordLeft %v, want %v", tc.name, got, tc.left)
		}
	}
}

// TestRecordedWords: in a route check the words the walked flow's own
// command carries are done by its recording; a word it lacks must still
// be on a step, and a command asking for all of something is sure only
// if that command asked for all of it too.
func TestRecordedWords(t *testing.T) {
	cases := []struct {
		name, command, learned string
		steps                  []daemon.StepRecord
		left                   bool
	}{
		{"a word of the flow's command", "flag the chat with Dora as unread", "flag the chat with Ezra as unread",
			[]daemon.StepRecord{tapOn("Dora"), tapOn("Flag as unread")}, false},
		{"no flow's command", "flag the chat with Dora as unread", "",
			[]daemon.StepRecord{tapOn("Dora"), tapOn("Flag as unread")}, true},
		{"a word the flow's command lacks", "flag the chat with Dora as unread and pin it", "flag the chat with Ezra as unread",
			[]daemon.StepRecord{tapOn("Dora"), tapOn("Flag as unread")}, true},
	}
	for _, tc := range cases {
		p := &Planner{}
		p.run = newRunState(tc.command, "")
		if tc.learned != "" {
			p.run.recordAs(tc.learned)
		}
		for _, h := range tc.steps {
			p.run.foldStep(h)
		}
		if got := p.wordLeft(t.Context(), &daemon.PlanState{}); got != tc.left {
			t.Errorf("%s: wordLeft %v, want %v (covered %v, recorded %v)", tc.name, got, tc.left, p.run.covered, p.run.recorded)
		}
	}
	for _, tc := range []struct {
		learned string
		sure    bool
	}{{"delete every reminder", true}, {"delete the reminder about rent", false}} {
		rs := newRunState("remove all the reminders", "")
		rs.recordAs(tc.learned)
		rs.foldStep(daemon.StepRecord{Action: device.Tap, OK: true, Label: "Rent", Target: screen.Descriptor{Class: "android.widget.TextView", Text: "Rent", InList: true}})
		rs.foldStep(tapOn("Delete"))
		if got := rs.unsure(0, map[term]float64{}); got == tc.sure {
			t.Errorf("learned as %q: unsure %v, want %v (picked a row %v)", tc.learned, got, !tc.sure, rs.pickedRow)
		}
	}
}

// TestStrictWordSetBySwitch: a word of the command standing in for one of
// the flow's ("stop" for its "disable") is accounted for by a switch a
// step set, as the state the word asks for; a plain tap accounts for it
// only by carrying it.
func TestStrictWordSetBySwitch(t *testing.T) {
	sw := daemon.StepRecord{Action: daemon.ActEnsureOff, OK: true, Label: "Sync drafts",
		Target: screen.Descriptor{Class: "android.widget.Switch", Text: "Sync drafts", Checkable: true}}
	for _, tc := range []struct {
		name string
		last daemon.StepRecord
		left bool
	}{{"a switch set off", sw, false}, {"a plain tap", tapOn("Sync drafts"), true}} {
		p := &Planner{}
		p.run = newRunState("stop syncing drafts", "")
		p.run.foldStep(tc.last)
		st := &daemon.PlanState{Strict: []string{"stop"}, Replaced: []string{"disable"}, History: []daemon.StepRecord{tc.last}}
		if got := p.wordLeft(t.Context(), st); got != tc.left {
			t.Errorf("%s: wordLeft %v, want %v (covered %v)", tc.name, got, tc.left, p.run.covered)
		}
	}
}

// TestStrictWordRecorded: a word of the command the matcher read as
// standing in for one of the flow's is accounted for when the flow's own
// command has it as written; a concept the two share is not enough.
func TestStrictWordRecorded(t *testing.T) {
	for _, tc := range []struct {
		learned string
		left    bool
	}{{"set the loop mode to 'loop the current song'", false}, {"set the loop mode to 'loop this song'", true}, {"", true}} {
		p := &Planner{}
		p.run = newRunState("loop the current song", "")
		if tc.learned != "" {
			p.run.recordAs(tc.learned)
		}
		h := tapOn("Loop the song")
		p.run.foldStep(h)
		st := &daemon.PlanState{Strict: []string{"current"}, Replaced: []string{"this"}, History: []daemon.StepRecord{h}}
		if got := p.wordLeft(t.Context(), st); got != tc.left {
			t.Errorf("learned as %q: wordLeft %v, want %v (recorded %v)", tc.learned, got, tc.left, p.run.recorded)
		}
	}
}

// TestWordLeftStandsIn: a word of the command standing in for one of the
// flow's is accounted for when the model puts it as close as StandInMin
// to the word it replaced, and that word was on a step's target — unless
// the app labels the command's word itself, or the two are opposites by
// a negating prefix or by the vocabulary.
func TestWordLeftStandsIn(t *testing.T) {
	for _, tc := range []struct {
		name, command, strict, replaced, target string
		same                                    map[string]string // the fake model's synonyms
		labelled                                bool              // the app labels the command's word
		left                                    bool
	}{
		{"the same word to the model", "pin the newer sketch", "newer", "recent", "Pin recent sketch", map[string]string{"newer": "recent"}, false, false},
		{"another word to the model", "pin the newer sketch", "newer", "recent", "Pin recent sketch", nil, false, true},
		{"a word the app labels", "pin the newer sketch", "newer", "recent", "Pin recent sketch", map[string]string{"newer": "recent"}, true, true},
		{"the flow's word on no target", "pin the newer sketch", "newer", "recent", "Pin sketch", map[string]string{"newer": "recent"}, false, true},
		{"a negating prefix", "flag the chat as seen", "seen", "unseen", "Flag chat as unseen", map[string]string{"seen": "unseen"}, false, true},
		{"opposites of the vocabulary", "order by newest", "newest", "oldest", "Order by oldest", map[string]string{"newest": "oldest"}, false, true},
	} {
		p := &Planner{}
		p.UseEmbedder(embedtest.Bag(tc.same, nil))
		g := &appGraph{df: map[term]int{}}
		if tc.labelled {
			for _, tm := range termsOf(tc.strict) {
				g.df[tm] = 1
			}
		}
		p.graphs = map[int64]*appGraph{7: g}
		step := tapOn(tc.target)
		p.run = newRunState(tc.command, "")
		p.run.foldStep(step)
		st := &daemon.PlanState{AppID: 7, History: []daemon.StepRecord{step}, Strict: []string{tc.strict}, Replaced: []string{tc.replaced}}
		if got := p.wordLeft(t.Context(), st); got != tc.left {
			t.Errorf("%s: wordLeft %v, want %v (terms %v)", tc.name, got, tc.left, p.run.terms)
		}
	}
}

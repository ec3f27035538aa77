package graphplan

import (
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func TestViewingCommand(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"view starred people", true},
		{"open the settings page", true},
		{"check the size of the newest clip", true},
		{"go to history and play clip9.mp4", false}, // two clauses
		{"open 'work' folder, sort the files by type", false},
		{"delete the note", false},
		{"turn on dark mode", false},
		{"", false},
		{"how much space is left", true}, // a question asks to be shown
		{"where is the help page", true},
		{"how", false},
		{"how do i turn on dark mode", false},       // how to do it, not what is shown
		{"what is free and delete the rest", false}, // two clauses
	} {
		if got := viewingCommand(tc.cmd); got != tc.want {
			t.Errorf("viewingCommand(%q) = %v, want %v", tc.cmd, got, tc.want)
		}
	}
}

func TestNavAndSetTerms(t *testing.T) {
	for _, w := range []string{"open", "view", "page", "tab"} {
		for _, tm := range termsOf(w) {
			if tm[0] != '@' && !navTerms[tm] {
				t.Errorf("%q (term %q) is not a navigation term", w, tm)
			}
		}
	}
	for _, w := range []string{"delete", "favorite", "dark"} {
		for _, tm := range termsOf(w) {
			if tm[0] != '@' && navTerms[tm] {
				t.Errorf("%q (term %q) must not be a navigation term", w, tm)
			}
		}
	}
	for _, tc := range []struct {
		t    term
		want bool
	}{{"@add", true}, {"add", true}, {"remov", true}, {"@off", true}, {"favorit", false}, {"@open", false}} {
		if got := isSetVerb(tc.t); got != tc.want {
			t.Errorf("isSetVerb(%q) = %v, want %v", tc.t, got, tc.want)
		}
	}
}

// TestPathsNeverChangeASetting: a tap on a switch, check box or radio
// button is never a step on the way somewhere else. Screen 1 opens a
// dialog (2) whose radio option leads to screen 3; screen 3 is reached
// through a plain entry of screen 1 too, and a screen (4) reached only
// through a switch is not reached at all.
func TestPathsNeverChangeASetting(t *testing.T) {
	radio := desc("Huge")
	radio.Checkable = true
	sw := desc("Dark theme")
	sw.Checkable = true
	els := []knowledge.Element{
		{ID: 10, ScreenID: 1, Descriptor: desc("Text size")},
		{ID: 11, ScreenID: 1, Descriptor: desc("More")},
		{ID: 12, ScreenID: 1, Descriptor: sw},
		{ID: 20, ScreenID: 2, Descriptor: radio},
	}
	kg := &knowledge.Graph{Screens: []knowledge.Screen{{ID: 1, Fingerprint: "a"}, {ID: 2, Fingerprint: "b", Dialog: true}, {ID: 3, Fingerprint: "c"}, {ID: 4, Fingerprint: "d"}},
		Elements: els, Transitions: []knowledge.Transition{
			{From: 1, To: 2, Action: "tap", ElementID: 10, Count: 9},
			{From: 2, To: 3, Action: "tap", ElementID: 20, Count: 9},
			{From: 1, To: 3, Action: "tap", ElementID: 11, Count: 1},
			{From: 1, To: 4, Action: "tap", ElementID: 12, Count: 1},
		}}
	dist, first, _ := buildGraph(kg, nil).dijkstra(1, nil)
	if e, ok := first[3]; !ok || e.element != 11 {
		t.Errorf("screen 3 reached through element %d (%v), want the plain entry 11", e.element, ok)
	}
	if _, ok := dist[4]; ok {
		t.Error("a screen reached only by flipping a switch is on a path")
	}
	if _, ok := dist[2]; !ok {
		t.Error("the dialog opened by a plain entry must stay reachable")
	}
}

// TestBackFromADialogReturns: leaving a dialog, by back or by its OK, leads
// to the screen that opened it. A recording in which leaving the dialog showed another
// state of that screen (2 → 3, scrolled further meanwhile) is no path from
// 1; screen 3 stays reachable by its own scroll, and a dialog opened from
// 3 still leads back to 3.
func TestBackFromADialogReturns(t *testing.T) {
	els := []knowledge.Element{
		{ID: 10, ScreenID: 1, Descriptor: desc("Text size")},
		{ID: 30, ScreenID: 3, Descriptor: desc("Keep drafts")},
		{ID: 31, ScreenID: 3, Descriptor: desc("Palette")},
		{ID: 20, ScreenID: 2, Descriptor: desc("OK")},
	}
	kg := &knowledge.Graph{Screens: []knowledge.Screen{{ID: 1, Fingerprint: "a", Activity: "S"}, {ID: 2, Fingerprint: "b", Activity: "S", Dialog: true}, {ID: 3, Fingerprint: "c", Activity: "S"}, {ID: 4, Fingerprint: "d", Activity: "S", Dialog: true}},
		Elements: els, Transitions: []knowledge.Transition{
			{From: 1, To: 2, Action: "tap", ElementID: 10, Count: 5},
			{From: 2, To: 3, Action: "back", Count: 5},
			{From: 2, To: 3, Action: "tap", ElementID: 20, Count: 5}, // OK: the same round trip
			{From: 2, To: 1, Action: "back", Count: 1},
			{From: 1, To: 3, Action: "scroll", Count: 1},
			{From: 3, To: 4, Action: "tap", ElementID: 31, Count: 1},
			{From: 4, To: 3, Action: "back", Count: 1},
		}}
	dist, first, hops := buildGraph(kg, nil).dijkstra(1, nil)
	if e := first[3]; e.action != "scroll" || hops[3] != 1 {
		t.Errorf("screen 3 reached by %q in %d hops, want its own scroll in 1", e.action, hops[3])
	}
	if _, ok := dist[4]; !ok {
		t.Error("the dialog screen 3 opens must stay reachable")
	}
	if d, _, _ := buildGraph(kg, nil).dijkstra(4, nil); d[3] == 0 {
		t.Error("from the dialog itself, back leads to where the recording went")
	}
}

// TestNoPathCommitsADialog: a path does not accept, on its way, a dialog
// holding a choice or a text field (its OK would commit another setting);
// from that dialog itself, OK is a first step like any other; the OK of a
// dialog that only shows a message is a way through (here to another
// activity: a dialog's exit to its opener's activity returns to the opener).
func TestNoPathCommitsADialog(t *testing.T) {
	option := desc("Roomy")
	option.Checkable = true
	els := []knowledge.Element{
		{ID: 10, ScreenID: 1, Descriptor: desc("Spacing · Snug")},
		{ID: 20, ScreenID: 2, Descriptor: option},
		{ID: 21, ScreenID: 2, Descriptor: desc("OK")},
		{ID: 11, ScreenID: 1, Descriptor: desc("Palette")},
		{ID: 40, ScreenID: 4, Descriptor: desc("OK")},
	}
	kg := &knowledge.Graph{Screens: []knowledge.Screen{{ID: 1, Fingerprint: "a"}, {ID: 2, Fingerprint: "b", Dialog: true},
		{ID: 3, Fingerprint: "c", Activity: "Colors"}, {ID: 4, Fingerprint: "d", Dialog: true}, {ID: 5, Fingerprint: "e", Activity: "Colors"}},
		Elements: els, Transitions: []knowledge.Transition{
			{From: 1, To: 2, Action: "tap", ElementID: 10, Count: 1},
			{From: 2, To: 3, Action: "tap", ElementID: 21, Count: 1},
			{From: 1, To: 4, Action: "tap", ElementID: 11, Count: 1},
			{From: 4, To: 5, Action: "tap", ElementID: 40, Count: 1},
		}}
	g := buildGraph(kg, nil)
	dist, _, _ := g.dijkstra(1, nil)
	if _, ok := dist[3]; ok {
		t.Error("screen 3 is reached by accepting another setting's dialog on the way")
	}
	if _, ok := dist[5]; !ok {
		t.Error("the OK of a dialog that only shows a message must stay a way through")
	}
	if d, first, _ := g.dijkstra(2, nil); first[3].element != 21 || d[3] == 0 {
		t.Error("from the dialog itself, its OK is a first step")
	}
}

// TestNoPathFlipsASetting: a tap that changed a setting in place (a
// toggle, or a button that shows or hides something, leading to another
// state of the same screen) is no way through: a path to the settings
// does not flip the camera first because the recording did. It is a first
// step only when the command names what it flips; a button that opens
// another screen or a dialog is a way whatever its name.
func TestNoPathFlipsASetting(t *testing.T) {
	els := []knowledge.Element{
		{ID: 10, ScreenID: 1, Descriptor: desc("Toggle front/back lens")},
		{ID: 11, ScreenID: 1, Descriptor: desc("Show hidden albums")},
		{ID: 20, ScreenID: 2, Descriptor: desc("Preferences")},
		{ID: 30, ScreenID: 5, Descriptor: desc("Show details")},
	}
	kg := &knowledge.Graph{Screens: []knowledge.Screen{{ID: 1, Fingerprint: "a", Activity: "Main"}, {ID: 2, Fingerprint: "b", Activity: "Main"},
		{ID: 3, Fingerprint: "c", Activity: "Prefs"}, {ID: 4, Fingerprint: "d", Activity: "Main"}, {ID: 5, Fingerprint: "e", Activity: "Viewer"}, {ID: 6, Fingerprint: "f", Activity: "Details"}},
		Elements: els, Transitions: []knowledge.Transition{
			{From: 1, To: 2, Action: "tap", ElementID: 10, Count: 9},
			{From: 2, To: 3, Action: "tap", ElementID: 20, Count: 1},
			{From: 1, To: 4, Action: "tap", ElementID: 11, Count: 1},
			{From: 4, To: 5, Action: "tap", ElementID: 12, Count: 1},
			{From: 5, To: 6, Action: "tap", ElementID: 30, Count: 1},
		}}
	g := buildGraph(kg, nil)
	for _, tc := range []struct {
		name   string
		flipOK func(gEdge) bool
		want   map[int64]bool // screen -> reachable
	}{
		{"never", nil, map[int64]bool{2: false, 3: false, 4: false}},
		{"the command names the toggle", func(e gEdge) bool { return e.element == 10 }, map[int64]bool{2: true, 3: true, 4: false}},
	} {
		dist, _, _ := g.dijkstra(1, tc.flipOK)
		for scr, want := range tc.want {
			if _, ok := dist[scr]; ok != want {
				t.Errorf("%s: screen %d reachable %v, want %v", tc.name, scr, ok, want)
			}
		}
	}
	if dist, _, _ := g.dijkstra(5, nil); dist[6] == 0 {
		t.Error(`"Show details" opening another screen must stay a way through`)
	}
	if dist, _, _ := g.dijkstra(2, nil); dist[3] == 0 {
		t.Error("from the flipped state, the way on is open")
	}
	// the command names the toggle by a word the owner sees, not by its
	// resource-id's
	g.elems[10].Descriptor.ResourceID = "org.example.lens:id/album_lens_toggle"
	g.terms[10] = termsOf(g.elems[10].Descriptor.Label() + " " + g.elems[10].Descriptor.ResourceID)
	for cmd, want := range map[string]bool{"switch to the front lens": true, "show my albums": false} {
		if got := g.namesEdge(newRunState(cmd, ""), gEdge{element: 10}); got != want {
			t.Errorf("%q names the toggle: %v, want %v", cmd, got, want)
		}
	}
}

// TestUnknownAction: an action the command names that no element of the
// app carries, by word or by meaning, keeps the command from being done,
// unless a step covered it or set a switch.
func TestUnknownAction(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cmd     string
		known   []string // words the app's elements carry
		toggled bool
		alias   bool
		want    string
	}{
		{"the app knows no 'mute'", "mute the doorbell", []string{"doorbell"}, false, false, "mute"},
		{"a switch was set on the way", "mute the doorbell", []string{"doorbell"}, true, false, ""},
		{"'mute' means an element's words", "mute the doorbell", []string{"doorbell"}, false, true, ""},
		{"the app knows the verb", "delete the note", []string{"delete", "note"}, false, false, ""},
		{"no action word", "the doorbell sound", []string{"doorbell"}, false, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := newRunState(tc.cmd, "")
			rs.toggled = tc.toggled
			w := map[term]float64{}
			for _, k := range tc.known {
				for _, tm := range termsOf(k) {
					w[tm] = 1
				}
			}
			if tc.alias {
				rs.alias = map[term][]term{"@mute": {"sound"}}
			}
			if got := rs.unknownAction(w); got != tc.want {
				t.Errorf("unknownAction = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestStaleSteps: steps that cover none of the command's words count up
// to MaxStale, a step that covers one starts the count again, and the
// planner gives up at MaxStale rather than wander on.
func TestStaleSteps(t *testing.T) {
	p := &Planner{}
	rs := newRunState("turn on the doorbell", "")
	tap := func(label string) daemon.StepRecord {
		return daemon.StepRecord{Action: device.Tap, OK: true, Target: desc(label)}
	}
	st := &daemon.PlanState{Command: "turn on the doorbell"}
	for _, l := range []string{"Settings", "About", "Help"} {
		st.History = append(st.History, tap(l))
	}
	p.fold(rs, st)
	if rs.stale != 3 {
		t.Fatalf("stale = %d after three steps covering nothing, want 3", rs.stale)
	}
	st.History = append(st.History, tap("Doorbell"))
	p.fold(rs, st)
	if rs.stale != 0 {
		t.Fatalf("stale = %d after a step covering a word, want 0", rs.stale)
	}
	for range MaxStale {
		st.History = append(st.History, tap("Colors"))
	}
	p.fold(rs, st)
	if rs.stale != MaxStale {
		t.Errorf("stale = %d, want %d", rs.stale, MaxStale)
	}
}

// TestValueTheFieldHolds: of "rename 'Ledger' to 'chores'", the field
// showing "Ledger" gets "chores" (typing the name it holds changes
// nothing), and typing over "Ledger" leaves no value pending, so the
// dialog can be committed.
func TestValueTheFieldHolds(t *testing.T) {
	rs := newRunState("rename the note 'ledger' to 'chores'", "")
	if len(rs.values) != 2 {
		t.Fatalf("values %+v, want two", rs.values)
	}
	field := &screen.Element{Kind: screen.KindInput, Label: "Ledger", Value: "Ledger", Resource: "note_name"}
	if v := rs.nextValueFor(field); v < 0 || rs.values[v].text != "chores" {
		t.Fatalf("nextValueFor = %d (%+v), want the value 'chores'", v, rs.values)
	}
	(&Planner{}).fold(rs, &daemon.PlanState{History: []daemon.StepRecord{{Action: device.Input, OK: true, Label: "Ledger", Text: "chores"}}})
	if n := rs.pendingValues(); n != 0 {
		t.Errorf("%d values pending after typing 'chores' over 'Ledger', want 0", n)
	}
}

// TestCreatesUnasked: a command that changes or deletes an existing item
// never taps an element that creates one; one that adds, or says neither,
// may.
func TestCreatesUnasked(t *testing.T) {
	st := &daemon.PlanState{Elements: []screen.Element{
		{Kind: screen.KindButton, Label: "Create a new note"},
		{Kind: screen.KindButton, Label: "More options"},
	}}
	for _, tt := range []struct {
		cmd     string
		element int
		want    bool
	}{
		{"rename the note 'Ledger' to 'chores'", 0, true},
		{"delete the note 'Ledger'", 0, true},
		{"rename the note 'Ledger' to 'chores'", 1, false},
		{"create a note 'Ledger' and write eggs", 0, false},
		{"set an alarm for 7 am", 0, false},
		{"show the note 'Ledger'", 0, false},
	} {
		rs := newRunState(tt.cmd, "")
		if got := createsUnasked(rs, st, candidate{action: device.Tap, element: tt.element}); got != tt.want {
			t.Errorf("%q, %q: createsUnasked = %v, want %v", tt.cmd, st.Elements[tt.element].Label, got, tt.want)
		}
	}
}

// TestAnsweredDialogNamesTheValue: answering a dialog whose text names the
// command's value ("Delete note "Ledger"?") leaves that value done; a
// dialog about something else, or a screen that is no dialog, does not.
func TestAnsweredDialogNamesTheValue(t *testing.T) {
	for _, tt := range []struct {
		name   string
		where  *knowledge.Goal
		wantOK bool
	}{
		{"the dialog names it", &knowledge.Goal{Dialog: true, Labels: []string{`delete note "ledger"?`, "delete", "cancel"}}, true},
		{"another item", &knowledge.Goal{Dialog: true, Labels: []string{`delete note "trip"?`, "delete", "cancel"}}, false},
		{"no dialog", &knowledge.Goal{Labels: []string{"ledger", "delete"}}, false},
	} {
		rs := newRunState("delete the note 'Ledger'", "")
		h := daemon.StepRecord{Action: device.Tap, OK: true, Label: "Delete", Target: desc("Delete"), Where: tt.where}
		(&Planner{}).fold(rs, &daemon.PlanState{History: []daemon.StepRecord{h}})
		if got := rs.pendingValues() == 0; got != tt.wantOK {
			t.Errorf("%s: value done = %v, want %v", tt.name, got, tt.wantOK)
		}
	}
}

// TestAllButOneItem: a row of the app's content the command does not name
// counts as one item picked (so a command about all of something deletes
// nothing there); a popup menu's row does not; "Delete" deletes.
func TestAllButOneItem(t *testing.T) {
	for _, tt := range []struct {
		name   string
		where  *knowledge.Goal
		picked bool
	}{
		{"a contact's row", &knowledge.Goal{Labels: []string{"voicemails"}}, true},
		{"a menu's row", &knowledge.Goal{Dialog: true, Labels: []string{"settings"}}, false},
	} {
		rs := newRunState("delete all voicemails", "")
		d := desc("Dora")
		d.InList = true
		(&Planner{}).fold(rs, &daemon.PlanState{History: []daemon.StepRecord{{Action: device.Tap, OK: true, Label: "Dora", Target: d, Where: tt.where}}})
		if !rs.universal || rs.pickedItem != tt.picked {
			t.Errorf("%s: universal %v, picked an item %v; want true, %v", tt.name, rs.universal, rs.pickedItem, tt.picked)
		}
	}
	st := &daemon.PlanState{Elements: []screen.Element{{Kind: screen.KindButton, Label: "Delete"}, {Kind: screen.KindButton, Label: "Edit"}}}
	if !destroys(st, candidate{action: device.Tap, element: 0}) || destroys(st, candidate{action: device.Tap, element: 1}) {
		t.Error(`destroys: want "Delete" only`)
	}
}

// TestAppWordsNameNoField: a number goes only into a field whose shown
// words the words before it name; the words naming the app are no such
// words ("the Jotter app to 140%" against a note's name field), nor is the
// field's resource-id; a quoted value keeps them to rank fields.
func TestAppWordsNameNoField(t *testing.T) {
	field := &screen.Element{Kind: screen.KindInput, Label: "Ledger", Value: "Ledger", Resource: "jotter_name"}
	if v := newRunState("set the text size of the Jotter app to 140%", "Jotter").nextValueFor(field); v >= 0 {
		t.Errorf("the number goes into a note's name field (value %d)", v)
	}
	if v := newRunState("set the text size of the Jotter app to 140%", "").nextValueFor(field); v >= 0 {
		t.Errorf("without the app's name, 'jotter' is only in the field's resource-id, which names no field for an unquoted value (value %d)", v)
	}
	if v := newRunState("create a note named 'Trip'", "Jotter").nextValueFor(&screen.Element{Kind: screen.KindInput, Resource: "note_name"}); v < 0 {
		t.Error("a quoted value: want it typed")
	}
}

// TestOnScreenFirst: a path elsewhere ranks below an element here that
// covers the same words with at least half its score; a text that is no
// element to act on, or a much weaker match, leaves it first.
func TestOnScreenFirst(t *testing.T) {
	st := &daemon.PlanState{Elements: []screen.Element{{Kind: screen.KindButton, Label: "Roomy"}, {Kind: screen.KindText, Label: "Text size is Roomy"}}}
	for _, tc := range []struct {
		name      string
		here      candidate
		pathFirst bool
	}{
		{"an option here covering the same word", candidate{element: 0, score: 0.33, rank: 0.33, covers: []term{"roomi"}}, false},
		{"a text here", candidate{element: 1, score: 0.33, rank: 0.33, covers: []term{"roomi"}}, true},
		{"a much weaker match here", candidate{element: 0, score: 0.15, rank: 0.15, covers: []term{"roomi"}}, true},
		{"covering less here", candidate{element: 0, score: 0.33, rank: 0.33, covers: []term{"font"}}, true},
	} {
		path := candidate{action: device.Back, element: -1, via: 1, score: 0.4, rank: 0.5, covers: []term{"roomi"}}
		cands := []candidate{path, tc.here}
		onScreenFirst(st, cands)
		if got := cands[0].rank > cands[1].rank; got != tc.pathFirst {
			t.Errorf("%s: path ranks first = %v, want %v (ranks %.3f, %.3f)", tc.name, got, tc.pathFirst, cands[0].rank, cands[1].rank)
		}
	}
}

// TestRetoggles: a toggle the run tapped is not tapped again (it would
// undo the step); a plain button is, and so is a toggle whose earlier tap
// was undone or had no effect.
func TestRetoggles(t *testing.T) {
	s := screenOf(t, `	 {"id":1,"parent":0,"class":"android.widget.ImageButton","content_desc":"Toggle grid lines","bounds":[0,100,200,250],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.Button","text":"Rescan","bounds":[300,100,600,250],"clickable":true,"enabled":true,"visible_to_user":true}`)
	els := screen.Elements(s)
	at := func(label string) int {
		for i := range els {
			if els[i].Label == label {
				return i
			}
		}
		t.Fatalf("no element %q", label)
		return -1
	}
	toggle, button := at("Toggle grid lines"), at("Rescan")
	tapped := func(i int, ok, undo bool) daemon.StepRecord {
		return daemon.StepRecord{Action: device.Tap, OK: ok, Undo: undo, Target: screen.Describe(s, els[i].NodeID)}
	}
	for _, tc := range []struct {
		name    string
		history []daemon.StepRecord
		elem    int
		want    bool
	}{
		{"toggle tapped before", []daemon.StepRecord{tapped(toggle, true, false)}, toggle, true},
		{"toggle never tapped", nil, toggle, false},
		{"button tapped before", []daemon.StepRecord{tapped(button, true, false)}, button, false},
		{"toggle tap that did nothing", []daemon.StepRecord{tapped(toggle, false, false)}, toggle, false},
		{"toggle tap undone", []daemon.StepRecord{tapped(toggle, true, true)}, toggle, false},
	} {
		st := &daemon.PlanState{Screen: s, Elements: els, History: tc.history}
		if got := retoggles(st, candidate{action: device.Tap, element: tc.elem}); got != tc.want {
			t.Errorf("%s: retoggles = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestPickedChoiceIsAccepted: after an option of a picker with OK and
// Cancel was tapped, Cancel is no way on (discards) and OK accepts it
// (acceptChoice), also when a form was committed earlier in the run
// (afterCommit); without a pick, or with no Cancel on screen, neither
// applies.
func TestPickedChoiceIsAccepted(t *testing.T) {
	picker := func(withCancel bool) *screen.Snapshot {
		cancel := ""
		if withCancel {
			cancel = `,{"id":4,"parent":0,"class":"android.widget.Button","text":"Cancel","bounds":[100,900,500,1000],"clickable":true,"enabled":true,"visible_to_user":true}`
		}
		return screenOf(t, `		 {"id":1,"parent":0,"class":"android.widget.RadioButton","text":"Harp","bounds":[100,200,980,300],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},
		 {"id":2,"parent":0,"class":"android.widget.RadioButton","text":"Bells","bounds":[100,300,980,400],"checkable":true,"checked":true,"clickable":true,"enabled":true,"visible_to_user":true},
		 {"id":3,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[600,900,980,1000],"clickable":true,"enabled":true,"visible_to_user":true}`+cancel)
	}
	for _, tc := range []struct {
		name           string
		cancel, picked bool
		want           bool
	}{
		{"picked, with Cancel", true, true, true},
		{"nothing picked", true, false, false},
		{"no Cancel on screen", false, true, false},
	} {
		s := picker(tc.cancel)
		els := screen.Elements(s)
		idx := byLabel(els)
		var hist []daemon.StepRecord
		if tc.picked {
			hist = []daemon.StepRecord{{Action: device.Tap, OK: true, Screen: "p", After: "p", Target: screen.Describe(s, els[idx["Bells"]].NodeID)}}
		}
		st := &daemon.PlanState{Command: "set the alert tone to bells", Screen: s, Elements: els, Print: "p", History: hist}
		rs := newRunState(st.Command, "")
		c, ok := rs.acceptChoice(st)
		if ok != tc.want || ok && els[c.element].Label != "OK" {
			t.Errorf("%s: acceptChoice = %v %q, want %v", tc.name, ok, els[max(c.element, 0)].Label, tc.want)
		}
		// after a committed form ("create a list named 'X'", OK), the
		// choice is accepted before the command is done
		rs.committed = true
		if d := rs.afterCommit(st, 0, nil); (d.Action == device.Tap) != tc.want {
			t.Errorf("%s: after a commit %s (%s), want OK: %v", tc.name, d.Action, d.Reason, tc.want)
		}
		if i, has := idx["Cancel"]; has {
			if got := discards(rs, st, candidate{action: device.Tap, element: i}); got != tc.want {
				t.Errorf("%s: discards(Cancel) = %v, want %v", tc.name, got, tc.want)
			}
		}
	}
}

// TestFormFilled: a form whose every text field holds what the run just
// typed is filled (commit it, the values left belong further on); one
// with a field still empty, or whose last step typed nothing, is not.
func TestFormFilled(t *testing.T) {
	form := func(second bool) *screen.Snapshot {
		extra := ""
		if second {
			extra = `,{"id":3,"parent":0,"class":"android.widget.EditText","hint":"Phone","bounds":[100,400,980,500],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true}`
		}
		return screenOf(t, `		 {"id":1,"parent":0,"class":"android.widget.EditText","text":"Milk","hint":"Name","bounds":[100,200,980,300],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},
		 {"id":2,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[600,900,980,1000],"clickable":true,"enabled":true,"visible_to_user":true}`+extra)
	}
	for _, tc := range []struct {
		name          string
		second, typed bool
		want          bool
	}{
		{"the one field typed", false, true, true},
		{"a second field empty", true, true, false},
		{"nothing typed", false, false, false},
	} {
		s := form(tc.second)
		els := screen.Elements(s)
		var hist []daemon.StepRecord
		if tc.typed {
			hist = []daemon.StepRecord{{Action: device.Input, OK: true, Text: "Milk", Screen: "p", After: "p", Target: screen.Describe(s, 1)}}
		} else {
			hist = []daemon.StepRecord{{Action: device.Tap, OK: true, Screen: "o", After: "p", Target: screen.Describe(s, 2)}}
		}
		st := &daemon.PlanState{Screen: s, Elements: els, Print: "p", History: hist}
		if got := formFilled(st); got != tc.want {
			t.Errorf("%s: formFilled = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestTypingIntoABody: a document's body that shows text takes no value
// the command does not name its field for, unless the run created the
// document (its text is then a placeholder or the run's own); and a field
// holding a value the run typed takes no other value over it.
func TestTypingIntoABody(t *testing.T) {
	s := screenOf(t, `	 {"id":1,"parent":0,"class":"android.widget.EditText","text":"Start writing…","bounds":[0,240,1080,2280],"clickable":true,"editable":true,"scrollable":true,"enabled":true,"visible_to_user":true}`)
	els := screen.Elements(s)
	st := &daemon.PlanState{Screen: s, Elements: els, Print: "p"}
	for _, created := range []bool{false, true} {
		rs := newRunState("create a note and type 'two bottles'", "")
		rs.created = created
		got := false
		for _, c := range (&Planner{}).screenCandidates(rs, st, nil, map[term]float64{}) {
			got = got || c.action == device.Input
		}
		if got != created {
			t.Errorf("created %v: a value typed into the body = %v, want %v", created, got, created)
		}
	}
	rs := newRunState("call it 'Milk' and type 'two bottles'", "")
	rs.values[0].done, rs.values[0].typed = true, true
	if v := rs.nextValueFor(&screen.Element{Kind: screen.KindInput, Value: "Milk"}); v >= 0 {
		t.Errorf("a field holding the typed %q takes %q over it", rs.values[0].text, rs.values[v].text)
	}
}

// TestSelectorValues: a quoted value that is the label of something the
// app shows picks that thing: it is typed into a search field only; one
// introduced as a name or a new value ("to 'X'", "called 'X'") is typed,
// but not into a search field when it names what the command creates —
// unless it labels an option of a choice (a radio button), which is
// picked whatever the word before it.
func TestSelectorValues(t *testing.T) {
	radio := screen.Descriptor{Class: "android.widget.RadioButton", Text: "Velvet", Checkable: true}
	g := buildGraph(&knowledge.Graph{Screens: []knowledge.Screen{{ID: 1, Fingerprint: "a"}},
		Elements: []knowledge.Element{{ID: 1, ScreenID: 1, Descriptor: desc("Ledger")}, {ID: 2, ScreenID: 1, Descriptor: desc("Chores")}, {ID: 3, ScreenID: 1, Descriptor: radio}}}, nil)
	st := &daemon.PlanState{Screen: &screen.Snapshot{}}
	field := &screen.Element{Kind: screen.KindInput, Label: "File name"}
	search := &screen.Element{Kind: screen.KindInput, Label: "Search", Hint: "Search"}
	for _, tc := range []struct {
		cmd          string
		field, found string // the value typed into a plain field, into a search field ("": none)
	}{
		{"export the note 'Ledger' as a file", "", "Ledger"},
		{"rename the note 'Ledger' to 'Chores'", "Chores", "Ledger"},
		{"create a note called 'Chores'", "Chores", ""}, // a new name is no search
		{"add an album 'Receipts'", "Receipts", ""},
		{"export the note 'Budget' as a file", "Budget", "Budget"},
		{"change the preset to 'Velvet'", "", "Velvet"}, // an option: picked
	} {
		rs := newRunState(tc.cmd, "")
		rs.markSelectors(st, g)
		for _, c := range []struct {
			e    *screen.Element
			want string
		}{{field, tc.field}, {search, tc.found}} {
			got := ""
			if v := rs.nextValueFor(c.e); v >= 0 {
				got = rs.values[v].text
			}
			if got != c.want {
				t.Errorf("%q into %q: typed %q, want %q", tc.cmd, c.e.Label, got, c.want)
			}
		}
	}
}

// TestComposerTakesOnlyMessages: the field where a message is written
// ("Write a message…") takes a value only for a command that sends one; a
// field whose text merely holds the word (a file name) is no composer.
func TestComposerTakesOnlyMessages(t *testing.T) {
	box := &screen.Element{Kind: screen.KindInput, Label: "Write a message…"}
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"send Dora a message saying 'on my way'", true},
		{"text Dora 'on my way'", true},
		{"rename the chat with Dora to 'family'", false},
	} {
		if got := newRunState(tc.cmd, "").nextValueFor(box) >= 0; got != tc.want {
			t.Errorf("%q: typed into the message box = %v, want %v", tc.cmd, got, tc.want)
		}
	}
	if composer(&screen.Element{Kind: screen.KindInput, Label: "Messages_2024_backup"}) {
		t.Error("a file name holding the word 'messages' is taken for a message box")
	}
}

// TestAnotherOptionNamed: an option of a single choice the command does
// not name is passed over when it names another one on the screen (by
// its words, or as a value it picks by name); the
// named one is not, nor a check box beside the options (a setting of its
// own), nor any option when the command names none.
func TestAnotherOptionNamed(t *testing.T) {
	s := screenOf(t, `	 {"id":1,"parent":0,"class":"android.widget.RadioButton","text":"Oldest first","bounds":[100,200,980,300],"checkable":true,"checked":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.RadioButton","text":"Newest first","bounds":[100,300,980,400],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.CheckBox","text":"Apply to this album only","bounds":[100,400,980,500],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true}`)
	els := screen.Elements(s)
	st := &daemon.PlanState{Screen: s, Elements: els, Print: "p"}
	at := byLabel(els)
	for _, tc := range []struct {
		cmd, label string
		want       bool
	}{
		{"sort the albums newest first", "Oldest first", true},
		{"sort the albums newest first", "Newest first", false},
		{"sort the albums newest first", "Apply to this album only", false},
		{"sort the albums by size", "Oldest first", false},
		// an option named as a value the command picks: the order of its words is the command's
		{"sort the album order by 'Newest first'", "Oldest first", true},
		{"sort the album order by 'Newest first'", "Newest first", false},
	} {
		rs := newRunState(tc.cmd, "")
		for i := range rs.values {
			rs.values[i].selects = !rs.values[i].names // as markSelectors finds it among the app's labels
		}
		if got := rs.anotherOptionNamed(st, candidate{action: device.Tap, element: at[tc.label]}); got != tc.want {
			t.Errorf("%q, %q: passed over = %v, want %v", tc.cmd, tc.label, got, tc.want)
		}
	}
}

// TestNoDeletionUnasked: an element the sensitive-action policy puts in the
// category Destroy or Call is passed over for a command that does not ask
// for it, not for one that does; other categories ("Share") are the
// engine guard's to judge.
func TestNoDeletionUnasked(t *testing.T) {
	s := screenOf(t, `	 {"id":1,"parent":0,"class":"android.widget.ImageButton","content_desc":"Delete","bounds":[0,100,200,250],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageButton","content_desc":"Share","bounds":[300,100,500,250],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.ImageButton","content_desc":"Place call","bounds":[600,100,800,250],"clickable":true,"enabled":true,"visible_to_user":true}`)
	els := screen.Elements(s)
	at := byLabel(els)
	for _, tc := range []struct {
		cmd, label string
		want       bool
	}{
		{"print the last photo", "Delete", true},
		{"delete the last photo", "Delete", false},
		{"print the last photo", "Share", false},
		{"add contact Dora to favorites", "Place call", true},
		{"call Dora", "Place call", false},
	} {
		st := &daemon.PlanState{Command: tc.cmd, Screen: s, Elements: els}
		if got := unasked(st, candidate{action: device.Tap, element: at[tc.label]}); got != tc.want {
			t.Errorf("%q, %q: passed over = %v, want %v", tc.cmd, tc.label, got, tc.want)
		}
	}
}

// byLabel maps each element's label to its index in els (the last one
// for a repeated label).
func byLabel(els []screen.Element) map[string]int {
	at := map[string]int{}
	for i, e := range els {
		at[e.Label] = i
	}
	return at
}

// TestSharedResourceNamesNoRow: the rows of a list share a resource-id
// whose words name the list ("recent_call_row"), not the row: "erase all
// recent calls" finds no row by it, and the button that clears the list
// wins; a lone element's resource-id still names it.
func TestSharedResourceNamesNoRow(t *testing.T) {
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.LinearLayout","resource_id":"org.example.phone:id/recent_call_row","text":"Dora · 12.05","bounds":[0,200,1080,360],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.LinearLayout","resource_id":"org.example.phone:id/recent_call_row","text":"Sam · 11.05","bounds":[0,360,1080,520],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Wipe the log","bounds":[0,600,1080,700],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.ImageButton","resource_id":"org.example.phone:id/recent_filter","content_desc":"Filter","bounds":[0,800,200,900],"clickable":true,"enabled":true,"visible_to_user":true}`)
	st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s), Print: "log"}
	rs := newRunState("wipe all recent calls", "")
	w := map[term]float64{}
	for _, ct := range rs.terms {
		w[ct.t] = 1
	}
	covers := map[string][]term{}
	best, label := 0.0, ""
	for _, c := range (&Planner{}).screenCandidates(rs, st, nil, w) {
		l := st.Elements[c.element].Label
		covers[l] = c.covers
		if c.score > best {
			best, label = c.score, l
		}
	}
	for _, row := range []string{"Dora · 12.05", "Sam · 11.05"} {
		if slices.Contains(covers[row], "recent") {
			t.Errorf("row %q covers %q by the list's resource-id", row, "recent")
		}
	}
	if !slices.Contains(covers["Filter"], "recent") {
		t.Errorf("a lone element's resource-id no longer names it: %v", covers["Filter"])
	}
	if label != "Wipe the log" {
		t.Errorf("best candidate %q, want the button that clears the list", label)
	}
}

// TestRadioButtonDeletesNothing: a tapped toggle covers the command's add /
// delete / on / off ("add Dora to starred" by "Toggle star"); a
// radio button picks a value and deletes nothing ("delete all the
// trips" is not done by picking "Compact list"), though it may set it.
func TestRadioButtonDeletesNothing(t *testing.T) {
	for _, tc := range []struct {
		cmd, class, label string
		verb              term
		want              bool
	}{
		{"add Dora to starred", "android.widget.ImageView", "Toggle star", "@add", true},
		{"delete all the trips", "android.widget.RadioButton", "Compact list", "@delete", false},
		{"delete all the trips", "android.widget.CheckBox", "Compact list", "@delete", true},
		{"set the text size to huge", "android.widget.RadioButton", "Huge", "@add", true},
	} {
		rs := newRunState(tc.cmd, "")
		d := screen.Descriptor{Class: tc.class, Text: tc.label, Checkable: tc.class != "android.widget.ImageView"}
		rs.foldStep(daemon.StepRecord{Action: device.Tap, Target: d, OK: true, Changed: true})
		if rs.covered[tc.verb] != tc.want {
			t.Errorf("%q after %s %q: %s covered %v, want %v", tc.cmd, tc.class, tc.label, tc.verb, rs.covered[tc.verb], tc.want)
		}
	}
}

// TestAnotherTabLeavesTheChosenOne: after a tab chosen for a word of the
// command ("Starred"), a tab beside it ("People") is passed over even if
// the command names it too; rows of a vertical list are not tabs, and a
// tab that only named the app was no choice.
func TestAnotherTabLeavesTheChosenOne(t *testing.T) {
	const tabs = `
	 {"id":1,"parent":0,"class":"android.widget.HorizontalScrollView","resource_id":"org.example.book:id/tabs","bounds":[0,100,1080,250],"scrollable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":1,"class":"android.widget.LinearLayout","bounds":[0,100,360,250],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":2,"class":"android.widget.TextView","text":"People","bounds":[0,100,360,250],"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":1,"class":"android.widget.LinearLayout","bounds":[360,100,720,250],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":4,"class":"android.widget.TextView","text":"Starred","bounds":[360,100,720,250],"enabled":true,"visible_to_user":true},
	 {"id":6,"parent":1,"class":"android.widget.LinearLayout","bounds":[720,100,1080,250],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":7,"parent":6,"class":"android.widget.TextView","text":"Book","bounds":[720,100,1080,250],"enabled":true,"visible_to_user":true}`
	const rows = `
	 {"id":1,"parent":0,"class":"android.widget.ListView","bounds":[0,100,1080,1000],"scrollable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":1,"class":"android.widget.LinearLayout","bounds":[0,100,1080,250],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":2,"class":"android.widget.TextView","text":"People","bounds":[0,100,1080,250],"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":1,"class":"android.widget.LinearLayout","bounds":[0,250,1080,400],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":4,"class":"android.widget.TextView","text":"Starred","bounds":[0,250,1080,400],"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		name, nodes, cmd, chosen, next string
		want                           bool
	}{
		{"a tab beside", tabs, "show my starred people", "Starred", "People", true},
		{"rows of a list", rows, "show my starred people", "Starred", "People", false},
		{"the app's name was no choice", tabs, "show the people in my book", "Book", "People", false},
	} {
		s := screenOf(t, tc.nodes)
		st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s), Print: "main"}
		idx := func(label string) int {
			return slices.IndexFunc(st.Elements, func(e screen.Element) bool { return e.Label == label })
		}
		rs := newRunState(tc.cmd, "Book")
		st.History = []daemon.StepRecord{{Action: device.Tap, Target: screen.Describe(s, st.Elements[idx(tc.chosen)].NodeID), Label: tc.chosen, Screen: "main", After: "main", OK: true, Changed: true}}
		if got := rs.otherTab(st, candidate{action: device.Tap, element: idx(tc.next)}); got != tc.want {
			t.Errorf("%s: %q after %q passed over %v, want %v", tc.name, tc.next, tc.chosen, got, tc.want)
		}
	}
}

// TestSpokenNameOnlyWhereANameIsGiven: a name set apart by a naming word
// without quotes is a value to type for a command that creates, changes
// or sends something; for one that finds what exists ("open the folder
// named trips") its words stay words to match.
func TestSpokenNameOnlyWhereANameIsGiven(t *testing.T) {
	for _, tc := range []struct {
		cmd, want string
	}{
		{"create a folder named summer trips", "summer trips"},
		{"text Sam saying see you at noon", "see you at noon"},
		{"rename this album, call it titled beach days", "beach days"},
		{"open the folder named summer trips", ""},
		{"delete the album called beach days", ""},
	} {
		rs := newRunState(tc.cmd, "")
		got := ""
		for _, v := range rs.values {
			if v.quoted {
				got = v.text
			}
		}
		if got != tc.want {
			t.Errorf("%q: value %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

// TestFormChoiceBeforeCommit: before a form with a typed value is
// committed, a radio button whose label carries a word of the command that
// no other label of the form carries is chosen ("a task list named …");
// not a word the form's title shares ("page"), nor one only a
// resource-id carries ("type" of "…type_task_list").
func TestFormChoiceBeforeCommit(t *testing.T) {
	s := dialogOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"New page","bounds":[120,620,960,700],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.EditText","text":"groceries","resource_id":"org.example.pad:id/note_title","bounds":[120,720,960,820],"editable":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.RadioButton","text":"Plain page","resource_id":"org.example.pad:id/type_plain_page","bounds":[120,840,960,940],"checkable":true,"checked":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.RadioButton","text":"Task list","resource_id":"org.example.pad:id/type_task_list","bounds":[120,960,960,1060],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":0,"class":"android.widget.Button","text":"Cancel","bounds":[300,1450,600,1550],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":6,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[650,1450,950,1550],"clickable":true,"enabled":true,"visible_to_user":true}`)
	for _, tc := range []struct{ cmd, want string }{
		{"make a task list called 'groceries' and sort it by date", "Task list"},
		{"make a page called 'groceries'", ""},
		{"make a page called 'groceries' and type 'milk'", ""},
	} {
		rs := newRunState(tc.cmd, "")
		st := &daemon.PlanState{Command: tc.cmd, Screen: s, Elements: screen.Elements(s), Print: "form"}
		w := map[term]float64{}
		for _, ct := range rs.terms {
			w[ct.t] = 1
		}
		got := ""
		if c, ok := rs.formChoice(st, (&Planner{}).screenCandidates(rs, st, nil, w)); ok {
			got = st.Elements[c.element].Label
		}
		if got != tc.want {
			t.Errorf("%q: chose %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

// TestFolderPickedByNameIsAccepted: a quoted name the app shows as a
// row's first text ("Trips · 4 items") is a value the command picks
// (markSelectors); a tap on that row passes the bar for a step late in
// the command (picksValue), and once it opened the folder in a picker
// with OK and Cancel, OK accepts it (acceptChoice). A row of another
// name does neither.
func TestFolderPickedByNameIsAccepted(t *testing.T) {
	list := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"Trips · 4 items","bounds":[0,300,1080,420],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.TextView","text":"Bills · 2 items","bounds":[0,420,1080,540],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Cancel","bounds":[100,2000,500,2100],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[600,2000,980,2100],"clickable":true,"enabled":true,"visible_to_user":true}`)
	els := screen.Elements(list)
	idx := byLabel(els)
	const cmd = "move the last photo to the 'Trips' folder"
	rs := newRunState(cmd, "")
	st := &daemon.PlanState{Command: cmd, Screen: list, Elements: els, Print: "picker"}
	rs.markSelectors(st, buildGraph(&knowledge.Graph{}, nil))
	if !rs.values[0].selects {
		t.Fatalf("'Trips' shown as a row's first text does not pick it: %+v", rs.values[0])
	}
	for label, want := range map[string]bool{"Trips · 4 items": true, "Bills · 2 items": false} {
		if got := rs.picksValue(st, candidate{action: device.Tap, element: idx[label]}); got != want {
			t.Errorf("picksValue(%q) = %v, want %v", label, got, want)
		}
		st.History = []daemon.StepRecord{{Action: device.Tap, OK: true, Screen: "picker", After: "picker", Target: screen.Describe(list, els[idx[label]].NodeID)}}
		c, ok := rs.acceptChoice(st)
		if ok != want || ok && els[c.element].Label != "OK" {
			t.Errorf("after a tap on %q acceptChoice = %v, want %v", label, ok, want)
		}
	}
}

// TestHintShownAsText: an empty field dumped with its hint as its text
// ("Fax" in "…:id/card_fax") still says what it is for, so the
// command's number goes there; a field holding a name ("Dora" in
// "…:id/card_name") is no field for a number.
func TestHintShownAsText(t *testing.T) {
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.EditText","text":"Dora","resource_id":"org.example.cards:id/card_name","bounds":[0,200,1080,300],"editable":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.EditText","text":"Fax","resource_id":"org.example.cards:id/card_fax","bounds":[0,300,1080,400],"editable":true,"clickable":true,"enabled":true,"visible_to_user":true}`)
	els := screen.Elements(s)
	idx := byLabel(els)
	rs := newRunState("add a card with fax 5550100", "")
	for label, want := range map[string]bool{"Dora": false, "Fax": true} {
		if got := rs.nextValueFor(&els[idx[label]]) >= 0; got != want {
			t.Errorf("the number goes into the field showing %q: %v, want %v", label, got, want)
		}
	}
}

// TestOptionAsked: on a picker of two groups of radio buttons, once the
// run picked an option of one, a not-chosen option of the other group
// that carries a word of the command is picked too before accepting;
// an option of the picked one's own group, a check box, or an option the
// command does not ask for is not.
func TestOptionAsked(t *testing.T) {
	s := dialogOf(t, `{"id":1,"parent":0,"class":"android.widget.RadioGroup","bounds":[100,600,980,1000],"enabled":true,"visible_to_user":true},
		 {"id":2,"parent":1,"class":"android.widget.RadioButton","text":"Title","bounds":[100,600,980,700],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},
		 {"id":3,"parent":1,"class":"android.widget.RadioButton","text":"Duration","bounds":[100,700,980,800],"checkable":true,"checked":true,"clickable":true,"enabled":true,"visible_to_user":true},
		 {"id":4,"parent":1,"class":"android.widget.RadioButton","text":"Date added","bounds":[100,800,980,900],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},
		 {"id":5,"parent":0,"class":"android.widget.RadioGroup","bounds":[100,1000,980,1200],"enabled":true,"visible_to_user":true},
		 {"id":6,"parent":5,"class":"android.widget.RadioButton","text":"Ascending","bounds":[100,1000,980,1100],"checkable":true,"checked":true,"clickable":true,"enabled":true,"visible_to_user":true},
		 {"id":7,"parent":5,"class":"android.widget.RadioButton","text":"Descending","bounds":[100,1100,980,1200],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},
		 {"id":8,"parent":0,"class":"android.widget.CheckBox","text":"Only this playlist","bounds":[100,1200,980,1300],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},
		 {"id":9,"parent":0,"class":"android.widget.Button","text":"Cancel","bounds":[100,1400,500,1500],"clickable":true,"enabled":true,"visible_to_user":true},
		 {"id":10,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[600,1400,980,1500],"clickable":true,"enabled":true,"visible_to_user":true}`)
	els := screen.Elements(s)
	idx := byLabel(els)
	for _, tc := range []struct {
		command, picked, want string
	}{
		{"sort the podcasts by date added, newest first", "Date added", "Descending"},
		{"sort the podcasts by title z to a", "Title", "Descending"},
		{"sort the podcasts by duration", "Duration", ""},
		{"sort by duration, then by date added", "Duration", ""}, // the picked one's own group
		{"sort only this playlist by duration", "Duration", ""},  // a check box
	} {
		rs := newRunState(tc.command, "")
		h := daemon.StepRecord{Action: device.Tap, OK: true, Screen: "p", After: "p", Label: tc.picked, Target: screen.Describe(s, els[idx[tc.picked]].NodeID)}
		rs.foldStep(h)
		st := &daemon.PlanState{Command: tc.command, Screen: s, Elements: els, Print: "p", History: []daemon.StepRecord{h}}
		c, ok := rs.optionAsked(st)
		got := ""
		if ok {
			got = els[c.element].Label
		}
		if got != tc.want {
			t.Errorf("%q after %q: optionAsked %q, want %q", tc.command, tc.picked, got, tc.want)
		}
	}
}

// TestCommitAsked: once a form is committed, a dialog its commit opened
// ("Overwrite the file?") is accepted before the command is done; a full
// screen, a dialog the run did not just open, or a second dialog is not.
func TestCommitAsked(t *testing.T) {
	ask := dialogOf(t, `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Overwrite the file?","bounds":[100,700,980,800],"enabled":true,"visible_to_user":true},
		 {"id":2,"parent":0,"class":"android.widget.Button","text":"No","bounds":[100,1400,500,1500],"clickable":true,"enabled":true,"visible_to_user":true},
		 {"id":3,"parent":0,"class":"android.widget.Button","text":"Yes","bounds":[600,1400,980,1500],"clickable":true,"enabled":true,"visible_to_user":true}`)
	full := screenOf(t, `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Overwrite the file?","bounds":[100,700,980,800],"enabled":true,"visible_to_user":true},
		 {"id":3,"parent":0,"class":"android.widget.Button","text":"Yes","bounds":[600,1400,980,1500],"clickable":true,"enabled":true,"visible_to_user":true}`)
	commit := daemon.StepRecord{Action: device.Tap, OK: true, Label: "OK", Screen: "form", After: "ask", Target: screen.Descriptor{Class: "android.widget.Button", Text: "OK"}}
	for _, tc := range []struct {
		name      string
		s         *screen.Snapshot
		last      daemon.StepRecord
		confirmed bool
		want      string
	}{
		{"a dialog the commit opened", ask, commit, false, "Yes"},
		{"a full screen", full, commit, false, ""},
		{"a dialog accepted already", ask, commit, true, ""},
		{"a dialog the last step did not open", ask, daemon.StepRecord{Action: device.Tap, OK: true, Label: "OK", Screen: "ask", After: "ask"}, false, ""},
	} {
		rs := newRunState("resize the photo to width 800", "")
		rs.committed, rs.confirmedDialog = true, tc.confirmed
		els := screen.Elements(tc.s)
		st := &daemon.PlanState{Command: rs.cmd, Screen: tc.s, Elements: els, Print: "ask", History: []daemon.StepRecord{tc.last}}
		d := rs.afterCommit(st, 0, nil)
		got := ""
		if d.Action == device.Tap {
			got = els[d.Element].Label
		}
		if got != tc.want {
			t.Errorf("%s: afterCommit %s %q, want a tap on %q", tc.name, d.Action, got, tc.want)
		}
	}
}

// TestNameWrittenAsSuch: a name joined by "_" after "named" is the whole
// value, not the words after it to the clause's end ("… in Pictures");
// without one, the name runs on as before.
func TestNameWrittenAsSuch(t *testing.T) {
	for cmd, want := range map[string]string{
		"create a folder named beach_day in Pictures": "beach_day",
		"create a folder named beach day":             "beach day",
	} {
		rs := newRunState(cmd, "")
		if len(rs.values) != 1 || rs.values[0].text != want || !rs.values[0].quoted {
			t.Errorf("%q: values %+v, want one typed as written, %q", cmd, rs.values, want)
		}
	}
}

// TestFocusedFieldFirst: of two fields of a dialog that fit a value as
// well, the one the app put the cursor in gets it (a path shown above
// the new folder's name).
func TestFocusedFieldFirst(t *testing.T) {
	s := dialogOf(t, `{"id":1,"parent":0,"class":"android.widget.EditText","text":"Internal/Scans/","resource_id":"org.example.files:id/folder_path","bounds":[100,700,980,800],"editable":true,"clickable":true,"enabled":true,"visible_to_user":true},
		 {"id":2,"parent":0,"class":"android.widget.EditText","text":"Title","resource_id":"org.example.files:id/folder_name","bounds":[100,800,980,900],"editable":true,"clickable":true,"focused":true,"enabled":true,"visible_to_user":true},
		 {"id":3,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[600,1400,980,1500],"clickable":true,"enabled":true,"visible_to_user":true}`)
	els := screen.Elements(s)
	st := &daemon.PlanState{Command: "create a folder named 'pets'", Screen: s, Elements: els, Print: "d"}
	rs := newRunState(st.Command, "")
	cands := (&Planner{}).screenCandidates(rs, st, nil, map[term]float64{})
	best := -1.0
	got := ""
	for _, c := range cands {
		if c.action == device.Input && c.score > best {
			best, got = c.score, els[c.element].Resource
		}
	}
	if !strings.HasSuffix(got, "folder_name") {
		t.Errorf("the name goes into %q, want the focused folder_name field (candidates %+v)", got, cands)
	}
}

// TestNewName: a rename's new name is the rest of the command after its
// "to", typed as written, and typing it is the change the command asks;
// no rename, a long tail or one with an action in it gives none.
func TestNewName(t *testing.T) {
	for cmd, want := range map[string]string{
		"rename the label urgent to later":          "later",
		"change the list's name to weekly chores":   "weekly chores",
		"go to the settings":                        "",
		"rename it to the name of the month please": "",
		"rename the label to later and share it":    "",
	} {
		v, ok := newName(cmd)
		if ok != (want != "") || v.Text != want || ok && cmd[v.Start:v.End] != v.Text {
			t.Errorf("newName(%q) = %+v %v, want %q", cmd, v, ok, want)
		}
	}
	rs := newRunState("rename the label urgent to later", "")
	if len(rs.values) != 1 || rs.values[0].text != "later" || !rs.values[0].quoted {
		t.Fatalf("values %+v, want the new name typed as written", rs.values)
	}
	rs.foldStep(daemon.StepRecord{Action: device.Input, OK: true, Label: "Title", Text: "later",
		Target: screen.Descriptor{Class: "android.widget.EditText", Text: "Title", Editable: true}})
	if !rs.covered["renam"] || !rs.covered["@edit"] {
		t.Errorf("typing the new name left the rename undone: covered %v", rs.covered)
	}
}

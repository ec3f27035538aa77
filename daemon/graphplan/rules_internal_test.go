package graphplan

import (
	"slices"
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

// TestCreatesUnasked: a command that changes or deletes an existing item
// never taps an element that creates one, nor does one that adds nothing
// and gives no value, whatever its verb ("zap"); one that adds, or gives
// a value, may; "Add …" that is no new thing stays.
func TestCreatesUnasked(t *testing.T) {
	st := &daemon.PlanState{Elements: []screen.Element{
		{Kind: screen.KindButton, Label: "Create a new note"},
		{Kind: screen.KindButton, Label: "More options"},
		{Kind: screen.KindButton, Label: "Add crew anniversaries"},
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
		{"zap every single note in the jotter", 0, true},
		{"zap every single note in the jotter", 1, false},
		{"import the anniversaries of my crew", 2, false},
		{"jot down eggs and milk", 0, false},
		{"find the note Ledger", 0, true}, // a search makes nothing, whatever it names
	} {
		rs := newRunState(tt.cmd, "")
		if got := createsUnasked(rs, st, candidate{action: device.Tap, element: tt.element}); got != tt.want {
			t.Errorf("%q, %q: createsUnasked = %v, want %v", tt.cmd, st.Elements[tt.element].Label, got, tt.want)
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
		{"the tap the path begins with", candidate{action: device.Tap, element: 0, score: 0.33, rank: 0.33, covers: []term{"roomi"}}, true},
	} {
		path := candidate{action: device.Back, element: -1, via: 1, score: 0.4, rank: 0.5, covers: []term{"roomi"}}
		if tc.here.action == device.Tap {
			path.action, path.element = device.Tap, 0
		}
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

// TestModifiedHead: among a dialog's options, the ones covering only the
// head word of a phrase of the command ("clips" of "loop clips") give way
// to the one its modifier names ("Loops"), or that a step on this screen
// took; on a screen that is no dialog, or where the words are not one
// phrase, every option stays.
func TestModifiedHead(t *testing.T) {
	nodes := `
	 {"id":1,"parent":0,"class":"android.widget.CheckBox","text":"Clips","checkable":true,"checked":true,"clickable":true,"bounds":[100,700,980,800],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.CheckBox","text":"Raw clips","checkable":true,"checked":true,"clickable":true,"bounds":[100,800,980,900],"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.CheckBox","text":"Loops","checkable":true,"checked":true,"clickable":true,"bounds":[100,900,980,1000],"enabled":true,"visible_to_user":true}`
	clip, loop := termsOf("clips"), termsOf("loops")
	for _, tc := range []struct {
		name, command string
		dialog        bool
		loopsTaken    bool // a step on the screen tapped "Loops"; it is no candidate
		want          []string
	}{
		{"the modifier's option", "do not show loop clips", true, false, []string{"Loops"}},
		{"the modifier's option taken already", "do not show loop clips", true, true, nil},
		{"no dialog", "do not show loop clips", false, false, []string{"Clips", "Raw clips", "Loops"}},
		{"not one phrase", "do not show loops or clips", true, false, []string{"Clips", "Raw clips", "Loops"}},
	} {
		s := screenOf(t, nodes)
		if tc.dialog {
			s = dialogOf(t, nodes)
		}
		st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s), Print: "filter"}
		at := map[string]int{}
		for i, e := range st.Elements {
			at[e.Label] = i
		}
		cands := []candidate{{action: device.Tap, element: at["Clips"], covers: clip}, {action: device.Tap, element: at["Raw clips"], covers: clip}}
		if tc.loopsTaken {
			st.History = []daemon.StepRecord{{Screen: "filter", After: "filter", Action: device.Tap, OK: true, Label: "Loops", Target: screen.Describe(s, st.Elements[at["Loops"]].NodeID)}}
		} else {
			cands = append(cands, candidate{action: device.Tap, element: at["Loops"], covers: loop})
		}
		var got []string
		for _, c := range newRunState(tc.command, "").modifiedHead(st, cands) {
			got = append(got, st.Elements[c.element].Label)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestGroupChosen: once the run tapped an option of a single choice on
// this screen for the command, another option of that choice is no way
// on (the tap may have done nothing because the option was chosen
// already); an option of another group, an option the command names in
// full, or a choice the run never touched, still is.
func TestGroupChosen(t *testing.T) {
	s := dialogOf(t, `	 {"id":1,"parent":0,"class":"android.widget.RadioGroup","bounds":[100,700,980,1000],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":1,"class":"android.widget.RadioButton","text":"Plain page","bounds":[100,700,980,850],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":1,"class":"android.widget.RadioButton","text":"Tick list","bounds":[100,850,980,1000],"checkable":true,"checked":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.RadioGroup","bounds":[100,1000,980,1300],"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":4,"class":"android.widget.RadioButton","text":"Private","bounds":[100,1000,980,1150],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":6,"parent":4,"class":"android.widget.RadioButton","text":"Shared","bounds":[100,1150,980,1300],"checkable":true,"checked":true,"clickable":true,"enabled":true,"visible_to_user":true}`)
	els := screen.Elements(s)
	at := byLabel(els)
	tapped := func(label string) daemon.StepRecord {
		return daemon.StepRecord{Action: device.Tap, Screen: "p", Target: screen.Describe(s, els[at[label]].NodeID), Label: label}
	}
	for _, tc := range []struct {
		name, cmd, label string
		history          []daemon.StepRecord
		want             bool
	}{
		{"another option of the choice made", "make a plain page called trip", "Tick list", []daemon.StepRecord{tapped("Plain page")}, true},
		{"an option of another group", "make a plain page called trip", "Private", []daemon.StepRecord{tapped("Plain page")}, false},
		{"an option the command names in full", "make a tick list called trip", "Tick list", []daemon.StepRecord{tapped("Plain page")}, false},
		{"no option tapped yet", "make a plain page called trip", "Tick list", nil, false},
		{"the option tapped on another screen", "make a plain page called trip", "Tick list", []daemon.StepRecord{{Action: device.Tap, Screen: "q", Target: screen.Describe(s, els[at["Plain page"]].NodeID)}}, false},
	} {
		rs := newRunState(tc.cmd, "")
		st := &daemon.PlanState{Screen: s, Elements: els, Print: "p", History: tc.history}
		if got := rs.groupChosen(st, candidate{action: device.Tap, element: at[tc.label]}); got != tc.want {
			t.Errorf("%s: passed over = %v, want %v", tc.name, got, tc.want)
		}
	}
}

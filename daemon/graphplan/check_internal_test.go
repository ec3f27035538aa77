package graphplan

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// tapOn is a history step tapping an element labelled label.
func tapOn(label string) daemon.StepRecord {
	return daemon.StepRecord{Action: device.Tap, OK: true, Label: label,
		Target: screen.Descriptor{Class: "android.widget.TextView", Text: label}}
}

// TestWordLeft: for the route check a word of the command must be covered
// by a step's own words; one the target covers only as the element
// meaning the whole command (semHit.whole) is left, one it means by
// itself is not, and the app's name is never asked for.
func TestWordLeft(t *testing.T) {
	export := tapOn("Export")
	cases := []struct {
		name  string
		steps []daemon.StepRecord
		sem   []term // what the last step's target covers by meaning
		whole bool   // … only as part of the whole command
		left  bool
	}{
		{"a word no step covers", []daemon.StepRecord{tapOn("Archive")}, nil, false, true},
		{"every word on a tapped label", []daemon.StepRecord{tapOn("Archive"), tapOn("Share")}, nil, false, false},
		{"covered by the word's own meaning", []daemon.StepRecord{tapOn("Archive"), export}, []term{"share", "@send"}, false, false},
		{"covered only by the whole command's meaning", []daemon.StepRecord{tapOn("Archive"), export}, []term{"share", "@send"}, true, true},
	}
	for _, tc := range cases {
		p := &Planner{}
		p.run = newRunState("open the archive in Notebook and share it", "Notebook")
		rs := p.run
		last := tc.steps[len(tc.steps)-1].Target.Key()
		rs.semCovers[last] = tc.sem
		if tc.whole {
			rs.semWhole[last] = tc.sem
		}
		for _, h := range tc.steps {
			rs.foldStep(h)
		}
		if got := p.wordLeft(t.Context(), &daemon.PlanState{}); got != tc.left {
			t.Errorf("%s: wordLeft %v, want %v (worded %v)", tc.name, got, tc.left, rs.worded)
		}
	}
}

// TestWordLeftNegation: a negation is no word a step must carry — the
// matcher's negation veto and the switch's asked state read it.
func TestWordLeftNegation(t *testing.T) {
	p := &Planner{}
	p.run = newRunState("the archive shouldn't sync", "")
	p.run.foldStep(tapOn("Archive"))
	p.run.foldStep(tapOn("Sync"))
	if p.wordLeft(t.Context(), &daemon.PlanState{}) {
		t.Errorf("a word left (worded %v)", p.run.worded)
	}
}

// TestWordLeftUniversal: a word asking for all of something
// ("everything", "whole") is a quantifier, as the stopwords "all" and
// "every" are: no step must carry it.
func TestWordLeftUniversal(t *testing.T) {
	for _, cmd := range []string{"wipe everything in the planner", "clear the whole planner"} {
		p := &Planner{}
		p.run = newRunState(cmd, "")
		p.run.foldStep(tapOn("Wipe planner"))
		p.run.foldStep(tapOn("Clear"))
		if p.wordLeft(t.Context(), &daemon.PlanState{}) {
			t.Errorf("%q: a word left (worded %v)", cmd, p.run.worded)
		}
	}
}

// TestOffUndone: a command that hides or turns something off is not done
// by steps that only open it or show it; a switch set off, a switch that
// was on and flipped, or a label that itself turns something off do it.
func TestOffUndone(t *testing.T) {
	flippedOff := tapOn("Archive")
	flippedOff.Toggle, flippedOff.Toggled = "on", true
	cases := []struct {
		name    string
		command string
		steps   []daemon.StepRecord
		undone  bool
	}{
		{"opened only", "hide the archive", []daemon.StepRecord{tapOn("Archive")}, true},
		{"the other way", "hide the archive", []daemon.StepRecord{tapOn("Show archive")}, true},
		{"a label that hides", "hide the archive", []daemon.StepRecord{tapOn("Hide archive")}, false},
		{"a switch set off", "hide the archive", []daemon.StepRecord{{Action: daemon.ActEnsureOff, OK: true, Label: "Archive"}}, false},
		{"a switch flipped off", "hide the archive", []daemon.StepRecord{flippedOff}, false},
		{"no off command", "open the archive", []daemon.StepRecord{tapOn("Archive")}, false},
	}
	for _, tc := range cases {
		p := &Planner{}
		p.run = newRunState(tc.command, "")
		if got := p.offUndone(&daemon.PlanState{History: tc.steps}); got != tc.undone {
			t.Errorf("%s: offUndone %v, want %v", tc.name, got, tc.undone)
		}
	}
}

// TestWordLeftShown: a command that asks to see something is done on a
// screen that shows the rest of its words — also a word no recorded
// screen of the app weighs — but not by a switch that shows it, nor is a
// command that acts done by what the screen merely shows.
func TestWordLeftShown(t *testing.T) {
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"Archive","bounds":[0,100,300,200],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.TextView","text":"Totals: 12 items","bounds":[0,300,1080,400],"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.CheckBox","text":"Compact rows","bounds":[0,500,1080,600],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true}`)
	st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s)}
	for _, tc := range []struct {
		command string
		left    bool
	}{
		{"view the archive totals", false},
		{"view the archive in compact rows", true}, // a switch's label
		{"view the archive balance", true},         // not shown
		{"export the archive totals", true},        // no command to see
	} {
		p := &Planner{}
		p.run = newRunState(tc.command, "")
		p.run.foldStep(tapOn("Archive"))
		if tc.command == "export the archive totals" {
			p.run.foldStep(tapOn("Export"))
		}
		if got := p.wordLeft(t.Context(), st); got != tc.left {
			t.Errorf("%q: wordLeft %v, want %v (viewing %v)", tc.command, got, tc.left, p.run.viewing)
		}
	}
}

// TestPickCoversChange: picking an option (a radio button, a switch) is
// the change a command asks for ("adjust the text size to large"); a tap
// on a plain label is not.
func TestPickCoversChange(t *testing.T) {
	radio := daemon.StepRecord{Action: device.Tap, OK: true, Label: "Large",
		Target: screen.Descriptor{Class: "android.widget.RadioButton", Text: "Large", Checkable: true}}
	for _, tc := range []struct {
		name string
		step daemon.StepRecord
		want bool
	}{
		{"an option picked", radio, true},
		{"a label tapped", tapOn("Large"), false},
	} {
		rs := newRunState("adjust the text size to large", "")
		rs.foldStep(tc.step)
		if got := rs.covered["@edit"]; got != tc.want {
			t.Errorf("%s: the change verb covered %v, want %v (covered %v)", tc.name, got, tc.want, rs.covered)
		}
	}
}

// TestOpenedResultFolded: a tap on the row showing what was searched for
// opens the result whoever chose it (a replayed step, a route check's
// walk): what the command asks after the search is done, and the text
// typed to search waits for no commit. A row not showing it opens
// nothing.
func TestOpenedResultFolded(t *testing.T) {
	search := daemon.StepRecord{Action: device.Input, OK: true, Text: "Tides", Label: "Search",
		Target: screen.Descriptor{Class: "android.widget.EditText", Hint: "Search", Editable: true}}
	for _, tc := range []struct {
		row  string
		want bool
	}{
		{"Tides", true},
		{"Harbours", false},
	} {
		rs := newRunState("search the tune 'Tides' and open it", "")
		rs.foldStep(search)
		rs.foldStep(tapOn(tc.row))
		if rs.resultOpened != tc.want || (rs.typed > rs.searchTyped) == tc.want || rs.covered["@open"] != tc.want || rs.covered["tune"] != tc.want {
			t.Errorf("tap on %q: opened %v, typed %d (search %d), open covered %v, the value's kind covered %v; want opened %v",
				tc.row, rs.resultOpened, rs.typed, rs.searchTyped, rs.covered["@open"], rs.covered["tune"], tc.want)
		}
	}
}

// TestSwitchVerbsCovered: setting a switch does what a command that
// unticks, mutes or stops doing something asks; a stop of something
// that is no doing ("stop the music") is not done by a switch.
func TestSwitchVerbsCovered(t *testing.T) {
	box := daemon.StepRecord{Action: device.Tap, OK: true, Label: "Autosave",
		Target: screen.Descriptor{Class: "android.widget.CheckBox", Text: "Autosave", Checkable: true}}
	for _, tc := range []struct {
		command string
		verb    term
		want    bool
	}{
		{"uncheck autosave", "@deselect", true},
		{"mute autosave", "@mute", true},
		{"stop saving automatically", "@stop", true},
		{"stop the music autosave", "@stop", false},
	} {
		rs := newRunState(tc.command, "")
		rs.foldStep(box)
		if got := rs.covered[tc.verb]; got != tc.want {
			t.Errorf("%q: %s covered %v, want %v (covered %v)", tc.command, tc.verb, got, tc.want, rs.covered)
		}
	}
}

// TestOpenedResultWithoutAVerbAfter: "find notes with Dora" opens the
// row showing Dora, and the notes the words before the name say it is
// are what was asked.
func TestOpenedResultWithoutAVerbAfter(t *testing.T) {
	rs := newRunState("find notes with Dora", "")
	rs.foldStep(daemon.StepRecord{Action: device.Input, OK: true, Text: "Dora", Label: "Search",
		Target: screen.Descriptor{Class: "android.widget.EditText", Hint: "Search", Editable: true}})
	rs.foldStep(tapOn("Dora · 3 notes"))
	if !rs.resultOpened || !rs.covered["note"] {
		t.Errorf("opened %v, covered %v", rs.resultOpened, rs.covered)
	}
}

// TestNarrowsScope: a check box that narrows what a change applies to
// ("Apply to this album only") is no part of a command that does not say
// so; it is when the command says "only", and a button is no switch.
func TestNarrowsScope(t *testing.T) {
	box := screen.Descriptor{Class: "android.widget.CheckBox", Text: "Apply to this album only", Checkable: true}
	for _, tc := range []struct {
		command string
		d       screen.Descriptor
		want    bool
	}{
		{"sort the albums by weight", box, true},
		{"sort only this album by weight", box, false},
		{"sort the albums by weight", screen.Descriptor{Class: "android.widget.Button", Text: "Show only albums"}, false},
	} {
		if got := newRunState(tc.command, "").narrowsScope(tc.d); got != tc.want {
			t.Errorf("%q, %q: narrows %v, want %v", tc.command, tc.d.Label(), got, tc.want)
		}
	}
}

// TestDialogOptionCommitted: an option picked in a dialog, then its OK,
// is a committed choice (the command ends unless most of it is left); an
// OK with nothing picked or typed commits nothing.
func TestDialogOptionCommitted(t *testing.T) {
	inDialog := &knowledge.Goal{Dialog: true}
	weight := daemon.StepRecord{Action: device.Tap, OK: true, Label: "Weight", Where: inDialog,
		Target: screen.Descriptor{Class: "android.widget.RadioButton", Text: "Weight", Checkable: true}}
	ok := daemon.StepRecord{Action: device.Tap, OK: true, Label: "OK", Where: inDialog,
		Target: screen.Descriptor{Class: "android.widget.Button", Text: "OK"}}
	for _, tc := range []struct {
		name  string
		steps []daemon.StepRecord
		want  bool
	}{
		{"an option then OK", []daemon.StepRecord{weight, ok}, true},
		{"OK alone", []daemon.StepRecord{ok}, false},
	} {
		rs := newRunState("sort the albums by weight", "")
		for _, h := range tc.steps {
			rs.foldStep(h)
		}
		if rs.committed != tc.want {
			t.Errorf("%s: committed %v, want %v", tc.name, rs.committed, tc.want)
		}
	}
}

// TestChosenShown: a dialog's radio button already chosen that the
// command names is done (no tap re-chooses it); not the option a change
// starts from ("from grid to list"), not one the command does not name,
// and not in a dialog without a confirming button, which a tap on the
// option closes.
func TestChosenShown(t *testing.T) {
	radio := func(id int, label string, checked bool) string {
		return fmt.Sprintf(`{"id":%d,"parent":0,"class":"android.widget.RadioButton","text":%q,"bounds":[150,%d,930,%d],"checkable":true,"checked":%v,"clickable":true,"enabled":true,"visible_to_user":true},`, id, label, 600+100*id, 690+100*id, checked)
	}
	ok := `{"id":8,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[650,1450,950,1550],"clickable":true,"enabled":true,"visible_to_user":true}`
	cancel := `{"id":9,"parent":0,"class":"android.widget.Button","text":"Cancel","bounds":[150,1450,450,1550],"clickable":true,"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		name, command, nodes string
		word                 term
		want                 bool
	}{
		{"chosen and named", "sort by name in descending order", radio(1, "Ascending", false) + radio(2, "Descending", true) + ok, "descend", true},
		{"the state it starts from", "change the view from grid to list", radio(1, "Grid", true) + radio(2, "List", false) + ok, "grid", false},
		{"another option chosen", "sort by name in ascending order", radio(1, "Ascending", false) + radio(2, "Descending", true) + ok, "ascend", false},
		{"no confirming button", "sort by name in descending order", radio(1, "Ascending", false) + radio(2, "Descending", true) + cancel, "descend", false},
	} {
		s := dialogOf(t, strings.TrimSuffix(tc.nodes, ","))
		rs := newRunState(tc.command, "")
		rs.chosenShown(&daemon.PlanState{Screen: s, Elements: screen.Elements(s)})
		if got := rs.covered[tc.word]; got != tc.want {
			t.Errorf("%s: %q covered %v, want %v (covered %v)", tc.name, tc.word, got, tc.want, rs.covered)
		}
	}
}

// TestSaveButtonIsNoSetting: the save button of a form is a button the
// owner sees named save — not a settings row whose resource-id says
// "save" and holds a check box, nor a row whose long label starts with
// "Save" (a setting that opens a picker).
func TestSaveButtonIsNoSetting(t *testing.T) {
	row := `{"id":1,"parent":0,"class":"android.widget.RelativeLayout","resource_id":"x:id/settings_save_meta_holder","bounds":[0,200,1080,380],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":1,"class":"android.widget.CheckBox","text":"Keep photo details","bounds":[60,220,1000,360],"checkable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.LinearLayout","bounds":[0,400,1080,560],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":3,"class":"android.widget.TextView","text":"Save pictures and clips to","bounds":[60,410,1000,480],"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":3,"class":"android.widget.TextView","text":"Pictures","bounds":[60,480,1000,550],"enabled":true,"visible_to_user":true}`
	save := `,{"id":6,"parent":0,"class":"android.widget.Button","text":"Save","bounds":[800,2000,1080,2150],"clickable":true,"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		name, nodes, want string
	}{
		{"settings rows only", row, ""},
		{"and a save button", row + save, "Save"},
	} {
		s := screenOf(t, tc.nodes)
		st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s)}
		got := ""
		if c, ok := saveButton(st); ok {
			got = st.Elements[c.element].Label
		}
		if got != tc.want {
			t.Errorf("%s: save button %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestFromOnly: the word a change starts from ("from weekly to daily")
// is no requirement of it; one the command also says elsewhere is, and
// a "from" with no "to" after it ("delete photos from yesterday") names
// what to act on.
func TestFromOnly(t *testing.T) {
	for _, tc := range []struct {
		command string
		word    term
		want    bool
	}{
		{"switch the layout from weekly to daily", "weekly", true},
		{"switch the layout from weekly to daily", "daily", false},
		{"move the weekly report from weekly to archive", "weekly", false},
		{"delete photos from yesterday", "yesterday", false},
	} {
		if got := fromOnly(tc.command)[tc.word]; got != tc.want {
			t.Errorf("%q: %q from-only %v, want %v (%v)", tc.command, tc.word, got, tc.want, fromOnly(tc.command))
		}
		for _, ct := range newRunState(tc.command, "").terms {
			if ct.t == tc.word && ct.nav != tc.want {
				t.Errorf("%q: %q waited for as a requirement = %v", tc.command, tc.word, !ct.nav)
			}
		}
	}
}

// TestClauseVerbs: the actions a command asks for are the verbs its
// clauses begin with, not an action word naming a thing; after a
// deletion is confirmed (runState.deleteConfirmed) nothing is left to do
// once those are covered.
func TestClauseVerbs(t *testing.T) {
	for _, tc := range []struct {
		cmd   string
		verbs []term
	}{
		{"delete Sam's message records", []term{"@delete"}},
		{"Delete and Sam's message records", []term{"@delete"}},
		{"please delete the ledger note, then create a new one", []term{"@delete", "@add"}},
		{"remove the draft and send the reply", []term{"@delete", "@send"}},
		{"the ledger note", nil},
	} {
		rs := newRunState(tc.cmd, "")
		if !slices.Equal(rs.verbs, tc.verbs) {
			t.Errorf("%q: verbs %v, want %v", tc.cmd, rs.verbs, tc.verbs)
		}
		rs.covered["@delete"] = true
		if got, want := rs.verbsDone(), len(tc.verbs) <= 1; got != want {
			t.Errorf("%q: deletion covered, verbsDone %v, want %v", tc.cmd, got, want)
		}
	}
}

// TestRowOpensTheValue: a tap on a list's row showing a value the
// command names opens that very thing: the words before the value that
// name it or say to open or play it are done; another action they ask
// for is not, nor does a tap outside a list do any of it.
func TestRowOpensTheValue(t *testing.T) {
	row := func(label string) daemon.StepRecord {
		return daemon.StepRecord{Action: device.Tap, OK: true, Label: label, Target: screen.Descriptor{Text: label, InList: true}}
	}
	for _, tc := range []struct {
		cmd       string
		step      daemon.StepRecord
		done, not []string
	}{
		{"play the song 'Evening'", row("Evening · 03:10"), []string{"play", "song"}, nil},
		{"delete the note 'Ledger'", row("Ledger · 2 lines"), []string{"note"}, []string{"delete"}},
		{"play the song 'Evening'", tapOn("Evening"), nil, []string{"play", "song"}},
		{"go to the 'Ledgers' folder", row("Ledgers · 4 items"), []string{"folder"}, nil},
		{"open 'Ledgers' then delete it", row("Ledgers · 4 items"), nil, []string{"delete"}},
	} {
		rs := newRunState(tc.cmd, "")
		rs.foldStep(tc.step)
		for _, w := range tc.done {
			if tm := termsOf(w); !slices.ContainsFunc(tm, func(x term) bool { return rs.covered[x] }) {
				t.Errorf("%q after %q: %q not covered (%v)", tc.cmd, tc.step.Label, w, rs.covered)
			}
		}
		for _, w := range tc.not {
			if tm := termsOf(w); slices.ContainsFunc(tm, func(x term) bool { return rs.covered[x] }) {
				t.Errorf("%q after %q: %q covered", tc.cmd, tc.step.Label, w)
			}
		}
	}
}

// TestTypeFirst: a path away from the screen that promises only a commit
// and the field's own words waits for the value typed into the field; a
// path to a place the command names, or one promising no commit, does
// not.
func TestTypeFirst(t *testing.T) {
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.EditText","text":"Write a note…","bounds":[0,1900,800,2000],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageButton","content_desc":"Attach","bounds":[800,1900,1000,2000],"clickable":true,"enabled":true,"visible_to_user":true}`)
	st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s)}
	field := slices.IndexFunc(st.Elements, func(e screen.Element) bool { return e.Kind == screen.KindInput })
	button := slices.IndexFunc(st.Elements, func(e screen.Element) bool { return e.Label == "Attach" })
	for _, tc := range []struct {
		name   string
		covers []term
		first  bool // the typing goes first
	}{
		{"a send and the field's word", []term{"@send", "send", "note"}, true},
		{"a place the command names", []term{"@send", "send", "archiv"}, false},
		{"no commit", []term{"note"}, false},
	} {
		cands := []candidate{
			{action: device.Tap, element: button, via: 1, score: 0.5, rank: 0.5, covers: tc.covers},
			{action: device.Input, element: field, via: 0, score: 0.45, rank: 0.45},
		}
		newRunState("send the note to the archive", "").typeFirst(st, cands)
		if got := cands[0].rank < cands[1].rank; got != tc.first {
			t.Errorf("%s: typing first %v, want %v", tc.name, got, tc.first)
		}
	}
}

// TestTypingDoesWhatTheWordBeforeSays: typing a value does what the word
// right before it says when that is no action ("type '1234'"); a word
// further before it ("checklist") may name a choice still to make, an
// action ("send") is still to do, and a value typed to search names what
// to open (TestOpenedResultFolded).
func TestTypingDoesWhatTheWordBeforeSays(t *testing.T) {
	typed := func(text string) daemon.StepRecord {
		return daemon.StepRecord{Action: device.Input, OK: true, Text: text, Target: screen.Descriptor{Class: "android.widget.EditText", Hint: "Body"}}
	}
	for _, tc := range []struct {
		cmd, text string
		done, not []string
	}{
		{"open the ledger and type '1234'", "1234", []string{"type"}, nil},
		{"make a checklist note called 'Ledger'", "Ledger", nil, []string{"checklist"}},
		{"send 'running late' to Dora", "running late", nil, []string{"send"}},
	} {
		rs := newRunState(tc.cmd, "")
		rs.foldStep(typed(tc.text))
		for _, w := range tc.done {
			if !rs.covered[termsOf(w)[0]] {
				t.Errorf("%q: %q not done by typing %q", tc.cmd, w, tc.text)
			}
		}
		for _, w := range tc.not {
			if slices.ContainsFunc(termsOf(w), func(x term) bool { return rs.covered[x] }) {
				t.Errorf("%q: %q done by typing %q", tc.cmd, w, tc.text)
			}
		}
	}
}

// TestNamesValue: the word before a value gives it as a name or a new
// value ("rename it to 'Ledgers'"), unless it only completes an action
// phrase ("go to 'Ledgers'": a place to open).
func TestNamesValue(t *testing.T) {
	for _, tc := range []struct {
		before string
		want   bool
	}{
		{"rename the folder to '", true},
		{"a note called '", true},
		{"go to '", false},
		{"open the '", false},
	} {
		if got := namesValue(tc.before); got != tc.want {
			t.Errorf("%q: names %v, want %v", tc.before, got, tc.want)
		}
	}
}

// TestGivenValueIsAccounted: a value of the command a step typed is a
// word accounted for, though no element of the app carries it; the same
// value not typed is left. A possessive's "s" is no word of a name.
func TestGivenValueIsAccounted(t *testing.T) {
	field := func(label, text string) daemon.StepRecord {
		return daemon.StepRecord{Action: device.Input, OK: true, Label: label, Text: text,
			Target: screen.Descriptor{Class: "android.widget.EditText", Text: label, Editable: true}}
	}
	cases := []struct {
		name    string
		command string
		steps   []daemon.StepRecord
		left    bool
	}{
		{"the number typed", "add contact Omar, number 5550123",
			[]daemon.StepRecord{tapOn("Add contact"), field("Name", "Omar"), field("Number", "5550123")}, false},
		{"the number not typed", "add contact Omar, number 5550123",
			[]daemon.StepRecord{tapOn("Add contact"), field("Name", "Omar")}, true},
		{"a length of time typed, its unit with it", "countdown of 5 minutes",
			[]daemon.StepRecord{tapOn("Countdown"), field("Length", "5")}, false},
		{"a possessive name", "archive Omar's memos",
			[]daemon.StepRecord{tapOn("Omar"), tapOn("Memos"), tapOn("Archive")}, false},
	}
	for _, tc := range cases {
		p := &Planner{}
		p.run = newRunState(tc.command, "")
		rs := p.run
		rs.unknownW = map[term]float64{}
		for _, ct := range rs.terms {
			rs.unknownW[ct.t] = 1 // no element of the app carries any word
		}
		for _, h := range tc.steps {
			rs.foldStep(h)
		}
		if got := p.wordLeft(t.Context(), &daemon.PlanState{}); got != tc.left {
			t.Errorf("%s: wordLeft %v, want %v (terms %v, covered %v)", tc.name, got, tc.left, rs.terms, rs.covered)
		}
		if got := rs.unknownLeft(); got != tc.left {
			t.Errorf("%s: unknownLeft %v, want %v", tc.name, got, tc.left)
		}
	}
}

// TestPhraseCoveredByItsConcept: a step covering an object phrase's
// concept ("Descending" for "newest first") covers the phrase's words;
// a step covering another concept leaves them.
func TestPhraseCoveredByItsConcept(t *testing.T) {
	for _, tc := range []struct {
		tapped string
		left   bool
	}{{"Descending", false}, {"Ascending", true}} {
		p := &Planner{}
		p.run = newRunState("sort by date, newest first", "")
		p.run.foldStep(tapOn("Sort by date"))
		p.run.foldStep(tapOn(tc.tapped))
		if got := p.wordLeft(t.Context(), &daemon.PlanState{}); got != tc.left {
			t.Errorf("after %q: wordLeft %v, want %v (covered %v)", tc.tapped, got, tc.left, p.run.covered)
		}
	}
}

// TestFieldNamedByWhatItShows: typing into a field whose resource-id has no
// words covers what the field showed as its label ("Search" of an empty
// search box): "search …" is then done; a field that showed nothing of
// the command covers none of it.
func TestFieldNamedByWhatItShows(t *testing.T) {
	for _, tc := range []struct {
		name, label string
		covered     bool
	}{
		{"the box shows what it is for", "Search", true},
		{"it shows nothing of the command", "Title", false},
	} {
		rs := newRunState("search 'Abacus' app", "")
		rs.foldStep(daemon.StepRecord{Action: device.Input, OK: true, Label: tc.label, Text: "Abacus",
			Target: screen.Descriptor{Class: "android.widget.EditText", ResourceID: "org.example.apps:id/q7x", Editable: true}})
		if got := rs.covered["search"]; got != tc.covered {
			t.Errorf("%s: search covered %v, want %v (covered %v)", tc.name, got, tc.covered, rs.covered)
		}
	}
}

// Forms and dialogs: values typed or picked, choices accepted, commits.

package graphplan

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

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

// formPick runs pick, one of the rules a form consults before its commit,
// for cmd on form s (every command term weighing 1) and returns the label
// of the element it taps, "" for none.
func formPick(s *screen.Snapshot, cmd string, pick func(*runState, *daemon.PlanState, []candidate) (candidate, bool)) string {
	rs := newRunState(cmd, "")
	st := &daemon.PlanState{Command: cmd, Screen: s, Elements: screen.Elements(s), Print: "form"}
	w := map[term]float64{}
	for _, ct := range rs.terms {
		w[ct.t] = 1
	}
	if c, ok := pick(rs, st, (&Planner{}).screenCandidates(rs, st, nil, w)); ok {
		return st.Elements[c.element].Label
	}
	return ""
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
		if got := formPick(s, tc.cmd, (*runState).formChoice); got != tc.want {
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
		"rename the label urgent to later please":   "later", // a polite end is no part of the name
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

// TestAddButtonThatAddsSomethingElse: an "add" button naming something
// the command does not ("Add person" beside a typed message) commits no
// form; "Add" alone, an "add" naming what the command adds, and a save or
// send button do.
func TestAddButtonThatAddsSomethingElse(t *testing.T) {
	for _, tc := range []struct {
		cmd, label string
		other      bool
	}{
		{"send Ola a message saying hi", "Add person", true},
		{"send Ola a message saying hi", "Add", false},
		{"add a contact named Ola", "Add contact", false},
		{"add a contact named Ola", "Create", false},
		{"send Ola a message saying hi", "Send", false},
		{"rename the memo to hi", "Save", false},
	} {
		if got := newRunState(tc.cmd, "").addsSomethingElse(tc.label); got != tc.other {
			t.Errorf("%q, %q: adds something else %v, want %v", tc.cmd, tc.label, got, tc.other)
		}
	}
}

// TestFailedCommitCommitsNothing: a commit tap that did nothing, or was
// taken back, leaves the form uncommitted; one that worked commits it.
func TestFailedCommitCommitsNothing(t *testing.T) {
	for _, tc := range []struct {
		name       string
		ok, undone bool
		want       bool
	}{
		{"worked", true, false, true},
		{"no effect", false, false, false},
		{"taken back", true, true, false},
	} {
		rs := newRunState("add a memo called 'trips' and save it", "")
		rs.commit()
		h := daemon.StepRecord{Action: device.Tap, OK: tc.ok, Backtracked: tc.undone, Label: "Keep", Target: desc("Keep")}
		(&Planner{}).fold(rs, &daemon.PlanState{History: []daemon.StepRecord{h}})
		if rs.committed != tc.want {
			t.Errorf("%s: committed %v, want %v", tc.name, rs.committed, tc.want)
		}
	}
}

// TestFailedCommitNotRetriedOnTheSameForm: a commit button that did
// nothing is not tried again on the same screen, unless something was
// done there since (a value typed after it).
func TestFailedCommitNotRetriedOnTheSameForm(t *testing.T) {
	s := screenOf(t, `		 {"id":1,"parent":0,"class":"android.widget.EditText","text":"Title","bounds":[100,200,980,300],"editable":true,"clickable":true,"enabled":true,"visible_to_user":true},
		 {"id":2,"parent":0,"class":"android.widget.Button","text":"Keep","bounds":[600,900,980,1000],"clickable":true,"enabled":true,"visible_to_user":true}`)
	st := &daemon.PlanState{Screen: s, Print: "form", Elements: screen.Elements(s)}
	keep := -1
	for i, e := range st.Elements {
		if e.Label == "Keep" {
			keep = i
		}
	}
	if keep < 0 {
		t.Fatalf("no Keep button among %+v", st.Elements)
	}
	tap := daemon.StepRecord{Action: device.Tap, Screen: "form", Label: "Keep", Target: screen.Describe(s, st.Elements[keep].NodeID)}
	typed := daemon.StepRecord{Action: device.Input, Screen: "form", OK: true, Text: "trips", Target: screen.Describe(s, st.Elements[0].NodeID)}
	elsewhere := tap
	elsewhere.Screen = "list"
	for _, tc := range []struct {
		name string
		hist []daemon.StepRecord
		want bool
	}{
		{"failed here", []daemon.StepRecord{tap}, true},
		{"failed, then a value typed here", []daemon.StepRecord{tap, typed}, false},
		{"failed on another screen", []daemon.StepRecord{elsewhere}, false},
		{"never tried", nil, false},
	} {
		st.History = tc.hist
		if got := failedHere(st, keep); got != tc.want {
			t.Errorf("%s: failedHere %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRowNamedByTheCommand: a tapped row of a list whose name the command
// gives unquoted ("the Ledgers folder") covers the word after the name,
// which says what the row is; another row does not, and the command's
// action ("delete") is still to do.
func TestRowNamedByTheCommand(t *testing.T) {
	for _, tc := range []struct {
		cmd, row string
		term     term
		want     bool
	}{
		{"open the Ledgers folder", "Ledgers · 6", "folder", true},
		{"open the Ledgers folder", "Trips · 2", "folder", false},
		{"delete the ledgers folder", "Ledgers · 6", "folder", true},
		{"delete the ledgers folder", "Ledgers · 6", "@delete", false},
		{"open the Ledgersfolder", "Ledgers · 6", "folder", false},
	} {
		rs := newRunState(tc.cmd, "")
		d := desc(tc.row)
		d.InList = true
		h := daemon.StepRecord{Action: device.Tap, OK: true, Label: tc.row, Target: d}
		(&Planner{}).fold(rs, &daemon.PlanState{History: []daemon.StepRecord{h}})
		if got := rs.covered[tc.term]; got != tc.want {
			t.Errorf("%q after %q: %s covered %v, want %v", tc.cmd, tc.row, tc.term, got, tc.want)
		}
	}
}

// TestTypedBesideADisabledCommit: a message typed beside a greyed-out
// "Post" (and an enabled "Add member", which commits nothing the command
// asks) is not a command surely done, though "Send message" covered every
// word of it on the way: nothing was sent. With "Post" enabled the
// planner taps it.
func TestTypedBesideADisabledCommit(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, post string // post: the send button's node
		wantTap    bool
		wantUnsure bool
	}{
		{"disabled", `,{"id":4,"parent":0,"class":"android.widget.Button","text":"Post","resource-id":"org.example.chats:id/send_button","bounds":[900,2100,1080,2200],"clickable":true,"enabled":false,"visible_to_user":true}`, false, true},
		{"enabled", `,{"id":4,"parent":0,"class":"android.widget.Button","text":"Post","resource-id":"org.example.chats:id/send_button","bounds":[900,2100,1080,2200],"clickable":true,"enabled":true,"visible_to_user":true}`, true, false},
	} {
		store, appID := storeWithApp(t, "org.example.chats", "Chats")
		chat := screenOf(t, `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Sam","bounds":[0,100,1080,200],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.Button","text":"Add member","resource-id":"org.example.chats:id/add_member","bounds":[800,100,1080,200],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.EditText","text":"see you soon","resource-id":"org.example.chats:id/compose_message","bounds":[0,2100,900,2200],"editable":true,"clickable":true,"focused":true,"enabled":true,"visible_to_user":true}`+tc.post)
		chat.Package = "org.example.chats"
		els := screen.Elements(chat)
		field := slices.IndexFunc(els, func(e screen.Element) bool { return e.Kind == screen.KindInput })
		if field < 0 {
			t.Fatalf("%s: no field among %+v", tc.name, els)
		}
		history := []daemon.StepRecord{
			{Action: device.Tap, Target: screen.Descriptor{Text: "Sam"}, Label: "Sam", Screen: "list", After: "contact", OK: true, Changed: true},
			{Action: device.Tap, Target: screen.Descriptor{Text: "Send message"}, Label: "Send message", Screen: "contact", After: "chat", OK: true, Changed: true},
			{Action: device.Input, Target: screen.Describe(chat, els[field].NodeID), Text: "see you soon", Screen: "chat", After: "chat", OK: true, Changed: true},
		}
		st := &daemon.PlanState{Command: "send Sam a message saying 'see you soon'", Package: "org.example.chats", AppID: appID, Screen: chat, Elements: els, Print: "chat", Step: 3, History: history}
		d, err := New(store).Next(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if got := tapsLabel(d, st, "Post"); got != tc.wantTap {
			t.Errorf("%s: %s %d (%s), tap on Post %v, want %v", tc.name, d.Action, d.Element, d.Reason, got, tc.wantTap)
		}
		if !tc.wantTap && (d.Action != daemon.ActDone || d.Unsure != tc.wantUnsure) {
			t.Errorf("%s: %s %d unsure %v (%s), want done, unsure %v", tc.name, d.Action, d.Element, d.Unsure, d.Reason, tc.wantUnsure)
		}
	}
}

// TestCommitConfirmedWithTheCommandsVerb: a dialog the commit opened
// whose accepting button is the command's verb ("Send" beside "Cancel",
// after a message's send button) is accepted with it; not for a command
// that asks no such thing, nor when two buttons say it.
func TestCommitConfirmedWithTheCommandsVerb(t *testing.T) {
	button := func(id int, text string) string {
		return fmt.Sprintf(`,{"id":%d,"parent":0,"class":"android.widget.Button","text":%q,"bounds":[%d,1200,%d,1300],"clickable":true,"enabled":true,"visible_to_user":true}`, id, text, 100+id*150, 240+id*150)
	}
	const ask = `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Chats would like to send a message to 12345","bounds":[100,900,980,1000],"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		name, command, buttons, want string
	}{
		{"the command's verb", "send Sam a text saying 'hi'", button(2, "Cancel") + button(3, "Send"), "Send"},
		{"a verb the command does not say", "open the chat with Sam", button(2, "Cancel") + button(3, "Send"), ""},
		{"two buttons say it", "send Sam a text saying 'hi'", button(2, "Send") + button(3, "Send"), ""},
	} {
		d := dialogOf(t, ask+tc.buttons)
		st := &daemon.PlanState{Command: tc.command, Screen: d, Elements: screen.Elements(d), Print: "ask",
			History: []daemon.StepRecord{{Action: device.Tap, Label: "Post", Target: desc("Post"), Screen: "chat", After: "ask", OK: true, Changed: true}}}
		rs := newRunState(tc.command, "")
		c, ok := rs.commitAsked(st)
		got := ""
		if ok {
			got = st.Elements[c.element].Label
		}
		if got != tc.want {
			t.Errorf("%s: commitAsked taps %q, want %q", tc.name, got, tc.want)
		}
	}
}

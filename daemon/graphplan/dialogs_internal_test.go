package graphplan

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestNoticeIsAcknowledged: a dialog the last step opened that only
// informs (a message and one "OK") is acknowledged before the command is
// done; a dialog that asks something (two buttons, a check box), whose
// one button does something else ("Delete"), that holds no message, or
// that the last step did not open, is not a notice.
func TestNoticeIsAcknowledged(t *testing.T) {
	message := `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Reminders may be late while the battery saver is on.","bounds":[150,700,930,900],"enabled":true,"visible_to_user":true},`
	button := func(id int, label string) string {
		return fmt.Sprintf(`{"id":%d,"parent":0,"class":"android.widget.Button","text":%q,"bounds":[%d,1400,%d,1500],"clickable":true,"enabled":true,"visible_to_user":true},`, id, label, 100*id, 100*id+90)
	}
	check := `{"id":7,"parent":0,"class":"android.widget.CheckBox","text":"Don't show again","bounds":[150,1000,930,1100],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},`
	dialog := func(nodes string) *screen.Snapshot {
		return dialogOf(t, nodes+`
	 {"id":9,"parent":0,"class":"android.view.View","bounds":[100,1590,980,1600],"enabled":true,"visible_to_user":true}`)
	}
	opened := []daemon.StepRecord{{Screen: "editor", After: "notice", OK: true}}
	for _, tc := range []struct {
		name    string
		nodes   string
		history []daemon.StepRecord
		want    bool
	}{
		{"a notice", message + button(5, "OK"), opened, true},
		{"got it", message + button(5, "Got it"), opened, true},
		{"two buttons", message + button(4, "Cancel") + button(5, "OK"), opened, false},
		{"a check box", message + check + button(5, "OK"), opened, false},
		{"another action", message + button(5, "Delete"), opened, false},
		{"no message", button(5, "OK"), opened, false},
		{"not opened by the last step", message + button(5, "OK"), []daemon.StepRecord{{Screen: "notice", After: "notice", OK: true}}, false},
		{"no step yet", message + button(5, "OK"), nil, false},
	} {
		s := dialog(tc.nodes)
		st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s), Print: "notice", History: tc.history}
		c, got := notice(st)
		if got != tc.want {
			t.Errorf("%s: notice = %v, want %v", tc.name, got, tc.want)
		}
		if got && st.Elements[c.element].Kind != screen.KindButton {
			t.Errorf("%s: taps %q", tc.name, st.Elements[c.element].Label)
		}
	}
}

// TestReopenInDialogLeavesCheckBoxes: a tap that opened a dialog of
// options gives its words back for the options to take ("Text size" then
// "Large"), but not for check boxes that share them ("Export ledgers"
// opening "Export drafts ☑" and "Export archive ☑"): those are settings
// of their own, already as the command wants them, and a tap would untick
// them.
func TestReopenInDialogLeavesCheckBoxes(t *testing.T) {
	box := func(id int, label string) string {
		return fmt.Sprintf(`{"id":%d,"parent":0,"class":"android.widget.CheckBox","text":%q,"bounds":[150,%d,930,%d],"checkable":true,"checked":true,"clickable":true,"enabled":true,"visible_to_user":true},`, id, label, 600+100*id, 690+100*id)
	}
	radio := func(id int, label string) string {
		return fmt.Sprintf(`{"id":%d,"parent":0,"class":"android.widget.RadioButton","text":%q,"bounds":[150,%d,930,%d],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},`, id, label, 600+100*id, 690+100*id)
	}
	ok := `{"id":8,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[650,1450,950,1550],"clickable":true,"enabled":true,"visible_to_user":true}`
	withID := func(id int, class, label, rid string) string {
		return fmt.Sprintf(`{"id":%d,"parent":0,"class":%q,"text":%q,"resource_id":%q,"bounds":[150,%d,930,%d],"checkable":%v,"clickable":true,"enabled":true,"visible_to_user":true},`,
			id, class, label, rid, 600+100*id, 690+100*id, class == "android.widget.RadioButton")
	}
	for _, tc := range []struct {
		name, cmd, tapped, nodes string
		radio                    bool // the tapped element is an option of the dialog (changed in place)
		reopened                 term
		want                     bool
	}{
		{"check boxes", "export my ledgers", "Export ledgers", box(1, "Export drafts") + box(2, "Export archive") + ok, false, "export", false},
		{"options", "make the text size large", "Text size", radio(1, "Small size") + radio(2, "Large size") + ok, false, "size", true},
		// an option picked in the dialog itself opened nothing: its words stay done
		{"an option picked in place", "sort the ledgers by size", "Size", radio(1, "Name") + radio(2, "Size") + ok, true, "size", false},
		// options that carry the word only in their resource-ids are still options
		{"options by their ids", "order the ledgers by name", "Order by", withID(1, "android.widget.RadioButton", "Name", "x:id/order_by_name") + withID(2, "android.widget.RadioButton", "Size", "x:id/order_by_size") + ok, false, "order", true},
		// a button whose resource-id carries the word is no choice of it: the owner sees "OK"
		{"a button by its id", "add a new ledger of 5 pages", "New ledger", withID(1, "android.widget.Button", "Cancel", "x:id/ledger_cancel") + withID(2, "android.widget.Button", "Later", "x:id/ledger_later") + ok, false, "ledger", false},
	} {
		s := dialogOf(t, tc.nodes)
		rs := newRunState(tc.cmd, "")
		target := screen.Descriptor{Text: tc.tapped}
		if tc.radio {
			target.Class, target.Checkable = "android.widget.RadioButton", true
		}
		st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s), Print: "dialog",
			History: []daemon.StepRecord{{Action: device.Tap, Target: target, Screen: "main", After: "dialog", OK: true}}}
		rs.foldStep(st.History[0])
		if !rs.covered[tc.reopened] {
			t.Fatalf("%s: the tap on %q did not cover %q", tc.name, tc.tapped, tc.reopened)
		}
		rs.reopenInDialog(st)
		if got := !rs.covered[tc.reopened]; got != tc.want {
			t.Errorf("%s: %q given back = %v, want %v", tc.name, tc.reopened, got, tc.want)
		}
	}
}

// TestCarryOnInAnotherPackage: a tap that did the command's verb ("Print")
// and handed the work to another package's screen is carried on by that
// screen's one button with the verb; not on the app's own screen, not
// after a tap made on that package's screen already, not by a button
// naming another action too, not where two buttons carry it.
func TestCarryOnInAnotherPackage(t *testing.T) {
	spooler := `
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"Copies: 1","bounds":[0,200,1080,300],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageButton","content_desc":"Save to file","resource_id":"org.example.spooler:id/do_print","bounds":[900,1900,1080,2050],"clickable":true,"enabled":true,"visible_to_user":true}`
	second := `,
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Print preview","bounds":[0,1900,400,2050],"clickable":true,"enabled":true,"visible_to_user":true}`
	other := `,
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Cancel print","bounds":[0,1900,400,2050],"clickable":true,"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		name, pkg, nodes, want string
		tappedIn               string // the package of the screen the "Print" tap was made on, "" unseen
	}{
		{"another package", "org.example.spooler", spooler, "Save to file", ""},
		{"handed over from the app", "org.example.spooler", spooler, "Save to file", "org.example.jotter"},
		{"tapped in that package already: nothing handed over", "org.example.spooler", spooler, "", "org.example.spooler"},
		{"the app's own screen", "org.example.jotter", spooler, "", ""},
		{"two buttons carry the verb", "org.example.spooler", spooler + second, "", ""},
		{"the only other one names another action", "org.example.spooler", strings.Replace(spooler, "Save to file", "Cancel print", 1), "", ""},
		{"beside a cancel", "org.example.spooler", spooler + other, "Save to file", ""},
	} {
		s := screenOf(t, tc.nodes)
		s.Package = tc.pkg
		rs := newRunState("print the ledger note", "Jotter")
		if tc.tappedIn != "" {
			menu := screenOf(t, spooler)
			menu.Package = tc.tappedIn
			rs.sawPackage(&daemon.PlanState{Screen: menu, Print: "menu"})
		}
		st := &daemon.PlanState{Package: "org.example.jotter", Screen: s, Elements: screen.Elements(s), Print: "spool",
			History: []daemon.StepRecord{{Action: device.Tap, Target: screen.Descriptor{Text: "Print"}, Screen: "menu", After: "spool", OK: true, Changed: true}}}
		if got := carriedBy(rs, st); got != tc.want {
			t.Errorf("%s: carried on by %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestWordMeantByATapShownOnTheScreenItOpened: a tap that covered a word
// of the command only by meaning (the label meaning the whole command)
// gives it back when the screen it opened carries the word literally — a
// list of regions after "Regional weather" for a command naming one —
// but not when the tap flipped a switch or left its element on screen (a
// change in place), not for the tap's own words, and not for a word only
// a text field or a tab of a full screen holds.
func TestWordMeantByATapShownOnTheScreenItOpened(t *testing.T) {
	row := func(id int, class, label string) string {
		return fmt.Sprintf(`{"id":%d,"parent":0,"class":%q,"text":%q,"bounds":[0,%d,1080,%d],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},`, id, class, label, 200+120*id, 300+120*id)
	}
	regions := row(1, "android.widget.RadioButton", "Arcadia") + row(2, "android.widget.RadioButton", "Wakanda") + row(3, "android.widget.RadioButton", "Zembla")
	field := `{"id":1,"parent":0,"class":"android.widget.EditText","text":"Wakanda","bounds":[0,200,1080,300],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},`
	menuItem := screen.Descriptor{Class: "android.widget.TextView", Text: "Regional weather"}
	toggle := screen.Descriptor{Class: "android.widget.Switch", Text: "Regional weather", Checkable: true}
	for _, tc := range []struct {
		name   string
		tapped screen.Descriptor
		nodes  string
		word   term
		want   bool
	}{
		{"a region the list opened names", menuItem, regions, "wakanda", true},
		{"the tap's own word", menuItem, regions + row(4, "android.widget.Button", "Weather"), "weather", false},
		{"a switch flipped in place", toggle, regions, "wakanda", false},
		{"the tapped element still shown", menuItem, regions + `{"id":5,"parent":0,"class":"android.widget.TextView","text":"Regional weather","bounds":[0,900,1080,1000],"clickable":true,"enabled":true,"visible_to_user":true},`, "wakanda", false},
		{"only a text field holds it", menuItem, field, "wakanda", false},
		{"a tab of the screen the tap returned to", menuItem, `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Wakanda","resource_id":"org.example.atlas:id/tab","bounds":[0,200,540,300],"clickable":true,"enabled":true,"visible_to_user":true},`, "wakanda", false},
	} {
		s := screenOf(t, strings.TrimSuffix(tc.nodes, ","))
		rs := newRunState("show the regional weather of Wakanda", "")
		rs.semCovers[tc.tapped.Key()] = []term{"wakanda", "weather"}
		st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s), Print: "opened",
			History: []daemon.StepRecord{{Action: device.Tap, Target: tc.tapped, Screen: "main", After: "opened", OK: true}}}
		rs.foldStep(st.History[0])
		if !rs.covered[tc.word] {
			t.Fatalf("%s: the tap did not cover %q", tc.name, tc.word)
		}
		rs.reopenInDialog(st)
		if got := !rs.covered[tc.word]; got != tc.want {
			t.Errorf("%s: %q given back = %v, want %v", tc.name, tc.word, got, tc.want)
		}
	}
}

// TestDoneOnceTheDeletionIsConfirmed: a deletion the command asks for,
// confirmed in its dialog, ends the command — what was deleted is gone,
// and the command's other words described it ("records" is no recorder
// to open) — unless another clause asks for more.
func TestDoneOnceTheDeletionIsConfirmed(t *testing.T) {
	ctx := context.Background()
	tap := func(label, from, to string) daemon.StepRecord {
		return daemon.StepRecord{Action: device.Tap, Target: screen.Descriptor{Text: label}, Label: label, Screen: from, After: to, OK: true, Changed: true}
	}
	for _, tc := range []struct {
		command string
		done    bool
	}{
		{"delete Sam's message records", true},
		{"delete the chat with Sam and record a memo", false},
	} {
		store, appID := storeWithApp(t, "org.example.chats", "Chats")
		dialog := dialogOf(t, `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Delete this conversation?","bounds":[100,900,980,1000],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.Button","text":"Cancel","bounds":[500,1200,700,1300],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Yes","bounds":[800,1200,1000,1300],"clickable":true,"enabled":true,"visible_to_user":true}`)
		dialog.Package = "org.example.chats"
		history := []daemon.StepRecord{tap("Sam · Hi", "list", "chat"), tap("Delete", "chat", "dialog")}
		p := New(store)
		st := &daemon.PlanState{Command: tc.command, Package: "org.example.chats", AppID: appID, Screen: dialog, Elements: screen.Elements(dialog), Print: "dialog", Step: 2, History: history}
		d, err := p.Next(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if !tapsLabel(d, st, "Yes") {
			t.Fatalf("%q on the dialog: %s %d (%s), want a tap on Yes", tc.command, d.Action, d.Element, d.Reason)
		}
		list := screenOf(t, `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Dora · Yo","bounds":[0,200,1080,300],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.Button","text":"Record a memo","bounds":[0,2000,500,2100],"clickable":true,"enabled":true,"visible_to_user":true}`)
		list.Package = "org.example.chats"
		st = &daemon.PlanState{Command: tc.command, Package: st.Package, AppID: appID, Screen: list, Elements: screen.Elements(list), Print: "list", Step: 3,
			History: append(history, tap("Yes", "dialog", "list"))}
		if d, err = p.Next(ctx, st); err != nil {
			t.Fatal(err)
		}
		if got := d.Action == daemon.ActDone; got != tc.done {
			t.Errorf("%q after Yes: %s %d (%s), want done %v", tc.command, d.Action, d.Element, d.Reason, tc.done)
		}
	}
}

// TestOptionBeforeAccepting: a sort dialog about to be accepted first gets
// the option the command names that no step covered ("Name"); not one of
// a group whose chosen option the command names already, nor a check box.
func TestOptionBeforeAccepting(t *testing.T) {
	const dialog = `{"id":1,"parent":0,"class":"android.widget.RadioGroup","bounds":[100,700,980,1100],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":1,"class":"android.widget.RadioButton","text":"Name","checkable":true,"checked":false,"bounds":[100,700,980,800],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":1,"class":"android.widget.RadioButton","text":"Date shot","checkable":true,"checked":%s,"bounds":[100,800,980,900],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.CheckBox","text":"Apply to this album alone","checkable":true,"checked":false,"bounds":[100,1100,980,1200],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[700,1400,980,1500],"clickable":true,"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		name, cmd, dateChecked string
		want                   string // the option tapped, "" none
	}{
		{"the option named", "sort the albums by name", "true", "Name"},
		{"its group's choice named already", "sort the albums by date shot, by name", "true", ""},
		{"nothing named", "sort the albums", "true", ""},
		{"a check box is no option", "sort the albums, apply to this album alone", "true", ""},
	} {
		s := dialogOf(t, fmt.Sprintf(dialog, tc.dateChecked))
		st := &daemon.PlanState{Command: tc.cmd, Screen: s, Elements: screen.Elements(s), Print: "sort"}
		rs := newRunState(tc.cmd, "")
		c, ok := rs.optionBeforeAccept(st)
		got := ""
		if ok {
			got = st.Elements[c.element].Label
		}
		if got != tc.want {
			t.Errorf("%s: %q tapped %q, want %q", tc.name, tc.cmd, got, tc.want)
		}
	}
}

// TestCarryOnByTheVerbsConcept: a command whose verb the labels do not
// write ("phone Dora") is carried on, on another package's screen, by the
// one button carrying the verb's concept, when the tap that handed it
// over carried the concept too ("Dial her" then "Ring now"); a verb of no
// concept is carried on only word for word.
func TestCarryOnByTheVerbsConcept(t *testing.T) {
	keypad := `
	 {"id":1,"parent":0,"class":"android.widget.EditText","text":"0123","bounds":[0,200,1080,300],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageButton","content_desc":"Ring now","bounds":[400,1900,680,2050],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Add to people","bounds":[0,1900,380,2050],"clickable":true,"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		name, command, tapped, want string
	}{
		{"the verb's concept on both taps", "phone Dora", "Dial her", "Ring now"},
		{"the tap that handed over carries no concept of the verb", "phone Dora", "Her card", ""},
		{"a verb of no concept", "wibble Dora", "Dial her", ""},
	} {
		s := screenOf(t, keypad)
		s.Package = "org.example.keypad"
		rs := newRunState(tc.command, "Chatter")
		st := &daemon.PlanState{Package: "org.example.chatter", Screen: s, Elements: screen.Elements(s), Print: "keypad",
			History: []daemon.StepRecord{{Action: device.Tap, Target: screen.Descriptor{Text: tc.tapped}, Screen: "thread", After: "keypad", OK: true, Changed: true}}}
		if got := carriedBy(rs, st); got != tc.want {
			t.Errorf("%s: carried on by %q, want %q", tc.name, got, tc.want)
		}
	}
}

// carriedBy is the label of the button carryOn taps on st, "" for none.
func carriedBy(rs *runState, st *daemon.PlanState) string {
	if c, ok := rs.carryOn(st); ok {
		return st.Elements[c.element].Label
	}
	return ""
}

// TestChoicePending: a screen the last step brought up that offers two or
// more options (radio buttons) with none chosen leaves the choice to be
// made, so a "done" there is unsure; one option chosen, switches instead
// of options, or a screen the last step did not open, is not.
func TestChoicePending(t *testing.T) {
	option := func(id int, label, kind string, checked bool) string {
		return fmt.Sprintf(`{"id":%d,"parent":0,"class":"android.widget.%s","text":%q,"bounds":[100,%d,980,%d],"checkable":true,"checked":%v,"clickable":true,"enabled":true,"visible_to_user":true},`, id, kind, label, 200+100*id, 290+100*id, checked)
	}
	end := `{"id":9,"parent":0,"class":"android.view.View","bounds":[100,1590,980,1600],"enabled":true,"visible_to_user":true}`
	opened := []daemon.StepRecord{{Screen: "menu", After: "regions", OK: true}}
	for _, tc := range []struct {
		name    string
		nodes   string
		history []daemon.StepRecord
		want    bool
	}{
		{"none chosen", option(1, "Northland", "RadioButton", false) + option(2, "Southland", "RadioButton", false) + option(3, "Westland", "RadioButton", false), opened, true},
		{"one chosen", option(1, "Northland", "RadioButton", false) + option(2, "Southland", "RadioButton", true), opened, false},
		{"switches", option(1, "Wi-Fi", "Switch", false) + option(2, "Bluetooth", "Switch", false), opened, false},
		{"a single option", option(1, "Northland", "RadioButton", false), opened, false},
		{"not opened by the last step", option(1, "Northland", "RadioButton", false) + option(2, "Southland", "RadioButton", false), []daemon.StepRecord{{Screen: "regions", After: "regions", OK: true}}, false},
		{"no step yet", option(1, "Northland", "RadioButton", false) + option(2, "Southland", "RadioButton", false), nil, false},
	} {
		s := screenOf(t, tc.nodes+end)
		st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s), Print: "regions", History: tc.history}
		if got := choicePending(st); got != tc.want {
			t.Errorf("%s: choicePending = %v, want %v", tc.name, got, tc.want)
		}
	}
}

package graphplan

import (
	"context"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

func TestClockDuration(t *testing.T) {
	for _, tc := range []struct {
		label string
		want  time.Duration
		ok    bool
	}{
		{"04:00", 4 * time.Minute, true},
		{"4:00", 4 * time.Minute, true},
		{" 1:30 ", 90 * time.Second, true},
		{"0:04:00", 4 * time.Minute, true},
		{"1:00:00", time.Hour, true},
		{"120:00", 2 * time.Hour, true},
		{"04:00 AM", 0, false},
		{"4:60", 0, false},
		{"1:60:00", 0, false},
		{"4:0", 0, false},
		{"5", 0, false},
		{"1:2:3:4", 0, false},
		{":30", 0, false},
		{"-4:00", 0, false},
		{"+4:00", 0, false},
		{"Mon, 3 Aug", 0, false},
		{"9:45 · Dentist", 0, false},
	} {
		got, ok := clockDuration(tc.label)
		if ok != tc.ok || got != tc.want {
			t.Errorf("clockDuration(%q) = %v, %v; want %v, %v", tc.label, got, ok, tc.want, tc.ok)
		}
	}
}

func TestSpokenDuration(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want time.Duration
		said string
	}{
		{"add a 4 minute countdown", 4 * time.Minute, "4 minute"},
		{"count down 90 seconds", 90 * time.Second, "90 seconds"},
		{"a timer for 1.5 hours please", 90 * time.Minute, "1.5 hours"},
		{"nap 12 min", 12 * time.Minute, "12 min"},
		{"set the font to 5 points", 0, ""},
		{"call 555 0100", 0, ""},
		{"remind me at 5", 0, ""},
	} {
		u := intent.Understand(tc.cmd)
		var got time.Duration
		var said string
		for _, v := range u.Values {
			if d, s, ok := spokenDuration(u, v); ok {
				got, said = d, s
			}
		}
		if got != tc.want || said != tc.said {
			t.Errorf("%q: %v %q, want %v %q", tc.cmd, got, said, tc.want, tc.said)
		}
	}
}

// TestDurationShownOnADialogIsSet: a new timer's dialog that already
// shows the command's length as a clock ("04:00" for "a 4 minute
// countdown" or "a countdown of 4:00")
// holds the value: the planner accepts it rather than look for "4
// minutes" elsewhere; a dialog showing another length does not.
func TestDurationShownOnADialogIsSet(t *testing.T) {
	ctx := context.Background()
	store, appID := storeWithApp(t, "org.example.kitchen", "Kitchen")
	dialog := func(shown string) *screen.Snapshot {
		s := dialogOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"`+shown+`","bounds":[200,650,880,800],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.CheckBox","text":"Chime","bounds":[200,850,880,950],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Cancel","bounds":[300,1450,600,1550],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[650,1450,950,1550],"clickable":true,"enabled":true,"visible_to_user":true}`)
		s.Package = "org.example.kitchen"
		return s
	}
	history := []daemon.StepRecord{{Action: device.Tap, Target: screen.Descriptor{Desc: "New countdown"}, Screen: "main", After: "dialog", OK: true, Changed: true}}
	for _, tc := range []struct {
		shown  string
		wantOK bool
	}{
		{"04:00", true},
		{"06:00", false},
	} {
		s := dialog(tc.shown)
		for _, cmd := range []string{"add a 4 minute countdown", "add a countdown of 4:00"} {
			st := &daemon.PlanState{Command: cmd, Package: "org.example.kitchen", AppID: appID, Screen: s, Elements: screen.Elements(s), Print: "dialog", Step: 1, History: history}
			d, err := New(store).Next(ctx, st)
			if err != nil {
				t.Fatal(err)
			}
			gotOK := tapsLabel(d, st, "OK")
			if gotOK != tc.wantOK {
				t.Errorf("%q, dialog showing %s: %s %d (%s); tap OK = %v, want %v", cmd, tc.shown, d.Action, d.Element, d.Reason, gotOK, tc.wantOK)
			}
		}
	}
}

// FuzzClockDuration: any label is read without a panic, and a duration
// read is never negative.
func FuzzClockDuration(f *testing.F) {
	f.Add("04:00")
	f.Add("1:02:03")
	f.Add("٣:٠٠")
	f.Add("99999999999999999999:00")
	f.Fuzz(func(t *testing.T, label string) {
		if d, ok := clockDuration(label); ok && d < 0 {
			t.Fatalf("clockDuration(%q) = %v", label, d)
		}
	})
}

// TestValueHeldInAField: a text field that holds the command's value
// already (the same text, or without the file extension the app adds)
// holds it; a search field, an empty field, another text or another
// extension-like tail does not.
func TestValueHeldInAField(t *testing.T) {
	field := func(value, hint string) *screen.Element {
		return &screen.Element{Kind: screen.KindInput, Label: value, Value: value, Hint: hint}
	}
	for _, tc := range []struct {
		el    *screen.Element
		value string
		want  bool
	}{
		{field("Ledger_backup", "File name"), "Ledger_backup.json", true},
		{field("ledger_backup.json", "File name"), "Ledger_backup.json", true},
		{field("Ledger_backup", "File name"), "Ledger_backup", true},
		{field("Ledger", "File name"), "Ledger_backup.json", false},
		{field("", "File name"), "Ledger_backup.json", false},
		{field("Ledger_backup", "Search"), "Ledger_backup.json", false},
		{field("Ledger_backup", "File name"), "Ledger_backup.tar-gz", false},
		{field("Ledger", "File name"), "Ledger.", false},
		{&screen.Element{Kind: screen.KindButton, Label: "Ledger_backup"}, "Ledger_backup.json", false},
	} {
		if got := heldIn(tc.el, tc.value, true); got != tc.want {
			t.Errorf("heldIn(%q, %q) = %v, want %v", tc.el.Value, tc.value, got, tc.want)
		}
	}
}

// TestNameHeldIsNotTypedAgain: an export dialog whose name field holds
// the command's file name without the extension the app adds is
// accepted as it is, not typed into ("Ledger_backup.json" over
// "Ledger_backup" would name the file "Ledger_backup.json.json").
func TestNameHeldIsNotTypedAgain(t *testing.T) {
	ctx := context.Background()
	store, appID := storeWithApp(t, "org.example.jotter", "Jotter")
	s := dialogOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"Export ledgers","bounds":[150,650,930,750],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.EditText","text":"Ledger_backup","bounds":[150,800,930,900],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Cancel","bounds":[300,1450,600,1550],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[650,1450,950,1550],"clickable":true,"enabled":true,"visible_to_user":true}`)
	s.Package = "org.example.jotter"
	history := []daemon.StepRecord{
		{Action: device.Tap, Target: screen.Descriptor{Desc: "More options"}, Screen: "main", After: "menu", OK: true, Changed: true},
		{Action: device.Tap, Target: screen.Descriptor{Text: "Export ledgers"}, Screen: "menu", After: "dialog", OK: true, Changed: true},
	}
	st := &daemon.PlanState{Command: "export my ledgers to 'Ledger_backup.json'", Package: "org.example.jotter", AppID: appID, Screen: s, Elements: screen.Elements(s), Print: "dialog", Step: 2, History: history}
	d, err := New(store).Next(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if !tapsLabel(d, st, "OK") {
		t.Errorf("%s %d %q (%s), want a tap on OK", d.Action, d.Element, d.Text, d.Reason)
	}
}

// TestNameShownAsTheTitle: a name the command picks ("delete the note
// 'Ledger'") shown as text no element carries — the title of the note
// open, beside the tab of another note, with the pager under it taking the
// same text as its label — is there already; a row of a list that carries
// it is still to tap.
func TestNameShownAsTheTitle(t *testing.T) {
	open := screenOf(t, `
	 {"id":1,"parent":0,"class":"androidx.viewpager.widget.ViewPager","scrollable":true,"bounds":[0,300,1080,2200],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":1,"class":"android.widget.TextView","text":"Ledger","bounds":[400,320,600,400],"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":1,"class":"android.widget.TextView","text":"Errands","bounds":[800,320,1080,400],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":1,"class":"android.widget.EditText","text":"Rent paid","bounds":[0,420,1080,2200],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true}`)
	list := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.LinearLayout","bounds":[0,300,1080,450],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":1,"class":"android.widget.TextView","text":"Ledger","bounds":[40,320,900,400],"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.LinearLayout","bounds":[0,460,1080,610],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":3,"class":"android.widget.TextView","text":"Errands","bounds":[40,480,900,560],"enabled":true,"visible_to_user":true}`)
	for _, tc := range []struct {
		name string
		s    *screen.Snapshot
		want bool
	}{
		{"the note open", open, true},
		{"a row of the list", list, false},
	} {
		rs := newRunState("delete the note 'Ledger'", "")
		st := &daemon.PlanState{Screen: tc.s, Elements: screen.Elements(tc.s)}
		rs.values[0].selects = true
		rs.shownValues(st)
		if rs.values[0].done != tc.want {
			t.Errorf("%s: value done %v, want %v (elements %+v)", tc.name, rs.values[0].done, tc.want, st.Elements)
		}
	}
}

// TestNumberNotTypedIntoTheNameItHolds: an unquoted number goes only into
// a field whose shown name fits the words before it; a field's label that
// is only the text it holds ("Dora" in the name field) is no such name,
// or "change Dora's number to …" would overwrite the contact's name.
func TestNumberNotTypedIntoTheNameItHolds(t *testing.T) {
	for _, tc := range []struct {
		el   *screen.Element
		want bool
	}{
		{&screen.Element{Kind: screen.KindInput, Label: "Dora", Value: "Dora"}, false},
		{&screen.Element{Kind: screen.KindInput, Label: "555 0100", Value: "555 0100", Hint: "Phone number"}, true},
		{&screen.Element{Kind: screen.KindInput, Label: "Cell number", Value: "555 0100"}, true},
	} {
		rs := newRunState("change the mobile number of Dora to 5550199", "")
		if got := rs.nextValueFor(tc.el) >= 0; got != tc.want {
			t.Errorf("field %+v: typed into %v, want %v", *tc.el, got, tc.want)
		}
	}
	// the words before the value are those written last before it, not
	// the parts of a name the reading puts after the command's words
	if ctx := newRunState("change Dora's mobile number to 5550199", "").values[0].context; len(ctx) == 0 || ctx[len(ctx)-1] != "number" {
		t.Errorf("context %v, want it to end with number", ctx)
	}
}

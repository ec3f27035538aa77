package graphplan

import (
	"context"
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestFileNameIsAValue: a file name written without quote marks is a
// value typed as written, not two words to find on screen.
func TestFileNameIsAValue(t *testing.T) {
	rs := newRunState("crop the photo and keep it as beach_2.jpg", "")
	if len(rs.values) != 1 || rs.values[0].text != "beach_2.jpg" || !rs.values[0].quoted || !rs.values[0].file {
		t.Fatalf("values = %+v, want the file name as one value typed as written", rs.values)
	}
	for _, ct := range rs.terms {
		if ct.t == "beach_2" || ct.t == "jpg" {
			t.Errorf("term %q: the file name's words are matched against labels", ct.t)
		}
	}
}

// TestSaveAsComesBeforeTheName: on a screen with no text field, "Save as"
// opens the dialog where the command's file name is typed; it is not
// passed over as a commit before what it commits while other words of the
// command are left ("the picture I took"). Without a name to type, or
// with a field for it here, the commit rule holds.
func TestSaveAsComesBeforeTheName(t *testing.T) {
	viewer := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.Button","text":"Rotate","bounds":[0,1900,360,2050],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.Button","text":"Save as","bounds":[360,1900,720,2050],"clickable":true,"enabled":true,"visible_to_user":true}`)
	form := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.EditText","text":"beach","bounds":[0,300,1080,400],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.Button","text":"Save as","bounds":[360,1900,720,2050],"clickable":true,"enabled":true,"visible_to_user":true}`)
	for _, tc := range []struct {
		cmd      string
		s        *screen.Snapshot
		passOver bool
	}{
		{"rotate the picture I took and save it as beach2.jpg", viewer, false},
		{"rotate the picture I took and save it", viewer, true},
		{"rotate the picture I took and save it as beach2.jpg", form, true},
	} {
		rs := newRunState(tc.cmd, "")
		rs.covered["rotat"] = true
		w := map[term]float64{}
		for _, ct := range rs.terms {
			w[ct.t] = 1
		}
		els := screen.Elements(tc.s)
		st := &daemon.PlanState{Screen: tc.s, Elements: els}
		at := slices.IndexFunc(els, func(e screen.Element) bool { return e.Label == "Save as" })
		c := candidate{action: device.Tap, element: at, covers: []term{"@save", "save"}}
		if why := rs.passOver(st, c, w, rs.remaining(w)); (why != "") != tc.passOver {
			t.Errorf("%q (field on screen %v): passed over %q, want passed over %v", tc.cmd, tc.s == form, why, tc.passOver)
		}
	}
}

// TestFileNameTypedIntoTheNameField: a "Save as" dialog with the folder,
// the name and the extension in three fields gets the name without the
// extension in the name field, not the whole name in the folder's field.
func TestFileNameTypedIntoTheNameField(t *testing.T) {
	ctx := context.Background()
	store, appID := storeWithApp(t, "org.example.snaps", "Snaps")
	s := dialogOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"Save as","bounds":[150,650,930,720],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.EditText","text":"Internal/Pictures/","bounds":[150,750,930,850],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.EditText","text":"beach","bounds":[150,900,700,1000],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.EditText","text":"jpg","bounds":[720,900,930,1000],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":0,"class":"android.widget.Button","text":"Cancel","bounds":[300,1450,600,1550],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":6,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[650,1450,950,1550],"clickable":true,"enabled":true,"visible_to_user":true}`)
	s.Package = "org.example.snaps"
	history := []daemon.StepRecord{
		{Action: device.Tap, Target: screen.Descriptor{Text: "Rotate"}, Screen: "editor", After: "editor2", OK: true, Changed: true},
		{Action: device.Tap, Target: screen.Descriptor{Text: "Save as"}, Screen: "editor2", After: "saveas", OK: true, Changed: true},
	}
	st := &daemon.PlanState{Command: "rotate the picture and save it as beach2.jpg", Package: "org.example.snaps", AppID: appID,
		Screen: s, Elements: screen.Elements(s), Print: "saveas", Step: 2, History: history}
	d, err := New(store).Next(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if d.Action != device.Input || d.Element < 0 || st.Elements[d.Element].Value != "beach" || d.Text != "beach2" {
		t.Errorf("%s %d %q (%s), want \"beach2\" typed into the name field", d.Action, d.Element, d.Text, d.Reason)
	}
}

// TestNameWithoutExtensionWhereFilesAreListed: a field holding the file
// name without its extension holds the value on a form, but not on a
// screen that lists files by their full names (a save picker keeps the
// name as typed).
func TestNameWithoutExtensionWhereFilesAreListed(t *testing.T) {
	rows := `
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"Ledger.pdf","bounds":[0,300,1080,400],"enabled":true,"visible_to_user":true},`
	field := `
	 {"id":2,"parent":0,"class":"android.widget.EditText","text":"Ledger","bounds":[0,1900,800,2000],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"SAVE","bounds":[800,1900,1080,2000],"clickable":true,"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		nodes string
		held  bool
	}{
		{field, true},
		{rows + field, false},
	} {
		s := screenOf(t, tc.nodes)
		rs := newRunState("export the note as Ledger.txt", "")
		rs.shownValues(&daemon.PlanState{Screen: s, Elements: screen.Elements(s)})
		if i := slices.IndexFunc(rs.values, func(v value) bool { return v.text == "Ledger.txt" }); i < 0 || rs.values[i].done != tc.held {
			t.Errorf("files listed %v: values %+v, want held %v", tc.nodes == rows+field, rs.values, tc.held)
		}
	}
}

// TestConfirmPrefersSaveOverNew: a save picker's "New directory" (an add)
// comes before its "Save" on screen; the typed name is committed with
// "Save".
func TestConfirmPrefersSaveOverNew(t *testing.T) {
	s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.Button","text":"New directory","bounds":[0,200,400,300],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.EditText","text":"ledger.pdf","bounds":[0,1900,800,2000],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Save","bounds":[800,1900,1080,2000],"clickable":true,"enabled":true,"visible_to_user":true}`)
	st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s)}
	if c, ok := confirmButton(st); !ok || st.Elements[c.element].Label != "Save" {
		t.Errorf("confirmButton = %+v, %v; want Save", c, ok)
	}
}

// TestFileNameOnlyIntoAFieldForIt: a file name, quoted or not, is not
// typed into a field for a recipient, a number or a message; it goes into
// a search field, a field holding a file name, or a form's name field.
func TestFileNameOnlyIntoAFieldForIt(t *testing.T) {
	for _, tc := range []struct {
		cmd, field string
		want       bool
	}{
		{"export the chats to 'Chats_0701.json'", `"text":"To: name or number…"`, false},
		{"export the chats to 'Chats_0701.json'", `"hint":"Message"`, false},
		{"export the chats to Chats_0701.json", `"text":"To: name or number…"`, false},
		{"search for 'Chats_0701.json'", `"hint":"Search"`, true},
		{"export the chats to 'Chats_0701.json'", `"text":"Untitled.json"`, true},
		{"export the chats to 'Chats_0701.json'", `"hint":"File name"`, true},
		{"write 'see you at noon' to Sam", `"hint":"Message"`, true}, // no file name
	} {
		s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.EditText",`+tc.field+`,"bounds":[0,300,1080,400],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true}`)
		els := screen.Elements(s)
		rs := newRunState(tc.cmd, "")
		rs.sends = true // the message field would take a text for a command that sends one
		if got := rs.nextValueFor(&els[0]) >= 0; got != tc.want {
			t.Errorf("%q into %s: typed %v, want %v", tc.cmd, tc.field, got, tc.want)
		}
	}
}

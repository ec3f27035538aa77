package graphplan

import (
	"context"
	"fmt"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestSaveAsPickerIsAConfirmation: the system's "save as" picker an
// export opens (another app's screen: a folder list, one filled name
// field, SAVE) waits for its SAVE like a confirmation prompt, whatever
// its number of buttons; the app's own busy screen, another app's form
// with empty or several fields, or one without a save button does not.
func TestSaveAsPickerIsAConfirmation(t *testing.T) {
	const buttons = `
	 {"id":1,"parent":0,"class":"android.widget.ImageButton","content_desc":"Browse","bounds":[0,0,100,100],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageButton","content_desc":"Make folder","bounds":[100,0,200,100],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.ImageButton","content_desc":"Sort","bounds":[200,0,300,100],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.ImageButton","content_desc":"More options","bounds":[300,0,400,100],"clickable":true,"enabled":true,"visible_to_user":true},`
	field := func(id int, text string) string {
		return fmt.Sprintf(`{"id":%d,"parent":0,"class":"android.widget.EditText","text":%q,"bounds":[0,%d,800,%d],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},`, id, text, id*100, id*100+90)
	}
	save := func(label string) string {
		return fmt.Sprintf(`{"id":9,"parent":0,"class":"android.widget.Button","text":%q,"bounds":[800,2000,1000,2100],"clickable":true,"enabled":true,"visible_to_user":true}`, label)
	}
	for _, tc := range []struct {
		name, nodes, pkg string
		want             bool
	}{
		{"the picker", buttons + field(5, "Ledger") + save("SAVE"), "org.example.files", true},
		{"the app's own screen", buttons + field(5, "Ledger") + save("SAVE"), "org.example.jotter", false},
		{"an empty field", buttons + field(5, "") + save("SAVE"), "org.example.files", false},
		{"two fields", buttons + field(5, "Dora") + field(6, "Lind") + save("SAVE"), "org.example.contacts", false},
		{"no save button", buttons + field(5, "Ledger") + save("Delete"), "org.example.files", false},
	} {
		s := screenOf(t, tc.nodes)
		s.Package = tc.pkg
		st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s), Print: "picker", Package: "org.example.jotter",
			History: []daemon.StepRecord{{Screen: "menu", After: "picker", OK: true}}}
		if got := confirmation(st); got != tc.want {
			t.Errorf("%s: confirmation = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSaveAsPickerAfterTheAppsDialog: an export whose options dialog was
// accepted opens the system's "save as" picker; the planner taps its SAVE
// (a second confirmation of the same step), then the command is done.
func TestSaveAsPickerAfterTheAppsDialog(t *testing.T) {
	ctx := context.Background()
	store, appID := storeWithApp(t, "org.example.jotter", "Jotter")
	picker := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.ImageButton","content_desc":"Browse","bounds":[0,0,100,100],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageButton","content_desc":"Make folder","bounds":[100,0,200,100],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.ImageButton","content_desc":"Sort","bounds":[200,0,300,100],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.ImageButton","content_desc":"More options","bounds":[300,0,400,100],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":0,"class":"android.widget.EditText","text":"Ledger_backup.json","bounds":[0,500,800,590],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},
	 {"id":9,"parent":0,"class":"android.widget.Button","text":"SAVE","bounds":[800,2000,1000,2100],"clickable":true,"enabled":true,"visible_to_user":true}`)
	picker.Package = "org.example.files"
	tap := func(label, from, to string) daemon.StepRecord {
		return daemon.StepRecord{Action: device.Tap, Target: screen.Descriptor{Text: label}, Screen: from, After: to, OK: true, Changed: true}
	}
	dialog := screenOf(t, `{"id":1,"parent":0,"class":"android.widget.CheckBox","text":"Include drafts","bounds":[0,500,800,590],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.Button","text":"Cancel","bounds":[500,2000,700,2100],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[800,2000,1000,2100],"clickable":true,"enabled":true,"visible_to_user":true}`)
	dialog.Package = "org.example.jotter"
	history := []daemon.StepRecord{tap("More options", "main", "menu"), tap("Export ledgers", "menu", "dialog")}
	st := &daemon.PlanState{Command: "export my ledgers to a file", Package: "org.example.jotter", AppID: appID, Screen: dialog, Elements: screen.Elements(dialog), Print: "dialog", Step: 2, History: history}
	p := New(store)
	d, err := p.Next(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if !tapsLabel(d, st, "OK") {
		t.Fatalf("on the app's dialog: %s %d (%s), want a tap on OK", d.Action, d.Element, d.Reason)
	}
	history = append(history, tap("OK", "dialog", "picker"))
	st = &daemon.PlanState{Command: st.Command, Package: st.Package, AppID: appID, Screen: picker, Elements: screen.Elements(picker), Print: "picker", Step: 3, History: history}
	if d, err = p.Next(ctx, st); err != nil {
		t.Fatal(err)
	}
	if !tapsLabel(d, st, "SAVE") {
		t.Fatalf("on the picker: %s %d (%s), want a tap on SAVE", d.Action, d.Element, d.Reason)
	}
	main := screenOf(t, `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Ledgers","bounds":[0,0,1080,100],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageView","content_desc":"More options","bounds":[900,0,1000,100],"clickable":true,"enabled":true,"visible_to_user":true}`)
	main.Package = "org.example.jotter"
	st = &daemon.PlanState{Command: st.Command, Package: st.Package, AppID: appID, Screen: main, Elements: screen.Elements(main), Print: "main", Step: 4,
		History: append(history, tap("SAVE", "picker", "main"))}
	if d, err = p.Next(ctx, st); err != nil {
		t.Fatal(err)
	}
	if d.Action != daemon.ActDone {
		t.Errorf("back from the picker: %s %d (%s), want done", d.Action, d.Element, d.Reason)
	}
}

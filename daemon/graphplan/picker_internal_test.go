package graphplan

import (
	"context"
	"fmt"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// pickerNodes is a folder picker: its title as text, a row per folder,
// CANCEL and OK.
func pickerNodes(rows ...string) string {
	out := `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Choose a folder","bounds":[100,100,980,200],"enabled":true,"visible_to_user":true},`
	for i, r := range rows {
		out += fmt.Sprintf(`{"id":%d,"parent":0,"class":"android.widget.TextView","text":%q,"bounds":[100,%d,980,%d],"clickable":true,"enabled":true,"visible_to_user":true},`, 2+i, r, 300+100*i, 390+100*i)
	}
	return out + `{"id":20,"parent":0,"class":"android.widget.Button","text":"CANCEL","bounds":[100,1800,500,1900],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":21,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[600,1800,980,1900],"clickable":true,"enabled":true,"visible_to_user":true}`
}

// TestTitleShownHereIsNoPlaceToGo: in a folder picker whose every folder
// opens the picker again under the same title, the folder the command
// names is tapped, not another folder on the way to the title (whose
// words the command also says) shown again.
func TestTitleShownHereIsNoPlaceToGo(t *testing.T) {
	ctx := context.Background()
	store, appID := storeWithApp(t, "org.example.go", "Go")
	top, rows := recordScreen(t, store, appID, "picker", "org.example.go/.MainActivity",
		screen.Descriptor{Text: "Choose a folder"}, screen.Descriptor{Text: "Attic · 0 items", InList: true}, screen.Descriptor{Text: "Cellar · 3 items", InList: true})
	inside, _ := recordScreen(t, store, appID, "picker-attic", "org.example.go/.MainActivity", screen.Descriptor{Text: "Choose a folder"}, screen.Descriptor{Text: "OK"})
	if _, err := store.RecordTransition(ctx, knowledge.Transition{From: top.ID, To: inside.ID, Action: device.Tap, ElementID: rows[1].ID}); err != nil {
		t.Fatal(err)
	}
	d, st := nextOn(t, store, appID, pickerNodes("Attic · 0 items", "Cellar · 3 items"), "picker", "export the lists to the cellar folder", nil)
	if !tapsLabel(d, st, "Cellar · 3 items") {
		t.Errorf("%s %d (%s), want a tap on the cellar", d.Action, d.Element, d.Reason)
	}
}

// TestPickedFolderAccepted: once the folder the command names in plain
// words is picked in a picker with CANCEL and OK, OK accepts it, though a
// file name is still to type (the picker has no field for it: what OK
// opens does); not when the last tap picked another row.
func TestPickedFolderAccepted(t *testing.T) {
	for _, tc := range []struct {
		tapped string
		want   bool
	}{
		{"Cellar · 3 items", true},
		{"Attic · 0 items", false},
	} {
		store, appID := storeWithApp(t, "org.example.go", "Go")
		history := []daemon.StepRecord{{Action: device.Tap, Target: screen.Descriptor{Text: tc.tapped, InList: true}, Label: tc.tapped, Screen: "picker", After: "picker", OK: true, Changed: true}}
		d, st := nextOn(t, store, appID, pickerNodes("Attic · 0 items", "Cellar · 3 items"), "picker", "export the lists to plan.txt in the cellar folder", history)
		if got := tapsLabel(d, st, "OK"); got != tc.want {
			t.Errorf("after %q: taps OK = %v, want %v (%s %d: %s)", tc.tapped, got, tc.want, d.Action, d.Element, d.Reason)
		}
	}
}

// TestExtensionTheFieldAdds: a file name goes without its extension into
// a field whose name writes that extension ("Name (without .txt)"), as
// written into any other.
func TestExtensionTheFieldAdds(t *testing.T) {
	for _, tc := range []struct {
		hint, want string
	}{
		{"Name (without .txt)", "plan"},
		{"Name.txt", "plan"},
		{"Name", "plan.txt"},
		{"Name (not .txtx)", "plan.txt"},
	} {
		s := screenOf(t, fmt.Sprintf(`{"id":1,"parent":0,"class":"android.widget.EditText","hint":%q,"bounds":[0,300,1080,400],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true}`, tc.hint))
		st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s)}
		got, ok := fileText(st, &st.Elements[0], value{text: "plan.txt", file: true, quoted: true})
		if !ok || got != tc.want {
			t.Errorf("into %q: %q, %v; want %q", tc.hint, got, ok, tc.want)
		}
	}
}

// TestNamedRowPickedFirst: a command whose first clause picks a row this
// screen shows ('cellar') and whose later clause sorts opens the row
// first, though sorting here covers more of its words; where the words
// after the value say where it is ("… in the sort menu"), or they run in
// the same clause, the best candidate stays first.
func TestNamedRowPickedFirst(t *testing.T) {
	ctx := context.Background()
	nodes := `
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"Attic · 2 items","bounds":[0,300,1080,400],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.TextView","text":"Cellar · 3 items","bounds":[0,400,1080,500],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.ImageView","content_desc":"Sort by","bounds":[900,0,1080,100],"clickable":true,"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		cmd, want string
	}{
		{"open 'cellar' folder, sort the files by name", "Cellar · 3 items"},
		{"open 'cellar' folder and then sort the files by name", "Cellar · 3 items"},
		{"sort the files by name in the folder 'cellar'", "Sort by"},
	} {
		store, appID := storeWithApp(t, "org.example.go", "Go")
		main, els := recordScreen(t, store, appID, "main", "org.example.go/.MainActivity",
			screen.Descriptor{Text: "Attic · 2 items", InList: true}, screen.Descriptor{Text: "Cellar · 3 items", InList: true}, screen.Descriptor{Desc: "Sort by"})
		dlg, _ := recordScreen(t, store, appID, "sort", "org.example.go/.MainActivity",
			screen.Descriptor{Text: "Name", Class: "android.widget.RadioButton", Checkable: true}, screen.Descriptor{Text: "Size", Class: "android.widget.RadioButton", Checkable: true},
			screen.Descriptor{Text: "Keep for this folder", Class: "android.widget.CheckBox", Checkable: true})
		if _, err := store.RecordTransition(ctx, knowledge.Transition{From: main.ID, To: dlg.ID, Action: device.Tap, ElementID: els[2].ID}); err != nil {
			t.Fatal(err)
		}
		d, st := nextOn(t, store, appID, nodes, "main", tc.cmd, nil)
		if !tapsLabel(d, st, tc.want) {
			t.Errorf("%q: %s %d (%s), want a tap on %q", tc.cmd, d.Action, d.Element, d.Reason, tc.want)
		}
	}
}

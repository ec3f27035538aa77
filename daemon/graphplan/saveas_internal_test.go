package graphplan

import (
	"fmt"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestSaveAsPickerIsAConfirmation: the system's "save as" picker an
// export opens (another app's screen: a folder list, one filled name
// field, SAVE) waits for its SAVE like a confirmation prompt, whatever
// its number of buttons; the app's own busy screen, another app's form
// with empty or several fields, or one without a save button does not.
func TestSaveAsPickerIsAConfirmation(t *testing.T) {
	const buttons = `
	 {"id":1,"parent":0,"class":"android.widget.ImageButton","content_desc":"Show roots","bounds":[0,0,100,100],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageButton","content_desc":"New folder","bounds":[100,0,200,100],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.ImageButton","content_desc":"List view","bounds":[200,0,300,100],"clickable":true,"enabled":true,"visible_to_user":true},
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

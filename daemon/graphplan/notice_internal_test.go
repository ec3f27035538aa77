package graphplan

import (
	"fmt"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
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

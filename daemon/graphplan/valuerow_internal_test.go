package graphplan

import (
	"context"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/embedtest"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestValueRowOpensItsChoices: a command word nothing on the screen
// carries ("light") is sought behind the settings row whose summary holds
// a value of its kind ("Look · Dim"), each row once a run; not when the
// word is on screen, when no summary is near it, when a switch holds the
// value, or without a model. From the dialog the row opened, with none of
// the command's words in it, the run goes back.
func TestValueRowOpensItsChoices(t *testing.T) {
	ctx := context.Background()
	const rows = `
	 {"id":1,"parent":0,"class":"android.widget.LinearLayout","resource_id":"org.example.pad:id/look_holder","bounds":[0,200,1080,380],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":1,"class":"android.widget.TextView","text":"Look","bounds":[40,210,1040,290],"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":1,"class":"android.widget.TextView","text":"Dim","bounds":[40,290,1040,370],"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.LinearLayout","resource_id":"org.example.pad:id/letters_holder","bounds":[0,400,1080,580],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":4,"class":"android.widget.TextView","text":"Letters","bounds":[40,410,1040,490],"enabled":true,"visible_to_user":true},
	 {"id":6,"parent":4,"class":"android.widget.TextView","text":"Roomy","bounds":[40,490,1040,570],"enabled":true,"visible_to_user":true}`
	const pale = `,
	 {"id":7,"parent":0,"class":"android.widget.Button","text":"Pale","bounds":[0,600,1080,700],"clickable":true,"enabled":true,"visible_to_user":true}`
	const asSwitch = `,
	 {"id":7,"parent":1,"class":"android.widget.Switch","checkable":true,"bounds":[900,210,1040,370],"enabled":true,"visible_to_user":true}`
	near := map[string]string{"pale": "dim"} // the model: "pale" means what "dim" means
	for _, tc := range []struct {
		name, cmd, extra string
		same             map[string]string
		want             string // the row tapped, "" none
	}{
		{"the value's row", "set the look to pale", "", near, "Look · Dim"},
		{"the word on screen", "set the look to pale", pale, near, ""},
		{"no summary near it", "set the look to pale", "", map[string]string{}, ""},
		{"a switch holds it", "set the look to pale", asSwitch, near, ""},
		{"no model", "set the look to pale", "", nil, ""},
	} {
		s := screenOf(t, rows+tc.extra)
		st := &daemon.PlanState{Command: tc.cmd, Screen: s, Elements: screen.Elements(s), Print: "settings", Step: 2}
		p := New(nil)
		if tc.same != nil {
			p.UseEmbedder(embedtest.Bag(tc.same, nil))
		}
		rs := newRunState(tc.cmd, "")
		rs.covered["look"] = true
		w := map[term]float64{}
		for _, ct := range rs.terms {
			w[ct.t] = 1
		}
		c, ok := p.valueRow(ctx, rs, st, w)
		got := ""
		if ok {
			got = st.Elements[c.element].Label
		}
		if got != tc.want {
			t.Errorf("%s: tapped %q, want %q", tc.name, got, tc.want)
		}
		if !ok {
			continue
		}
		if _, again := p.valueRow(ctx, rs, st, w); again {
			t.Errorf("%s: the same row opened twice", tc.name)
		}
		// a tap that left the screen as it was: nothing to go back from
		st.History = append(st.History, daemon.StepRecord{Action: device.Tap, Screen: "settings", After: "settings", OK: true})
		if _, ok := rs.leaveValueRow(st); ok {
			t.Errorf("%s: back from the screen the row is on", tc.name)
		}
		// the row opened a dialog with nothing of the command: back
		st.History[len(st.History)-1].After, st.Print = "look dialog", "look dialog"
		if d, ok := rs.leaveValueRow(st); !ok || d.Action != device.Back {
			t.Errorf("%s: from the row's dialog %s %v, want back", tc.name, d.Action, ok)
		}
		st.History = append(st.History, daemon.StepRecord{Action: device.Tap, Screen: "look dialog", After: "settings", OK: true, Changed: true})
		if _, ok := rs.leaveValueRow(st); ok {
			t.Errorf("%s: back again a step later", tc.name)
		}
	}
}

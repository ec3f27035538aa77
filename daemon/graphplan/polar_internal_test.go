package graphplan

import (
	"context"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/embedtest"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestSwitchNamedByAnotherWord: a switch whose label says with a word the
// vocabulary does not know ("Veil") what the command says with its own
// on/off word ("hide") is set as the command asks — on for "turn on hide
// …" and for "hide …", off for "turn off hide …" and for "show …" — not
// by reading "hide" as the state asked for. A label word that means the
// opposite word as much ("unhide") is no such name, nor is one the model
// does not tie to it.
func TestSwitchNamedByAnotherWord(t *testing.T) {
	ctx := context.Background()
	const rows = `{"id":1,"parent":0,"class":"android.widget.CheckBox","text":"Veil dialpad digits","checkable":true,"checked":false,"bounds":[0,200,1080,300],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.CheckBox","text":"Vibrate on tap","checkable":true,"checked":true,"bounds":[0,300,1080,400],"clickable":true,"enabled":true,"visible_to_user":true}`
	veilIsHide := map[string]string{"veil": "hide"}
	for _, tc := range []struct {
		name, cmd string
		same      map[string]string
		want      string // ensure_on or ensure_off on the first switch
	}{
		{"turned on by its other name", "turn on hide dialpad digits", veilIsHide, daemon.ActEnsureOn},
		{"named by the command's word alone", "hide dialpad digits", veilIsHide, daemon.ActEnsureOn},
		{"turned off by its other name", "turn off hide dialpad digits", veilIsHide, daemon.ActEnsureOff},
		{"its opposite asked", "show dialpad digits", veilIsHide, daemon.ActEnsureOff},
		{"a word as near the opposite", "turn on hide dialpad digits", map[string]string{"veil": "hide unhide"}, daemon.ActEnsureOff},
		{"no model tie", "turn on hide dialpad digits", map[string]string{}, daemon.ActEnsureOff},
	} {
		store, appID := storeWithApp(t, "org.example.dial", "Dial")
		s := screenOf(t, rows)
		s.Package = "org.example.dial"
		p := New(store)
		p.UseEmbedder(embedtest.Bag(tc.same, nil))
		st := &daemon.PlanState{Command: tc.cmd, Package: "org.example.dial", AppID: appID, Screen: s, Elements: screen.Elements(s), Print: "settings", Step: 2}
		d, err := p.Next(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if d.Element < 0 || st.Elements[d.Element].Label != "Veil dialpad digits" || d.Action != tc.want {
			t.Errorf("%s: %q gave %s %d (%s), want %s on the first switch", tc.name, tc.cmd, d.Action, d.Element, d.Reason, tc.want)
		}
	}
}

package graphplan

import (
	"context"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestSettingsTheGraphKnowsNoWayTo: the graph recorded the element the
// command names ("Erase all trips") on a settings screen that no known
// path reaches, and only a weak match is reachable here ("Trips"): the
// planner heads for the settings. Not when that screen is of another
// activity than settings, nor once the run went into settings.
func TestSettingsTheGraphKnowsNoWayTo(t *testing.T) {
	ctx := context.Background()
	main := `
	 {"id":1,"parent":0,"class":"android.widget.Button","text":"Trips","bounds":[0,200,540,300],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageButton","content_desc":"Settings","bounds":[900,60,1060,180],"clickable":true,"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		name, act string
		history   []daemon.StepRecord
		want      bool
	}{
		{"settings", "org.example.go/.SettingsActivity", nil, true},
		{"another activity", "org.example.go/.ArchiveActivity", nil, false},
		{"already in settings", "org.example.go/.SettingsActivity", []daemon.StepRecord{{Action: device.Tap, Target: screen.Descriptor{Desc: "Settings"}, Screen: "main", After: "prefs", OK: true, Changed: true}}, false},
	} {
		store, appID := storeWithApp(t, "org.example.go", "Go")
		recordScreen(t, store, appID, "main", "org.example.go/.MainActivity", screen.Descriptor{Text: "Trips"}, screen.Descriptor{Desc: "Settings"})
		recordScreen(t, store, appID, "prefs", tc.act, screen.Descriptor{Text: "Erase all trips", ResourceID: "org.example.go:id/erase_holder"}, screen.Descriptor{Text: "Units"})
		s := screenOf(t, main)
		s.Package = "org.example.go"
		st := &daemon.PlanState{Command: "erase all trips", Package: "org.example.go", AppID: appID, Screen: s, Elements: screen.Elements(s), Print: "main", History: tc.history}
		d, err := New(store).Next(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		got := d.Action == device.Tap && d.Element >= 0 && st.Elements[d.Element].Label == "Settings"
		if got != tc.want {
			t.Errorf("%s: %s %d (%s); want settings: %v", tc.name, d.Action, d.Element, d.Reason, tc.want)
		}
	}
}

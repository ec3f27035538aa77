package daemon

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// togglesScreen: a settings row holding one checked switch, a row holding
// two check boxes, an unchecked check box of its own, and a button.
func togglesScreen(t *testing.T) *screen.Snapshot {
	t.Helper()
	s, err := screen.ParseJSON([]byte(`{"schema":1,"width":1080,"height":2280,"activity":"a/.Settings","windows":[{"id":1,"type":"application","layer":1,"focused":true,"bounds":[0,0,1080,2280],"nodes":[
	 {"id":0,"parent":-1,"class":"android.widget.FrameLayout","bounds":[0,0,1080,2280],"enabled":true,"visible_to_user":true},
	 {"id":1,"parent":0,"class":"android.widget.LinearLayout","bounds":[0,100,1080,250],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":1,"class":"android.widget.TextView","text":"Vibrate for calls","bounds":[40,120,800,230],"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":1,"class":"android.widget.Switch","bounds":[900,120,1040,230],"checkable":true,"checked":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.LinearLayout","bounds":[0,300,1080,450],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":4,"class":"android.widget.CheckBox","text":"Sound","bounds":[40,320,500,430],"checkable":true,"enabled":true,"visible_to_user":true},
	 {"id":6,"parent":4,"class":"android.widget.CheckBox","text":"Light","bounds":[540,320,1040,430],"checkable":true,"checked":true,"enabled":true,"visible_to_user":true},
	 {"id":7,"parent":0,"class":"android.widget.CheckBox","text":"Show seconds","bounds":[40,500,1040,650],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":8,"parent":0,"class":"android.widget.Button","text":"Reset","bounds":[40,700,1040,850],"clickable":true,"enabled":true,"visible_to_user":true}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestToggleState(t *testing.T) {
	s := togglesScreen(t)
	byNode := map[int]*screen.Element{}
	for i, e := range screen.Elements(s) {
		byNode[e.NodeID] = &screen.Elements(s)[i]
	}
	tests := []struct {
		name   string
		node   int
		on, ok bool
		want   string
	}{
		{"a row holding one switch, on", 1, true, true, toggleOn},
		{"the switch itself", 3, true, true, toggleOn},
		{"a row holding two check boxes", 4, false, false, ""},
		{"a check box of its own, off", 7, false, true, toggleOff},
		{"a button", 8, false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			el := byNode[tt.node]
			if el == nil {
				t.Fatalf("node %d is no element", tt.node)
			}
			on, ok := toggleState(s, el)
			if on != tt.on || ok != tt.ok || toggleOf(s, el) != tt.want {
				t.Errorf("toggleState = %v, %v; toggleOf %q; want %v, %v, %q", on, ok, toggleOf(s, el), tt.on, tt.ok, tt.want)
			}
		})
	}
	if on, ok := toggleState(nil, nil); on || ok {
		t.Error("no screen: a toggle")
	}
}

func TestFlipped(t *testing.T) {
	tests := []struct {
		name string
		rec  StepRecord
		want string
	}{
		{"a switch on, flipped", StepRecord{Action: device.Tap, OK: true, Toggle: toggleOn, Toggled: true}, ActEnsureOff},
		{"a switch off, flipped", StepRecord{Action: device.Tap, OK: true, Toggle: toggleOff, Toggled: true}, ActEnsureOn},
		{"a row that opened a dialog: not flipped", StepRecord{Action: device.Tap, OK: true, Toggle: toggleOff}, ""},
		{"no toggle", StepRecord{Action: device.Tap, OK: true, Toggled: true}, ""},
		{"a tap that failed", StepRecord{Action: device.Tap, Toggle: toggleOn, Toggled: true}, ""},
		{"a long press", StepRecord{Action: device.LongPress, OK: true, Toggle: toggleOn, Toggled: true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := flipped(tt.rec)
			if got != tt.want || ok != (tt.want != "") {
				t.Errorf("flipped = %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
}

// TestToggledIn: the tapped row is found again after the tap by its
// descriptor, also when its label shows the new state, and its switch
// must show the other state.
func TestToggledIn(t *testing.T) {
	screenWith := func(label string, checked bool) *screen.Snapshot {
		t.Helper()
		c := "false"
		if checked {
			c = "true"
		}
		s, err := screen.ParseJSON([]byte(`{"schema":1,"width":1080,"height":2280,"activity":"a/.Settings","windows":[{"id":1,"type":"application","layer":1,"focused":true,"bounds":[0,0,1080,2280],"nodes":[
		 {"id":0,"parent":-1,"class":"android.widget.FrameLayout","bounds":[0,0,1080,2280],"enabled":true,"visible_to_user":true},
		 {"id":1,"parent":0,"class":"android.widget.LinearLayout","resource_id":"a:id/vibrate_row","bounds":[0,100,1080,250],"clickable":true,"enabled":true,"visible_to_user":true},
		 {"id":2,"parent":1,"class":"android.widget.TextView","text":"` + label + `","bounds":[40,120,800,230],"enabled":true,"visible_to_user":true},
		 {"id":3,"parent":1,"class":"android.widget.Switch","bounds":[900,120,1040,230],"checkable":true,"checked":` + c + `,"enabled":true,"visible_to_user":true},
		 {"id":4,"parent":0,"class":"android.widget.Button","text":"Reset","bounds":[40,700,1040,850],"clickable":true,"enabled":true,"visible_to_user":true}]}]}`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := screenWith("Vibrate for calls OFF", false)
	rec := StepRecord{Action: device.Tap, OK: true, Toggle: toggleOff, Target: screen.Describe(before, 1)}
	tests := []struct {
		name  string
		after *screen.Snapshot
		want  bool
	}{
		{"switched on, the label saying so", screenWith("Vibrate for calls ON", true), true},
		{"switched on, the same label", screenWith("Vibrate for calls OFF", true), true},
		{"still off (the tap opened something else)", screenWith("Vibrate for calls OFF", false), false},
		{"no screen", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := toggledIn(tt.after, rec); got != tt.want {
				t.Errorf("toggledIn = %v, want %v", got, tt.want)
			}
		})
	}
}

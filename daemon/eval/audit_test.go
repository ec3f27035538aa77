package eval

import (
	"slices"
	"testing"
	"testing/fstest"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
)

// contactsState is a recorded DroidBot state: a list of two contact rows
// (clickable frames 2 and 4 holding the names 3 and 5) and a tab (6).
const contactsState = `{"tag":"S","state_str":"S","foreground_activity":"p/.Main","width":1080,"height":2280,"views":[
 {"temp_id":0,"parent":-1,"children":[1,6],"class":"android.widget.FrameLayout","bounds":[[0,0],[1080,2280]],"visible":true,"enabled":true},
 {"temp_id":1,"parent":0,"children":[2,4],"class":"androidx.recyclerview.widget.RecyclerView","scrollable":true,"bounds":[[0,200],[1080,2000]],"visible":true,"enabled":true},
 {"temp_id":2,"parent":1,"children":[3],"class":"android.widget.FrameLayout","resource_id":"p:id/row","clickable":true,"bounds":[[0,200],[1080,400]],"visible":true,"enabled":true},
 {"temp_id":3,"parent":2,"children":[],"class":"android.widget.TextView","resource_id":"p:id/name","text":"Dora","bounds":[[40,220],[1000,380]],"visible":true,"enabled":true},
 {"temp_id":4,"parent":1,"children":[5],"class":"android.widget.FrameLayout","resource_id":"p:id/row","clickable":true,"bounds":[[0,400],[1080,600]],"visible":true,"enabled":true},
 {"temp_id":5,"parent":4,"children":[],"class":"android.widget.TextView","resource_id":"p:id/name","text":"Omar","bounds":[[40,420],[1000,580]],"visible":true,"enabled":true},
 {"temp_id":6,"parent":0,"children":[],"class":"android.widget.TextView","text":"Starred","clickable":true,"bounds":[[0,2000],[540,2280]],"visible":true,"enabled":true}]}`

// TestOtherRows: a run that tapped Dora's row where the recording of
// "remove contact Omar" tapped Omar's acted on another item of the list,
// though it may end on the same screen; Omar's row, the name inside it, a
// control that is no row of the list, and a command naming no row the
// recording tapped do not count.
func TestOtherRows(t *testing.T) {
	data, err := droidtask.LoadFS(fstest.MapFS{
		"apps.json":            {Data: []byte(`{"a":{"main_package":"p"}}`)},
		"tasks.jsonl":          {Data: []byte(`{"task_id":"a/task1","app":"a","instruction":"x","steps":[]}`)},
		"transitions.jsonl":    {Data: []byte("")},
		"apps/a/states/S.json": {Data: []byte(contactsState)},
	}, "mem")
	if err != nil {
		t.Fatal(err)
	}
	omar := 5
	task := func(instruction string) *droidtask.Task {
		return &droidtask.Task{Instruction: instruction, Steps: []droidtask.Step{
			{State: "S", NextState: "T", Action: droidtask.Action{Type: "click", Target: &droidtask.Target{TempID: &omar, Text: ptr("Omar")}}},
			{State: "T", Action: droidtask.Action{Type: "done"}},
		}}
	}
	tap := func(node int) moved { return moved{before: "S", after: "T", action: device.Tap, node: node} }
	for _, tc := range []struct {
		name, instruction string
		log               []moved
		want              []string
	}{
		{"another contact's row", "remove contact Omar", []moved{tap(2)}, []string{"Dora"}},
		{"the row named", "remove contact Omar", []moved{tap(4)}, nil},
		{"the name inside the row named", "remove contact Omar", []moved{tap(5)}, nil},
		{"no row of the list", "remove contact Omar", []moved{tap(6)}, nil},
		{"on another screen", "remove contact Omar", []moved{{before: "T", action: device.Tap, node: 2}}, nil},
		{"the command names no row the recording tapped", "delete a contact", []moved{tap(2)}, nil},
	} {
		r := &recorder{log: tc.log}
		if got := r.otherRows(data, "a", task(tc.instruction)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: other rows %q, want %q", tc.name, got, tc.want)
		}
	}
}

func ptr(s string) *string { return &s }

// settingsState is a recorded DroidBot state: two settings rows holding a
// switch each (2: "Mirror selfies", 5: "Vibrate on tap"), a radio option
// (8) and a plain button (9).
const settingsState = `{"tag":"P","state_str":"P","foreground_activity":"p/.Prefs","width":1080,"height":2280,"views":[
 {"temp_id":0,"parent":-1,"children":[1],"class":"android.widget.FrameLayout","bounds":[[0,0],[1080,2280]],"visible":true,"enabled":true},
 {"temp_id":1,"parent":0,"children":[2,5,8,9],"class":"android.widget.LinearLayout","bounds":[[0,0],[1080,2280]],"visible":true,"enabled":true},
 {"temp_id":2,"parent":1,"children":[3,4],"class":"android.widget.RelativeLayout","resource_id":"p:id/mirror_holder","clickable":true,"bounds":[[0,200],[1080,400]],"visible":true,"enabled":true},
 {"temp_id":3,"parent":2,"children":[],"class":"android.widget.TextView","text":"Mirror selfies","bounds":[[40,220],[800,380]],"visible":true,"enabled":true},
 {"temp_id":4,"parent":2,"children":[],"class":"android.widget.Switch","checkable":true,"bounds":[[900,220],[1040,380]],"visible":true,"enabled":true},
 {"temp_id":5,"parent":1,"children":[6,7],"class":"android.widget.RelativeLayout","resource_id":"p:id/vibrate_holder","clickable":true,"bounds":[[0,400],[1080,600]],"visible":true,"enabled":true},
 {"temp_id":6,"parent":5,"children":[],"class":"android.widget.TextView","text":"Vibrate on tap","bounds":[[40,420],[800,580]],"visible":true,"enabled":true},
 {"temp_id":7,"parent":5,"children":[],"class":"android.widget.CheckBox","checkable":true,"bounds":[[900,420],[1040,580]],"visible":true,"enabled":true},
 {"temp_id":8,"parent":1,"children":[],"class":"android.widget.RadioButton","text":"Roomy","checkable":true,"clickable":true,"bounds":[[0,600],[1080,800]],"visible":true,"enabled":true},
 {"temp_id":9,"parent":1,"children":[],"class":"android.widget.Button","text":"About","clickable":true,"bounds":[[0,800],[1080,1000]],"visible":true,"enabled":true}]}`

// TestStraySwitches: a run that tapped a switch the recording of "vibrate
// on tap" never tapped changed a setting unasked, whether it tapped the
// row or the label inside it; the recording's own switch, a radio option
// and a plain button do not count.
func TestStraySwitches(t *testing.T) {
	data, err := droidtask.LoadFS(fstest.MapFS{
		"apps.json":            {Data: []byte(`{"a":{"main_package":"p"}}`)},
		"tasks.jsonl":          {Data: []byte(`{"task_id":"a/task1","app":"a","instruction":"x","steps":[]}`)},
		"transitions.jsonl":    {Data: []byte("")},
		"apps/a/states/P.json": {Data: []byte(settingsState)},
	}, "mem")
	if err != nil {
		t.Fatal(err)
	}
	vibrate := 6
	task := &droidtask.Task{Instruction: "vibrate on tap", Steps: []droidtask.Step{
		{State: "P", NextState: "P", Action: droidtask.Action{Type: "click", Target: &droidtask.Target{TempID: &vibrate, Text: ptr("Vibrate on tap")}}},
		{State: "P", Action: droidtask.Action{Type: "done"}},
	}}
	tap := func(node int) moved { return moved{before: "P", after: "P", action: device.Tap, node: node} }
	for _, tc := range []struct {
		name string
		log  []moved
		want int
	}{
		{"another switch's label", []moved{tap(3)}, 1},
		{"another switch's row", []moved{tap(2)}, 1},
		{"both, counted once", []moved{tap(3), tap(2)}, 1},
		{"the recording's switch, by its box", []moved{tap(7)}, 0},
		{"the recording's switch, by its row", []moved{tap(5)}, 0},
		{"a radio option", []moved{tap(8)}, 0},
		{"a plain button", []moved{tap(9)}, 0},
	} {
		r := &recorder{log: tc.log}
		if got := r.straySwitches(data, "a", task); len(got) != tc.want || tc.want > 0 && got[0] != "Mirror selfies" {
			t.Errorf("%s: stray switches %q, want %d", tc.name, got, tc.want)
		}
	}
}

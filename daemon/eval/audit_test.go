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

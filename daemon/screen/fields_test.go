package screen

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestNodeFieldsOfSchema1 reads the node fields added for the Android
// service (state_description, error, pane_title, input_type, actions) and
// the snapshot's capture_id from JSON, writes them back unchanged, keeps
// them through uiautomator XML, and shows state and error in the prompt
// rendering.
func TestNodeFieldsOfSchema1(t *testing.T) {
	in := `{"schema":1,"width":1080,"height":2400,"capture_id":"c7","windows":[{"id":3,"type":"application","layer":1,
	 "bounds":[0,0,1080,2400],"nodes":[
	 {"id":0,"parent":-1,"class":"android.widget.FrameLayout","bounds":[0,0,1080,2400],"pane_title":"Sign in","visible_to_user":true,"enabled":true},
	 {"id":1,"parent":0,"class":"android.widget.EditText","resource_id":"a:id/pw","text":"hunter2","hint":"Password","password":true,
	  "editable":true,"input_type":129,"error":"Too short","actions":["focus","click","set_text","ime_enter","custom:Show password"],
	  "bounds":[0,100,1080,200],"visible_to_user":true,"enabled":true,"clickable":true},
	 {"id":2,"parent":0,"class":"android.widget.Switch","text":"Wi-Fi","state_description":"On","checkable":true,"checked":true,
	  "clickable":true,"bounds":[0,300,1080,400],"visible_to_user":true,"enabled":true}]}]}`
	s, err := ParseJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if s.CaptureID != "c7" {
		t.Errorf("capture id %q", s.CaptureID)
	}
	pw, sw, root := s.Node(1), s.Node(2), s.Node(0)
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"pane title", root.PaneTitle, "Sign in"},
		{"error", pw.Error, "Too short"},
		{"input type", pw.InputType, 129},
		{"password text blanked", pw.Text, ""},
		{"actions", pw.Actions, []string{"focus", "click", "set_text", "ime_enter", "custom:Show password"}},
		{"has ime_enter", pw.HasAction("ime_enter"), true},
		{"no paste", pw.HasAction("paste"), false},
		{"state description", sw.StateDesc, "On"},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	out, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"capture_id":"c7"`, `"pane_title":"Sign in"`, `"error":"Too short"`, `"input_type":129`,
		`"state_description":"On"`, `"actions":["focus","click","set_text","ime_enter","custom:Show password"]`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("marshalled snapshot lacks %s", want)
		}
	}
	if strings.Contains(string(out), "hunter2") {
		t.Error("password text written")
	}
	x, err := MarshalUIAutomator(s)
	if err != nil {
		t.Fatal(err)
	}
	u, err := ParseUIAutomator(x)
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Nodes {
		a, b := s.Nodes[i], u.Nodes[i]
		if a.StateDesc != b.StateDesc || a.Error != b.Error || a.PaneTitle != b.PaneTitle || a.InputType != b.InputType ||
			!reflect.DeepEqual(a.Actions, b.Actions) {
			t.Errorf("uiautomator round trip of node %d: %+v, want %+v", i, b, a)
		}
	}
	r := Render(Elements(s))
	if !strings.Contains(r, `error="Too short"`) || !strings.Contains(r, `state="On"`) {
		t.Errorf("rendering lacks state or error:\n%s", r)
	}
	c := s.Clone()
	c.Nodes[1].Actions[0] = "changed"
	if s.Nodes[1].Actions[0] != "focus" {
		t.Error("Clone shares the action list")
	}
}

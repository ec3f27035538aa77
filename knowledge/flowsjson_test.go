package knowledge

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
)

const validDoc = `{"version": 1, "flows": [
 {"id": 7, "app_id": 3, "package": "com.example.mail", "name": "send", "intent": "send {message} to {contact}",
  "commands": ["send hi to bob"], "slots": [{"name": "message", "example": "hi"}, {"name": "contact"}],
  "steps": [
   {"index": 4, "screen": "fp1", "action": "tap", "target": {"rid": "com.example.mail:id/compose", "class": "android.widget.Button", "text": "Compose"}, "expect": "fp2"},
   {"screen": "fp2", "action": "input", "target": {"hint": "To", "editable": true}, "text": "{contact}"},
   {"screen": "fp2", "action": "input", "target": {"hint": "Message", "editable": true}, "text": "{message}", "comment": "type the message"},
   {"screen": "fp2", "action": "tap", "target": {"desc": "Send"}}],
  "source": "demonstration", "uses": 4, "successes": 3, "failures": 1, "pinned": true,
  "created": "2026-01-02T03:04:05.006Z", "updated": "2026-01-03T00:00:00Z"},
 {"package": "com.example.mail", "intent": "open inbox", "steps": [{"action": "back"}],
  "created": "0001-01-01T00:00:00Z", "updated": "0001-01-01T00:00:00Z"}
]}`

func TestParseFlows(t *testing.T) {
	flows, err := ParseFlows([]byte(validDoc))
	isKind(t, err, nil)
	if len(flows) != 2 {
		t.Fatalf("%d flows", len(flows))
	}
	f := flows[0]
	if f.ID != 0 || f.AppID != 0 {
		t.Fatalf("local ids kept: %d %d", f.ID, f.AppID)
	}
	if f.Steps[0].Index != 0 || f.Steps[3].Index != 3 || f.Steps[0].Target.ResourceID != "com.example.mail:id/compose" ||
		!f.Steps[1].Target.Editable || f.Slots[1].Name != "contact" || !f.Pinned || f.Source != SourceDemonstration {
		t.Fatalf("parsed %+v", f)
	}

	tests := []struct {
		name, doc, want string
	}{
		{"not json", `{`, "flows document"},
		{"empty", ``, "flows document"},
		{"trailing data", `{"version":1,"flows":[]} {}`, "data after"},
		{"unknown field", `{"version":1,"flows":[],"extra":1}`, "unknown field"},
		{"unknown flow field", `{"version":1,"flows":[{"stpes":[]}]}`, "unknown field"},
		{"no version", `{"flows":[]}`, "version: missing"},
		{"newer version", `{"version":2,"flows":[]}`, "version: 2 not supported"},
		{"no flows", `{"version":1}`, "flows: missing"},
		{"null flows", `{"version":1,"flows":null}`, "flows: missing"},
		{"wrong type", `{"version":1,"flows":[{"uses":"many"}]}`, "flows document"},
		{"no package", `{"version":1,"flows":[{"intent":"x","steps":[{"action":"tap"}]}]}`, "flows[0].package: empty"},
		{"no intent", `{"version":1,"flows":[{"package":"p","steps":[{"action":"tap"}]}]}`, "flows[0].intent: empty"},
		{"no steps", `{"version":1,"flows":[{"package":"p","intent":"x","steps":[]}]}`, "flows[0].steps: empty"},
		{"empty action", `{"version":1,"flows":[
			{"package":"p","intent":"x","steps":[{"action":"tap"}]},
			{"package":"p","intent":"y","steps":[{"action":"tap"}]},
			{"package":"p","intent":"z","steps":[{"action":""}]}]}`, "flows[2].steps[0].action: empty"},
		{"empty slot name", `{"version":1,"flows":[{"package":"p","intent":"x","slots":[{"name":""}],"steps":[{"action":"tap"}]}]}`,
			"flows[0].slots[0].name: empty"},
		{"repeated slot", `{"version":1,"flows":[{"package":"p","intent":"x","slots":[{"name":"a"},{"name":"a"}],"steps":[{"action":"tap"}]}]}`,
			`flows[0].slots[1].name: "a" repeats slots[0]`},
		{"undeclared slot", `{"version":1,"flows":[{"package":"p","intent":"x","steps":[{"action":"tap"},{"action":"input","text":"{who}"}]}]}`,
			`flows[0].steps[1].text: slot "who" not declared`},
		{"bad source", `{"version":1,"flows":[{"package":"p","intent":"x","source":"dream","steps":[{"action":"tap"}]}]}`,
			`flows[0].source: unknown "dream"`},
		{"negative failures", `{"version":1,"flows":[{"package":"p","intent":"x","failures":-2,"steps":[{"action":"tap"}]}]}`,
			"flows[0].failures: negative"},
		{"empty command", `{"version":1,"flows":[{"package":"p","intent":"x","commands":["a",""],"steps":[{"action":"tap"}]}]}`,
			"flows[0].commands[1]: empty"},
		{"duplicate name", `{"version":1,"flows":[{"package":"p","name":"n","intent":"x","steps":[{"action":"tap"}]},
			{"package":"q","name":"n","intent":"x","steps":[{"action":"tap"}]},
			{"package":"p","name":"n","intent":"y","steps":[{"action":"tap"}]}]}`, `flows[2].name: "n" repeats flows[0]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFlows([]byte(tt.doc))
			isKind(t, err, ErrInvalid)
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestMarshalFlows(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	for _, f := range []Flow{sampleFlow("com.example.a", "one", 3, 2), sampleFlow("com.example.b", "", 1, 0)} {
		isKind(t, s.SaveFlow(ctx, &f), nil)
	}
	flows, err := s.Flows(ctx, FlowFilter{})
	isKind(t, err, nil)
	b, err := MarshalFlows(flows)
	isKind(t, err, nil)
	if !bytes.HasPrefix(b, []byte("{\n  \"version\": 1,\n  \"flows\": [")) {
		t.Fatalf("document starts %q", b[:40])
	}
	if bytes.Contains(b, []byte(flows[0].Token)) || bytes.Contains(b, []byte(`"token"`)) {
		t.Fatalf("an export carries a flow's replay token:\n%s", b)
	}
	back, err := ParseFlows(b)
	isKind(t, err, nil)
	for i := range flows {
		flows[i].ID, flows[i].AppID, flows[i].Token = 0, 0, ""
	}
	if !reflect.DeepEqual(back, flows) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", back, flows)
	}
	// import into another store: the flows keep everything but their ids
	s2 := newStore(t)
	for i := range back {
		isKind(t, s2.SaveFlow(ctx, &back[i]), nil)
	}
	again, _ := s2.Flows(ctx, FlowFilter{})
	for i := range again {
		if len(again[i].Token) != 32 {
			t.Fatalf("imported flow %d has token %q, want a fresh one", i, again[i].Token)
		}
		again[i].ID, again[i].AppID, again[i].Token = 0, 0, ""
	}
	if !reflect.DeepEqual(again, flows) {
		t.Fatalf("import into a new store:\n got %+v\nwant %+v", again, flows)
	}

	empty, err := MarshalFlows(nil)
	isKind(t, err, nil)
	if got, err := ParseFlows(empty); err != nil || len(got) != 0 {
		t.Fatalf("empty document: %v %v", got, err)
	}
	bad := []Flow{sampleFlow("p", "", 1, 0), sampleFlow("p", "", 2, 0)}
	bad[1].Steps[1].Action = ""
	_, err = MarshalFlows(bad)
	isKind(t, err, ErrInvalid)
	if !strings.Contains(err.Error(), "flows[1].steps[1].action: empty") {
		t.Fatalf("error %q", err)
	}
}

func FuzzParseFlows(f *testing.F) {
	f.Add([]byte(validDoc))
	f.Add([]byte(`{"version":1,"flows":[]}`))
	f.Add([]byte(`{"version":1,"flows":[{"package":"p","intent":"x","steps":[{"action":"tap","text":"{a}"}],"slots":[{"name":"a"}]}]}`))
	f.Add([]byte(`{"version":2}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		flows, err := ParseFlows(b)
		if err != nil {
			var ke *Error
			if !errors.As(err, &ke) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v is not an ErrInvalid *Error", err)
			}
			return
		}
		// whatever parses is valid, marshals, and reparses to the same
		// document
		for i := range flows {
			if err := ValidateFlow(&flows[i]); err != nil {
				t.Fatalf("parsed an invalid flow: %v", err)
			}
			if err := flows[i].Validate(); err != nil {
				t.Fatalf("parsed a flow Flow.Validate rejects: %v", err)
			}
		}
		out, err := MarshalFlows(flows)
		if err != nil {
			t.Fatalf("marshal of parsed flows: %v", err)
		}
		again, err := ParseFlows(out)
		if err != nil {
			t.Fatalf("reparse: %v\n%s", err, out)
		}
		out2, err := MarshalFlows(again)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("not stable: %v\n%s\n%s", err, out, out2)
		}
	})
}

func TestChoiceSlot(t *testing.T) {
	opts := []string{"Small", "Large"}
	for _, tt := range []struct {
		name string
		step Step
		want string
		ok   bool
	}{
		{"a tap picking a slot's option", Step{Action: "tap", Text: "{size}", Choices: opts}, "size", true},
		{"a typed value", Step{Action: "input", Text: "{size}", Choices: opts}, "", false},
		{"the row carrying a value typed before", Step{Action: "tap", Text: "{name}"}, "", false},
		{"a learned option, no slot", Step{Action: "tap", Options: opts}, "", false},
		{"choices without a slot reference", Step{Action: "tap", Text: "Large", Choices: opts}, "", false},
	} {
		if name, ok := tt.step.ChoiceSlot(); name != tt.want || ok != tt.ok {
			t.Errorf("%s: ChoiceSlot() = %q, %v; want %q, %v", tt.name, name, ok, tt.want, tt.ok)
		}
	}
}

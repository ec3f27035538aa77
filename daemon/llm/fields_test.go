package llm_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/llm"
)

type fieldsKitchen struct {
	Name  string   `json:"name"`
	Score *float64 `json:"score" jsonschema:"minimum=0,maximum=1"`
	Tags  []string `json:"tags,omitempty"`
	Mode  string   `json:"mode" jsonschema:"enum=a,enum=b"`
	Note  string   `json:"note,omitempty" jsonschema:"maxLength=20"`
	Count int      `json:"count" jsonschema:"maximum=3"`
}

func TestReplyFields(t *testing.T) {
	tests := []struct {
		name string
		got  func() (string, error)
		want string
	}{
		{"NextAction", llm.ReplyFields[llm.NextAction],
			`{"reason": string (at most 400 characters), "action": "tap"|"long_press"|"input"|"ime_enter"|"scroll"|"back"|"home"|"done"|"ask", "element": integer >= -1, "text": string (optional), "direction": "forward"|"backward" (optional), "done": true|false}`},
		{"Check", llm.ReplyFields[llm.Check],
			`{"reason": string (at most 400 characters), "completed": true|false, "correct": true|false, "penalty": integer 0..9}`},
		{"ElementDoc", llm.ReplyFields[llm.ElementDoc], `{"doc": string (at most 300 characters)}`},
		{"kitchen sink", llm.ReplyFields[fieldsKitchen],
			`{"name": string, "score": number 0..1, "tags": array (optional), "mode": "a"|"b", "note": string (at most 20 characters) (optional), "count": integer <= 3}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.got()
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("ReplyFields =\n%s\nwant\n%s", got, tt.want)
			}
			// A model that echoes the line has not produced a valid reply.
			if json.Valid([]byte(got)) {
				t.Errorf("fields line is valid JSON, so an echo of it could pass as a reply: %s", got)
			}
		})
	}
}

// TestReplyFieldsCoverTheSchema: every property of each reply schema
// appears in its fields line, in schema order, so the line cannot drift.
func TestReplyFieldsCoverTheSchema(t *testing.T) {
	for name, pair := range map[string][2]func() (string, error){
		"NextAction": {llm.SchemaText[llm.NextAction], llm.ReplyFields[llm.NextAction]},
		"Check":      {llm.SchemaText[llm.Check], llm.ReplyFields[llm.Check]},
		"ElementDoc": {llm.SchemaText[llm.ElementDoc], llm.ReplyFields[llm.ElementDoc]},
	} {
		schema, err := pair[0]()
		if err != nil {
			t.Fatal(err)
		}
		fields, err := pair[1]()
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal([]byte(schema), &s); err != nil {
			t.Fatal(err)
		}
		props := make([]string, 0, len(s.Properties))
		for prop := range s.Properties {
			props = append(props, prop)
		}
		// schema order: where each property is declared in the schema text
		slices.SortFunc(props, func(a, b string) int {
			return strings.Index(schema, `"`+a+`": {`) - strings.Index(schema, `"`+b+`": {`)
		})
		last := -1
		for _, prop := range props {
			i := strings.Index(fields, `"`+prop+`": `)
			if i < 0 {
				t.Errorf("%s: fields line lacks %q: %s", name, prop, fields)
				continue
			}
			if i < last {
				t.Errorf("%s: %q out of schema order in %s", name, prop, fields)
			}
			last = i
		}
	}
}

func TestReplyFieldsErrors(t *testing.T) {
	if _, err := llm.ReplyFields[int](); err == nil || !strings.Contains(err.Error(), "not an object") {
		t.Errorf("int: %v", err)
	}
	if _, err := llm.ReplyFields[map[string]int](); err == nil {
		t.Error("map: no error")
	}
	if _, err := llm.ReplyFields[chan int](); err == nil {
		t.Error("chan: no error")
	}
}

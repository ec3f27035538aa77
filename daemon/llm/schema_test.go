package llm_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/llm"
)

type inner struct {
	Name string `json:"name"`
}

type Embedded struct {
	Shared string `json:"shared,omitempty"`
}

// kitchenSink has one field of each kind a reply type may use.
type kitchenSink struct {
	Embedded
	S      string            `json:"s" jsonschema:"enum=a,enum=b" jsonschema_description:"Pick one, a or b."`
	I      int               `json:"i" jsonschema:"minimum=0,maximum=9"`
	F      float64           `json:"f,omitempty" jsonschema:"minimum=-1.5"`
	B      bool              `json:"b"`
	Tags   []string          `json:"tags,omitempty" jsonschema:"maxItems=2"`
	Nested inner             `json:"nested"`
	Forced string            `json:"forced,omitempty" jsonschema:"required"`
	Opt    string            `json:"opt,omitempty" jsonschema:"minLength=2"`
	Slots  map[string]string `json:"slots,omitempty"`
	Skip   string            `json:"-"`
	hidden string            //nolint:unused
}

func TestSchemaForKitchenSink(t *testing.T) {
	s, err := llm.SchemaFor(kitchenSink{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Type       string                     `json:"type"`
		Properties json.RawMessage            `json:"properties"`
		Required   []string                   `json:"required"`
		Additional *bool                      `json:"additionalProperties"`
		Props      map[string]json.RawMessage `json:"-"`
	}
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	// properties in Go field order (embedded fields flattened, "-" and
	// unexported fields left out)
	order := []string{"shared", "s", "i", "f", "b", "tags", "nested", "forced", "opt", "slots"}
	at := -1
	for _, name := range order {
		i := strings.Index(string(doc.Properties), `"`+name+`":`)
		if i <= at {
			t.Errorf("property %q missing or out of Go field order in %s", name, doc.Properties)
		}
		at = i
	}
	if strings.Contains(string(doc.Properties), `"Skip"`) || strings.Contains(string(doc.Properties), "hidden") {
		t.Errorf("skipped fields in the schema: %s", doc.Properties)
	}
	if doc.Type != "object" || doc.Additional == nil || *doc.Additional {
		t.Errorf("want a closed object, got %s", got)
	}
	if want := []string{"s", "i", "b", "nested", "forced"}; strings.Join(doc.Required, ",") != strings.Join(want, ",") {
		t.Errorf("required = %v, want %v (omitempty fields optional, jsonschema:\"required\" forces)", doc.Required, want)
	}
	for _, want := range []string{
		`"s":{"type":"string","enum":["a","b"],"description":"Pick one, a or b."}`,
		`"i":{"type":"integer","maximum":9,"minimum":0}`,
		`"f":{"type":"number","minimum":-1.5}`,
		`"tags":{"items":{"type":"string"},"type":"array","maxItems":2}`,
		`"nested":{"properties":{"name":{"type":"string"}},"additionalProperties":false,"type":"object","required":["name"]}`,
		`"opt":{"type":"string","minLength":2}`,
		`"slots":{"additionalProperties":{"type":"string"},"type":"object"}`,
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("schema lacks %s:\n%s", want, got)
		}
	}
	// String is the same schema, and pointer and value give the same one.
	var a, b any
	if err := json.Unmarshal([]byte(s.String()), &b); err != nil {
		t.Fatalf("String() is not JSON: %v\n%s", err, s)
	}
	json.Unmarshal(got, &a)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("String() differs from MarshalJSON:\n%s\n%s", ja, jb)
	}
	sp, _ := llm.SchemaFor(&kitchenSink{})
	if gp, _ := json.Marshal(sp); string(gp) != string(got) {
		t.Error("SchemaFor(&v) differs from SchemaFor(v)")
	}
}

func TestNextActionSchema(t *testing.T) {
	s, err := llm.SchemaFor(llm.NextAction{})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(s)
	for _, want := range []string{
		`"additionalProperties":false`,
		`"required":["reason","action","element","done"]`,
		`"enum":["tap","long_press","input","ime_enter","scroll","back","home","done","ask"]`,
		`"enum":["forward","backward"]`,
		`"element":{"type":"integer","minimum":-1,"description":"Index of the node to act on, as shown in brackets; -1 for back, home, done, ask, whole-screen scroll and ime_enter in the focused field."}`,
	} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("NextAction schema lacks %s:\n%s", want, raw)
		}
	}
	if i, j := strings.Index(s.String(), `"reason"`), strings.Index(s.String(), `"action"`); i < 0 || j < i {
		t.Errorf("the prompt's schema does not put reason first:\n%s", s)
	}
	for _, v := range []any{llm.Check{}, llm.ElementDoc{}} {
		if _, err := llm.SchemaFor(v); err != nil {
			t.Errorf("%T: %v", v, err)
		}
	}
}

func TestSchemaForErrors(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"nil", nil, "nil value"},
		{"unknown tag key", struct {
			A string `json:"a" jsonschema:"enums=a"`
		}{}, `unknown jsonschema tag key "enums"`},
		{"enum with bars", struct {
			A string `json:"a" jsonschema:"enum=a|b"`
		}{}, `enum value "a|b": write one enum= per value`},
		{"description in the jsonschema tag", struct {
			B []struct {
				A string `json:"a" jsonschema:"description=Pick one, a or b."`
			} `json:"b"`
		}{}, "use the jsonschema_description tag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := llm.SchemaFor(tt.v)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	na, _ := llm.SchemaFor(llm.NextAction{})
	ks, _ := llm.SchemaFor(kitchenSink{})
	ok := `{"s":"a","i":3,"b":true,"nested":{"name":"n"},"forced":""}`
	tests := []struct {
		name   string
		schema *llm.Schema
		in     string
		want   string // "" = valid; else the exact error text
	}{
		{"next action ok", na, `{"reason":"r","action":"tap","element":3,"done":false}`, ""},
		{"whitespace around", na, " \n{\"reason\":\"r\",\"action\":\"back\",\"element\":-1,\"done\":false}\n\t", ""},
		{"optional zero values count as absent", na, `{"reason":"r","action":"tap","element":0,"text":"","direction":"","done":false}`, ""},
		{"optional null counts as absent", na, `{"reason":"r","action":"tap","element":0,"text":null,"done":false}`, ""},
		{"enum", na, `{"reason":"r","action":"tapp","element":3,"done":false}`,
			`$.action: value must be one of 'tap', 'long_press', 'input', 'ime_enter', 'scroll', 'back', 'home', 'done', 'ask'`},
		{"required", na, `{"reason":"r","action":"tap","done":false}`, `$.element: required`},
		{"unknown key", na, `{"reason":"r","action":"tap","element":1,"done":false,"thought":"t"}`, `$.thought: unknown field, not in the schema`},
		{"below minimum", na, `{"reason":"r","action":"tap","element":-2,"done":false}`, `$.element: minimum: got -2, want -1`},
		{"integer with fraction", na, `{"reason":"r","action":"tap","element":2.5,"done":false}`, `$.element: got number, want integer`},
		{"string for integer", na, `{"reason":"r","action":"tap","element":"3","done":false}`, `$.element: got string, want integer`},
		{"null for required", na, `{"reason":null,"action":"tap","element":3,"done":false}`, `$.reason: got null, want string`},
		{"wrong zero type in optional", na, `{"reason":"r","action":"tap","element":3,"text":0,"done":false}`, `$.text: got number, want string`},
		{"optional enum set wrong", na, `{"reason":"r","action":"scroll","element":-1,"direction":"down","done":false}`,
			`$.direction: value must be one of 'forward', 'backward'`},
		{"maxLength", na, `{"reason":"` + strings.Repeat("é", 401) + `","action":"tap","element":3,"done":false}`,
			`$.reason: maxLength: got 401, want 400`},
		{"array at top", na, `[]`, `$: got array, want object`},
		{"trailing garbage", na, `{"reason":"r","action":"tap","element":3,"done":false} ok`, `$: unexpected data after the JSON value at offset 55`},
		{"two values", na, `{} {}`, `$: unexpected data after the JSON value at offset 3`},
		{"truncated", na, `{"reason":"r"`, `$: not valid JSON: unexpected EOF`},
		{"empty", na, ``, `$: empty input, want a JSON value`},
		{"several problems, sorted by path", na, `{"action":1,"element":true}`,
			`$.action: got number, want string; $.done: required; $.element: got boolean, want integer; $.reason: required`},
		{"kitchen ok", ks, ok, ""},
		{"nested path", ks, strings.Replace(ok, `{"name":"n"}`, `{"name":5}`, 1), `$.nested.name: got number, want string`},
		{"array items", ks, strings.Replace(ok, `"b":true`, `"b":true,"tags":["x","z","y"]`, 1), `$.tags: maxItems: got 3, want 2`},
		{"map values", ks, strings.Replace(ok, `"b":true`, `"b":true,"slots":{"a b":1,"ok":"x"}`, 1), `$.slots["a b"]: got number, want string`},
		{"number minimum", ks, strings.Replace(ok, `"b":true`, `"b":true,"f":-2e0`, 1), `$.f: minimum: got -2, want -1.5`},
		{"minLength", ks, strings.Replace(ok, `"b":true`, `"b":true,"opt":"x"`, 1), `$.opt: minLength: got 1, want 2`},
		{"missing forced", ks, strings.Replace(ok, `,"forced":""`, ``, 1), `$.forced: required`},
		{"nested unknown key", ks, strings.Replace(ok, `{"name":"n"}`, `{"name":"n","x":1}`, 1), `$.nested.x: unknown field, not in the schema`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.schema.Validate([]byte(tt.in))
			if tt.want == "" {
				if err != nil {
					t.Errorf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted %s", tt.in)
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n got %s\nwant %s", err, tt.want)
			}
			var ve *llm.ValidationError
			if !errors.As(err, &ve) || len(ve.Problems) == 0 {
				t.Errorf("error %T is not a *ValidationError", err)
			}
		})
	}
}

// An integer the Go field cannot hold passes the schema (JSON Schema counts
// 3.0 as an integer) but not decoding, whose error the repair prompt shows.
func TestIntegerDecoding(t *testing.T) {
	for _, el := range []string{"3.0", "99999999999999999999"} {
		_, err := llm.ParseReply[llm.NextAction](`{"reason":"r","action":"tap","element":`+el+`,"done":false}`, nil)
		if err == nil || !strings.Contains(err.Error(), "element") {
			t.Errorf("element %s: err = %v, want a decoding error naming the field", el, err)
		}
	}
}

// Whatever Validate accepts for a schema decodes into its Go type.
func TestValidatedDecodes(t *testing.T) {
	for _, in := range []string{
		`{"reason":"r","action":"tap","element":0,"text":null,"direction":"","done":false}`,
		`{"reason":"r","action":"input","element":9223372036854775807,"text":"\u00e9","done":true}`,
	} {
		a, err := llm.ParseReply[llm.NextAction](in, nil)
		if err != nil {
			t.Errorf("%s: %v", in, err)
		}
		_ = a
	}
}

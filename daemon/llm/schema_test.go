package llm_test

import (
	"encoding/json"
	"errors"
	"reflect"
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

type kitchenSink struct {
	Embedded
	S       string           `json:"s" jsonschema:"enum=a|b,description=Pick one, a or b."`
	I       int              `json:"i" jsonschema:"minimum=0,maximum=9"`
	I8      int8             `json:"i8,omitempty"`
	U       uint             `json:"u,omitempty"`
	F       float64          `json:"f,omitempty" jsonschema:"minimum=-1.5"`
	B       bool             `json:"b"`
	P       *int             `json:"p"`
	Tags    []string         `json:"tags,omitempty" jsonschema:"enum=x|y,maxItems=2"`
	Pair    [2]int           `json:"pair,omitempty"`
	M       map[string]inner `json:"m,omitempty"`
	Any     any              `json:"any,omitempty"`
	Raw     json.RawMessage  `json:"raw,omitempty"`
	Bytes   []byte           `json:"bytes,omitempty"`
	Nested  inner            `json:"nested"`
	Forced  string           `json:"forced,omitempty" jsonschema:"required"`
	Opt     string           `json:"opt" jsonschema:"optional,minLength=2"`
	NoTag   string
	Skipped string            `json:"-"`
	hidden  string            //nolint:unused
	Slots   map[string]string `json:"slots,omitempty"`
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
	want := `{"type":"object","properties":{` +
		`"shared":{"type":"string"},` +
		`"s":{"type":"string","description":"Pick one, a or b.","enum":["a","b"]},` +
		`"i":{"type":"integer","minimum":0,"maximum":9},` +
		`"i8":{"type":"integer","minimum":-128,"maximum":127},` +
		`"u":{"type":"integer","minimum":0},` +
		`"f":{"type":"number","minimum":-1.5},` +
		`"b":{"type":"boolean"},` +
		`"p":{"type":["integer","null"]},` +
		`"tags":{"type":"array","maxItems":2,"items":{"type":"string","enum":["x","y"]}},` +
		`"pair":{"type":"array","minItems":2,"maxItems":2,"items":{"type":"integer"}},` +
		`"m":{"type":"object","additionalProperties":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}},` +
		`"any":{},"raw":{},` +
		`"bytes":{"type":"string","description":"base64"},` +
		`"nested":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false},` +
		`"forced":{"type":"string"},` +
		`"opt":{"type":"string","minLength":2},` +
		`"NoTag":{"type":"string"},` +
		`"slots":{"type":"object","additionalProperties":{"type":"string"}}` +
		`},"required":["s","i","b","p","nested","forced","NoTag"],"additionalProperties":false}`
	if string(got) != want {
		t.Errorf("schema:\n got %s\nwant %s", got, want)
	}
	// The output is valid JSON, and String is the same schema.
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(s.String()), &b); err != nil {
		t.Fatalf("String() is not JSON: %v\n%s", err, s)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("String() differs from MarshalJSON:\n%s\n%s", ja, jb)
	}
	// Pointer and value give the same schema.
	sp, _ := llm.SchemaFor(&kitchenSink{})
	if gp, _ := json.Marshal(sp); string(gp) != want {
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
		`"enum":["tap","long_press","input","scroll","back","home","done","ask"]`,
		`"enum":["forward","backward"]`,
		`"element":{"type":"integer","description":"Index of the node to act on, as shown in brackets; -1 for back, home, done, ask and whole-screen scroll.","minimum":-1}`,
	} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("NextAction schema lacks %s:\n%s", want, raw)
		}
	}
	for _, v := range []any{llm.Check{}, llm.ElementDoc{}} {
		if _, err := llm.SchemaFor(v); err != nil {
			t.Errorf("%T: %v", v, err)
		}
	}
}

type recursive struct {
	Kids []recursive `json:"kids"`
}

type recursivePtr struct {
	Next *recursivePtr `json:"next"`
}

type textU struct{}

func (*textU) UnmarshalText([]byte) error { return nil }

// duplicateTagValue builds struct{A string `json:"x"`; B string `json:"x"`}
// at run time (go vet rejects it in source).
func duplicateTagValue() any {
	st := reflect.StructOf([]reflect.StructField{
		{Name: "A", Type: reflect.TypeFor[string](), Tag: `json:"x"`},
		{Name: "B", Type: reflect.TypeFor[string](), Tag: `json:"x"`},
	})
	return reflect.New(st).Elem().Interface()
}

func TestSchemaForErrors(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"nil", nil, "nil value"},
		{"chan", make(chan int), "unsupported kind chan"},
		{"func field", struct {
			F func() `json:"f"`
		}{}, "field F: unsupported kind func"},
		{"complex", complex(1, 2), "unsupported kind complex128"},
		{"int map key", map[int]string{}, "only string keys"},
		{"recursive slice", recursive{}, "recursive type"},
		{"recursive pointer", recursivePtr{}, "recursive type"},
		{"custom unmarshaler", struct {
			T textU `json:"t"`
		}{}, "custom unmarshaler"},
		{"string option", struct {
			N int `json:"n,string"`
		}{}, `",string" option`},
		{"duplicate name", duplicateTagValue(), "duplicate JSON name"},
		{"unknown tag key", struct {
			A string `json:"a" jsonschema:"enums=a|b"`
		}{}, `unknown key "enums"`},
		{"bad enum int", struct {
			A int `json:"a" jsonschema:"enum=1|two"`
		}{}, `enum value "two": not an integer`},
		{"minimum on string", struct {
			A string `json:"a" jsonschema:"minimum=1"`
		}{}, "minimum on non-numeric"},
		{"bad minimum", struct {
			A int `json:"a" jsonschema:"minimum=x"`
		}{}, `minimum="x": not a number`},
		{"minLength on int", struct {
			A int `json:"a" jsonschema:"minLength=1"`
		}{}, "minLength on non-string"},
		{"minItems on string", struct {
			A string `json:"a" jsonschema:"minItems=1"`
		}{}, "minItems on non-array"},
		{"required with value", struct {
			A string `json:"a" jsonschema:"required=yes"`
		}{}, "required takes no value"},
		{"empty enum", struct {
			A string `json:"a" jsonschema:"enum="`
		}{}, "enum needs values"},
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
	ok := `{"s":"a","i":3,"b":true,"p":null,"nested":{"name":"n"},"forced":"","NoTag":"x"}`
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
			`$.action: value "tapp" not in enum [tap long_press input scroll back home done ask]`},
		{"required", na, `{"reason":"r","action":"tap","done":false}`, `$.element: required`},
		{"unknown key", na, `{"reason":"r","action":"tap","element":1,"done":false,"thought":"t"}`,
			`$.thought: unknown field (allowed: reason, action, element, text, direction, done)`},
		{"below minimum", na, `{"reason":"r","action":"tap","element":-2,"done":false}`, `$.element: -2 is below minimum -1`},
		{"integer with fraction", na, `{"reason":"r","action":"tap","element":2.5,"done":false}`, `$.element: expected integer, got number 2.5`},
		{"integer as 3.0", na, `{"reason":"r","action":"tap","element":3.0,"done":false}`, `$.element: expected integer, got number 3.0`},
		{"integer overflow", na, `{"reason":"r","action":"tap","element":99999999999999999999,"done":false}`, `$.element: integer 99999999999999999999 does not fit in 64 bits`},
		{"string for integer", na, `{"reason":"r","action":"tap","element":"3","done":false}`, `$.element: expected integer, got string "3"`},
		{"null for required", na, `{"reason":null,"action":"tap","element":3,"done":false}`, `$.reason: expected string, got null`},
		{"wrong zero type in optional", na, `{"reason":"r","action":"tap","element":3,"text":0,"done":false}`, `$.text: expected string, got number 0`},
		{"optional enum set wrong", na, `{"reason":"r","action":"scroll","element":-1,"direction":"down","done":false}`,
			`$.direction: value "down" not in enum [forward backward]`},
		{"maxLength", na, `{"reason":"` + strings.Repeat("é", 401) + `","action":"tap","element":3,"done":false}`,
			`$.reason: string of 401 characters is longer than maxLength 400`},
		{"array at top", na, `[]`, `$: expected object, got array`},
		{"trailing garbage", na, `{"reason":"r","action":"tap","element":3,"done":false} ok`, `$: unexpected data after the JSON value at offset 55`},
		{"two values", na, `{} {}`, `$: unexpected data after the JSON value at offset 3`},
		{"truncated", na, `{"reason":"r"`, `$: not valid JSON: unexpected EOF`},
		{"empty", na, ``, `$: empty input, want a JSON value`},
		{"several problems", na, `{"action":1,"element":true}`,
			`$.reason: required; $.action: expected string, got number 1; $.element: expected integer, got boolean true; $.done: required`},
		{"kitchen ok", ks, ok, ""},
		{"nested path", ks, strings.Replace(ok, `{"name":"n"}`, `{"name":5}`, 1), `$.nested.name: expected string, got number 5`},
		{"array items", ks, strings.Replace(ok, `"b":true`, `"b":true,"tags":["x","z","y"]`, 1),
			`$.tags: 3 items, want at most 2; $.tags[1]: value "z" not in enum [x y]`},
		{"fixed array", ks, strings.Replace(ok, `"b":true`, `"b":true,"pair":[1]`, 1), `$.pair: 1 items, want at least 2`},
		{"map values", ks, strings.Replace(ok, `"b":true`, `"b":true,"m":{"a b":{"name":1},"ok":{"name":"x"}}`, 1),
			`$.m["a b"].name: expected string, got number 1`},
		{"map of strings", ks, strings.Replace(ok, `"b":true`, `"b":true,"slots":{"k":3}`, 1), `$.slots.k: expected string, got number 3`},
		{"pointer accepts value", ks, strings.Replace(ok, `"p":null`, `"p":4`, 1), ""},
		{"any accepts anything", ks, strings.Replace(ok, `"b":true`, `"b":true,"any":[1,{"x":null}],"raw":{"y":2}`, 1), ""},
		{"int8 range", ks, strings.Replace(ok, `"b":true`, `"b":true,"i8":200`, 1), `$.i8: 200 is above maximum 127`},
		{"uint negative", ks, strings.Replace(ok, `"b":true`, `"b":true,"u":-1`, 1), `$.u: -1 is below minimum 0`},
		{"number minimum", ks, strings.Replace(ok, `"b":true`, `"b":true,"f":-2e0`, 1), `$.f: -2e0 is below minimum -1.5`},
		{"minLength", ks, strings.Replace(ok, `"b":true`, `"b":true,"opt":"x"`, 1), `$.opt: string of 1 characters is shorter than minLength 2`},
		{"missing forced", ks, strings.Replace(ok, `"forced":"",`, ``, 1), `$.forced: required`},
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

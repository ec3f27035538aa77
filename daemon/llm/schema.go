package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/invopop/jsonschema"
	validator "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Schema is the JSON Schema (draft 2020-12) of a reply type. SchemaFor
// generates it from the Go type with github.com/invopop/jsonschema
// (properties in Go field order: models answer in the order they are
// shown); Validate checks replies with github.com/santhosh-tekuri/jsonschema.
//
// Struct fields are required unless their json tag has omitempty; structs
// forbid unknown keys ("additionalProperties": false). Field tags, in the
// generator's syntax:
//
//	`jsonschema:"enum=tap,enum=back,minimum=-1,maxLength=400" jsonschema_description:"What to do."`
//
// (enum, minimum, maximum, minLength, maxLength, minItems, maxItems,
// required; see the generator's documentation for the rest). SchemaFor
// refuses unknown keys, "a|b" enums and description= inside the
// jsonschema tag (a comma there would split it), so a mistyped tag does not
// pass silently.
type Schema struct {
	def      *jsonschema.Schema
	raw      []byte // def as JSON
	compiled *validator.Schema
}

// SchemaFor generates the schema of v's type (v may be a value or a
// pointer to one) and compiles it for Validate. Errors: nil, and a type
// the generator or the validator's compiler cannot handle. Recursive types
// are not supported (the schema inlines every type).
func SchemaFor(v any) (s *Schema, err error) {
	if v == nil {
		return nil, errors.New("llm: schema: nil value has no type")
	}
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	defer func() { // the generator panics on some types it cannot describe
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("llm: schema for %s: %v", t, r)
		}
	}()
	if err := checkTags(t, map[reflect.Type]bool{}); err != nil {
		return nil, fmt.Errorf("llm: schema for %s: %w", t, err)
	}
	r := &jsonschema.Reflector{DoNotReference: true, ExpandedStruct: true, Anonymous: true}
	def := r.ReflectFromType(t)
	def.Version = "" // the validator is told the draft; the prompt need not be
	raw, err := json.Marshal(def)
	if err != nil {
		return nil, fmt.Errorf("llm: schema for %s: %w", t, err)
	}
	doc, err := validator.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("llm: schema for %s: %w", t, err)
	}
	c := validator.NewCompiler()
	c.DefaultDraft(validator.Draft2020)
	const url = "reply.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("llm: schema for %s: %w", t, err)
	}
	compiled, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("llm: schema for %s: %w", t, err)
	}
	return &Schema{def: def, raw: raw, compiled: compiled}, nil
}

// tagKeys are the jsonschema tag keys reply types may use (the generator
// ignores keys it does not know, so a typo would pass silently).
var tagKeys = map[string]bool{
	"enum": true, "minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"multipleOf": true, "minLength": true, "maxLength": true, "pattern": true, "format": true,
	"minItems": true, "maxItems": true, "uniqueItems": true, "required": true, "nullable": true,
	"title": true, "default": true, "example": true,
}

// checkTags rejects jsonschema struct tags the generator would misread:
// unknown keys, "a|b" enums (one enum= per value) and description= (a
// comma in it would split the tag: use jsonschema_description).
func checkTags(t reflect.Type, seen map[reflect.Type]bool) error {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return nil
	}
	seen[t] = true
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("jsonschema")
		for _, entry := range strings.Split(tag, ",") {
			key, val, _ := strings.Cut(entry, "=")
			switch {
			case entry == "":
			case key == "description":
				return fmt.Errorf("field %s: description in the jsonschema tag: use the jsonschema_description tag", f.Name)
			case !tagKeys[key]:
				return fmt.Errorf("field %s: unknown jsonschema tag key %q", f.Name, key)
			case key == "enum" && strings.Contains(val, "|"):
				return fmt.Errorf("field %s: enum value %q: write one enum= per value", f.Name, val)
			}
		}
		if err := checkTags(f.Type, seen); err != nil {
			return err
		}
	}
	return nil
}

var schemaCache sync.Map // reflect.Type → *Schema (treated as read-only)

func cachedSchemaOf(t reflect.Type) (*Schema, error) {
	if s, ok := schemaCache.Load(t); ok {
		return s.(*Schema), nil
	}
	s, err := SchemaFor(reflect.New(t).Interface())
	if err != nil {
		return nil, err
	}
	schemaCache.Store(t, s)
	return s, nil
}

// MarshalJSON writes the schema as standard JSON Schema (for a
// response_format of type json_schema, for instance).
func (s *Schema) MarshalJSON() ([]byte, error) { return slices.Clone(s.raw), nil }

// String returns the schema as shown in prompts: valid JSON with one line
// per property of a top-level object (each property's schema compact), so
// it is readable yet short.
func (s *Schema) String() string {
	d := s.def
	if d.Type != "object" || d.Properties == nil || d.Properties.Len() == 0 {
		return string(s.raw)
	}
	var b strings.Builder
	b.WriteString("{\n  \"type\": \"object\",\n")
	if d.Description != "" {
		fmt.Fprintf(&b, "  \"description\": %s,\n", quote(d.Description))
	}
	b.WriteString("  \"properties\": {")
	i := 0
	for p := d.Properties.Oldest(); p != nil; p = p.Next() {
		if i > 0 {
			b.WriteByte(',')
		}
		i++
		raw, _ := json.Marshal(p.Value) // a *jsonschema.Schema always marshals
		fmt.Fprintf(&b, "\n    %s: %s", quote(p.Key), raw)
	}
	b.WriteString("\n  },\n")
	if len(d.Required) > 0 {
		raw, _ := json.Marshal(d.Required)
		fmt.Fprintf(&b, "  \"required\": %s,\n", raw)
	}
	b.WriteString("  \"additionalProperties\": false\n}")
	return b.String()
}

func quote(s string) string {
	raw, _ := json.Marshal(s)
	return string(raw)
}

// Problem is one validation failure at a JSON path ("$", "$.action",
// "$.items[2]", `$.slots["a b"]`).
type Problem struct {
	Path    string
	Message string
}

func (p Problem) String() string { return p.Path + ": " + p.Message }

// ValidationError lists what is wrong with a JSON text (at most
// maxProblems entries, sorted by path).
type ValidationError struct {
	Problems []Problem
}

func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.String()
	}
	return strings.Join(parts, "; ")
}

const maxProblems = 10

// Validate checks that data is exactly one JSON value (whitespace around
// it allowed, nothing else) that matches s. It returns nil or a
// *ValidationError naming each failing path with the validator's message,
// e.g.
//
//	$.action: value must be one of 'tap', 'long_press', ...
//	$.element: required
//
// Beyond standard JSON Schema, and mirroring encoding/json's omitempty, an
// optional property whose value is null or the zero value of its type
// ("", 0, false) counts as absent and is not checked. Whether an integer
// fits its Go field (3.0, 1e3, 64-bit overflow) is left to decoding.
func (s *Schema) Validate(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		msg := "not valid JSON: " + err.Error()
		if err == io.EOF {
			msg = "empty input, want a JSON value"
		}
		return &ValidationError{Problems: []Problem{{"$", msg}}}
	}
	end := dec.InputOffset()
	if rest := bytes.TrimLeft(data[end:], " \t\r\n"); len(rest) > 0 {
		off := int64(len(data) - len(rest))
		return &ValidationError{Problems: []Problem{{"$", fmt.Sprintf("unexpected data after the JSON value at offset %d", off)}}}
	}
	dropOptionalZeros(s.def, v)
	err := s.compiled.Validate(v)
	if err == nil {
		return nil
	}
	var ve *validator.ValidationError
	if !errors.As(err, &ve) {
		return &ValidationError{Problems: []Problem{{"$", err.Error()}}}
	}
	var probs []Problem
	leaves(ve, &probs)
	slices.SortStableFunc(probs, func(a, b Problem) int { return strings.Compare(a.Path, b.Path) })
	if len(probs) > maxProblems {
		probs = probs[:maxProblems]
	}
	return &ValidationError{Problems: probs}
}

var printer = message.NewPrinter(language.English)

// leaves appends the innermost causes of e: each says what is wrong at
// one place of the reply. A missing or unknown property is reported at its
// own path, so the repair prompt names the field.
func leaves(e *validator.ValidationError, out *[]Problem) {
	if len(e.Causes) == 0 {
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			for _, m := range k.Missing {
				*out = append(*out, Problem{Path: jsonPath(append(slices.Clip(e.InstanceLocation), m)), Message: "required"})
			}
		case *kind.AdditionalProperties:
			for _, p := range k.Properties {
				*out = append(*out, Problem{Path: jsonPath(append(slices.Clip(e.InstanceLocation), p)), Message: "unknown field, not in the schema"})
			}
		default:
			*out = append(*out, Problem{Path: jsonPath(e.InstanceLocation), Message: e.ErrorKind.LocalizedString(printer)})
		}
		return
	}
	for _, c := range e.Causes {
		leaves(c, out)
	}
}

// jsonPath writes an instance location as "$.a.b[2]" (`$["a b"]` for a key
// that is not an identifier).
func jsonPath(loc []string) string {
	var b strings.Builder
	b.WriteByte('$')
	for _, k := range loc {
		if _, err := strconv.Atoi(k); err == nil {
			b.WriteString("[" + k + "]")
		} else if isIdent(k) {
			b.WriteString("." + k)
		} else {
			b.WriteString("[" + quote(k) + "]")
		}
	}
	return b.String()
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !(r >= 'a' && r <= 'z') && !(r >= 'A' && r <= 'Z') && (i == 0 || !(r >= '0' && r <= '9')) {
			return false
		}
	}
	return true
}

// dropOptionalZeros deletes, from every object of v that d describes with
// properties, the optional properties whose value is null or the zero
// value of their type ("", 0, false): encoding/json's omitempty in reverse.
func dropOptionalZeros(d *jsonschema.Schema, v any) {
	if d == nil {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if d.Properties != nil {
			for k, val := range x {
				p, ok := d.Properties.Get(k)
				if !ok {
					continue
				}
				if !slices.Contains(d.Required, k) && isZeroFor(p, val) {
					delete(x, k)
					continue
				}
				dropOptionalZeros(p, val)
			}
		} else if d.AdditionalProperties != nil {
			for _, val := range x {
				dropOptionalZeros(d.AdditionalProperties, val)
			}
		}
	case []any:
		for _, e := range x {
			dropOptionalZeros(d.Items, e)
		}
	}
}

// isZeroFor reports whether v is null or the zero value of the type p
// declares (a 0 where a string is expected is a mistake, not absence).
func isZeroFor(p *jsonschema.Schema, v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == "" && p.Type == "string"
	case bool:
		return !x && p.Type == "boolean"
	case json.Number:
		f, err := x.Float64()
		return err == nil && f == 0 && (p.Type == "integer" || p.Type == "number")
	}
	return false
}

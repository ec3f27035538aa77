package llm

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// JSON Schema type names used in Schema.Type.
const (
	TypeObject  = "object"
	TypeArray   = "array"
	TypeString  = "string"
	TypeInteger = "integer"
	TypeNumber  = "number"
	TypeBoolean = "boolean"
)

// Schema is the subset of JSON Schema (draft 2020-12) that SchemaFor
// generates from Go types and Validate checks. It marshals to standard JSON
// Schema, with properties in Go field order (models answer in the order
// they are shown).
//
// An object schema with Properties (a Go struct) forbids unknown keys
// ("additionalProperties": false); an object schema with
// AdditionalProperties (a Go map) allows any key whose value matches it.
// Type "" accepts any JSON value (Go interface types, json.RawMessage).
type Schema struct {
	Type        string
	Nullable    bool // also accepts null (Go pointers); marshals as "type": [T, "null"]
	Description string
	Enum        []any // allowed values: string, int64, float64 or bool by Type
	Minimum     *float64
	Maximum     *float64
	MinLength   *int // in Unicode code points
	MaxLength   *int
	MinItems    *int
	MaxItems    *int

	Properties           []Property // struct fields, in order
	Required             []string   // names of properties that must be present
	Items                *Schema    // array element schema
	AdditionalProperties *Schema    // map value schema
}

// Property is one named member of an object schema.
type Property struct {
	Name   string
	Schema *Schema
}

// SchemaFor generates the schema of v's type (v may be a value or a
// pointer to one). Supported: structs (exported fields, named by their json
// tag; "-" skipped; embedded structs flattened), string, bool, all int,
// uint and float kinds, slices and arrays ([]byte is a base64 string),
// maps with string keys, pointers (nullable), interfaces and
// json.RawMessage (any value). Errors: nil, recursive types, channels,
// funcs, complex numbers, non-string map keys, other types with custom
// JSON/text unmarshalers, the ",string" tag option, duplicate JSON names and
// malformed jsonschema tags.
//
// Required: a struct field is required unless its json tag has omitempty or
// omitzero (or its jsonschema tag says optional); "required" forces it.
//
// The jsonschema struct tag refines a field:
//
//	`jsonschema:"enum=tap|input|done,minimum=-1,description=What to do, in one word"`
//
// Entries are separated by commas; "description=" must come last and takes
// the rest of the tag, commas included. Keys:
//
//	enum=a|b|c          allowed values (parsed as the field's type)
//	minimum=N maximum=N numeric bounds (inclusive)
//	minLength=N maxLength=N  string length in code points
//	minItems=N maxItems=N    slice length
//	required / optional      override the omitempty rule
//	description=text         shown to the model
//
// On a slice field, enum, minimum, maximum, minLength and maxLength apply to
// the elements. Unknown keys are an error, so typos do not pass silently.
func SchemaFor(v any) (*Schema, error) {
	if v == nil {
		return nil, errors.New("llm: schema: nil value has no type")
	}
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	g := &schemaGen{active: map[reflect.Type]bool{}}
	s, err := g.build(t)
	if err != nil {
		return nil, fmt.Errorf("llm: schema for %s: %w", t, err)
	}
	return s, nil
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

var (
	rawMessageType      = reflect.TypeFor[json.RawMessage]()
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

type schemaGen struct {
	active map[reflect.Type]bool // struct types on the current path
}

func (g *schemaGen) build(t reflect.Type) (*Schema, error) {
	if t == rawMessageType {
		return &Schema{}, nil
	}
	if t.Kind() != reflect.Interface && (t.Implements(jsonUnmarshalerType) || reflect.PointerTo(t).Implements(jsonUnmarshalerType) ||
		t.Implements(textUnmarshalerType) || reflect.PointerTo(t).Implements(textUnmarshalerType)) {
		return nil, fmt.Errorf("type %s has a custom unmarshaler; its JSON shape is unknown", t)
	}
	switch t.Kind() {
	case reflect.Bool:
		return &Schema{Type: TypeBoolean}, nil
	case reflect.String:
		return &Schema{Type: TypeString}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		s := &Schema{Type: TypeInteger}
		if bits := t.Bits(); bits < 64 {
			lo, hi := float64(int64(-1)<<(bits-1)), float64(int64(1)<<(bits-1)-1)
			s.Minimum, s.Maximum = &lo, &hi
		}
		return s, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		zero := 0.0
		s := &Schema{Type: TypeInteger, Minimum: &zero}
		if bits := t.Bits(); bits < 64 {
			hi := float64(uint64(1)<<bits - 1)
			s.Maximum = &hi
		}
		return s, nil
	case reflect.Float32, reflect.Float64:
		return &Schema{Type: TypeNumber}, nil
	case reflect.Interface:
		return &Schema{}, nil
	case reflect.Pointer:
		s, err := g.build(t.Elem())
		if err != nil {
			return nil, err
		}
		if s.Type != "" {
			s.Nullable = true
		}
		return s, nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			return &Schema{Type: TypeString, Description: "base64"}, nil
		}
		items, err := g.build(t.Elem())
		if err != nil {
			return nil, err
		}
		s := &Schema{Type: TypeArray, Items: items}
		if t.Kind() == reflect.Array {
			n := t.Len()
			s.MinItems, s.MaxItems = &n, &n
		}
		return s, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map key type %s: only string keys are supported", t.Key())
		}
		vals, err := g.build(t.Elem())
		if err != nil {
			return nil, err
		}
		return &Schema{Type: TypeObject, AdditionalProperties: vals}, nil
	case reflect.Struct:
		return g.buildStruct(t)
	default:
		return nil, fmt.Errorf("unsupported kind %s", t.Kind())
	}
}

func (g *schemaGen) buildStruct(t reflect.Type) (*Schema, error) {
	if g.active[t] {
		return nil, fmt.Errorf("recursive type %s is not supported", t)
	}
	g.active[t] = true
	defer delete(g.active, t)

	s := &Schema{Type: TypeObject}
	seen := map[string]bool{}
	if err := g.addFields(s, t, seen); err != nil {
		return nil, err
	}
	return s, nil
}

func (g *schemaGen) addFields(s *Schema, t reflect.Type, seen map[string]bool) error {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if g.active[ft] {
					return fmt.Errorf("recursive type %s is not supported", ft)
				}
				g.active[ft] = true
				err := g.addFields(s, ft, seen)
				delete(g.active, ft)
				if err != nil {
					return err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if seen[name] {
			return fmt.Errorf("field %s: duplicate JSON name %q", f.Name, name)
		}
		seen[name] = true
		required := true
		for _, o := range strings.Split(opts, ",") {
			switch o {
			case "omitempty", "omitzero":
				required = false
			case "string":
				return fmt.Errorf("field %s: the json \",string\" option is not supported", f.Name)
			}
		}
		fs, err := g.build(f.Type)
		if err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		if js, ok := f.Tag.Lookup("jsonschema"); ok {
			req, err := applyTag(fs, js)
			if err != nil {
				return fmt.Errorf("field %s: jsonschema tag: %w", f.Name, err)
			}
			if req != nil {
				required = *req
			}
		}
		s.Properties = append(s.Properties, Property{Name: name, Schema: fs})
		if required {
			s.Required = append(s.Required, name)
		}
	}
	return nil
}

// applyTag applies a jsonschema tag to s; it returns the required override.
func applyTag(s *Schema, tag string) (*bool, error) {
	var required *bool
	target := s
	if s.Type == TypeArray && s.Items != nil {
		target = s.Items
	}
	rest := strings.TrimSpace(tag)
	for rest != "" {
		var entry string
		if strings.HasPrefix(rest, "description=") {
			entry, rest = rest, ""
		} else {
			entry, rest, _ = strings.Cut(rest, ",")
			rest = strings.TrimSpace(rest)
		}
		key, val, hasVal := strings.Cut(strings.TrimSpace(entry), "=")
		switch key {
		case "description":
			s.Description = val
		case "required", "optional":
			if hasVal {
				return nil, fmt.Errorf("%s takes no value", key)
			}
			b := key == "required"
			required = &b
		case "enum":
			if !hasVal || val == "" {
				return nil, errors.New("enum needs values: enum=a|b")
			}
			for _, raw := range strings.Split(val, "|") {
				ev, err := parseEnumValue(target.Type, raw)
				if err != nil {
					return nil, err
				}
				target.Enum = append(target.Enum, ev)
			}
		case "minimum", "maximum":
			if target.Type != TypeInteger && target.Type != TypeNumber {
				return nil, fmt.Errorf("%s on non-numeric type %q", key, target.Type)
			}
			f, err := strconv.ParseFloat(val, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, fmt.Errorf("%s=%q: not a number", key, val)
			}
			if key == "minimum" {
				target.Minimum = &f
			} else {
				target.Maximum = &f
			}
		case "minLength", "maxLength", "minItems", "maxItems":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%s=%q: want an integer >= 0", key, val)
			}
			switch key {
			case "minLength", "maxLength":
				if target.Type != TypeString {
					return nil, fmt.Errorf("%s on non-string type %q", key, target.Type)
				}
				if key == "minLength" {
					target.MinLength = &n
				} else {
					target.MaxLength = &n
				}
			default:
				if s.Type != TypeArray {
					return nil, fmt.Errorf("%s on non-array type %q", key, s.Type)
				}
				if key == "minItems" {
					s.MinItems = &n
				} else {
					s.MaxItems = &n
				}
			}
		default:
			return nil, fmt.Errorf("unknown key %q (want enum, minimum, maximum, minLength, maxLength, minItems, maxItems, required, optional, description)", key)
		}
	}
	return required, nil
}

func parseEnumValue(typ, raw string) (any, error) {
	switch typ {
	case TypeString:
		return raw, nil
	case TypeInteger:
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("enum value %q: not an integer", raw)
		}
		return n, nil
	case TypeNumber:
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("enum value %q: not a number", raw)
		}
		return f, nil
	case TypeBoolean:
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return nil, fmt.Errorf("enum value %q: not a bool", raw)
		}
		return b, nil
	default:
		return nil, fmt.Errorf("enum on type %q is not supported", typ)
	}
}

// ---- marshalling ----

// MarshalJSON writes standard JSON Schema.
func (s *Schema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	s.write(&b)
	return b.Bytes(), nil
}

// String returns the schema as shown in prompts: valid JSON with one line
// per property of a top-level object (each property's schema compact), so
// it is readable yet short.
func (s *Schema) String() string {
	if s == nil || s.Type != TypeObject || s.AdditionalProperties != nil {
		raw, _ := s.MarshalJSON()
		return string(raw)
	}
	var b bytes.Buffer
	b.WriteString("{\n  \"type\": \"object\",\n")
	if s.Description != "" {
		b.WriteString("  \"description\": ")
		writeJSONString(&b, s.Description)
		b.WriteString(",\n")
	}
	b.WriteString("  \"properties\": {")
	for i, p := range s.Properties {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		writeJSONString(&b, p.Name)
		b.WriteString(": ")
		p.Schema.write(&b)
	}
	b.WriteString("\n  },\n")
	if len(s.Required) > 0 {
		raw, _ := json.Marshal(s.Required)
		b.WriteString("  \"required\": ")
		b.Write(raw)
		b.WriteString(",\n")
	}
	b.WriteString("  \"additionalProperties\": false\n}")
	return b.String()
}

func (s *Schema) write(b *bytes.Buffer) {
	if s == nil {
		b.WriteString("{}")
		return
	}
	b.WriteByte('{')
	first := true
	key := func(k string) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		writeJSONString(b, k)
		b.WriteByte(':')
	}
	if s.Type != "" {
		key("type")
		if s.Nullable {
			b.WriteByte('[')
			writeJSONString(b, s.Type)
			b.WriteString(`,"null"]`)
		} else {
			writeJSONString(b, s.Type)
		}
	}
	if s.Description != "" {
		key("description")
		writeJSONString(b, s.Description)
	}
	if len(s.Enum) > 0 {
		key("enum")
		raw, _ := json.Marshal(s.Enum)
		b.Write(raw)
	}
	num := func(k string, p *float64) {
		if p != nil {
			key(k)
			b.WriteString(strconv.FormatFloat(*p, 'g', -1, 64))
		}
	}
	integer := func(k string, p *int) {
		if p != nil {
			key(k)
			b.WriteString(strconv.Itoa(*p))
		}
	}
	num("minimum", s.Minimum)
	num("maximum", s.Maximum)
	integer("minLength", s.MinLength)
	integer("maxLength", s.MaxLength)
	integer("minItems", s.MinItems)
	integer("maxItems", s.MaxItems)
	if s.Type == TypeArray && s.Items != nil {
		key("items")
		s.Items.write(b)
	}
	if s.Type == TypeObject {
		if s.AdditionalProperties != nil {
			key("additionalProperties")
			s.AdditionalProperties.write(b)
		} else {
			key("properties")
			b.WriteByte('{')
			for i, p := range s.Properties {
				if i > 0 {
					b.WriteByte(',')
				}
				writeJSONString(b, p.Name)
				b.WriteByte(':')
				p.Schema.write(b)
			}
			b.WriteByte('}')
			if len(s.Required) > 0 {
				key("required")
				raw, _ := json.Marshal(s.Required)
				b.Write(raw)
			}
			key("additionalProperties")
			b.WriteString("false")
		}
	}
	b.WriteByte('}')
}

func writeJSONString(b *bytes.Buffer, s string) {
	raw, _ := json.Marshal(s)
	b.Write(raw)
}

// ---- validation ----

// Problem is one validation failure at a JSON path ("$", "$.action",
// "$.items[2]", `$.slots["a b"]`).
type Problem struct {
	Path    string
	Message string
}

func (p Problem) String() string { return p.Path + ": " + p.Message }

// ValidationError lists what is wrong with a JSON text (at most
// maxProblems entries, in document order).
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
// *ValidationError naming each failing path, e.g.
//
//	$.action: value "tapp" not in enum [tap long_press input ...]
//	$.element: required
//
// Beyond standard JSON Schema, and mirroring encoding/json's omitempty, an
// optional property whose value is the zero value of its type (null, "",
// 0, false) counts as absent and is not checked further. Integers must be
// written without fraction or exponent (as encoding/json decodes them into
// Go ints) and fit in 64 bits.
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
	var probs []Problem
	s.check(v, "$", &probs)
	if len(probs) > 0 {
		return &ValidationError{Problems: probs}
	}
	return nil
}

func (s *Schema) check(v any, path string, probs *[]Problem) {
	add := func(format string, args ...any) {
		if len(*probs) < maxProblems {
			*probs = append(*probs, Problem{path, fmt.Sprintf(format, args...)})
		}
	}
	if s == nil || s.Type == "" {
		return
	}
	if v == nil {
		if !s.Nullable {
			add("expected %s, got null", s.Type)
		}
		return
	}
	switch s.Type {
	case TypeString:
		str, ok := v.(string)
		if !ok {
			add("expected string, got %s", describe(v))
			return
		}
		n := utf8.RuneCountInString(str)
		if s.MinLength != nil && n < *s.MinLength {
			add("string of %d characters is shorter than minLength %d", n, *s.MinLength)
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			add("string of %d characters is longer than maxLength %d", n, *s.MaxLength)
		}
		if len(s.Enum) > 0 && !enumHas(s.Enum, str) {
			add("value %s not in enum %s", strconv.Quote(clip(str, 60)), enumText(s.Enum))
		}
	case TypeBoolean:
		b, ok := v.(bool)
		if !ok {
			add("expected boolean, got %s", describe(v))
			return
		}
		if len(s.Enum) > 0 && !enumHas(s.Enum, b) {
			add("value %t not in enum %s", b, enumText(s.Enum))
		}
	case TypeInteger, TypeNumber:
		num, ok := v.(json.Number)
		if !ok {
			add("expected %s, got %s", s.Type, describe(v))
			return
		}
		f, err := num.Float64()
		if err != nil || math.IsInf(f, 0) {
			add("number %s is out of range", clip(num.String(), 40))
			return
		}
		var ev any = f
		if s.Type == TypeInteger {
			n, err := strconv.ParseInt(num.String(), 10, 64)
			if err != nil {
				if strings.ContainsAny(num.String(), ".eE") {
					add("expected integer, got number %s", clip(num.String(), 40))
				} else {
					add("integer %s does not fit in 64 bits", clip(num.String(), 40))
				}
				return
			}
			ev = n
		}
		if s.Minimum != nil && f < *s.Minimum {
			add("%s is below minimum %s", num, fmtNum(*s.Minimum))
		}
		if s.Maximum != nil && f > *s.Maximum {
			add("%s is above maximum %s", num, fmtNum(*s.Maximum))
		}
		if len(s.Enum) > 0 && !enumHas(s.Enum, ev) {
			add("value %s not in enum %s", num, enumText(s.Enum))
		}
	case TypeArray:
		arr, ok := v.([]any)
		if !ok {
			add("expected array, got %s", describe(v))
			return
		}
		if s.MinItems != nil && len(arr) < *s.MinItems {
			add("%d items, want at least %d", len(arr), *s.MinItems)
		}
		if s.MaxItems != nil && len(arr) > *s.MaxItems {
			add("%d items, want at most %d", len(arr), *s.MaxItems)
		}
		for i, e := range arr {
			if len(*probs) >= maxProblems {
				return
			}
			s.Items.check(e, path+"["+strconv.Itoa(i)+"]", probs)
		}
	case TypeObject:
		obj, ok := v.(map[string]any)
		if !ok {
			add("expected object, got %s", describe(v))
			return
		}
		if s.AdditionalProperties != nil {
			keys := sortedKeys(obj)
			for _, k := range keys {
				if len(*probs) >= maxProblems {
					return
				}
				s.AdditionalProperties.check(obj[k], childPath(path, k), probs)
			}
			return
		}
		for _, p := range s.Properties {
			val, present := obj[p.Name]
			req := contains(s.Required, p.Name)
			switch {
			case !present && req:
				*probs = appendProblem(*probs, Problem{childPath(path, p.Name), "required"})
			case !present:
			case !req && isZeroFor(p.Schema, val):
			default:
				p.Schema.check(val, childPath(path, p.Name), probs)
			}
		}
		for _, k := range sortedKeys(obj) {
			if s.property(k) == nil {
				*probs = appendProblem(*probs, Problem{childPath(path, k), "unknown field (allowed: " + s.propertyNames() + ")"})
			}
		}
	}
}

func appendProblem(ps []Problem, p Problem) []Problem {
	if len(ps) >= maxProblems {
		return ps
	}
	return append(ps, p)
}

func (s *Schema) property(name string) *Property {
	for i := range s.Properties {
		if s.Properties[i].Name == name {
			return &s.Properties[i]
		}
	}
	return nil
}

func (s *Schema) propertyNames() string {
	names := make([]string, len(s.Properties))
	for i, p := range s.Properties {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// isZeroFor reports whether v is null or the zero value of s's type, which
// encoding/json's omitempty treats as absent.
func isZeroFor(s *Schema, v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == "" && s.Type == TypeString
	case bool:
		return !x && s.Type == TypeBoolean
	case json.Number:
		return (s.Type == TypeInteger || s.Type == TypeNumber) && (x.String() == "0" || x.String() == "-0")
	}
	return false
}

func enumHas(enum []any, v any) bool {
	for _, e := range enum {
		switch x := e.(type) {
		case int64:
			switch y := v.(type) {
			case int64:
				if x == y {
					return true
				}
			case float64:
				if float64(x) == y {
					return true
				}
			}
		default:
			if e == v {
				return true
			}
		}
	}
	return false
}

func enumText(enum []any) string {
	parts := make([]string, len(enum))
	for i, e := range enum {
		parts[i] = fmt.Sprint(e)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func describe(v any) string {
	switch x := v.(type) {
	case string:
		return "string " + strconv.Quote(clip(x, 40))
	case json.Number:
		return "number " + clip(x.String(), 40)
	case bool:
		return "boolean " + strconv.FormatBool(x)
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

func childPath(parent, key string) string {
	if isIdent(key) {
		return parent + "." + key
	}
	return parent + "[" + strconv.Quote(clip(key, 40)) + "]"
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !unicode.IsLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// ReplyFields returns a one-line description of the JSON object a reply of
// type T must be, for prompts: the members in schema order with their
// allowed values or JSON type, optional ones marked, e.g.
//
//	{"reason": string (at most 400 characters), "action": "tap"|"back"|"done", "element": integer >= -1, "text": string (optional), "done": true|false}
//
// Prompts show this rather than the schema: a small model shown a JSON
// Schema tends to answer with the schema itself (SmolLM2-135M did) instead
// of an instance of it, and the schema text costs several hundred prompt
// tokens. The line is built from SchemaText[T], so it cannot drift from the
// schema replies are validated against. Errors: T has no schema, or its
// schema is not an object with properties.
func ReplyFields[T any]() (string, error) {
	text, err := SchemaText[T]()
	if err != nil {
		return "", err
	}
	return fieldsOfSchema([]byte(text))
}

// propSchema is the part of a property's schema ReplyFields shows.
type propSchema struct {
	Type      json.RawMessage `json:"type"` // "string" or ["string","null"]
	Enum      []any           `json:"enum"`
	Minimum   *float64        `json:"minimum"`
	Maximum   *float64        `json:"maximum"`
	MaxLength *int            `json:"maxLength"`
}

func fieldsOfSchema(schema []byte) (string, error) {
	var top struct {
		Type       string          `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(schema, &top); err != nil {
		return "", fmt.Errorf("llm: reply fields: %w", err)
	}
	if top.Type != "object" || len(top.Properties) == 0 {
		return "", fmt.Errorf("llm: reply fields: schema is not an object with properties")
	}
	names, props, err := orderedMembers(top.Properties)
	if err != nil {
		return "", fmt.Errorf("llm: reply fields: %w", err)
	}
	required := map[string]bool{}
	for _, r := range top.Required {
		required[r] = true
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, name := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		var p propSchema
		if err := json.Unmarshal(props[i], &p); err != nil {
			return "", fmt.Errorf("llm: reply fields: %s: %w", name, err)
		}
		q, _ := json.Marshal(name)
		b.Write(q)
		b.WriteString(": ")
		b.WriteString(p.shape())
		if !required[name] {
			b.WriteString(" (optional)")
		}
	}
	b.WriteByte('}')
	return b.String(), nil
}

// shape is the allowed values ("a"|"b") or the JSON type of a property.
func (p propSchema) shape() string {
	if len(p.Enum) > 0 {
		alts := make([]string, len(p.Enum))
		for i, v := range p.Enum {
			q, _ := json.Marshal(v)
			alts[i] = string(q)
		}
		return strings.Join(alts, "|")
	}
	var one string
	var many []string
	switch {
	case json.Unmarshal(p.Type, &one) == nil:
		many = []string{one}
	case json.Unmarshal(p.Type, &many) == nil:
	}
	var out []string
	for _, t := range many {
		switch t {
		case "null":
			continue
		case "boolean":
			out = append(out, "true|false")
		case "":
		default:
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return "any"
	}
	shape := strings.Join(out, "|")
	switch {
	case p.Minimum != nil && p.Maximum != nil:
		shape += fmt.Sprintf(" %g..%g", *p.Minimum, *p.Maximum)
	case p.Minimum != nil:
		shape += fmt.Sprintf(" >= %g", *p.Minimum)
	case p.Maximum != nil:
		shape += fmt.Sprintf(" <= %g", *p.Maximum)
	}
	if p.MaxLength != nil {
		shape += fmt.Sprintf(" (at most %d characters)", *p.MaxLength)
	}
	return shape
}

// orderedMembers returns an object's member names and raw values in the
// order they appear (encoding/json maps lose it; models answer in the
// order they are shown).
func orderedMembers(obj json.RawMessage) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, fmt.Errorf("properties is not an object")
	}
	var names []string
	var vals []json.RawMessage
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name, ok := t.(string)
		if !ok {
			return nil, nil, fmt.Errorf("bad member name %v", t)
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		names = append(names, name)
		vals = append(vals, v)
	}
	return names, vals, nil
}

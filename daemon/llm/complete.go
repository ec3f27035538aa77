package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
)

// ReplyError is returned by CompleteJSON when the model's reply was still
// unusable after the repair retry. Reply is the last reply's text (for
// diagnostics; it may be logged — the model never sees the API key), Err
// what was wrong with it: a *ValidationError, an error wrapping ErrNoJSON,
// a decoding error, or the caller's check error.
type ReplyError struct {
	Reply string
	Err   error
}

func (e *ReplyError) Error() string {
	return "llm: reply invalid after one repair: " + e.Err.Error()
}

func (e *ReplyError) Unwrap() error { return e.Err }

// CompleteJSON asks the model for a JSON reply of type T and returns it
// decoded.
//
//  1. It sends msgs, with the reply constrained to SchemaFor(T) by the
//     strongest response format the endpoint accepts when Config.JSONMode
//     is set (see Format), and the length bounded by Config.MaxTokens.
//  2. The reply goes through ParseReply: ExtractJSON, validation against
//     SchemaFor(T), decoding, then check (nil to skip), the caller's
//     semantic test (e.g. that the element index exists on the screen).
//  3. On any failure in step 2 it makes exactly one repair call: msgs, the
//     bad reply as an assistant message, and a user message (repair.tmpl)
//     stating the exact error and the reply's fields (ReplyFields), not
//     the schema text, which small models copy instead of answering. A
//     second failure returns a *ReplyError.
//
// The returned Reply sums both calls (tokens, retries, duration, Calls);
// its Text is the last reply. Transport failures return Chat's *Error.
// Every call is counted in Client.Stats. msgs is not modified. T must be a
// type SchemaFor accepts.
func CompleteJSON[T any](ctx context.Context, c *Client, msgs []Message, check func(*T) error) (T, Reply, error) {
	var zero T
	if c == nil {
		return zero, Reply{}, fmt.Errorf("llm: complete: %w", ErrNotConfigured)
	}
	schema, err := cachedSchemaOf(reflect.TypeFor[T]())
	if err != nil {
		return zero, Reply{}, err
	}
	spec, err := specOf[T]()
	if err != nil {
		return zero, Reply{}, err
	}
	first, err := c.chat(ctx, msgs, spec)
	if err != nil {
		return zero, first, err
	}
	v, perr := parseReply(schema, first.Text, check)
	if perr == nil {
		c.recordRequest(outcomeValidFirst)
		return v, first, nil
	}

	fields, err := ReplyFields[T]()
	if err != nil {
		return zero, first, err
	}
	repair, err := Render(PromptRepair, RepairData{
		Error:     perr.Error(),
		Fields:    fields,
		Truncated: first.FinishReason == "length",
	})
	if err != nil {
		return zero, first, err
	}
	bad := first.Text
	if bad == "" {
		bad = "(empty reply)"
	}
	convo := append(slices.Clip(msgs), Message{Role: RoleAssistant, Content: bad}, Message{Role: RoleUser, Content: repair})
	second, err := c.chat(ctx, convo, spec)
	total := first.add(second)
	if err != nil {
		c.recordRequest(outcomeRepairFailed)
		return zero, total, err
	}
	v, perr = parseReply(schema, second.Text, check)
	if perr != nil {
		c.recordRequest(outcomeInvalid)
		return zero, total, &ReplyError{Reply: second.Text, Err: perr}
	}
	c.recordRequest(outcomeRepaired)
	return v, total, nil
}

// specOf returns the reply spec of T: its Go type name and compact schema.
func specOf[T any]() (*replySpec, error) {
	text, err := SchemaText[T]()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(text)); err != nil {
		return nil, fmt.Errorf("llm: schema of %v is not JSON: %w", reflect.TypeFor[T](), err)
	}
	name := reflect.TypeFor[T]().Name()
	if name == "" {
		name = "reply"
	}
	return &replySpec{name: name, schema: b.Bytes()}, nil
}

// ParseReply turns a model reply into T without calling the model: it
// extracts the JSON (ExtractJSON), validates it against SchemaFor(T),
// decodes it and runs check (nil to skip). Errors are returned as they
// are (see ReplyError.Err for the kinds).
func ParseReply[T any](text string, check func(*T) error) (T, error) {
	var zero T
	schema, err := cachedSchemaOf(reflect.TypeFor[T]())
	if err != nil {
		return zero, err
	}
	return parseReply(schema, text, check)
}

func parseReply[T any](schema *Schema, text string, check func(*T) error) (T, error) {
	var zero, v T
	data, err := ExtractJSON(text)
	if err != nil {
		return zero, err
	}
	if err := schema.Validate(data); err != nil {
		return zero, err
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return zero, fmt.Errorf("$: cannot decode: %w", err)
	}
	if check != nil {
		if err := check(&v); err != nil {
			return zero, err
		}
	}
	return v, nil
}

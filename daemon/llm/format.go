package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// Format is how CompleteJSON asks the endpoint to constrain its reply.
// Endpoints differ: OpenAI, vLLM, Ollama, LM Studio and llama.cpp's own
// server accept the standard json_schema response format; llama-cpp-python
// accepts only "text" and "json_object", but honours a "schema" member in
// json_object (the Anyscale convention) by compiling it to a grammar; some
// servers have no response_format at all. The client starts at the
// strongest format and steps down when the endpoint refuses one (see
// refusedFormat), remembering the step for later calls.
type Format int

// Formats, strongest first.
const (
	// FormatJSONSchema sends {"type":"json_schema","json_schema":{"name":N,"schema":S,"strict":false}}.
	// Not strict: OpenAI's strict mode requires every property to be
	// required, and the reply types have optional fields.
	FormatJSONSchema Format = iota
	// FormatJSONObjectSchema sends {"type":"json_object","schema":S}.
	FormatJSONObjectSchema
	// FormatJSONObject sends {"type":"json_object"}: any JSON object.
	FormatJSONObject
	// FormatNone sends no response_format; the prompt alone asks for JSON.
	FormatNone
)

func (f Format) String() string {
	switch f {
	case FormatJSONSchema:
		return "json_schema"
	case FormatJSONObjectSchema:
		return "json_object+schema"
	case FormatJSONObject:
		return "json_object"
	case FormatNone:
		return "none"
	}
	return "Format(" + strconv.Itoa(int(f)) + ")"
}

// replySpec is what CompleteJSON asks for: the reply type's name and its
// JSON Schema (compact JSON).
type replySpec struct {
	name   string
	schema json.RawMessage
}

// responseFormat returns the response_format member for f, or nil.
func (s *replySpec) responseFormat(f Format) json.RawMessage {
	var v any
	switch f {
	case FormatJSONSchema:
		v = map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": s.name, "schema": s.schema, "strict": false}}
	case FormatJSONObjectSchema:
		v = map[string]any{"type": "json_object", "schema": s.schema}
	case FormatJSONObject:
		v = map[string]any{"type": "json_object"}
	default:
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// refusedFormat reports whether a failed request was the endpoint refusing
// the response_format it was sent: a 400 or 422 (FastAPI's validation
// status) whose message names response_format, json_schema or
// json_object, or a 500 whose message is a validation error naming
// response_format — llama-cpp-python 0.3.36 answers a json_schema
// response format with 500 "1 validation error: {'type': 'literal_error',
// 'loc': ('body', 'response_format', 'type'), 'msg': "Input should be
// 'text' or 'json_object'" ...}" (measured).
func refusedFormat(status int, detail string) bool {
	d := strings.ToLower(detail)
	switch status {
	case http.StatusBadRequest, http.StatusUnprocessableEntity:
		return strings.Contains(d, "response_format") || strings.Contains(d, "json_schema") || strings.Contains(d, "json_object")
	case http.StatusInternalServerError:
		return strings.Contains(d, "response_format") && (strings.Contains(d, "validation error") || strings.Contains(d, "input should be"))
	}
	return false
}

// refusedMaxTokens reports whether a failed request was the endpoint
// refusing max_tokens in favour of max_completion_tokens (OpenAI's
// reasoning models answer 400 "Unsupported parameter: 'max_tokens' ...
// Use 'max_completion_tokens' instead.").
func refusedMaxTokens(status int, detail string) bool {
	return status == http.StatusBadRequest && strings.Contains(detail, "max_tokens") && strings.Contains(detail, "max_completion_tokens")
}

// bodyPatchKey carries top-level JSON members that patchDoer writes into
// the request body: go-openai's request type cannot express every
// response_format an OpenAI-compatible server understands.
type bodyPatchKey struct{}

type bodyPatch map[string]json.RawMessage

// withBodyPatch returns ctx carrying p for patchDoer.
func withBodyPatch(ctx context.Context, p bodyPatch) context.Context {
	if len(p) == 0 {
		return ctx
	}
	return context.WithValue(ctx, bodyPatchKey{}, p)
}

// patchBody sets the members of the context's bodyPatch in req's JSON
// body (a nil value deletes the member). A body that is not a JSON object
// is sent unchanged.
func patchBody(req *http.Request) error {
	p, ok := req.Context().Value(bodyPatchKey{}).(bodyPatch)
	if !ok || req.Body == nil {
		return nil
	}
	raw, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return err
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil && m != nil {
		for k, v := range p {
			if v == nil {
				delete(m, k)
			} else {
				m[k] = v
			}
		}
		if b, err := json.Marshal(m); err == nil {
			raw = b
		}
	}
	req.Body = io.NopCloser(bytes.NewReader(raw))
	req.ContentLength = int64(len(raw))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(raw)), nil }
	return nil
}

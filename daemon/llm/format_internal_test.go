package llm

import "testing"

func TestRefusedFormat(t *testing.T) {
	tests := []struct {
		name   string
		status int
		detail string
		want   bool
	}{
		{"LM Studio", 400, "'response_format.type' must be 'json_schema' or 'text'", true},
		{"FastAPI 422", 422, `[{"type":"literal_error","loc":["body","response_format","type"],"msg":"Input should be 'text' or 'json_object'"}]`, true},
		{"llama-cpp-python 0.3.36", 500, "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}", true},
		{"OpenAI invalid schema", 400, "Invalid schema for response_format 'NextAction': ...", true},
		{"plain 500", 500, "The server had an error while processing your request.", false},
		{"500 naming response_format without a validation error", 500, "crashed while applying response_format", false},
		{"other 400", 400, "messages: too long", false},
		{"429", 429, "response_format rate limited", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := refusedFormat(tt.status, tt.detail); got != tt.want {
				t.Errorf("refusedFormat(%d, %q) = %v, want %v", tt.status, tt.detail, got, tt.want)
			}
		})
	}
}

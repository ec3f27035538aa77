package llm_test

import (
	"errors"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/llm"
)

func TestExtractJSON(t *testing.T) {
	const obj = `{"a":1}`
	tests := []struct {
		name, in, want string
		noJSON         bool
	}{
		{"plain", obj, obj, false},
		{"whitespace", "\n  " + obj + "  \n", obj, false},
		{"bom", "\uFEFF" + obj, obj, false},
		{"array", `[1,2]`, `[1,2]`, false},
		{"json fence", "```json\n" + obj + "\n```", obj, false},
		{"JSON fence", "```JSON\n" + obj + "\n```", obj, false},
		{"bare fence", "```\n" + obj + "\n```", obj, false},
		{"fence on one line", "```" + obj + "```", obj, false},
		{"prose around fence", "Here is my answer:\n```json\n" + obj + "\n```\nLet me know!", obj, false},
		{"first fence not JSON", "```text\nhello\n```\n```json\n" + obj + "\n```", obj, false},
		{"unclosed fence", "```json\n" + obj, obj, false},
		{"think block", "<think>I should tap Save.</think>\n" + obj, obj, false},
		{"think then fence", "<think>x</think>```json\n" + obj + "\n```", obj, false},
		{"two think blocks", "<think>a</think><think>b</think>" + obj, obj, false},
		{"backticks inside JSON are kept", "{\"text\":\"```\"}", "{\"text\":\"```\"}", false},
		{"trailing garbage is kept for Validate", obj + " done", obj + " done", false},
		{"unclosed think", "<think>still thinking " + obj, "", true},
		{"empty", "", "", true},
		{"spaces", " \n\t", "", true},
		{"prose", "Sure! I will tap Save.", "", true},
		{"prose then JSON", "Answer: " + obj, "", true},
		{"empty fence", "```json\n```", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := llm.ExtractJSON(tt.in)
			if tt.noJSON {
				if err == nil || !errors.Is(err, llm.ErrNoJSON) {
					t.Errorf("ExtractJSON(%q) = %q, %v; want ErrNoJSON", tt.in, got, err)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("ExtractJSON(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

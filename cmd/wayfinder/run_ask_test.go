package main

import (
	"strings"
	"testing"
)

// TestAskPromptAndPickOption: the terminal lists the options numbered,
// and a number answers with that option.
func TestAskPromptAndPickOption(t *testing.T) {
	opts := []string{"Turn on dark mode", "Make the text large", "none of these"}
	p := askPrompt("Did you mean one of these?", opts)
	for _, want := range []string{"? Did you mean one of these?\n", "  1) Turn on dark mode\n", "  3) none of these\n"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt %q lacks %q", p, want)
		}
	}
	for _, tt := range []struct{ ans, want string }{
		{"2", "Make the text large"}, {"yes", "yes"}, {"0", "0"}, {"4", "4"}, {"Turn on dark mode", "Turn on dark mode"},
	} {
		if got := pickOption(tt.ans, opts); got != tt.want {
			t.Errorf("pickOption(%q) = %q, want %q", tt.ans, got, tt.want)
		}
	}
}

package graphplan

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
)

// TestCommandReadWithAcronyms: a word of the command that spells the
// initials of one run of words of the app's labels is read as them; a
// word some label has, or initials two runs share, stay. A number with a
// unit glued on is read as a label says it.
func TestCommandReadWithAcronyms(t *testing.T) {
	g := &appGraph{labelled: map[string]bool{"Frequently asked questions": true, "Rate us": true, "Night light schedule": true, "Next lap split": true, "GPS accuracy": true, "Use 24 hour format": true}}
	for _, tc := range []struct{ cmd, want string }{
		{"open the FAQ", "open the frequently asked questions"},
		{"show the faq of the app", "show the frequently asked questions of the app"},
		{"set gps accuracy to high", "set gps accuracy to high"}, // a label's own word
		{"open nls", "open nls"}, // two runs spell it
		{"rate us now", "rate us now"},
		{"switch to 24h time", "switch to 24 hour time"},
	} {
		p := New(nil)
		rs := p.state(&daemon.PlanState{Command: tc.cmd}, g)
		if rs.cmd != tc.want || rs.said != tc.cmd {
			t.Errorf("%q read as %q (said %q), want %q", tc.cmd, rs.cmd, rs.said, tc.want)
		}
	}
}

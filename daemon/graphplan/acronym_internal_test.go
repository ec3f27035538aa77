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
	g := &appGraph{labelled: map[string]bool{"Virtual private network": true, "Send feedback": true, "Night light schedule": true, "Next lap split": true, "GPS accuracy": true, "Show clock in 24 hour style": true}}
	for _, tc := range []struct{ cmd, want string }{
		{"open the VPN", "open the virtual private network"},
		{"show the vpn of the app", "show the virtual private network of the app"},
		{"set gps accuracy to high", "set gps accuracy to high"}, // a label's own word
		{"open nls", "open nls"},                                 // two runs spell it
		{"send feedback now", "send feedback now"},
		{"switch to 24h time", "switch to 24 hour time"},
	} {
		p := New(nil)
		rs := p.state(&daemon.PlanState{Command: tc.cmd}, g)
		if rs.cmd != tc.want || rs.said != tc.cmd {
			t.Errorf("%q read as %q (said %q), want %q", tc.cmd, rs.cmd, rs.said, tc.want)
		}
	}
}

package daemon

import (
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestUnmetCondition: a command's restriction is met by a flow whose own
// texts (intent, commands, step labels and options) say its words, as
// written or by concept, never by a slot's value.
func TestUnmetCondition(t *testing.T) {
	f := &knowledge.Flow{Intent: "download podcasts only on Wi-Fi", Commands: []string{"download podcasts only on Wi-Fi"},
		Steps: []knowledge.Step{{Action: device.Tap, Target: descriptorOf("Weekend mode"), Options: []string{"Weekdays", "Weekends"}}}}
	for _, tc := range []struct {
		command string
		left    []string
	}{
		{"download podcasts only on wifi", nil},
		{"download podcasts only at night", []string{"night"}},
		{"download podcasts, except on weekends", nil}, // an option of a step says it
		{"download podcasts", nil},
	} {
		left, ok := unmetCondition(f, tc.command)
		if ok != (tc.left != nil) || !slices.Equal(left, tc.left) {
			t.Errorf("%q: %q %v, want %q", tc.command, left, ok, tc.left)
		}
	}
}

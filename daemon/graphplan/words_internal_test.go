package graphplan

import "testing"

// TestSwitchPolarity: the state a command asks a switch for, reading its
// on and off words with the label's own.
func TestSwitchPolarity(t *testing.T) {
	for _, tt := range []struct {
		cmd, label string
		want       int
	}{
		{"turn on hide caller id", "Hide caller id", 1},
		{"turn off hide caller id", "Hide caller id", -1},
		{"hide caller id", "Hide caller id", 1},
		{"show the caller id", "Hide caller id", -1},
		{"turn off dark mode", "Dark mode", -1},
		{"enable notifications", "Notifications", 1},
		{"disable showing the archive tab", "Show archive tab", -1},
		{"dark mode", "Dark mode", 0},
	} {
		if got := switchPolarity(tt.cmd, tt.label); got != tt.want {
			t.Errorf("switchPolarity(%q, %q) = %d, want %d", tt.cmd, tt.label, got, tt.want)
		}
	}
}

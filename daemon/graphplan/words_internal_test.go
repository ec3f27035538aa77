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
		{"don't show the caller id", "Hide caller id", 1},
		{"do not prevent the screen from locking", "Prevent screen from locking", -1},
		{"allow the screen to lock", "Prevent screen from locking", -1},
		{"never show the archive tab", "Show archive tab", -1},
	} {
		if got := switchPolarity(tt.cmd, tt.label); got != tt.want {
			t.Errorf("switchPolarity(%q, %q) = %d, want %d", tt.cmd, tt.label, got, tt.want)
		}
	}
}

// TestTermsOfActionPhrase: an action phrase counts by its concept; the
// words completing it are no terms of their own ("rid" of "get rid of"
// would be matched by meaning to some other "remove" button).
func TestTermsOfActionPhrase(t *testing.T) {
	ts := termsOf("get rid of the last picture")
	has := map[term]bool{}
	for _, tm := range ts {
		has[tm] = true
	}
	if !has["@delete"] || has["rid"] {
		t.Errorf("termsOf = %v, want @delete and no \"rid\"", ts)
	}
}

package intent

import "testing"

func TestSays(t *testing.T) {
	for _, tt := range []struct {
		text, name string
		want       bool
	}{
		{"open the archive, please", "Archive", true},
		{"delete contact Jack", "jack", true},
		{"delete contact Jack", "Jack Lee", false},
		{"mark Bob's chat as unread", "Bob", true},
		{"call Bobby", "Bob", false},
		{"anything", "", false},
		{"", "Bob", false},
	} {
		if got := Says(tt.text, tt.name); got != tt.want {
			t.Errorf("Says(%q, %q) = %v, want %v", tt.text, tt.name, got, tt.want)
		}
	}
}

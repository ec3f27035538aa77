package intent

import (
	"slices"
	"testing"
)

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

func TestNames(t *testing.T) {
	got := Names(`mark Alice's chat and "Test1.m4a" as read`)
	for _, want := range []string{NameKey("Alice"), NameKey("test1.m4a")} {
		if !slices.Contains(got, want) {
			t.Errorf("Names = %q, want it to hold %q", got, want)
		}
	}
	if slices.Contains(Names("open the clock page"), NameKey("clock")) {
		t.Errorf("Names(open the clock page) = %q: a plain word is no name", Names("open the clock page"))
	}
}

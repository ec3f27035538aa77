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
		{"remove contact Omar", "omar", true},
		{"remove contact Omar", "Omar Lee", false},
		{"mark Ezra's thread as unread", "Ezra", true},
		{"call Ezrah", "Ezra", false},
		{"anything", "", false},
		{"", "Ezra", false},
		{"Dora Smith · Mobile", "Dora", true}, // a list row's label
		{"Dora Smith · Mobile", "dora smith", true},
		{"Adora", "dora", false},
		{"Smith Dora", "dora smith", false},
	} {
		if got := Says(tt.text, tt.name); got != tt.want {
			t.Errorf("Says(%q, %q) = %v, want %v", tt.text, tt.name, got, tt.want)
		}
	}
}

func TestNames(t *testing.T) {
	got := Names(`mark Dora's chat and "Memo7.m4a" as read`)
	for _, want := range []string{NameKey("Dora"), NameKey("memo7.m4a")} {
		if !slices.Contains(got, want) {
			t.Errorf("Names = %q, want it to hold %q", got, want)
		}
	}
	if slices.Contains(Names("open the inbox page"), NameKey("inbox")) {
		t.Errorf("Names(open the inbox page) = %q: a plain word is no name", Names("open the inbox page"))
	}
}

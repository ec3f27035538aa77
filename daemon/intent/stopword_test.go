package intent

import (
	"strings"
	"testing"
)

// TestShorthandSpellsStopwords: every chat spelling read as a stop word
// spells stop words only ("gimme" would hide the "give" of "give me"),
// and is one.
func TestShorthandSpellsStopwords(t *testing.T) {
	for short, long := range shorthand {
		for _, w := range strings.Fields(long) {
			if !isStopword(w) {
				t.Errorf("shorthand %q spells %q, whose %q is no stop word", short, long, w)
			}
		}
		if !IsStopword(short) {
			t.Errorf("IsStopword(%q) = false", short)
		}
	}
}

// TestSpokenStopwords: a dictated command's hesitations, "every" beside
// "all", and the "much" of "how much …" carry no task meaning; the words
// around them do.
func TestSpokenStopwords(t *testing.T) {
	for w, want := range map[string]bool{"um": true, "uh": true, "every": true, "all": true, "much": true, "many": true, "storage": false, "umbrella": false} {
		if got := IsStopword(w); got != want {
			t.Errorf("IsStopword(%q) = %v, want %v", w, got, want)
		}
	}
}

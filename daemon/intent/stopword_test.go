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
	for w, want := range map[string]bool{"um": true, "uh": true, "every": true, "all": true, "much": true, "many": true, "inside": true, "within": true, "anymore": true, "storage": false, "umbrella": false, "insider": false} {
		if got := IsStopword(w); got != want {
			t.Errorf("IsStopword(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestPluralAndUnapostrophedStopwords: "apps" is as empty of task
// meaning as "app", "thats" as "that's", "another" as "other", and "w" is
// the chat spelling of "with"; words that look like them are not.
func TestPluralAndUnapostrophedStopwords(t *testing.T) {
	for w, want := range map[string]bool{"apps": true, "applications": true, "thats": true, "w": true, "another": true, "apply": false, "wifi": false} {
		if got := IsStopword(w); got != want {
			t.Errorf("IsStopword(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestContractedStopwords: a contraction of stop words is one too, as
// its words are ("I've typed", "what's in the folder"); a negation among
// them is still read as one.
func TestContractedStopwords(t *testing.T) {
	for w, want := range map[string]bool{"i've": true, "ive": true, "you're": true, "there's": true, "what's": true, "where's": true, "isn't": true, "ivy": false, "whatsoever": false} {
		if got := IsStopword(w); got != want {
			t.Errorf("IsStopword(%q) = %v, want %v", w, got, want)
		}
	}
	if !isNegation("isn't") || !Negated("the theme isn't dark") {
		t.Error("isn't is no negation any more")
	}
}

// TestInflectedLightVerbs: "turned", "switched" are as empty as "turn"
// and "switch" ("delivery reports turned on"); the particle says it.
func TestInflectedLightVerbs(t *testing.T) {
	for w, want := range map[string]bool{"turned": true, "switching": true, "flipped": true, "toggled": true, "turnip": false, "switchboard": false} {
		if got := IsStopword(w); got != want {
			t.Errorf("IsStopword(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestOpeningMarker: "okay so" opening a command is no word of it; an
// "OK" alone keeps its meaning.
func TestOpeningMarker(t *testing.T) {
	for _, tt := range []struct {
		text string
		stop []bool
	}{
		{"okay so delete it", []bool{true, true, false, true}},
		{"alright, delete it", []bool{true, false, true}},
		{"ok", []bool{false}},
	} {
		toks := analyze(tt.text)
		openingMarker(toks)
		for i, want := range tt.stop {
			if i < len(toks) && toks[i].stop != want {
				t.Errorf("%q: token %q stop = %v, want %v", tt.text, toks[i].text, toks[i].stop, want)
			}
		}
	}
}

// TestUniversal: a command asks for all of something by a quantifier or
// an adjective that covers every item, "everyone's" among them.
func TestUniversal(t *testing.T) {
	for s, want := range map[string]bool{"clear all notes": true, "wipe the whole list": true, "add everyone's birthdays": true,
		"text everybody": true, "add Ana's birthday": false, "show one note": false} {
		if got := Universal(s); got != want {
			t.Errorf("Universal(%q) = %v, want %v", s, got, want)
		}
	}
}

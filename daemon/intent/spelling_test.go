package intent

import (
	"strings"
	"testing"
)

// dictionary is a stand-in for the model's whole words: the words of the
// commands below that are spelt right.
func dictionary(w string) bool {
	return strings.Contains(" the last photo i took delete search for camera app open it sort folders by size look up jake in contacts hello rename to beach call clock tab mark convo unread ", " "+w+" ")
}

func TestSpelled(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// chat forms
		{"delete teh last pic", "delete the last pic"},
		{"show my msgs from theo", "show my messages from theo"},
		{"add a 5 min timer", "add a 5 minutes timer"},
		{"set the min volume", "set the min volume"}, // no number before it: "minimum"
		{"mark mia convo unread", "mark mia conversation unread"},
		{"save it as notes.txt", "save it as notes.txt"},
		// typos of the vocabulary, one edit, the first letter kept
		{"dleete the last photo i took", "delete the last photo i took"},
		{"serach for the camera app & open it", "search for the camera app & open it"},
		{"sort teh folders by size", "sort the folders by size"},
		{"preset rock", "preset rock"}, // "reset" would change the first letter
		// words kept
		{"look up jake in contacts", "look up jake in contacts"},       // words the dictionary knows
		{"call Jkae", "call Jkae"},                                     // a name, written with a capital
		{"rename it to 'dleete'", "rename it to 'dleete'"},             // quoted
		{"new note called dleete plan", "new note called dleete plan"}, // after a naming word
		{"turn on dark mode", "turn on dark mode"},
		{"", ""},
	} {
		got, changed := Spelled(tc.in, dictionary)
		if got != tc.want || changed != (tc.want != tc.in) {
			t.Errorf("Spelled(%q) = %q, %v; want %q", tc.in, got, changed, tc.want)
		}
	}
	// without a dictionary only the chat forms are written out: every
	// unknown word could be a word the vocabulary lacks
	if got, _ := Spelled("dleete teh msgs", nil); got != "dleete the messages" {
		t.Errorf("without a dictionary: %q", got)
	}
}

func FuzzSpelled(f *testing.F) {
	for _, s := range []string{"dleete teh msgs", "5 mins", "called 'x' serach", "a.txt b4", "Jkae"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, changed := Spelled(s, dictionary)
		if !changed && got != s {
			t.Fatalf("Spelled(%q) = %q unchanged", s, got)
		}
		if len(got) > 2*len(s)+16 {
			t.Fatalf("Spelled(%q) grew to %q", s, got)
		}
	})
}

package daemon

import (
	"strings"
	"testing"
)

func TestReadNumberWords(t *testing.T) {
	texts := []string{"Place call", "Five stars", "Send feedback", "clip7.m4a", "Clip22", "shot9.jpg"}
	for _, tc := range []struct{ cmd, want string }{
		{"dial nine nine nine", "dial 999"},
		{"dial (five oh one two)!", "dial (5012)!"},
		{"a timer for twenty-five minutes", "a timer for 25 minutes"},
		{"a timer for ten minutes", "a timer for 10 minutes"},
		{"give it five stars", "give it five stars"}, // the texts write "five"
		{"open the last one", "open the last one"},
		{"oh well", "oh well"},
		{"nine, one", "9, one"}, // no run across a comma; "one" alone is a word
		{"call 999", "call 999"},
		{`type "two bottles" now`, `type "two bottles" now`}, // the owner's text
		{`note 'two' then dial nine nine nine.`, `note 'two' then dial 999.`},
		{"play clip seven now", "play clip7 now"}, // the texts write "clip7"
		{"play clip seven.m4a", "play clip7.m4a"},
		{"play clip twenty two", "play clip22"},
		{"save it as shot nine.", "save it as shot9."},
		{"play clip two", "play clip 2"}, // no "clip2" in the texts
		{"play clip, one", "play clip, one"},
	} {
		got, changed := ReadNumberWords(tc.cmd, texts)
		if got != tc.want || changed != (tc.want != tc.cmd) {
			t.Errorf("ReadNumberWords(%q) = %q, %v; want %q", tc.cmd, got, changed, tc.want)
		}
	}
	for _, tc := range []struct{ cmd, want string }{
		{"dial nine nine nine", "dial 999"},
		{"a timer for ten minutes", "a timer for ten minutes"},
		{"quality to seventy five percent", "quality to 75 percent"}, // one number, said in two words
		{"use twenty four hour time", "use 24 hour time"},
		{"ninety, five", "ninety, five"}, // a comma between: two numbers
		{"seventy seventy", "seventy seventy"},
		{"look up clip seven and play it", "look up clip7 and play it"},
		{"a clip one of mine", "a clip one of mine"}, // no "clip1"
		{"font size one hundred and ten percent", "font size 110 percent"},
		{"a hundred percent", "100 percent"},
		{"two hundred twenty five ms", "225 ms"},
		{"one hundred, ten", "100, ten"}, // a comma between: two numbers
		{"one hundred and then some", "100 and then some"},
		{"a hundred-year calendar", "a hundred-year calendar"},
	} {
		if got, _ := readDigitNames(tc.cmd, texts); got != tc.want {
			t.Errorf("readDigitNames(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

// FuzzReadNumberWords: any command is read without a panic; one left as
// it is comes back unchanged, and a read one has no more words.
func FuzzReadNumberWords(f *testing.F) {
	f.Add("dial nine one one", "Call")
	f.Add("(five oh one)", "Five")
	f.Add("twenty-five, sixty", "")
	f.Fuzz(func(t *testing.T, command, text string) {
		got, ok := ReadNumberWords(command, []string{text})
		if !ok && got != command {
			t.Fatalf("unchanged but returned %q for %q", got, command)
		}
		if ok && len(strings.Fields(got)) > len(strings.Fields(command)) {
			t.Fatalf("read %q as %q with more words", command, got)
		}
	})
}

package intent

import (
	"strings"
	"testing"
)

func TestRequest(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// a reason or a remark beside the request
		{"I'm running out of room, sort the shelves by size so I can see what's big", "sort the shelves by size"},
		{"mute the key clicks, it's embarrassing on the bus", "mute the key clicks"},
		{"copy my birthdays into the planner so I stop forgetting them", "copy my birthdays into the planner"},
		{"the dark look hurts my eyes; switch the reader to the light palette", "switch the reader to the light palette"},
		{"my eyes aren't great - make the text bigger", "make the text bigger"},
		{"turn on night mode because the screen is too bright", "turn on night mode"},
		{"the icons are cramped, I only want 3 columns", "I only want 3 columns"},
		// kept whole
		{"text Ada, I'm late", "text Ada, I'm late"},                                                             // the message may follow
		{"new note, call it Groceries", "new note, call it Groceries"},                                           // two requests
		{"create an event, the title is 'laundry', save it", "create an event, the title is 'laundry', save it"}, // a value
		{"my 7am alarm keeps ringing, make it vibrate", "my 7am alarm keeps ringing, make it vibrate"},           // the alarm it means
		{"the week should start on monday, not sunday", "the week should start on monday, not sunday"},
		{"save it as pic9.jpg", "save it as pic9.jpg"},
		{"it's too loud", "it's too loud"},                                                 // no request: SpeechAct's to judge
		{"my alarm is too quiet, make it louder", "my alarm is too quiet, make it louder"}, // what "it" is
		{"the tiles are tiny, make them bigger so I can read", "the tiles are tiny, make them bigger"},
		{"did the shot come out ok? show me the latest photo", "show me the latest photo"},
		{"did the shot come out ok? show me the last one I took", "did the shot come out ok? show me the last one I took"}, // "one" of what
		{"is the help page up? open it", "is the help page up? open it"},                                                   // too little said alone
		{"", ""},
	} {
		got, changed := Request(tc.in)
		if got != tc.want || changed != (tc.want != tc.in) {
			t.Errorf("Request(%q) = %q, %v; want %q", tc.in, got, changed, tc.want)
		}
	}
}

// FuzzRequest: any text is read without a panic, and what Request keeps
// is made of the text's own clauses, in order.
func FuzzRequest(f *testing.F) {
	for _, s := range []string{"mute it, it's late", "a; b - c. d! e? f: g", "text x, y", "so i, because", "'q', it's 5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, changed := Request(text)
		if !changed {
			if got != text {
				t.Fatalf("Request(%q) = %q, unchanged", text, got)
			}
			return
		}
		rest := text
		for _, part := range strings.Split(got, ", ") {
			i := strings.Index(rest, part)
			if i < 0 {
				t.Fatalf("Request(%q) = %q: %q is not the text's, in order", text, got, part)
			}
			rest = rest[i+len(part):]
		}
	})
}

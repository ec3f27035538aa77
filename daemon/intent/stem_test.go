package intent

import "testing"

func TestStem(t *testing.T) {
	pairs := [][2]string{
		// Snowball English (Porter2) on UI words
		{"notes", "note"}, {"alarms", "alarm"}, {"deleting", "delet"}, {"deleted", "delet"}, {"enabled", "enabl"},
		{"caresses", "caress"}, {"ponies", "poni"}, {"hopping", "hop"}, {"generalizations", "general"},
		// exceptions kept apart from other UI words
		{"settings", "setting"}, {"set", "set"}, {"news", "news"}, {"new", "new"}, {"ringing", "ring"},
		// left alone
		{"ab", "ab"}, {"café", "café"}, {"mp3", "mp3"}, {"Notes", "Notes"},
	}
	for _, p := range pairs {
		if got := Stem(p[0]); got != p[1] {
			t.Errorf("Stem(%q) = %q, want %q", p[0], got, p[1])
		}
	}
	// forms of one word share a stem; different UI words do not
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"delete", "deleted", true}, {"enable", "enabling", true}, {"alarm", "alarms", true}, {"sorted", "sorting", true},
		{"settings", "set", false}, {"news", "new", false}, {"ring", "ringtone", false}, {"monthly", "month", false},
	} {
		if got := Stem(tt.a) == Stem(tt.b); got != tt.same {
			t.Errorf("Stem(%q)=%q, Stem(%q)=%q: same = %v, want %v", tt.a, Stem(tt.a), tt.b, Stem(tt.b), got, tt.same)
		}
	}
}

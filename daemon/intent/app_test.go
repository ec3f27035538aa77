package intent

import (
	"strings"
	"testing"
)

func TestIdentifyApp(t *testing.T) {
	apps := []AppCandidate{
		{Package: pkgNotes, Label: "Notes", Keywords: []string{"New note", "Search notes", "Dark mode", "Sort by date", "Checklist"}},
		{Package: pkgClock, Label: "Clock", Keywords: []string{"Alarm", "Timer", "Stopwatch", "Add alarm", "Bedtime"}},
		{Package: pkgMessages, Label: "Messages", Keywords: []string{"Start chat", "Send", "Conversations", "Archived"}},
		{Package: "org.example.gallery", Label: "Simple Gallery", Keywords: []string{"Photos", "Albums", "Delete", "Slideshow"}},
		{Package: pkgSettings, Label: "Settings", Keywords: []string{"Wi-Fi", "Bluetooth", "Brightness", "Airplane mode"}},
	}
	tests := []struct {
		cmd    string
		want   string // best package, "" for none
		reason string // part of the best reason
	}{
		{"in Notes make a checklist for the trip", pkgNotes, "named as the app"},
		{"set an alarm for 6", pkgClock, "keywords"},
		{"start the stopwatch", pkgClock, "keywords"},
		{"delete the last picture in gallery", "org.example.gallery", "Simple Gallery"},
		{"open clock", pkgClock, "named as the app"},
		{"turn on wifi", pkgSettings, "keywords"},
		{"what's the weather like", "", ""},
	}
	for _, tt := range tests {
		got := IdentifyApp(tt.cmd, apps)
		if tt.want == "" {
			if len(got) > 0 && got[0].Score >= 0.5 {
				t.Errorf("%q: %+v, want no confident app", tt.cmd, got[0])
			}
			continue
		}
		if len(got) == 0 || got[0].Package != tt.want {
			t.Errorf("%q: got %+v, want %s first", tt.cmd, got, tt.want)
			continue
		}
		if !strings.Contains(got[0].Reason, tt.reason) {
			t.Errorf("%q: reason %q lacks %q", tt.cmd, got[0].Reason, tt.reason)
		}
		for i := 1; i < len(got); i++ {
			if got[i].Score > got[i-1].Score {
				t.Errorf("%q: not sorted: %+v", tt.cmd, got)
			}
		}
		if got[0].Score <= 0 || got[0].Score > 1 {
			t.Errorf("%q: score %v out of (0,1]", tt.cmd, got[0].Score)
		}
	}
	if got := IdentifyApp("open notes", nil); got != nil {
		t.Errorf("no apps: %v", got)
	}
}

// TestIdentifyAppSimilarity: meaning evidence (AppCandidate.Similarity)
// picks the app a command names in none of its words, only when one app
// is clearly closest, and changes nothing when absent.
func TestIdentifyAppSimilarity(t *testing.T) {
	base := []AppCandidate{
		{Package: "org.example.dialer", Label: "Phone", Keywords: []string{"Dialpad", "Call history", "Favorites"}},
		{Package: pkgClock, Label: "Clock", Keywords: []string{"Alarm", "Timer", "Stopwatch"}},
		{Package: pkgNotes, Label: "Notes", Keywords: []string{"New note", "Checklist"}},
	}
	for _, tc := range []struct {
		name string
		cmd  string
		sims []float64 // per app of base; nil: no model
		want string    // best package; "" for none
	}{
		{"no model, no words in common: no app", "buzz grandma", nil, ""},
		{"one app clearly closest", "buzz grandma", []float64{0.62, 0.30, 0.25}, "org.example.dialer"},
		{"two apps about as close: no app", "buzz grandma", []float64{0.62, 0.60, 0.25}, ""},
		{"all below the floor: no app", "buzz grandma", []float64{0.30, 0.20, 0.10}, ""},
		{"a named app is not overruled by meaning", "open clock", []float64{0.70, 0.40, 0.20}, pkgClock},
		{"no model: words as before", "start the stopwatch", nil, pkgClock},
	} {
		t.Run(tc.name, func(t *testing.T) {
			apps := append([]AppCandidate(nil), base...)
			for i := range tc.sims {
				apps[i].Similarity = tc.sims[i]
			}
			got := IdentifyApp(tc.cmd, apps)
			if tc.want == "" {
				if len(got) > 0 {
					t.Fatalf("%q: %+v, want no app", tc.cmd, got)
				}
				return
			}
			if len(got) == 0 || got[0].Package != tc.want {
				t.Fatalf("%q: %+v, want %s first", tc.cmd, got, tc.want)
			}
		})
	}
}

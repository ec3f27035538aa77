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

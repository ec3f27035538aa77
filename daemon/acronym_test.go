package daemon

import (
	"strings"
	"testing"
)

func TestExpandAcronyms(t *testing.T) {
	texts := []string{
		"connect to the file transfer protocol server",
		"turn off global positioning system",
		"rename the {title} list",
		"open the archive tab",
		"trim audio buffer",
		"émissions télévisées étrangères",
		"sort the archive by name",
	}
	for _, tt := range []struct {
		name, command, want string
	}{
		{"an acronym of a flow's words", "the ftp server please", "the file transfer protocol server please"},
		{"in capitals, with punctuation", "GPS, off", "global positioning system, off"},
		{"letters beyond ASCII", "l'été ÉTÉ", "l'été émissions télévisées étrangères"},
		{"a word the flows say is no acronym", "open the tab", ""},      // not "trim audio buffer"
		{"a run with a stop word is no expansion", "the tat thing", ""}, // "the archive tab"
		{"letters and digits are a name", "export as ftp2024", ""},
		{"two letters are too few", "gp off", ""},
		{"no run has those initials", "the xyz feed", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := expandAcronyms(tt.command, texts)
			if tt.want == "" {
				if ok || got != tt.command {
					t.Errorf("expandAcronyms(%q) = %q, %v; want it unchanged", tt.command, got, ok)
				}
				return
			}
			if !ok || got != tt.want {
				t.Errorf("expandAcronyms(%q) = %q, %v; want %q", tt.command, got, ok, tt.want)
			}
		})
	}
	// two runs with the same initials: which one is meant is a guess
	if got, ok := expandAcronyms("the sas", []string{"simple access setting", "secure audio stream"}); ok {
		t.Errorf("an acronym of two runs was read as %q", got)
	}
	if got, ok := expandAcronyms("the sas", []string{"simple access setting", "open simple access setting"}); !ok || !strings.Contains(got, "simple access setting") {
		t.Errorf("the same run in two texts: %q, %v", got, ok)
	}
}

// FuzzExpandAcronyms: any command against any flow text is read without
// a panic, and a command left as it is comes back unchanged.
func FuzzExpandAcronyms(f *testing.F) {
	f.Add("the ftp server please", "connect to the file transfer protocol server")
	f.Add("GPS, off", "turn off global positioning system")
	f.Add("ÉTÉ", "été très étrange")
	f.Add("(gps)!", "global positioning system")
	f.Fuzz(func(t *testing.T, command, text string) {
		got, ok := expandAcronyms(command, []string{text})
		if !ok && got != command {
			t.Fatalf("unchanged but returned %q for %q", got, command)
		}
	})
}

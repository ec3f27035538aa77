package intent

import (
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// strip is text without its app mentions (appMentions), spaces collapsed.
func strip(text, label string) string {
	var sb strings.Builder
	prev := 0
	for _, r := range appMentions(text, label) {
		sb.WriteString(text[prev:r[0]])
		prev = r[1]
	}
	sb.WriteString(text[prev:])
	return strings.Join(strings.Fields(sb.String()), " ")
}

func TestAppMentions(t *testing.T) {
	for _, tt := range []struct {
		text, label, want string
	}{
		{"turn off start week on sunday in the calendar", "Calendar", "turn off start week on sunday"},
		{"Display 3 images per row in the Gallery app", "Gallery", "Display 3 images per row"},
		{"sort files by size on my file manager", "Filemanager", "sort files by size"},
		{"sort files by size in filemanager", "File Manager", "sort files by size"},
		{"the Notes app: create a note", "Notes", ": create a note"},
		{"create a note", "Notes", "create a note"},
		{"notes light theme", "Notes", "notes light theme"},
		{"search 'in the calendar' please", "Calendar", "search 'in the calendar' please"},
		{"open the clock app", "Calendar", "open the clock app"},
		{"anything", "", "anything"},
	} {
		if got := strip(tt.text, tt.label); got != tt.want {
			t.Errorf("without mentions of %q: %q, want %q", tt.label, got, tt.want)
		}
	}
}

func FuzzAppMentions(f *testing.F) {
	f.Add("turn off dark mode in the Notes app", "Notes")
	f.Add("'in the' app app in", "App")
	f.Fuzz(func(t *testing.T, text, label string) {
		for _, r := range appMentions(text, label) {
			if r[0] < 0 || r[1] > len(text) || r[0] >= r[1] {
				t.Fatalf("range %v out of %q", r, text)
			}
		}
	})
}

// TestMentionsAreOptional: a flow and a command match whether or not
// either mentions the app, and a mention still matches the same word.
func TestMentionsAreOptional(t *testing.T) {
	m := NewMatcherFor([]knowledge.Flow{
		{ID: 1, Package: "p", Intent: "show {n} images per row in the Photos app", Slots: []knowledge.Slot{{Name: "n", Example: "4"}}},
		{ID: 2, Package: "p", Intent: "disable start week on sunday"},
		{ID: 3, Package: "p", Intent: "delete all the albums in the Photos app"},
	}, map[string]string{"p": "Photos"})
	checkReplays(t, m, []replayCase{
		{"show 3 images per row", 1, true, "3"},
		{"disable start week on sunday in the photos app", 2, true, ""},
		{"delete all my photos albums", 3, true, ""},
	})
	for _, id := range []int64{1, 2} {
		if c := m.Score(map[int64]string{1: "show 3 images per row", 2: "disable start week on sunday in photos"}[id], []int64{id}); len(c) != 1 || len(c[0].Vetoes) > 0 {
			t.Errorf("flow %d: %+v, want no veto", id, c)
		}
	}
}

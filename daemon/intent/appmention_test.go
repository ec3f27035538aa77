package intent

import (
	"slices"
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
		{"turn off auto sync in the planner", "Planner", "turn off auto sync"},
		{"Display 3 tiles per row in the Mosaic app", "Mosaic", "Display 3 tiles per row"},
		{"sort files by size on my doc box", "Docbox", "sort files by size"},
		{"sort files by size in docbox", "Doc Box", "sort files by size"},
		{"the Jotter app: create a note", "Jotter", ": create a note"},
		{"create a jotter", "Jotter", "create a jotter"},
		{"jotter light theme", "Jotter", "jotter light theme"},
		{"search 'in the planner' please", "Planner", "search 'in the planner' please"},
		{"open the tides app", "Planner", "open the tides app"},
		{"add the school holidays to the planner", "Planner", "add the school holidays"},
		{"copy the trip into my planner app", "Planner", "copy the trip"},
		{"anything", "", "anything"},
	} {
		if got := strip(tt.text, tt.label); got != tt.want {
			t.Errorf("without mentions of %q: %q, want %q", tt.label, got, tt.want)
		}
	}
}

func FuzzAppMentions(f *testing.F) {
	f.Add("turn off dark mode in the Jotter app", "Jotter")
	f.Add("'in the' app app in", "App")
	f.Fuzz(func(t *testing.T, text, label string) {
		for _, r := range appMentions(text, label) {
			if r[0] < 0 || r[1] > len(text) || r[0] >= r[1] {
				t.Fatalf("range %v out of %q", r, text)
			}
		}
		if got := WithoutMentions(text, label); len(got) > len(text) || strings.TrimSpace(text) != "" && got == "" {
			t.Fatalf("WithoutMentions(%q, %q) = %q", text, label, got)
		}
	})
}

// TestMentionsAreOptional: a flow and a command match whether or not
// either mentions the app, and a mention still matches the same word.
func TestMentionsAreOptional(t *testing.T) {
	m := NewMatcherFor([]knowledge.Flow{
		{ID: 1, Package: "p", Intent: "show {n} tiles per row in the Photos app", Slots: []knowledge.Slot{{Name: "n", Example: "4"}}},
		{ID: 2, Package: "p", Intent: "disable auto sync"},
		{ID: 3, Package: "p", Intent: "delete all the albums in the Photos app"},
		{ID: 4, Package: "p", Intent: "search the albums for {q}", Slots: []knowledge.Slot{{Name: "q", Example: "beach"}}},
	}, map[string]string{"p": "Photos"})
	checkReplays(t, m, []replayCase{
		{"show 3 tiles per row", 1, true, "3"},
		{"disable auto sync in the photos app", 2, true, ""},
		{"delete all my photos albums", 3, true, ""},
		// a value neither begins nor ends in a mention of the app
		{"search the albums for snow in my photos app", 4, true, "snow"},
		{"search the albums for snow on photos", 4, true, "snow"},
	})
	for _, id := range []int64{1, 2} {
		if c := m.Score(map[int64]string{1: "show 3 tiles per row", 2: "disable auto sync in photos"}[id], []int64{id}); len(c) != 1 || len(c[0].Vetoes) > 0 {
			t.Errorf("flow %d: %+v, want no veto", id, c)
		}
	}
}

func TestAppNamed(t *testing.T) {
	for _, tt := range []struct {
		text, label string
		want        []string
	}{
		{"book shelf deep blue palette", "Bookshelf", []string{"book shelf"}},
		{"dark theme in the Doc Box app", "Doc Box", []string{"Doc Box app"}},
		{"docbox light theme", "Doc Box", []string{"docbox"}},
		{"a book named shelf", "Bookshelf", nil},
		{"dark theme", "", nil},
	} {
		var got []string
		for _, r := range AppNamed(tt.text, tt.label) {
			got = append(got, tt.text[r[0]:r[1]])
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("AppNamed(%q, %q) = %q, want %q", tt.text, tt.label, got, tt.want)
		}
	}
}

// TestWithoutMentions: the app's mentions go ("of the Planner app", "in
// planner", "Planner app:"), a feature named after the app stays ("the
// Planner tab"), and a text that is nothing but a mention is kept whole.
func TestWithoutMentions(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"open the tips of the Planner app", "open the tips"},
		{"turn off sync in planner", "turn off sync"},
		{"Planner app: dark theme", "dark theme"},
		{"go to the Planner tab", "go to the Planner tab"},
		{"go to the planner tab in the Planner app", "go to the planner tab"},
		{"show 'in the Planner app'", "show 'in the Planner app'"},
		{"dark theme", "dark theme"},
		{"in the Planner app", "in the Planner app"},
	} {
		if got := WithoutMentions(tc.in, "Planner"); got != tc.want {
			t.Errorf("WithoutMentions(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := WithoutMentions("open the tips of the Planner app", ""); got != "open the tips of the Planner app" {
		t.Errorf("no label: %q", got)
	}
}

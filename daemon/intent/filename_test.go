package intent

import (
	"maps"
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func TestFileNames(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"keep it as Scan_7.png", []string{"Scan_7.png"}},
		{"zip backup.tar.gz, then share notes-2.txt.", []string{"backup.tar.gz", "notes-2.txt"}},
		{"open 2024_report.pdf", []string{"2024_report.pdf"}},
		{"e.g. done.thanks v1.2 x.y 3.5 2.Open", nil},
		{"mail bob@example.com or see https://example.org/a.html", nil},
		{"rename 'old.txt' to new.txt", []string{"new.txt"}},
		{"", nil},
	} {
		var got []string
		for _, v := range FileNames(tc.in) {
			if tc.in[v.Start:v.End] != v.Text || v.Kind != KindWord {
				t.Errorf("%q: value %+v does not cover its text", tc.in, v)
			}
			got = append(got, v.Text)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("FileNames(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if !IsFileName(Value{Text: "scan7.png", Kind: KindWord}) || IsFileName(Value{Text: "scan7.png now", Kind: KindWord}) || IsFileName(Value{Text: "scan7.png", Kind: KindQuoted}) {
		t.Error("IsFileName: a whole word file name only")
	}
}

func FuzzFileNames(f *testing.F) {
	for _, s := range []string{"keep it as scan7.png", "a.b.cd.efg", "'x.txt' y.md", "ünï.çødé.txt", ".....", "a.", "x@y.z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		last := 0
		for _, v := range FileNames(s) {
			if v.Start < last || v.End <= v.Start || v.End > len(s) || s[v.Start:v.End] != v.Text {
				t.Fatalf("FileNames(%q): bad value %+v after %d", s, v, last)
			}
			last = v.End
		}
	})
}

// TestFileNameWordsAreNames: a word of a file name before its extension
// is a name, whatever else it means ("delete" of "delete.txt" is no
// action, "backup" of "backup.zip" no backing up): it fills the name
// slot of "{name}.zip" like any other name, and other words stay actions.
func TestFileNameWordsAreNames(t *testing.T) {
	m := NewMatcher([]knowledge.Flow{{ID: 1, Package: "p", Intent: "pack the photos into {archive}.zip in {folder} folder"}})
	for _, tc := range []struct {
		cmd  string
		want map[string]string
	}{
		{"pack the photos into trip.zip in Travel folder", map[string]string{"archive": "trip", "folder": "Travel"}},
		{"pack the photos into backup.zip in Travel folder", map[string]string{"archive": "backup", "folder": "Travel"}},
		{"pack the photos into delete.zip in Travel folder", map[string]string{"archive": "delete", "folder": "Travel"}},
	} {
		c := m.Rank(tc.cmd, "p", 1)
		if len(c) == 0 || c[0].Score < DefaultThreshold || !maps.Equal(c[0].Slots, tc.want) {
			t.Errorf("%q: %+v, want slots %v above the threshold", tc.cmd, c, tc.want)
		}
	}
	if u := Understand("delete backup.zip"); len(u.Verbs) != 1 || u.Verbs[0] != "delete" {
		t.Errorf("delete backup.zip: verbs %v, want [delete]", u.Verbs)
	}
}

// TestIdentifierIsAValue: a name joined by "_" ("beach_day") is no word
// of the language: a value of the command, as written; a file name
// keeps its own reading, and words with a stray "_" are no names.
func TestIdentifierIsAValue(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want []string
	}{
		{"create folder beach_day in Pictures", []string{"beach_day"}},
		{"save the list as team_notes_2", []string{"team_notes_2"}},
		{"open scan_7.png", nil}, // a file name: FileNames reads it
		{"rename it to _draft or draft_ or a__b", nil},
	} {
		var got []string
		for _, v := range Understand(tc.cmd).Values {
			got = append(got, v.Text)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Understand(%q).Values = %q, want %q", tc.cmd, got, tc.want)
		}
	}
	if !IsIdentifier(Value{Text: "beach_day", Kind: KindWord}) || IsIdentifier(Value{Text: "beach_day", Kind: KindQuoted}) || IsIdentifier(Value{Text: "beach day", Kind: KindWord}) {
		t.Error("IsIdentifier: a word value joined by _ only")
	}
}

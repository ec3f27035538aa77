package intent

import (
	"slices"
	"testing"
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

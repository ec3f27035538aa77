package drift

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A few lines in WordNet 3.0's formats (wndb(5)), made up for the test.
const (
	testIndexVerb = "  1 license line\nerase v 2 1 @ 2 1 00000100 00000200  \nwipe_out v 1 1 @ 1 0 00000100  \nrub v 1 1 @ 1 0 00000300  \n"
	testDataVerb  = "  1 license line\n00000100 35 v 02 erase 0 wipe_out 0 000 | remove\n00000200 35 v 01 erase 1 000 | other sense\n00000300 35 v 02 rub 0 erase 2 000 | rub it\n"
	testIndexNoun = "setting n 1 0 1 0 00000400  \nscene n 1 0 1 0 00000500  \n"
	testDataNoun  = "00000400 15 n 02 setting 0 scene 0 000 | where\n00000500 15 n 01 scene 0 000 | a scene\n"
)

func TestWordNet(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"index.verb": testIndexVerb, "data.verb": testDataVerb, "index.noun": testIndexNoun,
		"data.noun": testDataNoun, "index.adj": "", "data.adj": "", "index.adv": "", "data.adv": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wn, err := LoadWordNet(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want string }{
		{"erase", "wipe out"}, // first sense, mutual
		{"wipe out", "erase"},
		{"rub", ""},     // erase's first sense is another synset: not safe
		{"setting", ""}, // scene's first sense is its own synset
		{"erases", ""},  // plural of a phrase synonym: no
		{"unknown", ""},
	} {
		if got := wn.Synonym(tc.in); got != tc.want {
			t.Errorf("Synonym(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "data.noun"), []byte("00000400 15 n zz setting 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadWordNet(dir); err == nil || !strings.Contains(err.Error(), "data.noun:1") {
		t.Fatalf("malformed line: %v", err)
	}
}

func TestParseLines(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
	}{{"erase v 2 1 @ 2 1 00000100 00000200", true}, {"erase v 9 1 @ 2 1 00000100", false}, {"x v", false}, {"x v a b", false}} {
		if _, _, err := parseIndexLine(tc.line); (err == nil) != tc.ok {
			t.Errorf("parseIndexLine(%q): %v", tc.line, err)
		}
	}
	for _, tc := range []struct {
		line  string
		words string
		ok    bool
	}{{"00000100 35 v 02 Erase 0 wipe_out(a) 0 000", "erase|wipe out", true}, {"00000100 35 v 05 erase 0", "", false}, {"x 1 v 01 a 0", "", false}} {
		_, w, err := parseDataLine(tc.line)
		if (err == nil) != tc.ok || strings.Join(w, "|") != tc.words {
			t.Errorf("parseDataLine(%q) = %q, %v", tc.line, w, err)
		}
	}
}

func FuzzParseIndexLine(f *testing.F) {
	for _, s := range strings.Split(testIndexVerb+testIndexNoun, "\n") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		lemma, offs, err := parseIndexLine(line)
		if err == nil && (lemma == "" || offs == nil) && len(strings.Fields(line)) > 0 && strings.Fields(line)[2] != "0" {
			t.Fatalf("accepted %q as %q %v", line, lemma, offs)
		}
	})
}

func FuzzParseDataLine(f *testing.F) {
	for _, s := range strings.Split(testDataVerb+testDataNoun, "\n") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		_, words, err := parseDataLine(line)
		if err == nil && len(words) > len(strings.Fields(line)) {
			t.Fatalf("%q gave %d words", line, len(words))
		}
	})
}

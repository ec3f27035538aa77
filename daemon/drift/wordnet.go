package drift

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Synonyms rewords: Synonym returns another word or phrase for a
// lower-case word, "" when it knows none.
type Synonyms interface {
	Synonym(word string) string
}

// DefaultWordNet is where Debian's wordnet-base package puts the WordNet
// 3.0 database (scripts/setup.sh installs it).
const DefaultWordNet = "/usr/share/wordnet"

// WordNet is a Synonyms over the WordNet 3.0 database files (Princeton
// University, https://wordnet.princeton.edu; format: wndb(5)): a word's
// synonym is the first other lemma of its most frequent sense whose own
// most frequent sense is that same synset (so "delete" is not reworded
// "cancel", whose first sense is "call off"), verbs first (UI labels are
// mostly commands), then nouns, adjectives, adverbs.
type WordNet struct {
	first []map[string]int64 // per part of speech: lemma -> offset of its first sense
	words []map[int64][]string
}

// posFiles are WordNet's index/data file suffixes in lookup order.
var posFiles = []string{"verb", "noun", "adj", "adv"}

// LoadWordNet reads index.* and data.* of dir. It fails, naming the file
// and line, on a malformed line.
func LoadWordNet(dir string) (*WordNet, error) {
	wn := &WordNet{}
	for _, pos := range posFiles {
		first, words := map[string]int64{}, map[int64][]string{}
		err := eachLine(filepath.Join(dir, "index."+pos), func(line string) error {
			lemma, offs, err := parseIndexLine(line)
			if err == nil && len(offs) > 0 {
				first[lemma] = offs[0]
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		wanted := map[int64]bool{}
		for _, o := range first {
			wanted[o] = true
		}
		err = eachLine(filepath.Join(dir, "data."+pos), func(line string) error {
			off, ws, err := parseDataLine(line)
			if err == nil && wanted[off] {
				words[off] = ws
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		wn.first, wn.words = append(wn.first, first), append(wn.words, words)
	}
	return wn, nil
}

// Synonym implements Synonyms; a plural tries its singular.
func (wn *WordNet) Synonym(word string) string {
	if s := wn.synonym(word); s != "" {
		return s
	}
	if w, ok := strings.CutSuffix(word, "s"); ok {
		if s := wn.synonym(w); s != "" && !strings.Contains(s, " ") {
			return s + "s"
		}
	}
	return ""
}

func (wn *WordNet) synonym(word string) string {
	for p, first := range wn.first {
		off, ok := first[word]
		if !ok {
			continue
		}
		for _, w := range wn.words[p][off] {
			if w != word && !strings.Contains(w, word) && first[w] == off {
				return w
			}
		}
		return "" // the word's main part of speech has no safe synonym
	}
	return ""
}

// eachLine calls fn for each data line of a WordNet file (license lines
// start with two spaces and are skipped); errors name file and line.
func eachLine(path string, fn func(string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("drift: wordnet: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "  ") {
			continue
		}
		if err := fn(line); err != nil {
			return fmt.Errorf("drift: wordnet: %s:%d: %w", filepath.Base(path), n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("drift: wordnet: %s: %w", path, err)
	}
	return nil
}

// parseIndexLine reads "lemma pos synset_cnt p_cnt [ptr...] sense_cnt
// tagsense_cnt offset..." and returns the lemma (underscores as spaces)
// and its synset offsets, most frequent sense first.
func parseIndexLine(line string) (string, []int64, error) {
	f := strings.Fields(line)
	if len(f) < 4 {
		return "", nil, fmt.Errorf("index line has %d fields", len(f))
	}
	n, err1 := strconv.Atoi(f[2])
	p, err2 := strconv.Atoi(f[3])
	if err1 != nil || err2 != nil || n < 0 || p < 0 || n > len(f) || p > len(f) {
		return "", nil, fmt.Errorf("index line counts %q %q", f[2], f[3])
	}
	start := 4 + p + 2
	if start+n > len(f) {
		return "", nil, fmt.Errorf("index line: %d offsets after field %d, have %d fields", n, start, len(f))
	}
	offs := make([]int64, n)
	for i := range offs {
		o, err := strconv.ParseInt(f[start+i], 10, 64)
		if err != nil {
			return "", nil, fmt.Errorf("index line offset %q", f[start+i])
		}
		offs[i] = o
	}
	return strings.ReplaceAll(f[0], "_", " "), offs, nil
}

// parseDataLine reads "offset lex_filenum ss_type w_cnt word lex_id ..."
// and returns the offset and the synset's words (lower case, spaces for
// underscores, adjective markers like "(a)" removed).
func parseDataLine(line string) (int64, []string, error) {
	f := strings.Fields(line)
	if len(f) < 4 {
		return 0, nil, fmt.Errorf("data line has %d fields", len(f))
	}
	off, err := strconv.ParseInt(f[0], 10, 64)
	if err != nil {
		return 0, nil, fmt.Errorf("data line offset %q", f[0])
	}
	n, err := strconv.ParseInt(f[3], 16, 32)
	if err != nil || n < 0 || 4+2*int(n) > len(f) {
		return 0, nil, fmt.Errorf("data line word count %q", f[3])
	}
	words := make([]string, 0, n)
	for i := 0; i < int(n); i++ {
		w := f[4+2*i]
		if j := strings.IndexByte(w, '('); j > 0 {
			w = w[:j]
		}
		words = append(words, strings.ToLower(strings.ReplaceAll(w, "_", " ")))
	}
	return off, words, nil
}

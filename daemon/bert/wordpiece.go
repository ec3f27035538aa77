package bert

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Tokenizer is BERT's uncased WordPiece tokenizer: the BasicTokenizer
// (clean the text, space out CJK ideographs, lowercase, strip accents,
// split on white space and punctuation) followed by greedy
// longest-match-first WordPiece over vocab.txt, as in Google's BERT
// tokenization.py and Hugging Face's BertTokenizer (do_lower_case=True,
// tokenize_chinese_chars=True, strip_accents following lowercase). Its
// output is checked against Hugging Face's tokenizers in golden tests.
//
// Why not a library: github.com/sugarme/tokenizer v0.3.0 (the Go port of
// Hugging Face's tokenizers, used by hugot) turns "café" into [UNK] where
// the reference gives "cafe" (accents are not stripped), pads every
// sequence to 128 ids as tokenizer.json asks, and takes ~175 ms to load.
type Tokenizer struct {
	vocab map[string]int32
	unk   int32
	cls   int32
	sep   int32
}

// maxWordChars is the longest word WordPiece splits; longer words become
// [UNK] (BERT's max_input_chars_per_word).
const maxWordChars = 100

// NewTokenizer reads vocab.txt (one token a line; the line number is the
// id). It returns an error if the file cannot be read or lacks [UNK],
// [CLS] or [SEP].
func NewTokenizer(r io.Reader) (*Tokenizer, error) {
	t := &Tokenizer{vocab: make(map[string]int32, 32768)}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1024), 1<<20)
	var id int32
	for sc.Scan() {
		tok := strings.TrimRight(sc.Text(), "\r")
		if _, dup := t.vocab[tok]; !dup {
			t.vocab[tok] = id
		}
		id++
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("bert: vocab: %w", err)
	}
	for _, s := range []struct {
		tok string
		dst *int32
	}{{"[UNK]", &t.unk}, {"[CLS]", &t.cls}, {"[SEP]", &t.sep}} {
		v, ok := t.vocab[s.tok]
		if !ok {
			return nil, fmt.Errorf("bert: vocab has no %s", s.tok)
		}
		*s.dst = v
	}
	return t, nil
}

// Size is the number of ids in the vocabulary.
func (t *Tokenizer) Size() int { return len(t.vocab) }

// HasWord reports whether word, lower-cased and without accents, is one
// whole token of the vocabulary: a word the model's English knows
// ("look", "beach"), which a misspelling ("serach") mostly is not.
func (t *Tokenizer) HasWord(word string) bool {
	_, ok := t.vocab[stripAccents(strings.ToLower(word))]
	return ok && word != "" && !strings.HasPrefix(word, "##") && !strings.HasPrefix(word, "[")
}

// Encode returns the ids of [CLS] text [SEP], cut to at most maxLen ids
// (maxLen >= 2; the [SEP] is kept).
func (t *Tokenizer) Encode(text string, maxLen int) []int32 {
	ids := []int32{t.cls}
	for _, w := range basicTokens(text) {
		ids = t.wordPiece(ids, w)
	}
	if maxLen >= 2 && len(ids) > maxLen-1 {
		ids = ids[:maxLen-1]
	}
	return append(ids, t.sep)
}

// Tokens returns the WordPiece tokens of text, without [CLS] and [SEP]
// (for tests and debugging).
func (t *Tokenizer) Tokens(text string) []string {
	inv := make(map[int32]string, len(t.vocab))
	for k, v := range t.vocab {
		inv[v] = k
	}
	ids := t.Encode(text, 0)
	out := make([]string, 0, len(ids)-2)
	for _, id := range ids[1 : len(ids)-1] {
		out = append(out, inv[id])
	}
	return out
}

// wordPiece appends the ids of word: greedy longest prefix in the
// vocabulary, continuations prefixed "##"; a word with a piece not in the
// vocabulary, or longer than maxWordChars, is one [UNK].
func (t *Tokenizer) wordPiece(ids []int32, word string) []int32 {
	rs := []rune(word)
	if len(rs) > maxWordChars {
		return append(ids, t.unk)
	}
	start := len(ids)
	for lo := 0; lo < len(rs); {
		hi := len(rs)
		found := int32(-1)
		for ; hi > lo; hi-- {
			piece := string(rs[lo:hi])
			if lo > 0 {
				piece = "##" + piece
			}
			if id, ok := t.vocab[piece]; ok {
				found = id
				break
			}
		}
		if found < 0 {
			return append(ids[:start], t.unk)
		}
		ids = append(ids, found)
		lo = hi
	}
	return ids
}

// basicTokens is BERT's BasicTokenizer: drop NUL, U+FFFD and control
// characters, map white space to spaces, put spaces around CJK ideographs,
// lowercase, strip accents (NFD, then drop nonspacing marks), and split on
// white space and punctuation (each punctuation character is a token).
func basicTokens(text string) []string {
	var b strings.Builder
	for _, r := range text {
		switch {
		case r == 0 || r == 0xFFFD || isControl(r):
		case isWhitespace(r):
			b.WriteByte(' ')
		case isCJK(r):
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	var out []string
	for _, w := range strings.Fields(b.String()) {
		w = stripAccents(strings.ToLower(w))
		cur := []rune{}
		for _, r := range w {
			if isPunct(r) {
				if len(cur) > 0 {
					out = append(out, string(cur))
					cur = cur[:0]
				}
				out = append(out, string(r))
				continue
			}
			cur = append(cur, r)
		}
		if len(cur) > 0 {
			out = append(out, string(cur))
		}
	}
	return out
}

func stripAccents(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isWhitespace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || unicode.Is(unicode.Zs, r)
}

func isControl(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs)
}

// isPunct: ASCII non-alphanumeric symbols count as punctuation (as in
// BERT, so "$" and "^" split), plus Unicode category P.
func isPunct(r rune) bool {
	if (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126) {
		return true
	}
	return unicode.IsPunct(r)
}

// isCJK reports a CJK Unified Ideograph (the blocks BERT's
// _is_chinese_char lists).
func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) ||
		(r >= 0x20000 && r <= 0x2A6DF) || (r >= 0x2A700 && r <= 0x2B73F) ||
		(r >= 0x2B740 && r <= 0x2B81F) || (r >= 0x2B820 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) || (r >= 0x2F800 && r <= 0x2FA1F)
}

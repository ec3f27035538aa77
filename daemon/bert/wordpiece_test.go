package bert

import (
	"slices"
	"strings"
	"testing"
)

// tinyVocab is a vocabulary written for these tests (ids are line numbers).
const tinyVocab = "[PAD]\n[UNK]\n[CLS]\n[SEP]\nturn\non\nthe\nlight\n##s\n!\n,\ncafe\nun\n##want\n##ed\n'\nt\ndon\n東\n"

func tinyTokenizer(t testing.TB) *Tokenizer {
	t.Helper()
	tok, err := NewTokenizer(strings.NewReader(tinyVocab))
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestTokenizer(t *testing.T) {
	tok := tinyTokenizer(t)
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Turn ON the lights!", []string{"turn", "on", "the", "light", "##s", "!"}},
		{"  turn\t\non  ", []string{"turn", "on"}},
		{"CAFÉ, unwanted", []string{"cafe", ",", "un", "##want", "##ed"}},
		{"don't", []string{"don", "'", "t"}},
		{"東京", []string{"東", "[UNK]"}},
		{"lightx", []string{"[UNK]"}},                 // a piece missing: the whole word is [UNK]
		{"tu\x00rn\u200b on", []string{"turn", "on"}}, // NUL and a zero-width space (Cf) dropped
		{strings.Repeat("a", maxWordChars+1), []string{"[UNK]"}},
		{"", []string{}},
	} {
		if got := tok.Tokens(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEncodeTruncates(t *testing.T) {
	tok := tinyTokenizer(t)
	ids := tok.Encode("turn on the lights turn on", 5)
	if want := []int32{2, 4, 5, 6, 3}; !slices.Equal(ids, want) {
		t.Fatalf("Encode = %v, want %v", ids, want)
	}
}

func TestNewTokenizerErrors(t *testing.T) {
	if _, err := NewTokenizer(strings.NewReader("a\nb\n[CLS]\n[SEP]\n")); err == nil {
		t.Fatal("a vocab without [UNK] was accepted")
	}
}

func FuzzTokenizer(f *testing.F) {
	for _, s := range []string{"Turn ON the lights!", "CAFÉ", "東京", "\x00\xff", "don't"} {
		f.Add(s)
	}
	tok := tinyTokenizer(f)
	f.Fuzz(func(t *testing.T, s string) {
		ids := tok.Encode(s, 16)
		if len(ids) < 2 || len(ids) > 16 || ids[0] != tok.cls || ids[len(ids)-1] != tok.sep {
			t.Fatalf("Encode(%q) = %v", s, ids)
		}
		for _, id := range ids {
			if id < 0 || int(id) >= tok.Size() {
				t.Fatalf("id %d out of the vocabulary", id)
			}
		}
	})
}

// TestHasWord: a whole token of the vocabulary is a word, any case and
// accents aside; a word WordPiece would split ("unwanted") or a piece of
// one ("##s") is not.
func TestHasWord(t *testing.T) {
	tok := tinyTokenizer(t)
	for w, want := range map[string]bool{"light": true, "Light": true, "café": true, "unwanted": false, "##s": false, "[CLS]": false, "lihgt": false, "": false} {
		if got := tok.HasWord(w); got != want {
			t.Errorf("HasWord(%q) = %v, want %v", w, got, want)
		}
	}
}

package intent

import (
	"slices"
	"strings"
)

// FileNames returns the file names written in s without quote marks
// ("keep it as scan7.png", "open backup.tar.gz"), as word values with byte
// offsets into s: a word of letters, digits, "_" or "-" with at least one
// letter or "_", followed by one or more extensions (fileNameEnd). Tokenize
// splits such a name at its dots; a caller that types or picks names as
// they are written reads them here. Names inside quote marks are left to
// the quoted value that holds them.
func FileNames(s string) []Value {
	var out []Value
	var quoted [][2]int
	if strings.ContainsFunc(s, isQuoteRune) {
		for _, t := range Tokenize(s) {
			if t.Kind == KindQuoted {
				quoted = append(quoted, [2]int{t.Start, t.End})
			}
		}
	}
	for i := 0; i < len(s); {
		if !isAlnumAt(s, i) || alnumBefore(s, i) || i > 0 && strings.ContainsRune("._-@/", rune(s[i-1])) {
			i++
			continue
		}
		end := wordEnd(s, i)
		e := fileNameEnd(s, end)
		if e > end && strings.ContainsFunc(s[i:end], func(r rune) bool { return r == '_' || !isDigit(r) }) &&
			!slices.ContainsFunc(quoted, func(q [2]int) bool { return i < q[1] && e > q[0] }) {
			out = append(out, Value{Text: s[i:e], Kind: KindWord, Start: i, End: e})
		}
		i = max(e, i+1)
	}
	return out
}

// IsFileName reports whether v is a whole file name as FileNames reads it.
func IsFileName(v Value) bool {
	if v.Kind != KindWord {
		return false
	}
	f := FileNames(v.Text)
	return len(f) == 1 && f[0].Start == 0 && f[0].End == len(v.Text)
}

// fileNameEnd returns where a file name ends when the word ending at byte
// end is followed by one or more extensions — a dot, then two to four ASCII
// letters or digits, the first a letter, and no letter or digit after
// ("scan7.png", "backup.tar.gz") — else end. A dot before a longer word
// ("done.thanks"), one letter ("e.g.") or a digit ("v1.2") is no extension.
func fileNameEnd(s string, end int) int {
	e := end
	for e+1 < len(s) && s[e] == '.' && isASCIILetter(s[e+1]) {
		j := e + 2
		for j < len(s) && j < e+5 && (isASCIILetter(s[j]) || isDigitByte(s[j])) {
			j++
		}
		if j-e-1 < 2 || isAlnumAt(s, j) {
			break
		}
		e = j
	}
	return e
}

func isASCIILetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

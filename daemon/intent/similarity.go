// Token similarity: how well a pattern token matches a command token (same
// stem, one concept, a typo away), and character-trigram similarity.

package intent

import (
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// tokSim is the similarity of a pattern literal p and a command token c,
// 0 when they do not match.
func tokSim(p, c *ptok) float64 {
	if p.slot != "" || c.slot != "" {
		return 0
	}
	if p.stop || c.stop {
		if p.stop && c.stop && (p.text == c.text || stopClass[p.text] != "" && stopClass[p.text] == stopClass[c.text]) {
			return simStop
		}
		return 0
	}
	if p.stem == c.stem {
		return 1
	}
	best := 0.0
	for _, a := range p.concepts {
		for _, b := range c.concepts {
			if a.id == b.id {
				v := simConcept
				if a.weak || b.weak {
					v = simConceptWeak
				}
				best = max(best, v)
			}
		}
	}
	if best > 0 {
		return best
	}
	// a typo: not of an action word (lock/block), not between two
	// vocabulary words (ascending/descending), and not in a digit: names
	// that differ in their digits are other items (track1, track2)
	if p.kind == KindWord && c.kind == KindWord && !p.hasAction() && !c.hasAction() &&
		(len(p.concepts) == 0 || len(c.concepts) == 0) && digitsOf(p.text) == digitsOf(c.text) && typo(p.text, c.text) {
		return simFuzzy
	}
	return 0
}

// typo reports whether a and b (lower case) differ by one edit
// (Damerau–Levenshtein: insert, delete, substitute, swap), or two for words
// of 8 runes or more; words shorter than 4 runes must be equal.
func typo(a, b string) bool {
	if a == b || len(a) < 4 || len(b) < 4 {
		return false
	}
	var ra, rb [maxTypoLen]rune
	la, lb := 0, 0
	for _, r := range a {
		if la == maxTypoLen {
			return false
		}
		ra[la] = r
		la++
	}
	for _, r := range b {
		if lb == maxTypoLen {
			return false
		}
		rb[lb] = r
		lb++
	}
	if min(la, lb) < 4 {
		return false
	}
	k := 1
	if min(la, lb) >= 8 {
		k = 2
	}
	if la-lb > k || lb-la > k {
		return false
	}
	return damerau(ra[:la], rb[:lb], k) <= k
}

const maxTypoLen = 31

// damerau is the optimal-string-alignment distance of a and b (at most
// maxTypoLen runes each), giving up (returning k+1) once it exceeds k.
func damerau(a, b []rune, k int) int {
	n, m := len(a), len(b)
	var r0, r1, r2 [maxTypoLen + 1]int
	prev2, prev, cur := r0[:m+1], r1[:m+1], r2[:m+1]
	for j := 0; j <= m; j++ {
		prev[j] = j
	}
	for i := 1; i <= n; i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= m; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > k {
			return k + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[m]
}

// packTri packs three runes into one key.
func packTri(a, b, c rune) uint64 { return uint64(a)<<42 | uint64(b)<<21 | uint64(c) }

// appendTrigrams appends the trigrams of word w padded with spaces
// (" w "), as packed keys.
func appendTrigrams(dst []uint64, w string) []uint64 {
	rs := make([]rune, 0, len(w)+2)
	rs = append(rs, ' ')
	for _, r := range w {
		rs = append(rs, r)
	}
	rs = append(rs, ' ')
	if len(rs) < 3 {
		return dst
	}
	for i := 0; i+3 <= len(rs); i++ {
		dst = append(dst, packTri(rs[i], rs[i+1], rs[i+2]))
	}
	return dst
}

// dice is the Dice coefficient of two sorted multisets of trigram keys.
func dice(a, b []uint64) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	return 2 * float64(screen.CommonSorted(a, b)) / float64(len(a)+len(b))
}

// digitsOf returns the digits of s, in order.
func digitsOf(s string) string {
	return strings.Map(func(r rune) rune {
		if isDigit(r) {
			return r
		}
		return -1
	}, s)
}

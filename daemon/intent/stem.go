package intent

import "strings"

// stemExceptions are words whose Porter stem would collide with an
// unrelated UI word ("settings"→"set", "news"→"new").
var stemExceptions = map[string]string{
	"settings": "setting", "setting": "setting",
	"news": "news",
	"sms":  "sms", "gps": "gps", "os": "os", "ios": "ios",
	"ringing": "ring", "ringtones": "ringtone", "ringtone": "ringtone",
	"wireless": "wireless",
}

// Stem returns the stem of one lower-case English word by the Porter
// stemming algorithm (M. F. Porter, "An algorithm for suffix stripping",
// Program 14(3), 1980: steps 1a–5, as in Porter's reference C
// implementation), with a few exceptions that keep common UI words apart
// ("settings" is not "set"). Words of two letters or fewer, and words with
// anything but ASCII letters, are returned unchanged.
func Stem(word string) string {
	if s, ok := stemExceptions[word]; ok {
		return s
	}
	if len(word) <= 2 {
		return word
	}
	for i := 0; i < len(word); i++ {
		if c := word[i]; c < 'a' || c > 'z' {
			return word
		}
	}
	p := porter{b: []byte(word), k: len(word) - 1}
	p.step1ab()
	if p.k > 0 {
		p.step1c()
		p.step2()
		p.step3()
		p.step4()
		p.step5()
	}
	return string(p.b[:p.k+1])
}

// porter holds the word being stemmed: b[0..k] is the current word, j a
// general offset set by ends.
type porter struct {
	b    []byte
	k, j int
}

// cons reports whether b[i] is a consonant.
func (p *porter) cons(i int) bool {
	switch p.b[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		if i == 0 {
			return true
		}
		return !p.cons(i - 1)
	}
	return true
}

// m measures the number of consonant sequences in b[0..j]: <c>(vc)^m<v>.
func (p *porter) m() int {
	n, i := 0, 0
	for {
		if i > p.j {
			return n
		}
		if !p.cons(i) {
			break
		}
		i++
	}
	i++
	for {
		for {
			if i > p.j {
				return n
			}
			if p.cons(i) {
				break
			}
			i++
		}
		i++
		n++
		for {
			if i > p.j {
				return n
			}
			if !p.cons(i) {
				break
			}
			i++
		}
		i++
	}
}

func (p *porter) vowelInStem() bool {
	for i := 0; i <= p.j; i++ {
		if !p.cons(i) {
			return true
		}
	}
	return false
}

func (p *porter) doublec(j int) bool {
	if j < 1 || p.b[j] != p.b[j-1] {
		return false
	}
	return p.cons(j)
}

// cvc reports whether i-2,i-1,i is consonant-vowel-consonant and the last
// consonant is not w, x or y.
func (p *porter) cvc(i int) bool {
	if i < 2 || !p.cons(i) || p.cons(i-1) || !p.cons(i-2) {
		return false
	}
	switch p.b[i] {
	case 'w', 'x', 'y':
		return false
	}
	return true
}

func (p *porter) ends(s string) bool {
	l := len(s)
	if l > p.k+1 || s[l-1] != p.b[p.k] {
		return false
	}
	if string(p.b[p.k-l+1:p.k+1]) != s {
		return false
	}
	p.j = p.k - l
	return true
}

func (p *porter) setto(s string) {
	p.b = append(p.b[:p.j+1], s...)
	p.k = p.j + len(s)
}

func (p *porter) r(s string) {
	if p.m() > 0 {
		p.setto(s)
	}
}

func (p *porter) step1ab() {
	if p.b[p.k] == 's' {
		switch {
		case p.ends("sses"):
			p.k -= 2
		case p.ends("ies"):
			p.setto("i")
		case p.k > 0 && p.b[p.k-1] != 's':
			p.k--
		}
	}
	if p.ends("eed") {
		if p.m() > 0 {
			p.k--
		}
	} else if (p.ends("ed") || p.ends("ing")) && p.vowelInStem() {
		p.k = p.j
		switch {
		case p.ends("at"):
			p.setto("ate")
		case p.ends("bl"):
			p.setto("ble")
		case p.ends("iz"):
			p.setto("ize")
		case p.doublec(p.k):
			p.k--
			switch p.b[p.k] {
			case 'l', 's', 'z':
				p.k++
			}
		default:
			p.j = p.k
			if p.m() == 1 && p.cvc(p.k) {
				p.setto("e")
			}
		}
	}
}

func (p *porter) step1c() {
	if p.ends("y") && p.vowelInStem() {
		p.b[p.k] = 'i'
	}
}

// rules maps the penultimate letter to suffix→replacement rules, tried in order.
type rule struct{ suf, rep string }

var step2Rules = map[byte][]rule{
	'a': {{"ational", "ate"}, {"tional", "tion"}},
	'c': {{"enci", "ence"}, {"anci", "ance"}},
	'e': {{"izer", "ize"}},
	'l': {{"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"}},
	'o': {{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}},
	's': {{"alism", "al"}, {"iveness", "ive"}, {"fulness", "ful"}, {"ousness", "ous"}},
	't': {{"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"}},
	'g': {{"logi", "log"}},
}

var step3Rules = map[byte][]rule{
	'e': {{"icate", "ic"}, {"ative", ""}, {"alize", "al"}},
	'i': {{"iciti", "ic"}},
	'l': {{"ical", "ic"}, {"ful", ""}},
	's': {{"ness", ""}},
}

func (p *porter) applyRules(rules []rule) {
	for _, r := range rules {
		if p.ends(r.suf) {
			p.r(r.rep)
			return
		}
	}
}

func (p *porter) step2() {
	if p.k < 1 {
		return
	}
	p.applyRules(step2Rules[p.b[p.k-1]])
}

func (p *porter) step3() { p.applyRules(step3Rules[p.b[p.k]]) }

var step4Suffixes = map[byte][]string{
	'a': {"al"},
	'c': {"ance", "ence"},
	'e': {"er"},
	'i': {"ic"},
	'l': {"able", "ible"},
	'n': {"ant", "ement", "ment", "ent"},
	's': {"ism"},
	't': {"ate", "iti"},
	'u': {"ous"},
	'v': {"ive"},
	'z': {"ize"},
}

func (p *porter) step4() {
	if p.k < 1 {
		return
	}
	found := false
	if p.b[p.k-1] == 'o' {
		if p.ends("ion") && p.j >= 0 && (p.b[p.j] == 's' || p.b[p.j] == 't') {
			found = true
		} else if p.ends("ou") {
			found = true
		}
	} else {
		for _, s := range step4Suffixes[p.b[p.k-1]] {
			if p.ends(s) {
				found = true
				break
			}
		}
	}
	if found && p.m() > 1 {
		p.k = p.j
	}
}

func (p *porter) step5() {
	p.j = p.k
	if p.b[p.k] == 'e' {
		a := p.m()
		if a > 1 || a == 1 && !p.cvc(p.k-1) {
			p.k--
		}
	}
	if p.b[p.k] == 'l' && p.doublec(p.k) && p.m() > 1 {
		p.k--
	}
}

// stemWord stems a lower-case token text; multi-word and non-letter texts
// are returned as they are.
func stemWord(w string) string {
	if strings.ContainsAny(w, " -'’_") {
		parts := strings.FieldsFunc(w, func(r rune) bool { return r == ' ' || r == '-' || r == '\'' || r == '’' || r == '_' })
		if len(parts) == 0 {
			return w
		}
		// "wi-fi" → "wifi", "don't" → "dont": joined, then stemmed
		return Stem(strings.Join(parts, ""))
	}
	return Stem(w)
}

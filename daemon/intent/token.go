package intent

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Kind is the lexical kind of a token or of a value.
type Kind string

// Token and value kinds.
const (
	KindWord   Kind = "word"   // a word; as a Value: a proper-noun-like word, e-mail address or URL
	KindQuoted Kind = "quoted" // text between quote marks: '…', "…", “…”, ‘…’, «…», `…`
	KindNumber Kind = "number" // 42, 3.5, 2,000, 50%, 3rd, +1 555 0100, 555-0100
	KindTime   Kind = "time"   // 7:30, 7 am, 7:30 p.m., 19:00, 7 o'clock, noon, midnight
	KindDate   Kind = "date"   // 2024-05-03, 3/5, 3.5.2024, 5 May, May 5th, monday, next friday, today, tomorrow
	KindSymbol Kind = "symbol" // one symbol rune: + ⋮ ⚙ ✓ 🔍 …
)

// Token is one token of a text. Offsets are byte offsets into the text
// given to Tokenize, and Orig == text[Start:End]; for a quoted token they
// cover the text inside the quote marks (trimmed of spaces), not the marks.
type Token struct {
	Text  string // normalized: lower-cased, inner runs of white space as one space
	Orig  string // as written
	Kind  Kind
	Start int // byte offset
	End   int // byte offset, exclusive
}

// Tokenize splits s into tokens: words (letters and digits, with inner
// apostrophes and hyphens: "don't", "wi-fi"), symbol runes, and value
// tokens kept whole: quoted strings, numbers (including phone-like digit
// groups), times and dates (see Kind). Punctuation and white space separate
// tokens and are dropped. Tokenize never fails; invalid UTF-8 bytes are
// skipped.
func Tokenize(s string) []Token {
	var out []Token
	// noClose[r] = a position from which a quote opened by r is known to
	// have no closing mark (keeps the scan linear on text full of
	// unmatched quote marks)
	noClose := map[rune]int{}
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			i++
		case unicode.IsSpace(r):
			i += size
		case isQuoteRune(r):
			if from, known := noClose[r]; known && i >= from {
				i += size
				continue
			}
			if t, next, ok := scanQuoted(s, i, r, size); ok {
				if t.Start < t.End {
					out = append(out, t)
				}
				i = next
			} else {
				if next < 0 {
					noClose[r] = i
				}
				i += size
			}
		case isDigit(r) || (r == '+' && i+1 < len(s) && isDigitByte(s[i+1])):
			t, next := scanNumeric(s, i)
			out = append(out, t)
			i = next
		case unicode.IsLetter(r):
			t, next := scanLetters(s, i)
			out = append(out, t)
			i = next
		case unicode.IsSymbol(r):
			end := i + size
			// absorb variation selectors and joiners of emoji
			for end < len(s) {
				r2, s2 := utf8.DecodeRuneInString(s[end:])
				if r2 == 0xFE0F || r2 == 0xFE0E || r2 == 0x200D || unicode.Is(unicode.Mn, r2) {
					end += s2
					continue
				}
				break
			}
			out = append(out, mk(s, i, end, KindSymbol))
			i = end
		default:
			i += size // punctuation and anything else
		}
	}
	return out
}

func mk(s string, start, end int, k Kind) Token {
	o := s[start:end]
	return Token{Text: normText(o), Orig: o, Kind: k, Start: start, End: end}
}

// normText lower-cases o and collapses white space runs to one space.
func normText(o string) string {
	o = strings.ToLower(o)
	if !strings.ContainsFunc(o, unicode.IsSpace) {
		return o
	}
	return strings.Join(strings.Fields(o), " ")
}

func isDigit(r rune) bool     { return r >= '0' && r <= '9' }
func isDigitByte(b byte) bool { return b >= '0' && b <= '9' }

// isAlnumAt reports whether a letter or digit starts at byte j of s.
func isAlnumAt(s string, j int) bool {
	if j < 0 || j >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[j:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// alnumBefore reports whether a letter or digit ends right before byte j.
func alnumBefore(s string, j int) bool {
	if j <= 0 || j > len(s) {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:j])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// boundary reports whether no letter or digit starts at byte j.
func boundary(s string, j int) bool { return !isAlnumAt(s, j) }

// ---- quotes ----

func isQuoteRune(r rune) bool {
	switch r {
	case '"', '\'', '`', '“', '”', '‘', '’', '«', '»', '„', '「', '『':
		return true
	}
	return false
}

// apostrophe-like quote marks double as apostrophes inside words.
func apostropheLike(r rune) bool { return r == '\'' || r == '‘' || r == '’' || r == '`' }

func closersFor(r rune) []rune {
	switch r {
	case '"':
		return []rune{'"', '”', '“'}
	case '“':
		return []rune{'”', '“', '"'}
	case '„':
		return []rune{'“', '”', '"'}
	case '‘', '’':
		return []rune{'’', '‘', '\''}
	case '\'':
		return []rune{'\'', '’'}
	case '`':
		return []rune{'`'}
	case '«':
		return []rune{'»'}
	case '»': // some languages quote »…«
		return []rune{'«'}
	case '「':
		return []rune{'」'}
	case '『':
		return []rune{'』'}
	}
	return nil
}

// scanQuoted reads a quoted string whose opening mark r starts at byte i.
// Apostrophe-like marks open a quote only at the start of a word and close
// it only at the end of one, so "don't" and "Bob's" are not quotes. When
// it fails, next is -1 if no closing mark follows anywhere (so no later
// mark r can open a quote either).
func scanQuoted(s string, i int, r rune, size int) (t Token, next int, ok bool) {
	apo := apostropheLike(r)
	if apo && alnumBefore(s, i) {
		return Token{}, 0, false
	}
	closers := closersFor(r)
	if closers == nil {
		return Token{}, 0, false
	}
	j := i + size
	for j < len(s) {
		c, cs := utf8.DecodeRuneInString(s[j:])
		isClose := false
		for _, cl := range closers {
			if c == cl {
				isClose = true
				break
			}
		}
		if isClose && (!apo || !isAlnumAt(s, j+cs)) {
			start, end := i+size, j
			for start < end {
				r2, s2 := utf8.DecodeRuneInString(s[start:end])
				if !unicode.IsSpace(r2) {
					break
				}
				start += s2
			}
			for end > start {
				r2, s2 := utf8.DecodeLastRuneInString(s[start:end])
				if !unicode.IsSpace(r2) {
					break
				}
				end -= s2
			}
			if start == end {
				return Token{Start: start, End: start}, j + cs, true // empty quotes
			}
			return mk(s, start, end, KindQuoted), j + cs, true
		}
		j += cs
	}
	return Token{}, -1, false
}

// ---- numbers, times and dates ----

const monthRe = `(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`

var (
	reISODate  = regexp.MustCompile(`^\d{4}-\d{1,2}-\d{1,2}`)
	reDMY      = regexp.MustCompile(`^(\d{1,2})([/.\-])(\d{1,2})(?:[/.\-](\d{2,4}))?`)
	reTimeAMPM = regexp.MustCompile(`^(?i)(\d{1,2})(?:[:.](\d{2}))?(?::\d{2})?\s?([ap])(?:\.\s?m\.|m\b)`)
	reTime24   = regexp.MustCompile(`^(\d{1,2}):(\d{2})(?::\d{2})?`)
	reOClock   = regexp.MustCompile(`^(?i)(\d{1,2})\s?o['’]\s?clock`)
	reDayMonth = regexp.MustCompile(`^(?i)(\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+` + monthRe + `\b\.?(?:,?\s+\d{4})?`)
	reMonthDay = regexp.MustCompile(`^(?i)` + monthRe + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+\d{4})?`)
	reNumber   = regexp.MustCompile(`^(?i)\+?\d+(?:[.,]\d+)*(?:%|st|nd|rd|th)?`)
	reEmail    = regexp.MustCompile(`^[\pL\pN._%+\-]+@[\pL\pN\-]+(?:\.[\pL\pN\-]+)*\.\pL{2,}`)
	reURL      = regexp.MustCompile(`^(?i)(?:https?://|www\.)[^\s"'“”‘’<>]+`)
)

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s) && i < 6; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// maxValueLen bounds the text a value regexp looks at: no number, time,
// date, e-mail address or URL in a command is longer, and the bound keeps
// tokenizing linear in the input.
const maxValueLen = 256

// window is s from byte i, at most maxValueLen bytes.
func window(s string, i int) string {
	if len(s)-i > maxValueLen {
		return s[i : i+maxValueLen]
	}
	return s[i:]
}

// endsOK reports whether a value match ending at byte end stops at a word
// boundary (so "7 amazing" is not a time).
func endsOK(s string, end int) bool { return boundary(s, end) }

// scanNumeric reads a number, time or date starting at byte i (a digit or
// '+' followed by a digit).
func scanNumeric(s string, i int) (Token, int) {
	rest := window(s, i)
	if rest[0] != '+' {
		if m := reISODate.FindString(rest); m != "" && endsOK(s, i+len(m)) {
			return mk(s, i, i+len(m), KindDate), i + len(m)
		}
		if m := reTimeAMPM.FindStringSubmatch(rest); m != nil && endsOK(s, i+len(m[0])) {
			h := atoi(m[1])
			if h >= 1 && h <= 12 && (m[2] == "" || atoi(m[2]) < 60) {
				return mk(s, i, i+len(m[0]), KindTime), i + len(m[0])
			}
		}
		if m := reOClock.FindStringSubmatch(rest); m != nil && endsOK(s, i+len(m[0])) {
			if h := atoi(m[1]); h >= 1 && h <= 12 {
				return mk(s, i, i+len(m[0]), KindTime), i + len(m[0])
			}
		}
		if m := reDMY.FindStringSubmatch(rest); m != nil && endsOK(s, i+len(m[0])) {
			a, b := atoi(m[1]), atoi(m[3])
			// two parts need a slash (3.5 is a number, 7-8 a range); three parts any separator
			if a >= 1 && b >= 1 && a <= 31 && b <= 31 && (a <= 12 || b <= 12) && (m[4] != "" || m[2] == "/") {
				return mk(s, i, i+len(m[0]), KindDate), i + len(m[0])
			}
		}
		if m := reTime24.FindStringSubmatch(rest); m != nil && endsOK(s, i+len(m[0])) {
			if atoi(m[1]) < 24 && atoi(m[2]) < 60 {
				return mk(s, i, i+len(m[0]), KindTime), i + len(m[0])
			}
		}
		if m := reDayMonth.FindStringSubmatch(rest); m != nil && endsOK(s, i+len(m[0])) {
			if d := atoi(m[1]); d >= 1 && d <= 31 {
				return mk(s, i, i+len(m[0]), KindDate), i + len(m[0])
			}
		}
	}
	m := reNumber.FindString(rest)
	end := i + len(m)
	if !boundary(s, end) {
		// digits running into letters ("4g", "5ghz"): one word token
		j := end
		for j < len(s) && isAlnumAt(s, j) {
			_, sz := utf8.DecodeRuneInString(s[j:])
			j += sz
		}
		return mk(s, i, j, KindWord), j
	}
	// phone-like groups: 555-0100, +1 212 555 0100, 0611 223344
	plus := rest[0] == '+'
	first := len(m)
	if plus {
		first--
	}
	for end < len(s) {
		sep := s[end]
		if sep != '-' && sep != ' ' {
			break
		}
		j := end + 1
		for j < len(s) && isDigitByte(s[j]) {
			j++
		}
		n := j - end - 1
		if n == 0 || !boundary(s, j) {
			break
		}
		if sep == '-' && n < 2 {
			break
		}
		if sep == ' ' && !(n >= 3 && (plus || first >= 3)) && !(plus && n >= 1) {
			break
		}
		end = j
	}
	return mk(s, i, end, KindNumber), end
}

// ---- words ----

var months = setOf("jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june",
	"jul", "july", "aug", "august", "sep", "sept", "september", "oct", "october", "nov", "november", "dec", "december")

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

var weekdays = map[string]bool{
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true, "saturday": true, "sunday": true,
	"mondays": true, "tuesdays": true, "wednesdays": true, "thursdays": true, "fridays": true, "saturdays": true, "sundays": true,
}

var dayWords = map[string]bool{"today": true, "tomorrow": true, "tonight": true, "yesterday": true}

var timeWords = map[string]bool{"noon": true, "midday": true, "midnight": true}

var dateLead = map[string]bool{"next": true, "this": true, "last": true, "every": true}

// wordEnd returns the end of the word starting at i: letters, digits and
// marks, with inner apostrophes, hyphens and underscores.
func wordEnd(s string, i int) int {
	j := i
	for j < len(s) {
		r, sz := utf8.DecodeRuneInString(s[j:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
			j += sz
			continue
		}
		if (r == '\'' || r == '’' || r == '-' || r == '_') && j > i && isAlnumAt(s, j+sz) {
			j += sz
			continue
		}
		break
	}
	return j
}

func scanLetters(s string, i int) (Token, int) {
	rest := window(s, i)
	if (len(rest) > 4 && (rest[0] == 'h' || rest[0] == 'H' || rest[0] == 'w' || rest[0] == 'W')) && hasPrefixFold(rest, "http") || hasPrefixFold(rest, "www.") {
		if m := reURL.FindString(rest); m != "" {
			m = strings.TrimRight(m, ".,;:!?)]}")
			return mk(s, i, i+len(m), KindWord), i + len(m)
		}
	}
	run := rest // up to the next white space
	if k := strings.IndexFunc(run, unicode.IsSpace); k >= 0 {
		run = run[:k]
	}
	if at := strings.IndexByte(run, '@'); at > 0 {
		if m := reEmail.FindString(run); m != "" {
			return mk(s, i, i+len(m), KindWord), i + len(m)
		}
	}
	end := wordEnd(s, i)
	if months[strings.ToLower(s[i:end])] {
		if m := reMonthDay.FindStringSubmatch(rest); m != nil && endsOK(s, i+len(m[0])) {
			if d := atoi(m[1]); d >= 1 && d <= 31 {
				return mk(s, i, i+len(m[0]), KindDate), i + len(m[0])
			}
		}
	}
	w := strings.ToLower(s[i:end])
	switch {
	case weekdays[w] || dayWords[w]:
		return mk(s, i, end, KindDate), end
	case timeWords[w]:
		return mk(s, i, end, KindTime), end
	case dateLead[w]:
		// "next friday", "every monday"
		j := end
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j > end && j < len(s) {
			e2 := wordEnd(s, j)
			if weekdays[strings.ToLower(s[j:e2])] {
				return mk(s, i, e2, KindDate), e2
			}
		}
	}
	return mk(s, i, end, KindWord), end
}

// FoldAccents lower-cases s and removes its diacritics ("Açores" →
// "acores").
func FoldAccents(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, strings.ToLower(s))
	if err != nil {
		return strings.ToLower(s)
	}
	return out
}

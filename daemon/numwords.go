package daemon

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

// Number words: a spoken or typed command may spell its numbers ("dial
// nine nine nine", "a timer for ten minutes") where the app and the flows
// write digits. Matching compares a value with a value, so the spelt
// number is a word nobody wrote. Before matching, a run of two or more
// digit names is read as its digits ("nine nine nine" as "999"), and a
// tens name and a digit name together ("seventy five") as their number,
// a single number name (intent.NumberWord: "five", and "twenty-five") as
// its number when the texts (the flows' words, an app's labels) never
// write that word themselves (a keypad's "Five" key keeps "five"); "one"
// alone stays a word ("the last one").

// digitOf returns the digit a word names as said one by one ("nine",
// "oh" for zero), false for any other word.
func digitOf(w string) (int, bool) {
	if w == "oh" {
		return 0, true
	}
	n, ok := intent.NumberWord(w)
	return n, ok && n < 10
}

// single are number names never read as a number on their own: "one" is
// a pronoun ("the last one"), "oh" an interjection.
var single = map[string]bool{"one": true, "oh": true}

// numberOf returns the number a word names: "five", "twenty", and
// "twenty-five" (a tens word, a hyphen, a digit word); false otherwise.
func numberOf(w string) (int, bool) {
	w = strings.ToLower(w)
	if n, ok := intent.NumberWord(w); ok {
		return n, true
	}
	tens, unit, ok := strings.Cut(w, "-")
	t, ok1 := intent.NumberWord(tens)
	u, ok2 := digitOf(unit)
	if ok && ok1 && ok2 && t >= 20 && t < 100 && t%10 == 0 && u > 0 {
		return t + u, true
	}
	return 0, false
}

// ReadNumberWords returns command with its number words read as digits
// (see above), and whether it read any; quoted values are the owner's
// text and stay as they are. "oh" counts as zero only inside a run of
// digit names ("five oh one").
func ReadNumberWords(command string, texts []string) (string, bool) {
	return outsideQuotes(command, func(part string) (string, bool) { return readNumberWords(part, texts, true) })
}

// readDigitNames is ReadNumberWords for runs of digit names only ("nine
// one one"): the flow matcher's reading. A single number name stays a
// word there — a value the flow does not use would bar a flow whose
// value the owner says another way ("ten minutes" for "10:00"), which
// the owner may still be offered.
func readDigitNames(command string, texts []string) (string, bool) {
	return outsideQuotes(command, func(part string) (string, bool) { return readNumberWords(part, texts, false) })
}

// numberedAt returns the name words[i] and the number after it say
// together when the texts write it as one word of letters then digits
// (known: "clip seven" → "clip7", "video twenty two" → "video22"), and how
// many words they are; the number is a run of digit names, or a tens
// name and a digit name, with no punctuation between the words.
func numberedAt(words []string, i int, core func(string) string, known func(string) bool) (string, int, bool) {
	if i+1 >= len(words) || !strings.HasSuffix(words[i], core(words[i])) {
		return "", 0, false
	}
	name := strings.ToLower(core(words[i]))
	if name == "" || strings.ContainsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) }) {
		return "", 0, false
	}
	if n, ok := compoundAt(words, i+1, core); ok && known(name+strconv.Itoa(n)) {
		return core(words[i]) + strconv.Itoa(n), 3, true
	}
	var digits strings.Builder
	k := i + 1
	for k < len(words) {
		c := core(words[k])
		digit, ext, _ := strings.Cut(c, ".") // "one.m4a": a file's name heard (intent.Heard)
		d, ok := digitOf(strings.ToLower(digit))
		if !ok || !strings.HasPrefix(words[k], c) || k > i+1 && !strings.HasSuffix(words[k-1], core(words[k-1])) {
			break
		}
		digits.WriteString(strconv.Itoa(d))
		k++
		if known(name + digits.String()) {
			if ext != "" {
				ext = "." + ext
			}
			return core(words[i]) + digits.String() + ext, k - i, true
		}
		if ext != "" {
			break
		}
	}
	return "", 0, false
}

// hundredAt returns the number the words from words[i] say as hundreds
// ("one hundred" → 100, "a hundred and ten" → 110, "two hundred twenty
// five" → 225) and how many words they are, with no punctuation between
// them (core: a word without its punctuation); false otherwise.
func hundredAt(words []string, i int, core func(string) string) (int, int, bool) {
	bare := func(k int) string { // words[k] without punctuation around it, lower case; "" past the end
		if k >= len(words) {
			return ""
		}
		return strings.ToLower(core(words[k]))
	}
	joined := func(k int) bool { // nothing but space between words[k] and words[k+1]
		return strings.HasSuffix(words[k], core(words[k])) && strings.HasPrefix(words[k+1], core(words[k+1]))
	}
	h, ok := digitOf(bare(i))
	if bare(i) == "a" {
		h, ok = 1, true
	}
	if !ok || h == 0 || bare(i) == "oh" || bare(i+1) != "hundred" || !joined(i) {
		return 0, 0, false
	}
	n, k := 100*h, 2
	at := i + 2
	if bare(at) == "and" && at+1 < len(words) && joined(at-1) && joined(at) {
		at++
	}
	if at < len(words) && joined(at-1) {
		if c, ok := compoundAt(words, at, core); ok {
			return n + c, at + 2 - i, true
		}
		if u, ok := intent.NumberWord(bare(at)); ok && u > 0 && u < 100 {
			return n + u, at + 1 - i, true
		}
	}
	return n, k, true
}

// compoundAt returns the number words[i] and words[i+1] say together, a
// tens name and a digit name ("seventy five" → 75), with no punctuation
// between them (core: a word without its punctuation); false otherwise.
func compoundAt(words []string, i int, core func(string) string) (int, bool) {
	if i+1 >= len(words) || core(words[i]) != strings.TrimLeftFunc(words[i], unicode.IsPunct) {
		return 0, false
	}
	t, ok1 := intent.NumberWord(strings.ToLower(core(words[i])))
	next := core(words[i+1])
	u, ok2 := digitOf(strings.ToLower(next))
	if !ok1 || !ok2 || t < 20 || t >= 100 || t%10 != 0 || u == 0 || !strings.HasPrefix(words[i+1], next) {
		return 0, false
	}
	return t + u, true
}

// spoken returns text, the words first … last read as one, with the
// punctuation before first and after last kept ("(nine nine)" → "(99)").
func spoken(first, last, text string, core func(string) string) string {
	lead := first[:strings.Index(first, core(first))]
	return lead + text + last[strings.Index(last, core(last))+len(core(last)):]
}

// readNumberWords is ReadNumberWords on a part of a command without
// quoted values; singles: single number names too.
func readNumberWords(command string, texts []string, singles bool) (string, bool) {
	words := strings.Fields(command)
	var known map[string]bool // the texts' words, lower case, computed when needed
	isKnown := func(w string) bool {
		if known == nil {
			known = map[string]bool{}
			for _, t := range texts {
				for _, f := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
					known[f] = true
				}
			}
		}
		return known[strings.ToLower(w)]
	}
	var numbered map[string]bool // the texts' words of letters then digits ("clip7"), lower case
	isNumbered := func(w string) bool {
		if numbered == nil {
			numbered = map[string]bool{}
			for _, t := range texts {
				for _, f := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
					if strings.ContainsFunc(f, unicode.IsDigit) {
						numbered[f] = true
					}
				}
			}
		}
		return numbered[w]
	}
	core := func(w string) string { return strings.TrimFunc(w, unicode.IsPunct) }
	var out []string
	changed := false
	for i := 0; i < len(words); {
		if name, k, ok := numberedAt(words, i, core, isNumbered); ok {
			// "clip seven" where the app writes "clip7": its name, said
			out = append(out, spoken(words[i], words[i+k-1], name, core))
			changed = true
			i += k
			continue
		}
		// a run of digit names, no punctuation between them
		j := i
		var digits strings.Builder
		for j < len(words) {
			c := core(words[j])
			d, ok := digitOf(strings.ToLower(c))
			if !ok || j > i && (!strings.HasSuffix(words[j-1], core(words[j-1])) || !strings.HasPrefix(words[j], c)) {
				break
			}
			digits.WriteString(strconv.Itoa(d))
			j++
		}
		if j-i >= 2 && strings.ToLower(core(words[i])) != "oh" {
			out = append(out, spoken(words[i], words[j-1], digits.String(), core))
			changed = true
			i = j
			continue
		}
		if n, k, ok := hundredAt(words, i, core); ok {
			// "one hundred and ten": one number
			out = append(out, spoken(words[i], words[i+k-1], strconv.Itoa(n), core))
			changed = true
			i += k
			continue
		}
		if n, ok := compoundAt(words, i, core); ok {
			// "seventy five": one number, whatever the texts write
			out = append(out, spoken(words[i], words[i+1], strconv.Itoa(n), core))
			changed = true
			i += 2
			continue
		}
		c := core(words[i])
		if n, ok := numberOf(c); ok && singles && !single[strings.ToLower(c)] && !isKnown(c) {
			at := strings.Index(words[i], c)
			out = append(out, words[i][:at]+strconv.Itoa(n)+words[i][at+len(c):])
			changed = true
			i++
			continue
		}
		out = append(out, words[i])
		i++
	}
	if !changed {
		return command, false
	}
	return strings.Join(out, " "), true
}

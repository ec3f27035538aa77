package daemon

import (
	"slices"
	"strings"
	"unicode"
)

// Numbers with a unit glued on: the owner writes "24h", "5min", "800px"
// where a flow says "24 hour", "5 minutes", "800 pixels". The lexical
// matcher sees one token where the flow has a number and a word, so the
// flow's literal counts as left out (intent.VetoLiteral). Before matching,
// such a token is read as the flow's phrase when one of the app's flows
// says the same number followed by a word the letters abbreviate, and no
// other phrase does: the flows' own words, no table of units.

// maxUnitLetters bounds the letters glued to a number that may abbreviate
// a unit ("h", "min", "px"); a longer tail is a word of its own ("5days"
// is not this case's concern).
const maxUnitLetters = 3

// ExpandUnits is expandUnits for planners: the command read with its
// numbers with a unit glued on ("24h") as texts (an app's labels) say
// them ("24 hour").
func ExpandUnits(command string, texts []string) (string, bool) {
	return expandUnits(command, texts)
}

// expandUnits returns command with each token of digits followed by 1 to
// maxUnitLetters letters ("24h") replaced by the one phrase of texts that
// is the same number and a word those letters abbreviate ("24 hour"),
// and each such word standing after a number ("10 min") by the one word
// of texts that stands after a number or a slot ("{n} minutes") and that
// it abbreviates, and whether it replaced any. A token for which texts
// hold no such phrase, or two different ones, stays; so does a word the
// texts write themselves.
func expandUnits(command string, texts []string) (string, bool) {
	glued, ok := expandGluedUnits(command, texts)
	spaced, ok2 := outsideQuotes(glued, func(part string) (string, bool) { return expandSpacedUnits(part, texts) })
	return spaced, ok || ok2
}

// expandGluedUnits is expandUnits for units glued to their number
// ("24h").
func expandGluedUnits(command string, texts []string) (string, bool) {
	var split [][]string // the texts' words, lower case, computed when needed
	return readAs(command, func(core string) string {
		num, unit := splitNumberUnit(core)
		if num == "" {
			return ""
		}
		if split == nil {
			split = make([][]string, len(texts))
			for i, t := range texts {
				split[i] = strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != ':' && r != '.' })
			}
		}
		var phrase oneReading
		for _, tw := range split {
			for k := 0; k+1 < len(tw); k++ {
				if tw[k] == num && abbreviates(unit, tw[k+1]) {
					phrase.add(tw[k] + " " + tw[k+1])
				}
			}
		}
		return phrase.result()
	})
}

// abbreviates reports whether letters abbreviate word: the same first
// letter, and the rest in order among the word's ("h", "hr" for "hour";
// "min", "mins" for "minutes"; "px" for "pixels"; "pt" for "points").
func abbreviates(letters, word string) bool {
	if letters == "" || word == "" || letters[0] != word[0] {
		return false
	}
	i := 1
	for j := 1; j < len(word) && i < len(letters); j++ {
		if word[j] == letters[i] {
			i++
		}
	}
	return i == len(letters)
}

// splitNumberUnit splits "24h" into "24" and "h": digits (with at most one
// inner '.' or ',') then 1 to maxUnitLetters lower-cased letters; "", ""
// for anything else.
func splitNumberUnit(tok string) (string, string) {
	i := 0
	for i < len(tok) && (tok[i] >= '0' && tok[i] <= '9' || i > 0 && (tok[i] == '.' || tok[i] == ',') && i+1 < len(tok) && tok[i+1] >= '0' && tok[i+1] <= '9') {
		i++
	}
	if i == 0 || i == len(tok) {
		return "", ""
	}
	unit := strings.ToLower(tok[i:])
	if len(unit) > maxUnitLetters || strings.ContainsFunc(unit, func(r rune) bool { return r < 'a' || r > 'z' }) {
		return "", ""
	}
	return tok[:i], unit
}

// expandSpacedUnits is expandUnits for a unit written apart from its
// number ("10 min"), on a part of a command without quoted values.
func expandSpacedUnits(command string, texts []string) (string, bool) {
	words := strings.Fields(command)
	if len(words) < 2 {
		return command, false
	}
	var own map[string]bool // the texts' words
	var after []string      // the texts' words after a number or a slot
	changed := false
	for i := 1; i < len(words); i++ {
		num := strings.TrimFunc(words[i-1], unicode.IsPunct)
		core := strings.TrimFunc(words[i], unicode.IsPunct)
		unit := strings.ToLower(core)
		if !allDigits(num) || unit == "" || len(unit) > maxUnitLetters || strings.ContainsFunc(unit, func(r rune) bool { return r < 'a' || r > 'z' }) {
			continue
		}
		if own == nil {
			own, after = unitWords(texts)
		}
		if own[unit] {
			continue
		}
		var word oneReading
		for _, w := range after {
			if len(w) > len(unit) && abbreviates(unit, w) {
				word.add(w)
			}
		}
		if r := word.result(); r != "" {
			at := strings.Index(words[i], core)
			words[i] = words[i][:at] + r + words[i][at+len(core):]
			changed = true
		}
	}
	if !changed {
		return command, false
	}
	return strings.Join(words, " "), true
}

// unitWords returns the words of texts (lower case) and those of them
// that stand right after a number or a slot placeholder ("{n} minutes").
func unitWords(texts []string) (map[string]bool, []string) {
	own := map[string]bool{}
	var after []string
	for _, t := range texts {
		ws := strings.Fields(strings.ToLower(t))
		for k, w := range ws {
			w = strings.TrimFunc(w, unicode.IsPunct)
			own[w] = true
			if k == 0 || !strings.ContainsFunc(w, unicode.IsLetter) {
				continue
			}
			prev := ws[k-1]
			if allDigits(strings.TrimFunc(prev, unicode.IsPunct)) || strings.HasPrefix(prev, "{") && strings.HasSuffix(prev, "}") {
				if !slices.Contains(after, w) {
					after = append(after, w)
				}
			}
		}
	}
	return own, after
}

// allDigits reports whether s is one or more ASCII digits.
func allDigits(s string) bool {
	return s != "" && !strings.ContainsFunc(s, func(r rune) bool { return r < '0' || r > '9' })
}

package daemon

import (
	"slices"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Acronyms: the owner may say the initials of words a flow says in full
// ("the ftp server" for a flow "connect to the file transfer protocol
// server"; "gps off" for "turn off global positioning system"). The
// lexical matcher aligns a word with a word, so such a command shares
// nothing with its flow. Before matching, a word of the command that is
// the initials of a run of words of one of the app's flows (its intent or
// a past command), and of no other run, is read as those words. The idea
// is the one the grounding of substituted words uses for screen labels
// (semantic.screenWords, acronyms of labels); here it reads the flows' own
// words, never a vocabulary.

// minAcronym and maxAcronym bound the letters of a word read as an
// acronym: two letters are too often a word ("ok", "on"), more than five
// rarely an acronym.
const (
	minAcronym = 3
	maxAcronym = 5
)

// ExpandAcronyms is expandAcronyms for planners: the command read with
// the acronyms of runs of words of texts (an app's labels: "the vpn" as
// "the virtual private network") spelled out.
func ExpandAcronyms(command string, texts []string) (string, bool) {
	return expandAcronyms(command, texts)
}

// expandAcronyms returns command with each word that spells the initials
// of exactly one run of words of the texts replaced by that run, and
// whether it replaced any. A word is never read as an acronym when some
// text has it as a word (it is the flows' own word) or when it is a stop
// word; one holding a digit ("cal2024", a name) spells no initials. A run
// holds no stop word ("the archive tab" is no phrase anyone abbreviates
// as "tat"); slot placeholders ("{title}") are no words of a run.
func expandAcronyms(command string, texts []string) (string, bool) {
	var split [][]string      // the texts' words (acronymWords), computed when needed
	var known map[string]bool // the same words, lower case
	return readAs(command, func(core string) string {
		lw := strings.ToLower(core)
		n := len([]rune(lw))
		if n < minAcronym || n > maxAcronym || intent.IsStopword(lw) {
			return ""
		}
		if known == nil {
			known = map[string]bool{}
			for _, t := range texts {
				tw := acronymWords(t)
				split = append(split, tw)
				for _, w := range tw {
					known[strings.ToLower(w)] = true
				}
			}
		}
		if known[lw] {
			return ""
		}
		var run oneReading
		for _, tw := range split {
			for k := 0; k+n <= len(tw); k++ {
				if initialsOf(tw[k:k+n]) != lw || slices.ContainsFunc(tw[k:k+n], intent.IsStopword) {
					continue
				}
				run.add(strings.ToLower(strings.Join(tw[k:k+n], " ")))
			}
		}
		return run.result()
	})
}

// acronymWords splits a flow text into words of letters, slot
// placeholders and everything else dropped; a placeholder breaks a run.
func acronymWords(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == '\'' || r == '"' || r == ',' || r == '.' }) {
		if strings.HasPrefix(f, "{") || !strings.ContainsFunc(f, unicode.IsLetter) {
			out = append(out, "") // breaks a run: no initial
			continue
		}
		out = append(out, f)
	}
	return out
}

// initialsOf returns the lower-case first letters of words, "" when one
// of them is empty or does not begin with a letter.
func initialsOf(words []string) string {
	b := make([]rune, 0, len(words))
	for _, w := range words {
		r := []rune(w)
		if len(r) == 0 || !unicode.IsLetter(r[0]) {
			return ""
		}
		b = append(b, unicode.ToLower(r[0]))
	}
	return string(b)
}

// flowTextsOf returns the intents and past commands of pkg's healthy flows
// in flows, in flow order (ids ascending).
func flowTextsOf(flows map[int64]*knowledge.Flow, pkg string) []string {
	var out []string
	for _, id := range poolOf(flows, pkg) {
		f := flows[id]
		out = append(out, f.Intent)
		out = append(out, f.Commands...)
	}
	return slices.Clip(out)
}

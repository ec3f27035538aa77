package daemon

import (
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// The words of a command that name an option of a flow's option group,
// and the command rewritten to the option the flow learned (anchor.go,
// rule 1 and 2).

// wordSpan is a word of a text and its byte range.
type wordSpan struct {
	word       string // lower case
	start, end int
}

// wordSpans splits s as choiceWords does, keeping each word's byte range
// ("&" is the word "and", its range the sign's).
func wordSpans(s string) []wordSpan {
	var out []wordSpan
	start := -1
	for i, r := range s {
		in := wordRune(r)
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			out = append(out, wordSpan{strings.ToLower(s[start:i]), start, i})
			start = -1
		}
		if r == '&' {
			out = append(out, wordSpan{"and", i, i + 1})
		}
	}
	if start >= 0 {
		out = append(out, wordSpan{strings.ToLower(s[start:]), start, len(s)})
	}
	return out
}

// optionWords returns the stems that name labels[i] in its group: its
// distinguishing words, or of a pair, the words the other lacks.
func optionWords(labels []string, i int) []string {
	if len(labels) == 2 {
		return pairWords(labels, i)
	}
	return stems(distinguishing(labels, i))
}

// ownWords is optionWords as the label writes them (lower case, not
// stemmed): what a command rewritten to that option says.
func ownWords(labels []string, i int) []string {
	want := setOf(optionWords(labels, i))
	var out []string
	for _, w := range choiceWords(labels[i]) {
		if want[optionStem(w)] {
			out = append(out, w)
		}
	}
	return out
}

// anchorNamed is named for a group of three options or more; of a pair
// ("Ascending", "Descending"), the one option whose own words (those the
// other lacks) the command all says while it says none of the other's.
func anchorNamed(labels []string, words []string) ([]int, bool) {
	switch len(labels) {
	case 0, 1:
		return nil, false
	case 2:
		have := setOf(words)
		var out []int
		for i := range labels {
			mine, theirs := pairWords(labels, i), pairWords(labels, 1-i)
			if len(mine) > 0 && allIn(mine, have) && !slices.ContainsFunc(theirs, func(w string) bool { return have[w] }) {
				out = append(out, i)
			}
		}
		return out, len(out) > 0
	}
	return named(labels, words)
}

// pairWords returns the stems of labels[i] (one of two) that the other
// label lacks.
func pairWords(labels []string, i int) []string {
	other := setOf(stems(choiceWords(labels[1-i])))
	var out []string
	for _, w := range stems(choiceWords(labels[i])) {
		if !other[w] {
			out = append(out, w)
		}
	}
	return out
}

// optionSpan returns the first and last index in words (stems, as
// optionStem gives them) of the distinguishing words of labels[i], and
// whether they lie together: at most twice as many words as they are.
func optionSpan(labels []string, i int, words []string) (int, int, bool) {
	want := setOf(optionWords(labels, i))
	first, last := -1, -1
	for k, w := range words {
		if want[w] {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	return first, last, first >= 0 && last-first+1 <= 2*len(want)
}

// optionGroup returns the option group of step st and whether it is a
// choice slot's (Choices, with the slot's name) or an option tap's the
// learning command did not name (Options, name ""); nil when it is
// neither.
func optionGroup(st knowledge.Step) (labels []string, slot string) {
	if name, ok := st.ChoiceSlot(); ok {
		return st.Choices, name
	}
	if st.Action == device.Tap && len(st.Options) > 0 {
		return st.Options, ""
	}
	return nil, ""
}

// contrastWords open what a command compares with or sets aside, not what
// it asks for: "bigger than huge", "a grid instead of a list",
// "rather than daily".
var contrastWords = map[string]bool{"than": true, "instead": true}

// contrasted blanks in words (the stems of spans) the words after a
// contrast word ("than", "instead of"), up to three, before "and", "but",
// "or" or "then": no option is named by them.
func contrasted(spans []wordSpan, words []string) {
	for k := 0; k < len(spans); k++ {
		if !contrastWords[spans[k].word] {
			continue
		}
		n := 0
		for j := k + 1; j < len(spans) && n < 3; j++ {
			switch w := spans[j].word; {
			case w == "of" && j == k+1:
				continue
			case w == "and" || w == "but" || w == "or" || w == "then":
				j = len(spans)
				continue
			}
			words[j] = ""
			n++
		}
	}
}

// anchorsOf returns, for flow f, the command rewritten to f's learned
// options for every option group whose option the command names (rule
// 1), and the command's words for each: options by choice slot, picks by
// step index for option taps that are no slot (knowledge.Step.Options);
// ok is false when the command names no option of f, or names one
// ambiguously, with its words apart, or only options other flows offer
// too (shared).
func anchorsOf(command string, f *knowledge.Flow, shared map[string]bool) (rewritten string, options map[string]string, picks map[int]string, common, ok bool) {
	spans := wordSpans(command)
	words := make([]string, len(spans))
	for i, s := range spans {
		words[i] = optionStem(s.word)
	}
	contrasted(spans, words)
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	for i, st := range f.Steps {
		labels, name := optionGroup(st)
		opts, full := anchorNamed(labels, words)
		if !full || len(opts) != 1 {
			continue
		}
		common = common || shared[strings.ToLower(labels[opts[0]])]
		first, last, together := optionSpan(labels, opts[0], words)
		if !together {
			return "", nil, nil, false, false
		}
		said := command[spans[first].start:spans[last].end]
		if name != "" {
			if options == nil {
				options = map[string]string{}
			}
			options[name] = said
		} else {
			if picks == nil {
				picks = map[int]string{}
			}
			picks[i] = said
		}
		if opts[0] != 0 {
			edits = append(edits, edit{spans[first].start, spans[last].end, strings.Join(ownWords(labels, 0), " ")})
		}
	}
	if options == nil && picks == nil {
		return "", nil, nil, false, false
	}
	slices.SortFunc(edits, func(a, b edit) int { return b.start - a.start })
	rewritten = command
	for k, e := range edits {
		if k > 0 && e.end > edits[k-1].start {
			return "", nil, nil, false, false // two options named by the same words
		}
		rewritten = rewritten[:e.start] + e.text + rewritten[e.end:]
	}
	return rewritten, options, picks, common, true
}

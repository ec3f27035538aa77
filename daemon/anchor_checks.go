package daemon

import (
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// The checks of the anchors' rule on the command's other words (anchor.go,
// rule 2 and 3): its verb, its values, the words naming the app, the
// words a slot took beyond its option.

// otherAction reports whether the command asks for another action than
// the flow: a word it adds is a strong action word ("delete", "share"),
// or its verb (leadWord), weak ones too, is an action word it adds while
// the flow has one the command leaves out ("start lists with the oldest"
// against "sort lists by oldest") — or a verb the vocabulary does not
// know at all, followed by an article or pronoun (semantic.LeadingWord),
// that is none of the words naming an option (said): "eject the memory
// card" against "change the storage location to memory card", not "sepia
// the palette" for the option "Sepia". extra and flowLone are the words the command
// adds and the flow's words it leaves out.
func otherAction(command string, extra, flowLone, said []string) bool {
	if slices.ContainsFunc(extra, intent.StrongAction) {
		return true
	}
	lead := leadWord(command)
	if !slices.Contains(extra, lead) || !slices.ContainsFunc(flowLone, intent.ActionWord) {
		return false
	}
	if intent.ActionWord(lead) {
		return true
	}
	return len(intent.Concepts(lead)) == 0 && semantic.LeadingWord(command) == lead &&
		!slices.ContainsFunc(said, func(s string) bool { return slices.Contains(choiceWords(s), lead) })
}

// strayValue returns a value of the command (a quoted text, a number, a
// time, a date, or a word with digits or a dot inside: a file name) that
// is not within the words naming an option (options, picks), "" when
// there is none: an anchored flow types nothing, so such a value would be
// dropped.
func strayValue(command string, options map[string]string, picks map[int]string) string {
	said := namedWords(options, picks)
	within := func(v string) bool {
		vw := choiceWords(v)
		return slices.ContainsFunc(said, func(s string) bool {
			sw := choiceWords(s)
			return allIn(vw, setOf(sw)) || allIn(sw, setOf(vw))
		})
	}
	for _, v := range intent.Understand(command).Values {
		switch v.Kind {
		case intent.KindQuoted, intent.KindNumber, intent.KindTime, intent.KindDate:
			if !within(v.Text) {
				return v.Text
			}
		}
	}
	for _, f := range strings.Fields(command) {
		f = strings.Trim(f, ".,;:!?'\"()")
		if strings.ContainsFunc(f, unicode.IsDigit) || strings.Contains(f, ".") {
			if !within(f) && !slices.ContainsFunc(choiceWords(f), func(w string) bool { return numberDigits(w) != "" }) {
				return f
			}
		}
	}
	return ""
}

// namedWords lists the command's words for the options it names: those
// of choice slots (options) and of option taps (picks).
func namedWords(options map[string]string, picks map[int]string) []string {
	return append(slices.Collect(maps.Values(options)), slices.Collect(maps.Values(picks))...)
}

// appWords returns the words (lower case) of the command that name the
// app labelled appLabel (intent.AppNamed: "book shelf" of "book shelf
// deep blue palette"): they say which app, never which element.
func appWords(command, appLabel string) map[string]bool {
	out := map[string]bool{}
	for _, r := range intent.AppNamed(command, appLabel) {
		for _, w := range choiceWords(command[r[0]:r[1]]) {
			out[w] = true
		}
	}
	return out
}

// withoutWords returns words without those (lower case) in drop.
func withoutWords(words []string, drop map[string]bool) []string {
	out := words[:0:0]
	for _, w := range words {
		if !drop[strings.ToLower(w)] {
			out = append(out, w)
		}
	}
	return out
}

// leadWord returns the command's first word that is not a stop word
// (lower case): its verb, when it has one ("start names with …"), "" for
// none.
func leadWord(command string) string {
	for _, w := range choiceWords(command) {
		if !intent.IsStopword(w) {
			return w
		}
	}
	return ""
}

// beyondOption returns the words of value (what the alignment put in the
// choice slot name) that are not words of the option labels of that slot's
// step in f.
func beyondOption(value string, f *knowledge.Flow, name string) []string {
	have := map[string]bool{}
	for _, st := range f.Steps {
		if n, ok := knowledge.SlotRef(st.Text); ok && n == name {
			for _, c := range st.Choices {
				for _, w := range choiceWords(c) {
					have[optionStem(w)] = true
				}
			}
		}
	}
	var out []string
	for _, w := range choiceWords(value) {
		if !have[optionStem(w)] {
			out = append(out, w)
		}
	}
	return out
}

// supported reports whether the command says more of the flow than a
// number: an option named by a word ("Sepia", "Deep blue"), or a content
// word of the rewritten command other than the option's that the flow
// matched ("tiles" in "2 tiles for the front page"). "set the reminder
// delay to 5 minutes" names "5 tiles" of a grid by its number only.
func supported(rewritten string, c intent.Candidate, extra []string, options map[string]string, picks map[int]string) bool {
	for _, v := range namedWords(options, picks) {
		for _, w := range choiceWords(v) {
			if !strings.ContainsFunc(w, unicode.IsDigit) && !intent.IsStopword(w) && numberDigits(w) == "" {
				return true
			}
		}
	}
	skip := map[string]bool{}
	for _, w := range extra {
		skip[optionStem(w)] = true
	}
	for _, v := range c.Slots {
		for _, w := range choiceWords(v) {
			skip[optionStem(w)] = true
		}
	}
	for _, w := range choiceWords(rewritten) {
		if !intent.IsStopword(w) && !skip[optionStem(w)] && !strings.ContainsFunc(w, unicode.IsDigit) {
			return true
		}
	}
	return false
}

// unitSwapped reports whether the command, naming an option of a choice
// step of f, leaves out a word every option of that step shares (the
// choice's unit: "tiles" of "3 tiles", among flowUnmatched) and says a
// word the flow lacks (extra, not where it says it): "set the row count
// to 3" is no "3 tiles".
func unitSwapped(f *knowledge.Flow, flowUnmatched, extra []string) bool {
	if len(extra) == 0 || len(flowUnmatched) == 0 {
		return false
	}
	for _, st := range f.Steps {
		labels, _ := optionGroup(st)
		if len(labels) < 2 {
			continue
		}
		shared := map[string]int{}
		for _, l := range labels {
			seen := map[string]bool{}
			for _, w := range choiceWords(l) {
				if s := intent.Stem(w); !seen[s] {
					seen[s] = true
					shared[s]++
				}
			}
		}
		for _, w := range flowUnmatched {
			if shared[intent.Stem(strings.ToLower(w))] == len(labels) {
				return true
			}
		}
	}
	return false
}

// otherOptionMeant returns the label of an option the command means by an
// object concept of the vocabulary ("z to a", "newest first": descending)
// in one of f's option groups the command names no option of in words
// (options by slot, picks by step index: anchorsOf), where the flow taps
// another option ("Ascending"); "" when none. The anchor rewrites only
// the options named in words: the replay would tap the learned option
// where the command asks for another.
func otherOptionMeant(command string, f *knowledge.Flow, options map[string]string, picks map[int]string) string {
	var meant []string
	for _, c := range intent.Understand(command).Concepts {
		if !intent.IsAction(c) {
			meant = append(meant, c)
		}
	}
	if len(meant) == 0 {
		return ""
	}
	for i, st := range f.Steps {
		labels, slot := optionGroup(st)
		if _, ok := picks[i]; ok || len(labels) < 2 {
			continue
		}
		if _, ok := options[slot]; ok && slot != "" {
			continue
		}
		tapped := intent.Understand(st.Target.Label()).Concepts
		for _, l := range labels {
			if strings.EqualFold(strings.TrimSpace(l), strings.TrimSpace(st.Target.Label())) {
				continue
			}
			for _, c := range intent.Understand(l).Concepts {
				if slices.Contains(meant, c) && !slices.Contains(tapped, c) {
					return l
				}
			}
		}
	}
	return ""
}

// actionNotWritten returns the first word of command (lower case) that
// is a strong action word (intent.StrongAction: "add", "delete") and, by
// its stem, no word of flow f's intent or of a command it was learned or
// replayed for, nor of the words naming an option (said): an action the
// lexical matcher matched by its concept only, where the flow says a weak
// member of it ("add a new countdown" against a flow replayed for "set
// the countdown alert to 5 minutes"); "" when there is none. An option that
// other flows offer too anchors a flow only with none (anchor.go, rule
// 4).
func actionNotWritten(command string, f *knowledge.Flow, said []string) string {
	own := wordStems(slices.Concat([]string{f.Intent}, f.Commands, said)...)
	for _, w := range choiceWords(command) {
		if intent.StrongAction(w) && !own[intent.Stem(w)] {
			return w
		}
	}
	return ""
}

package intent

import (
	"strings"
	"unicode"
)

// A condition restricts when, where or for what a request holds: "set the
// theme to light but only at night", "make the alarm ring only on
// weekends", "clear the call log for Theo only", "delete every event except
// the birthdays", "mute it unless I'm driving". A flow that does the
// request without the restriction does something else (the frozen and
// tuning sets' "extra condition" near misses): the engine replays a flow
// for such a command only when the flow's own texts say the condition's
// words (daemon/condition.go).

var (
	// conditionPreps open the phrase "only" restricts ("only at night",
	// "only for Theo", "only when charging"), before or after it ("on
	// weekdays only")
	conditionPreps = setOf("at", "on", "in", "during", "when", "whenever", "while", "if", "after", "before",
		"between", "from", "until", "till", "for", "with", "without")
	// conditionOpeners open a restriction on their own
	conditionOpeners = setOf("except", "excluding", "unless", "whenever")
)

// Condition returns the content words (lower case, stop words aside) of
// the restricting phrase of command: the words after "except",
// "excluding", "unless", "whenever", "but not", or "only" followed by a
// preposition or conjunction (conditionPreps), up to the end of the
// clause (punctuation, "and", "then"); or of a phrase that a preposition
// opens and "only" closes ("for Theo only"). nil when command has none:
// "only" before a verb or a noun ("only export the current content",
// "sender only") restricts nothing the flow would not say itself.
func Condition(command string) []string {
	var words []Token     // the command's words and values, in order
	brk := map[int]bool{} // punctuation or a symbol before words[k]
	end := 0
	for _, t := range Tokenize(command) {
		if t.Kind == KindSymbol {
			brk[len(words)] = true
			continue
		}
		if strings.ContainsFunc(command[min(end, t.Start):t.Start], unicode.IsPunct) {
			brk[len(words)] = true
		}
		words = append(words, t)
		end = t.End
	}
	clause := func(from int) []string {
		var out []string
		for k := from; k < len(words); k++ {
			w := words[k].Text
			if k > from && (brk[k] || w == "and" || w == "then") {
				break
			}
			if !IsStopword(w) && !conditionPreps[w] && w != "only" {
				out = append(out, w)
			}
		}
		return out
	}
	for i, t := range words {
		w := t.Text
		switch {
		case conditionOpeners[w] && i > 0:
			return clause(i + 1)
		case w == "but" && i+1 < len(words) && words[i+1].Text == "not" && !brk[i+1]:
			return clause(i + 2)
		case w == "only" && i+1 < len(words) && conditionPreps[words[i+1].Text] && !brk[i+1]:
			return clause(i + 1)
		case w == "only" && i > 0 && (i+1 == len(words) || brk[i+1]):
			// "… for Theo only": back to the preposition that opens it,
			// within the clause
			for k := i - 1; k >= 0 && !brk[k+1] && words[k].Text != "and"; k-- {
				if conditionPreps[words[k].Text] {
					return clause(k)
				}
			}
		}
	}
	return nil
}

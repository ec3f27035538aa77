package daemon

import (
	"slices"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// unmetCondition returns the words of the command's restriction
// (intent.Condition: "… but only at night", "… for Theo only", "…
// except the birthdays") that flow f's own texts never say — its intent,
// the commands it was learned and replayed for, and the labels, choices
// and options of its steps — and whether there is one. Such a flow does
// the request for every case, not only the one the command restricts it
// to: replaying it would do more than was asked. A slot's value is no
// text of the flow: "light but only at night" as a theme's name says the
// condition, not the flow.
func unmetCondition(f *knowledge.Flow, command string) ([]string, bool) {
	cond := intent.Condition(command)
	if len(cond) == 0 || f == nil {
		return nil, false
	}
	texts := append([]string{f.Intent}, f.Commands...)
	for _, st := range f.Steps {
		texts = append(append(texts, st.Target.Label()), slices.Concat(st.Choices, st.Options)...)
	}
	says := wordStems(texts...) // stems, and "@" concepts ("Wi-Fi" says "wifi")
	for _, t := range texts {
		for _, c := range intent.Concepts(t) {
			says["@"+c] = true
		}
	}
	var left []string
	for _, w := range cond {
		if !slices.ContainsFunc(choiceWords(w), func(x string) bool { return says[intent.Stem(x)] }) &&
			!slices.ContainsFunc(intent.Concepts(w), func(c string) bool { return says["@"+c] }) {
			left = append(left, w)
		}
	}
	return left, len(left) > 0
}

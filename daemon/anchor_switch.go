package daemon

import (
	"fmt"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Switch anchors: the option anchors' rule (anchor.go) for a flow that
// sets one switch (intent.SwitchOf). Owners name a setting by the words
// of its switch and say the state loosely ("display the page count" for
// the switch "Show page count"; "let me use the side keys to turn pages"
// for "Use side buttons to turn pages"); the lexical matcher reads the
// missing "turn on" as a polarity veto, and the model cannot tell the two
// states apart. The rule, precision first:
//
//  1. The command says two words of the switch's label, or its one word
//     (stems, no stop words); one of them labels no other element of the
//     app's recorded screens; and no other element label has all the words
//     it says of the switch (they name this switch, not a neighbour that
//     shares them). "enable night mode" says one word of "Dark mode".
//  2. The state the command asks for (intent.SwitchState: its on and off
//     words read with the label's own, a negation flipping them) is the
//     state the flow sets. A command with no on or off word asks for the
//     state namedState reads: on for the setting named alone ("side keys
//     turn pages please"), off when negated or stopped ("don't close the
//     reader when opening another app"); one with a verb of its own
//     ("mute …") says none and is left to the other rules.
//  3. No value of the command is left over (strayValue), and no other word
//     labels another element of the app (semantic.Grounding).
//
// A flow is never replayed for the other state: the frozen sets count "the
// other state of a switch" as another command, and the end-screen check
// cannot see a switch's state.

// switchAnchors returns the switch flows of pkg the command names under
// the rule above, with the reason each other named one failed; appNamed
// are the command's words that name the app (appWords).
func switchAnchors(command, pkg string, appNamed map[string]bool, flows map[int64]*knowledge.Flow, g *semantic.Grounding) ([]anchor, []string) {
	var out []anchor
	var why []string
	cw := newCommandWords(command, g.Labels(pkg))
	stray := strayValue(command, nil, nil)
	for _, id := range poolOf(flows, pkg) {
		f := flows[id]
		label, on, ok := intent.SwitchOf(f)
		if !ok || typesText(f) {
			continue
		}
		covered, mine, refused := cw.names(label, 1, nil)
		if refused != "" {
			why = append(why, fmt.Sprintf("flow %d: %s", id, refused))
		}
		if covered == 0 {
			continue
		}
		state := intent.SwitchState(command, label)
		if state == 0 {
			state = namedState(command, label, cw.content)
		}
		if state == 0 {
			why = append(why, fmt.Sprintf("flow %d: the command says no state of %q", id, label))
			continue
		}
		if (state > 0) != on {
			why = append(why, fmt.Sprintf("flow %d: the command asks for the other state of %q", id, label))
			continue
		}
		if stray != "" {
			why = append(why, fmt.Sprintf("flow %d: the command's value %q is no setting", id, stray))
			continue
		}
		other := g.Foreign(withoutWords(cw.rest(mine), appNamed), f)
		if len(other) > 0 {
			why = append(why, fmt.Sprintf("flow %d: %q labels another element", id, strings.Join(other, " ")))
		}
		c := intent.Candidate{FlowID: id, Package: f.Package, Score: float64(covered) / float64(len(mine)), Matched: label, Slots: map[string]string{}}
		out = append(out, anchor{cand: c, rewritten: intent.SwitchText(f), toggle: true, near: len(other) > 0})
	}
	return out, why
}

// commandWords are a command's content words (no stop words) and their
// stems, with the element labels of the app's recorded screens, for
// naming an element by its label (names).
type commandWords struct {
	content []string
	said    map[string]bool
	labels  []string
}

func newCommandWords(command string, labels []string) *commandWords {
	cw := &commandWords{said: map[string]bool{}, labels: labels}
	for _, w := range choiceWords(command) {
		if !intent.IsStopword(w) {
			cw.said[intent.Stem(w)] = true
			cw.content = append(cw.content, w)
		}
	}
	return cw
}

// names reports how many words of label (stems, no stop words: mine) the
// command says, those in skip aside, 0 when they do not name it (rule 1
// of the file comment):
// fewer than two of them, or than its one word, or fewer than least;
// none that only this element's label has; or all of them on a
// neighbour's label too. refused says why, for a label the command
// shares words with.
func (cw *commandWords) names(label string, least int, skip map[string]bool) (covered int, mine []string, refused string) {
	mine = contentStems(label)
	var said []string
	for _, w := range mine {
		if cw.said[w] && !skip[w] {
			said = append(said, w)
		}
	}
	switch {
	case len(said) < min(2, len(mine)) || len(said) < least:
		return 0, mine, ""
	case neighbourWith(cw.labels, said, mine) != "":
		return 0, mine, fmt.Sprintf("%q also labels %q", strings.Join(said, " "), neighbourWith(cw.labels, said, mine))
	case !distinctive(cw.labels, said, mine):
		return 0, mine, fmt.Sprintf("every word said of %q labels other elements too", label)
	}
	return len(said), mine, ""
}

// rest returns the command's content words that are none of mine.
func (cw *commandWords) rest(mine []string) []string {
	set := setOf(mine)
	var out []string
	for _, w := range cw.content {
		if !set[intent.Stem(w)] {
			out = append(out, w)
		}
	}
	return out
}

// namedState is the state a command with no on or off word asks for the
// switch it names (label): on when it only names the setting ("side
// keys turn pages please"); off when it negates it or says to stop it
// ("don't close the reader when opening another app" for "Close the
// reader on opening another app", "no gradual brightness change", "stop
// starting the week on Monday"), the other way round for a label that says "hide",
// "prevent" (intent.Polarity of the label); 0 when it has a verb of its
// own, the setting's label aside ("mute the page-turn sound", "delete …"):
// that says no state. content are the command's words, no stop words.
func namedState(command, label string, content []string) int {
	mine := setOf(contentStems(label))
	var rest []string
	for _, w := range content {
		if !mine[intent.Stem(w)] {
			rest = append(rest, w)
		}
	}
	verbs := intent.Understand(strings.Join(rest, " ")).Verbs
	stop := len(verbs) > 0 && verbs[0] == "stop"
	if stop {
		verbs = verbs[1:]
	}
	if len(verbs) > 0 {
		return 0
	}
	own := intent.Polarity(label)
	if own == 0 {
		own = 1
	}
	if stop || intent.Negated(command) {
		return -own
	}
	return 1
}

// contentStems returns the stems of the words of s that are no stop words,
// without repeats.
func contentStems(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range choiceWords(s) {
		if intent.IsStopword(w) {
			continue
		}
		if st := intent.Stem(w); !seen[st] {
			seen[st] = true
			out = append(out, st)
		}
	}
	return out
}

// neighbourWith returns a label among labels that has every stem of
// covered but not every stem of mine (another element sharing the words
// the command says of the switch), or "".
func neighbourWith(labels []string, covered, mine []string) string {
	for _, l := range labels {
		have := setOf(contentStems(l))
		if allIn(covered, have) && !allIn(mine, have) {
			return l
		}
	}
	return ""
}

// distinctive reports whether a stem of covered labels no element among
// labels but the switch (whose label has every stem of mine).
func distinctive(labels []string, covered, mine []string) bool {
	for _, w := range covered {
		alone := true
		for _, l := range labels {
			have := setOf(contentStems(l))
			if have[w] && !allIn(mine, have) {
				alone = false
				break
			}
		}
		if alone {
			return true
		}
	}
	return false
}

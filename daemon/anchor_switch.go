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
// of its switch and say the state loosely ("display the word count" for
// the switch "Show word count"; "let me use the volume keys as shutter"
// for "Use volume buttons as shutter"); the lexical matcher reads the
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
//     state namedState reads: on for the setting named alone ("volume keys
//     as shutter please"), off when negated or stopped ("don't close the
//     launcher after launching an app"); one with a verb of its own
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
	said := map[string]bool{}
	var content []string
	for _, w := range choiceWords(command) {
		if !intent.IsStopword(w) {
			said[intent.Stem(w)] = true
			content = append(content, w)
		}
	}
	labels := g.Labels(pkg)
	for _, id := range poolOf(flows, pkg) {
		f := flows[id]
		label, on, ok := intent.SwitchOf(f)
		if !ok || typesText(f) {
			continue
		}
		mine := contentStems(label)
		var covered []string
		for _, w := range mine {
			if said[w] {
				covered = append(covered, w)
			}
		}
		if len(covered) < min(2, len(mine)) {
			continue
		}
		if other := neighbourWith(labels, covered, mine); other != "" {
			why = append(why, fmt.Sprintf("flow %d: %q also labels %q", id, strings.Join(covered, " "), other))
			continue
		}
		if !distinctive(labels, covered, mine) {
			why = append(why, fmt.Sprintf("flow %d: every word said of %q labels other elements too", id, label))
			continue
		}
		state := intent.SwitchState(command, label)
		if state == 0 {
			state = namedState(command, label, content)
		}
		if state == 0 {
			why = append(why, fmt.Sprintf("flow %d: the command says no state of %q", id, label))
			continue
		}
		if (state > 0) != on {
			why = append(why, fmt.Sprintf("flow %d: the command asks for the other state of %q", id, label))
			continue
		}
		if v := strayValue(command, nil, nil); v != "" {
			why = append(why, fmt.Sprintf("flow %d: the command's value %q is no setting", id, v))
			continue
		}
		mineSet := setOf(mine)
		var rest []string
		for _, w := range content {
			if !mineSet[intent.Stem(w)] {
				rest = append(rest, w)
			}
		}
		other := g.Foreign(withoutWords(rest, appNamed), f)
		if len(other) > 0 {
			why = append(why, fmt.Sprintf("flow %d: %q labels another element", id, strings.Join(other, " ")))
		}
		c := intent.Candidate{FlowID: id, Package: f.Package, Score: float64(len(covered)) / float64(len(mine)), Matched: label, Slots: map[string]string{}}
		out = append(out, anchor{cand: c, rewritten: intent.SwitchText(f), toggle: true, near: len(other) > 0})
	}
	return out, why
}

// namedState is the state a command with no on or off word asks for the
// switch it names (label): on when it only names the setting ("volume
// keys as shutter please"); off when it negates it or says to stop it
// ("don't close the launcher after launching an app" for "Close this app
// at launching another", "no gradual volume increase", "stop starting the
// week on Sunday"), the other way round for a label that says "hide",
// "prevent" (intent.Polarity of the label); 0 when it has a verb of its
// own, the setting's label aside ("mute the shutter sound", "delete …"):
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

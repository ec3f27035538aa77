package daemon

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Tap anchors: a flow whose work is one tap on an element — its last tap
// on an element that confirms or cancels nothing ("Flag as urgent",
// "Keep the last reading position") — is offered to the owner
// ("did you mean …?") when the command names that element under rule 1
// of the switch anchors (two words of its label, none of them the app's
// package name; one that only this element has), asks for no state and no
// other action, carries no value the flow lacks, and no other word of it
// labels another element. It is never replayed on its own: measured as a
// replay rule at stop 23 it gained 7 commands on the tuning sets but one
// right for one wrong flow on the frozen test set — a tab or page named
// by a command that asks for something on it looks the same.

// tapVetoes are the lexical vetoes that refuse a tap anchor: the command
// and the flow disagree on a value, a negation or a role.
var tapVetoes = []string{intent.VetoOpposite, intent.VetoNegation, intent.VetoRoles, intent.VetoValue, intent.VetoLiteral, intent.VetoUnfilled}

// keyTap returns the label of the element flow f does its work on by a
// tap: its last tap on an element whose label (a row's first text)
// carries a word and is no confirmation or cancellation ("OK", "Save",
// "Yes"), for a flow with no slot, no option group and no switch; ok is
// false otherwise.
func keyTap(f *knowledge.Flow) (string, bool) {
	if len(f.Slots) > 0 {
		return "", false
	}
	if _, _, ok := intent.SwitchOf(f); ok {
		return "", false
	}
	for i := len(f.Steps) - 1; i >= 0; i-- {
		st := f.Steps[i]
		if l, _ := optionGroup(st); len(l) > 0 || len(st.Options) > 0 || st.Action == knowledge.StepSwitchOn || st.Action == knowledge.StepSwitchOff {
			return "", false
		}
		if st.Action != device.Tap {
			continue
		}
		label, _, _ := strings.Cut(st.Target.Label(), " · ")
		cs := intent.Concepts(label)
		if slices.Contains(cs, "save") || slices.Contains(cs, "close") || len(contentStems(label)) == 0 {
			continue
		}
		return label, true
	}
	return "", false
}

// tapAnchors returns, as near anchors (offered, never replayed), the
// flows of pkg whose key tap the command names under the rule above,
// with the reason each other flow it names was left out.
func tapAnchors(command, pkg string, appNamed map[string]bool, m *intent.Matcher, flows map[int64]*knowledge.Flow, g *semantic.Grounding) ([]anchor, []string) {
	if intent.Polarity(command) != 0 || intent.Negated(command) {
		return nil, nil // asks for a state: the flow taps whatever the screen shows
	}
	var out []anchor
	var why []string
	cw := newCommandWords(command, g.Labels(pkg))
	stray := strayValue(command, nil, nil)
	for _, id := range poolOf(flows, pkg) {
		f := flows[id]
		label, ok := keyTap(f)
		if !ok || typesText(f) {
			continue
		}
		app := setOf(contentStems(strings.ReplaceAll(f.Package, ".", " ")))
		covered, mine, refused := cw.names(label, 2, app)
		if refused != "" {
			why = append(why, fmt.Sprintf("flow %d: %s", id, refused))
		}
		if covered == 0 {
			continue
		}
		cs := m.Score(command, []int64{id})
		if len(cs) == 0 {
			continue
		}
		c := cs[0]
		switch {
		case slices.ContainsFunc(c.Vetoes, func(v string) bool { return slices.Contains(tapVetoes, v) }):
			why = append(why, fmt.Sprintf("flow %d: %s", id, strings.Join(c.Vetoes, ", ")))
			continue
		case otherAction(command, c.Unmatched, c.FlowUnmatched, nil):
			why = append(why, fmt.Sprintf("flow %d: another action", id))
			continue
		case stray != "":
			why = append(why, fmt.Sprintf("flow %d: the command's value %q is not the flow's", id, stray))
			continue
		}
		if other := g.Foreign(withoutWords(cw.rest(mine), appNamed), f); len(other) > 0 {
			why = append(why, fmt.Sprintf("flow %d: %q labels another element", id, strings.Join(other, " ")))
			continue
		}
		c.Score, c.Matched = float64(covered)/float64(len(mine)), label
		out = append(out, anchor{cand: c, rewritten: label, toggle: true, tap: true, near: true})
	}
	return out, why
}

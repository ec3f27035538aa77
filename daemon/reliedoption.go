package daemon

import (
	"context"
	"slices"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// reliedOption reports an option flow f relied on without choosing it,
// which the command replaces with a word of its own: "sort the recipes
// by rating" against a flow learned as "sort the recipes by cuisine" that
// found "Cuisine" already checked and never tapped it. The command asks
// for another option, perhaps one the app does not have, and the flow
// has no step that would choose it. It returns the option's label.
//
// c is the matcher's candidate for f: some of its unmatched words stand
// in for the flow's (intent.Candidate's Substituted). A flow word is
// replaced when the command says an unmatched content word in its place,
// between the same neighbours (a word before it or after it the same,
// "by cuisine in" and "by rating in"). The option is the checked one of
// an exclusive group — two or more checkable siblings of one class, one
// checked — on a screen the flow kept (knowledge.FlowScreen), a group
// none of whose options the flow taps, labelled with the replaced word.
func (r *run) reliedOption(ctx context.Context, f *knowledge.Flow, c intent.Candidate) (string, bool) {
	if f == nil || !c.Substituted || len(c.FlowUnmatched) == 0 || r.e.store == nil {
		return "", false
	}
	replaced := replacedWords(r.res.Command, append(slices.Clone(flowSaid(f)), f.Intent), c.Unmatched, c.FlowUnmatched)
	if len(replaced) == 0 {
		return "", false
	}
	tapped := map[string]bool{}
	for _, s := range f.Steps {
		tapped[s.Target.Key()] = true
	}
	kept, err := r.e.store.FlowScreens(ctx, f.ID)
	if err != nil {
		return "", false
	}
	type group struct {
		parent int
		class  string
	}
	for _, sc := range kept {
		s, err := walkScreen(sc.Snapshot, nil)
		if err != nil {
			continue
		}
		size, checked, chosen := map[group]int{}, map[group]int{}, map[group]bool{}
		for i, n := range s.Nodes {
			if !n.Checkable {
				continue
			}
			g := group{n.Parent, n.Class}
			size[g]++
			if n.Checked {
				checked[g]++
			}
			if tapped[screen.Describe(s, i).Key()] {
				chosen[g] = true
			}
		}
		for _, n := range s.Nodes {
			g := group{n.Parent, n.Class}
			if !n.Checkable || !n.Checked || size[g] < 2 || checked[g] != 1 || chosen[g] {
				continue
			}
			if label := n.Label(); slices.ContainsFunc(contentStems(label), func(st string) bool { return replaced[st] }) {
				return label, true
			}
		}
	}
	return "", false
}

// replacedWords returns the stems of the flow's unmatched words
// (flowLone) that command replaces in one of the flow's texts (said): at
// the word's place in the text, between the same neighbours, the
// command says one of its own unmatched content words (cmdLone).
func replacedWords(command string, said []string, cmdLone, flowLone []string) map[string]bool {
	lone := func(ws []string) map[string]bool {
		m := map[string]bool{}
		for _, w := range ws {
			if len(w) > 2 && !intent.IsStopword(w) {
				m[intent.Stem(w)] = true
			}
		}
		return m
	}
	mine, theirs := lone(cmdLone), lone(flowLone)
	cw := choiceWords(command)
	out := map[string]bool{}
	for _, t := range said {
		tw := choiceWords(t)
		for j, w := range tw {
			st := intent.Stem(w)
			if !theirs[st] {
				continue
			}
			for k, v := range cw {
				if !mine[intent.Stem(v)] {
					continue
				}
				before := j > 0 && k > 0 && tw[j-1] == cw[k-1]
				after := j+1 < len(tw) && k+1 < len(cw) && tw[j+1] == cw[k+1]
				if before || after {
					out[st] = true
				}
			}
		}
	}
	return out
}

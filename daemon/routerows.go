package daemon

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Another row named in place of the flow's (issue 11, "values picked,
// not typed", for lists whose rows no choice slot holds): a flow learned
// for "mark the thread with Ezra as unread" tapped Ezra's row of the
// conversation list, a list too short, or a row too plain, to have been
// kept as an option group. A command naming Dora instead differs from it
// by a value (intent.VetoValue, VetoLiteral), which no lexical or
// embedding rule may bridge. The route check (routecheck.go) may: where
// its walk over the flow's kept screens finds the checker tapping, in the
// same list as the flow's row, the row the command names — and the flow's
// row is the one its own command named, which this command does not —
// while every other step agrees and the command is done on the flow's end
// screen, the replay taps that row (run.rows, rebound: the row carrying
// its name, never a guess). Such a replay is another route than the
// flow's: it is neither taught to the flow nor used to repair it. A
// command that names another value but whose walk taps no other row is
// not confirmed (routeFits); one that leaves out a value of the flow's
// (intent.VetoLiteral) is not where that value is a row the flow tapped
// (unnamedRow), or where it asks for all of something the flow did
// once. The same holds for an element that is the flow's with one word
// swapped as the command swaps it (swappedPeer: "Tilt left" where the
// flow learned for "tilt … right" tapped "Tilt right"), unless the word
// swapped is an action: "Share all sketches" in place of "Erase sketch"
// is another feature, whose screens the flow never kept.

// otherRow reports whether el, the element the checker chose on the kept
// screen s where the flow's step taps another, is the list row the
// command names in place of the flow's: both rows of one list (peers),
// of one kind, the name of el's row (screen.RowName) said in the command and not
// in learned (the command the flow was learned for), the name of the
// flow's row a value of learned (valueIn) the command does not say.
func otherRow(s *screen.Snapshot, st *PlanState, step knowledge.Step, el *screen.Element, learned string) bool {
	if !step.Target.InList || !screen.Describe(s, el.NodeID).InList {
		return false
	}
	own := peerOf(s, st, step, el)
	if own < 0 {
		return false
	}
	theirs, ours := screen.RowName(el.Label), screen.RowName(st.Elements[own].Label)
	return theirs != "" && ours != "" && intent.Says(st.Command, theirs) && !intent.Says(st.Command, ours) && valueIn(learned, ours) && !intent.Says(learned, theirs)
}

// valueIn reports whether name is a value of text (intent.Understand: a
// name, a quoted text, a number; or a file name, intent.FileNames, written
// in lower case too: "test1.m4a"), word for word: "Ezra" of
// "mark the thread with Ezra as unread", not "inbox" of "open the inbox page"
// — a tab or a setting is no value, and another of them is another
// command, not the same one with another value.
func valueIn(text, name string) bool {
	key := intent.NameKey(name)
	return slices.Contains(intent.Names(text), key) || slices.ContainsFunc(intent.FileNames(text), func(v intent.Value) bool { return intent.NameKey(v.Text) == key })
}

// unnamedRow returns the name of a list row flow f taps that is a value
// of the command it was learned for (valueIn) and that command does not
// say (intent.Says), and true; false when it taps none. A command that leaves
// out a value the flow names (intent.VetoLiteral: "mark the thread as
// unread" against the flow for Ezra's) is confirmed by a walk only where
// the value is no row the flow picked ("… in the 'Scans' folder, path
// 'Internal/Scans/'", the path a text the flow only showed).
func unnamedRow(f *knowledge.Flow, command string) (string, bool) {
	learned := learnedAs(f)
	for _, st := range f.Steps {
		if st.Action != device.Tap || !st.Target.InList {
			continue
		}
		if name := screen.RowName(st.Target.Label()); name != "" && valueIn(learned, name) && !intent.Says(command, name) {
			return name, true
		}
	}
	return "", false
}

// quoteAll lists the values of m (step index → name) quoted, in step
// order: `"Dora", "Reports"`.
func quoteAll(m map[int]string) string {
	var out []string
	for _, i := range slices.Sorted(maps.Keys(m)) {
		out = append(out, fmt.Sprintf("%q", m[i]))
	}
	return strings.Join(out, ", ")
}

// swappedPeer reports whether el, the element the checker chose on the
// kept screen s where the flow's step taps another, is the flow's target
// with the command's word in place of the flow's: both of one group
// (peers), their labels the same but for one word each, el's a word the
// command says in place of the flow's (PlanState.Strict), the target's
// one of the flow's words it replaced (PlanState.Replaced) and does not
// say ("Tilt left" for the flow's "Tilt right", "tilt … left" against
// a flow learned for "tilt … right"); neither an action word nor, where
// the flow's tap opens another screen, the labels' head word.
func swappedPeer(s *screen.Snapshot, st *PlanState, step knowledge.Step, el *screen.Element) bool {
	if len(st.Strict) == 0 || len(st.Replaced) == 0 {
		return false
	}
	own := peerOf(s, st, step, el)
	if own < 0 {
		return false
	}
	ours, theirs := contentStems(st.Elements[own].Label), contentStems(el.Label)
	onlyOurs, onlyTheirs := withoutWords(ours, setOf(theirs)), withoutWords(theirs, setOf(ours))
	if len(onlyOurs) != 1 || len(onlyTheirs) != 1 || len(ours) < 2 {
		return false
	}
	said := func(words []string, stem string) bool {
		return slices.ContainsFunc(words, func(w string) bool { return intent.Stem(strings.ToLower(w)) == stem })
	}
	if !said(st.Strict, onlyTheirs[0]) || !said(st.Replaced, onlyOurs[0]) || intent.Says(st.Command, onlyOurs[0]) {
		return false
	}
	// an action swapped ("Share all sketches" for the flow's "Erase
	// sketch") is another feature, whatever follows
	for _, l := range []string{st.Elements[own].Label, el.Label} {
		for _, w := range choiceWords(l) {
			if stem := intent.Stem(w); (stem == onlyOurs[0] || stem == onlyTheirs[0]) && intent.ActionWord(w) {
				return false
			}
		}
	}
	// the head word of labels of two or more words swapped where the
	// flow's tap leads to another screen: a label that opens something
	// starts with what it does ("Import palette" beside the flow's
	// "Export palette"), and the screens the walk goes on over are those
	// the flow's tap opened, not the other one's
	if step.Expect != "" && step.Expect != step.Screen && labelHead(st.Elements[own].Label) == onlyOurs[0] && labelHead(el.Label) == onlyTheirs[0] {
		return false
	}
	return true
}

// labelHead returns the stem of the first content word of label
// (contentStems) when it has two or more, else "".
func labelHead(label string) string {
	ws := contentStems(label)
	if len(ws) < 2 {
		return ""
	}
	return ws[0]
}

// peerOf returns the index in st.Elements of the element step targets on
// the kept screen s when el is one of its peers (of its kind, in its
// group), else -1.
func peerOf(s *screen.Snapshot, st *PlanState, step knowledge.Step, el *screen.Element) int {
	for i := range st.Elements {
		if screen.Describe(s, st.Elements[i].NodeID).Key() == step.Target.Key() {
			if st.Elements[i].Kind != el.Kind || !slices.Contains(peers(s, &st.Elements[i]), el.Label) {
				return -1
			}
			return i
		}
	}
	return -1
}

package daemon

import (
	"strings"

	"github.com/wayfinder-agent/wayfinder/knowledge"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// Choice slots (issue: "values picked, not typed"): a tap on one option of
// a group ("3 columns" among "1 column" … "20 columns"; "Light" among
// "Dark", "System default") whose distinguishing words the command says
// ("change column count to 3") becomes a slot like a typed value. A replay
// taps the option of the same group whose distinguishing words are the
// new value ("… to 5" taps "5 columns"), or fails the step when no option
// has them: it never taps a guess.

// isOption reports whether el is one of a set of mutually exclusive
// values: a radio button, a checked text view, or a row holding one —
// checkable, but no switch or checkbox (those are settings or
// selections, not values). Menu items and settings rows are commands,
// not values, and never become choice slots.
func isOption(s *screen.Snapshot, el *screen.Element) bool {
	if s == nil || el == nil {
		return false
	}
	found := false
	s.Walk(el.NodeID, func(n *screen.Node, _ int) bool {
		c := strings.ToLower(n.ShortClass())
		if n.Checkable && !strings.Contains(c, "switch") && !strings.Contains(c, "checkbox") && !strings.Contains(c, "toggle") {
			found = true
		}
		return !found
	})
	return found
}

// peers returns the labels of the options grouped with el on s: elements
// of the same kind and class that share el's parent or grandparent (the
// rows of one list, the choices of one dialog), el's own label first.
func peers(s *screen.Snapshot, el *screen.Element) []string {
	if s == nil || el == nil || el.Label == "" {
		return nil
	}
	n := s.Node(el.NodeID)
	if n == nil {
		return nil
	}
	out := []string{el.Label}
	seen := map[string]bool{el.Label: true}
	for _, o := range screen.Elements(s) {
		m := s.Node(o.NodeID)
		if o.NodeID == el.NodeID || m == nil || o.Kind != el.Kind || m.Class != n.Class || o.Label == "" || seen[o.Label] {
			continue
		}
		if m.Parent == n.Parent || (grandparent(s, m) >= 0 && grandparent(s, m) == grandparent(s, n)) {
			seen[o.Label] = true
			out = append(out, o.Label)
		}
	}
	return out
}

func grandparent(s *screen.Snapshot, n *screen.Node) int {
	if p := s.Node(n.Parent); p != nil {
		return p.Parent
	}
	return -1
}

// choiceWords splits a label into lower-case words.
func choiceWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f)
	})
}

// distinguishing returns the words of labels[i] that fewer than half of
// the other labels have ("3" of "3 columns"; "light" of "Light"), or nil.
func distinguishing(labels []string, i int) []string {
	if len(labels) < 3 { // an option and at least two others
		return nil
	}
	count := map[string]int{}
	for j, l := range labels {
		if j == i {
			continue
		}
		seen := map[string]bool{}
		for _, w := range choiceWords(l) {
			if !seen[w] {
				seen[w] = true
				count[w]++
			}
		}
	}
	var out []string
	for _, w := range choiceWords(labels[i]) {
		if 2*count[w] < len(labels)-1 {
			out = append(out, w)
		}
	}
	return out
}

// choiceValue returns the words of the command that name the option
// labels[0] among its peers (as the command writes them), or "" — also
// when the command names another option of the group too ("from monthly
// to yearly" names two views: which one is the value is a guess).
func choiceValue(command string, labels []string) string {
	want := distinguishing(labels, 0)
	if len(want) == 0 {
		return ""
	}
	cw := choiceWords(command)
	for i := 1; i < len(labels); i++ {
		if other := distinguishing(labels, i); len(other) > 0 && containsWords(cw, other) {
			return ""
		}
	}
	at := indexWords(cw, want)
	if at < 0 {
		return ""
	}
	return strings.Join(cw[at:at+len(want)], " ")
}

// pickChoice returns the index in labels of the one option whose
// distinguishing words are value's words, or -1 (none, or several).
func pickChoice(labels []string, value string) int {
	want := strings.Join(choiceWords(value), " ")
	if want == "" {
		return -1
	}
	found := -1
	for i := range labels {
		if strings.Join(distinguishing(labels, i), " ") == want || strings.Join(choiceWords(labels[i]), " ") == want {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// indexWords returns where seq occurs in words, consecutively, or -1.
func indexWords(words, seq []string) int {
next:
	for i := 0; i+len(seq) <= len(words); i++ {
		for j, w := range seq {
			if words[i+j] != w {
				continue next
			}
		}
		return i
	}
	return -1
}

// containsWords reports whether seq occurs in words, consecutively.
func containsWords(words, seq []string) bool { return indexWords(words, seq) >= 0 }

// pickByCommand returns the index in labels of the one option whose
// distinguishing words the command says, or -1 (none, or several). The
// command is read directly: slot alignment may keep only part of an
// option's words ("1" of "1 hour").
func pickByCommand(labels []string, command string) int {
	cw := choiceWords(command)
	found := -1
	for i := range labels {
		if d := distinguishing(labels, i); len(d) > 0 && containsWords(cw, d) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// unknownChoice returns the slot of a choice step of f for which neither
// the command nor the slot value names any option the step learned, and
// true; a flow is then not replayed for the command (it could only stop
// at that step, after acting on the way there).
func unknownChoice(f *knowledge.Flow, command string, slots map[string]string) (string, bool) {
	for _, st := range f.Steps {
		name, ok := knowledge.SlotRef(st.Text)
		if !ok || len(st.Choices) == 0 {
			continue
		}
		if pickByCommand(st.Choices, command) < 0 && pickChoice(st.Choices, slots[name]) < 0 {
			return name, true
		}
	}
	return "", false
}

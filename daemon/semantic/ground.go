package semantic

import (
	"slices"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// screenWords grounds the words of a command on the screens the owner's
// flows of an app went through (knowledge.Step.Where and Flow.Goal: the
// static labels of each screen when the flow was learned; the options of
// a choice; the labels beside each element a flow acts on,
// Descriptor.Neighbors, which name the rows of a menu that Where leaves
// out as list rows). It is the contrast set for a substituted word: a
// word that is not the flow's own but labels another element of the app
// ("sort by author" against a flow that sorts by title, on a screen that
// also shows "Author") names another feature, while a word that labels
// nothing the app showed ("length" for "time") is a rewording the model
// may bridge. The idea is UICOMPASS's (Section 3.2: a task's words are
// grounded on the UI elements that carry them), applied as a veto, never
// as a reason to act.
type screenWords struct {
	flows map[int64]*knowledge.Flow
	// byApp: package → stems of every label on the app's recorded screens
	byApp map[string]map[string]bool
	// ownBy: flow → its own stems (own); a decision checks a candidate
	// once to filter and once to pick
	ownBy map[int64]map[string]bool
	// labels: package → the element labels of the app's recorded screens
	// (at most maxNameWords words each), without repeats
	labels map[string][]string
	// command: the command a decision is about ("" for a Grounding);
	// label: the label of its app (Input.Label)
	command, label string
}

func newScreenWords(flows map[int64]*knowledge.Flow) *screenWords {
	return &screenWords{flows: flows, byApp: map[string]map[string]bool{}, ownBy: map[int64]map[string]bool{}, labels: map[string][]string{}}
}

// labelWords splits a label or text into lower-case words of letters and
// digits.
func labelWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// app returns the stems of every label on the recorded screens of pkg's
// flows, with the acronyms of labels of three words or more.
func (g *screenWords) app(pkg string) map[string]bool {
	if m, ok := g.byApp[pkg]; ok {
		return m
	}
	m := map[string]bool{}
	seen := map[string]bool{} // labels read already: flows share screens
	label := func(l string) {
		if seen[l] {
			return
		}
		seen[l] = true
		ws := labelWords(l)
		if len(ws) > maxNameWords {
			return // prose (a warning, a description), not an element's name
		}
		g.labels[pkg] = append(g.labels[pkg], l)
		for _, w := range ws {
			m[intent.Stem(w)] = true
		}
		if a := initials(ws); a != "" {
			m[a] = true
		}
	}
	add := func(goal *knowledge.Goal) {
		if goal != nil {
			for _, l := range goal.Labels {
				label(l)
			}
		}
	}
	for _, f := range g.flows {
		if f == nil || f.Package != pkg {
			continue
		}
		add(f.Goal)
		for _, s := range f.Steps {
			add(s.Where)
			for _, c := range s.Choices {
				label(c)
			}
			for _, n := range s.Target.Neighbors {
				label(n)
			}
		}
	}
	g.byApp[pkg] = m
	return m
}

// own returns the stems of the words that are f's own: its intent, past
// commands and slot examples, the labels and typed texts of the elements
// it acts on (the tapped choice only, not the other options), and the
// words of its package name (the app's name is on its screens).
func own(f *knowledge.Flow) map[string]bool {
	m := map[string]bool{}
	add := func(s string) {
		for _, w := range labelWords(s) {
			m[intent.Stem(w)] = true
		}
	}
	add(f.Intent)
	add(f.Name)
	for _, c := range f.Commands {
		add(c)
	}
	for _, sl := range f.Slots {
		add(sl.Example)
	}
	for _, s := range f.Steps {
		add(s.Target.Label())
		if s.Action == device.Input {
			add(s.Text)
		}
	}
	for _, p := range strings.Split(f.Package, ".") {
		add(p)
	}
	return m
}

// namesOther reports whether a word the command does not share with f
// (c.Unmatched) or puts in a slot (c.Slots: "title reversed" for a sort
// key, on a screen that shows "Reversed") labels an element on the app's
// recorded screens and is none of f's own words: the command asks for
// another element than the flow acts on. Stop words, action words and
// words with digits are left out of that; but a word of letters and
// digits the command says where the flow's command says another
// ("video4" for its "video2") is a numbered item of its own, whether
// or not a recorded screen shows it: the flow's route goes to the other.
func (g *screenWords) namesOther(c intent.Candidate, f *knowledge.Flow) bool {
	if slices.ContainsFunc(c.Unmatched, numbered) && slices.ContainsFunc(c.FlowUnmatched, numbered) {
		return true
	}
	words := slices.Clone(c.Unmatched)
	for _, v := range c.Slots {
		words = append(words, v)
	}
	return len(g.foreign(words, f)) > 0
}

// foreign returns the words of texts (each split into words) that label
// an element on the recorded screens of f's app and are none of f's own
// words, in order; stop words, action words and words with digits are
// left out.
func (g *screenWords) foreign(texts []string, f *knowledge.Flow) []string {
	if len(texts) == 0 {
		return nil
	}
	shown := g.app(f.Package)
	mine, ok := g.ownBy[f.ID]
	if !ok {
		mine = own(f)
		g.ownBy[f.ID] = mine
	}
	var out []string
	for _, u := range texts {
		for _, w := range labelWords(u) {
			if intent.IsStopword(w) || actionWord(w) || strings.ContainsFunc(w, unicode.IsDigit) {
				continue
			}
			if st := intent.Stem(w); shown[st] && !mine[st] {
				out = append(out, w)
			}
		}
	}
	return out
}

// Grounding grounds a command's words on the screens the owner's flows
// went through, for rules outside this package (daemon's option anchors):
// the same contrast set as a substituted word's (screenWords). Build one
// per decision; it caches per app and per flow. Not safe for concurrent
// use.
type Grounding struct{ sw *screenWords }

// NewGrounding grounds on flows (every flow of the apps concerned, by ID).
func NewGrounding(flows map[int64]*knowledge.Flow) *Grounding {
	return &Grounding{sw: newScreenWords(flows)}
}

// Labels returns the element labels of the recorded screens of pkg's
// flows (those of at most maxNameWords words: a name, not prose), without
// repeats, in no particular order.
func (g *Grounding) Labels(pkg string) []string {
	if g == nil {
		return nil
	}
	g.sw.app(pkg)
	return g.sw.labels[pkg]
}

// Foreign returns the words of texts that label an element on the
// recorded screens of f's app and are none of f's own words (its intent,
// past commands, slot examples, the labels of the elements it acts on,
// its package name): words that ask for another feature than f. Stop
// words, action words and words with digits are never foreign.
func (g *Grounding) Foreign(texts []string, f *knowledge.Flow) []string {
	if g == nil || f == nil {
		return nil
	}
	return g.sw.foreign(texts, f)
}

// maxNameWords is the most words a label has that names an element: a
// longer one is prose (a dialog's warning, a setting's description) whose
// words a command may share without asking for anything on that screen.
const maxNameWords = 8

// minInitials is the shortest acronym a label stands for: two letters
// ("ok", "on") are too often a word.
const minInitials = 3

// initials returns the acronym of a label of at least minInitials words
// of letters ("do not disturb" → "dnd"), "" otherwise: the owner may say
// the acronym for the label.
func initials(words []string) string {
	if len(words) < minInitials {
		return ""
	}
	b := make([]byte, 0, len(words))
	for _, w := range words {
		if w[0] < 'a' || w[0] > 'z' {
			return ""
		}
		b = append(b, w[0])
	}
	return string(b)
}

// numbered reports whether w is a name numbered in sequence: letters, then
// digits ("video4", "pic7", "test2"). A count with its unit ("24h", "4k")
// begins with its digits.
func numbered(w string) bool {
	i := strings.IndexFunc(w, unicode.IsDigit)
	return i > 0 && strings.IndexFunc(w[i:], func(r rune) bool { return !unicode.IsDigit(r) }) < 0 &&
		!strings.ContainsFunc(w[:i], func(r rune) bool { return !unicode.IsLetter(r) })
}

package daemon

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Choice slots (issue: "values picked, not typed"): a tap on one option of
// a group ("3 tiles" among "1 tile" … "20 tiles"; "Light" among
// "Dark", "System default") whose distinguishing words the command says
// ("show 3 tiles per row") becomes a slot like a typed value. A replay
// taps the option of the same group whose distinguishing words are the
// new value ("… 5 tiles …" taps "5 tiles"), or fails the step when no option
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
		if n.Checkable && !screen.IsToggleClass(n.Class) {
			found = true
		}
		return !found
	})
	return found
}

// isNamedRow reports whether el is a row of a list whose text is content
// (screen.Descriptor.InList), not an input field, whose first text (before
// " · ") is a value the command names — a name, a quoted text, a number, a
// file name, in quote marks or not (intent.FileNames: "open memo1.ogg")
// ("call Alice" taps the row "Alice · See you · 12.04"): such a
// row may become a choice slot like an option, so that "call Bob" taps
// Bob's row. A row the command names with plain words ("show hidden
// files"), or that holds more than the value ("Use large fonts in Chats"),
// is a setting, a command of its own, and never becomes one.
func isNamedRow(s *screen.Snapshot, el *screen.Element, command string) bool {
	if s == nil || el == nil || el.Label == "" {
		return false
	}
	if d := screen.Describe(s, el.NodeID); !d.InList || d.Editable {
		return false
	}
	head, _, _ := strings.Cut(el.Label, " · ")
	want := strings.Join(choiceWords(head), " ")
	for _, v := range append(intent.Understand(command).Values, intent.FileNames(command)...) {
		if strings.Join(choiceWords(v.Text), " ") == want {
			return true
		}
	}
	return false
}

// rowHeads returns the first text (before " · ") of each label, without
// repeats, in order: "Alice · See you · 12.04" is "Alice".
func rowHeads(labels []string) []string {
	var out []string
	for _, l := range labels {
		if h := screen.RowName(l); h != "" && !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// peers returns the labels of the options grouped with el on s: elements
// of the same kind and class that share el's parent or grandparent (the
// rows of one list, the choices of one dialog), el's own label first.
func peers(s *screen.Snapshot, el *screen.Element) []string {
	n := labelledNode(s, el)
	if n == nil {
		return nil
	}
	// the options of el's own container (a radio group) first: a dialog
	// may hold two groups ("sort by" and "order"), whose options share a
	// grandparent but are not alternatives to each other
	if out := peersWhere(s, el, n, func(m *screen.Node) bool { return m.Parent == n.Parent }); len(out) >= 3 {
		return out
	}
	return peersWhere(s, el, n, func(m *screen.Node) bool {
		return m.Parent == n.Parent || (grandparent(s, m) >= 0 && grandparent(s, m) == grandparent(s, n))
	})
}

// choiceLabels returns the labels of el's peers on s (peers: el's own
// first) and the names a choice is picked by, one for one: an option's
// label, or a row's first text, as the flow learned it (act: rowHeads) —
// not a size or a date beside it ("9.1 kB" holds no "1" the command
// said).
func choiceLabels(s *screen.Snapshot, el *screen.Element) (full, names []string) {
	full = peers(s, el)
	if isOption(s, el) {
		return full, full
	}
	names = make([]string, len(full))
	for k, l := range full {
		names[k] = rowChoice(l)
	}
	return full, names
}

// rowChoice is the name a list row is picked by: its first text
// (screen.RowName), or its whole label when that is empty.
func rowChoice(label string) string {
	if n := screen.RowName(label); n != "" {
		return n
	}
	return label
}

// ownGroup returns the labels of the options sharing el's container on
// s (a radio group), el's own label first, when there are two or more;
// nil otherwise. Unlike peers it never reaches into a neighbouring group:
// a dialog's "order" pair is not an alternative to its "sort by" keys.
func ownGroup(s *screen.Snapshot, el *screen.Element) []string {
	n := labelledNode(s, el)
	if n == nil {
		return nil
	}
	if out := peersWhere(s, el, n, func(m *screen.Node) bool { return m.Parent == n.Parent }); len(out) >= 2 {
		return out
	}
	return nil
}

// labelledNode returns el's node on s, nil when there is none or el has
// no label (an option is known by its label).
func labelledNode(s *screen.Snapshot, el *screen.Element) *screen.Node {
	if s == nil || el == nil || el.Label == "" {
		return nil
	}
	return s.Node(el.NodeID)
}

// peersWhere lists el's label, then the labels of the elements of its
// kind and class on s whose node near accepts.
func peersWhere(s *screen.Snapshot, el *screen.Element, n *screen.Node, near func(*screen.Node) bool) []string {
	out := []string{el.Label}
	seen := map[string]bool{el.Label: true}
	for _, o := range screen.Elements(s) {
		m := s.Node(o.NodeID)
		if o.NodeID == el.NodeID || m == nil || o.Kind != el.Kind || m.Class != n.Class || o.Label == "" || seen[o.Label] {
			continue
		}
		if near(m) {
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

// choiceWords splits a label into lower-case words; "&" is the word
// "and" ("Day & time" and "day and time" name one option).
func choiceWords(s string) []string {
	if strings.Contains(s, "&") {
		s = strings.ReplaceAll(s, "&", " and ")
	}
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !wordRune(r) })
}

// wordStems returns the stems of the words (choiceWords) of texts, as a
// set.
func wordStems(texts ...string) map[string]bool {
	out := map[string]bool{}
	for _, t := range texts {
		for _, w := range choiceWords(t) {
			out[intent.Stem(w)] = true
		}
	}
	return out
}

// wordRune reports whether r belongs to a word of choiceWords and
// wordSpans: an ASCII letter or digit, or any rune beyond ASCII.
func wordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r > 0x7f
}

// distinguishing returns the words of labels[i] that fewer than half of
// the other labels have ("3" of "3 columns"; "light" of "Light"); when
// none is, those that not every other label has ("Start time" beside
// "Week and Start time" and "Manual order": both its words); nil when
// there are fewer than three labels, or the label has no such word.
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
	if out == nil {
		// every word is another option's too ("Start time" beside "Week and
		// Start time"): the words that tell it from some other option
		for _, w := range choiceWords(labels[i]) {
			if count[w] < len(labels)-1 {
				out = append(out, w)
			}
		}
	}
	return out
}

// optionStem is how a word of a command or an option is compared: lower
// case, an English number word as its digits ("five" → "5"), stemmed
// (Snowball: "minutes" and "minute" are one).
func optionStem(w string) string {
	if d := numberDigits(w); d != "" {
		return d
	}
	if u, ok := periodWords[w]; ok {
		return u
	}
	return intent.Stem(w)
}

// periodWords are the adjectives of a period an option may carry while
// the command says the period itself ("week planner" names "Weekly planner",
// "every day" names "Daily"); the matcher keeps them apart (intent.Stem:
// a recurrence is not its unit), an option's name does not need to.
var periodWords = map[string]string{"hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month", "yearly": "year"}

// numberDigits returns the digits an English number word says for an
// option's ("show five items per row" → "5 per row"), "" for another word.
func numberDigits(w string) string {
	if n, ok := intent.NumberWord(w); ok {
		return strconv.Itoa(n)
	}
	return ""
}

// stems returns optionStem of each word; a tens name and a digit name
// are one number, which both then stand for ("seventy five" names "75%",
// not "70%").
func stems(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = optionStem(w)
	}
	for i := 0; i+1 < len(words); i++ {
		if n, ok := compoundAt(words, i, func(w string) string { return w }); ok {
			out[i], out[i+1] = strconv.Itoa(n), strconv.Itoa(n)
		}
	}
	return out
}

// named returns the options of labels that words (stems, as optionStem
// gives them) name: fully — every distinguishing word of the option is
// there, and no other option fully named has a superset of its
// distinguishing words ("dark blue" names "Dark blue", not "Dark") — or,
// when none is fully named, partly — some of its distinguishing words are
// there and no other option has them all ("45" of "45 seconds" when no
// other option has a 45). It returns the options and whether they are
// named fully.
func named(labels []string, words []string) ([]int, bool) {
	have := map[string]bool{}
	for _, w := range words {
		have[w] = true
	}
	dist := make([][]string, len(labels))
	own := make([][]string, len(labels)) // each label's words, as stems
	all := make([]map[string]bool, len(labels))
	var full []int
	for i, l := range labels {
		dist[i] = stems(distinguishing(labels, i))
		own[i] = stems(choiceWords(l))
		all[i] = setOf(own[i])
		if len(dist[i]) > 0 && allIn(dist[i], have) {
			full = append(full, i)
		}
	}
	if len(full) > 0 {
		var out []int
		for _, i := range full {
			if !slices.ContainsFunc(full, func(j int) bool {
				return j != i && (len(dist[j]) > len(dist[i]) && allIn(dist[i], setOf(dist[j])) || len(all[j]) > len(all[i]) && allIn(own[i], all[j]))
			}) {
				out = append(out, i)
			}
		}
		return out, true
	}
	var out []int
	for i := range labels {
		var some []string
		for _, w := range dist[i] {
			if have[w] {
				some = append(some, w)
			}
		}
		if len(some) == 0 {
			continue
		}
		unique := true
		for j := range labels {
			if j != i && allIn(some, all[j]) {
				unique = false
			}
		}
		if unique {
			out = append(out, i)
		}
	}
	return out, false
}

func allIn(ws []string, set map[string]bool) bool {
	for _, w := range ws {
		if !set[w] {
			return false
		}
	}
	return true
}

func setOf(ws []string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// choiceValue returns the words of the command that name the option
// labels[0] among its peers (the shortest run holding them, in lower case
// and one space apart; or the file name holding them, as written:
// "memo1.ogg"), or "" — also when the command names another option of
// the group too ("from board to timeline" names two layouts: which one is
// the value is a guess).
func choiceValue(command string, labels []string) string {
	if len(distinguishing(labels, 0)) == 0 {
		return ""
	}
	cw := choiceWords(command)
	cs := stems(cw)
	opts, _ := named(labels, cs)
	if len(opts) != 1 || opts[0] != 0 {
		return ""
	}
	first, last, together := optionSpan(labels, 0, cs)
	if !together {
		return ""
	}
	if sp := wordSpans(command); len(sp) == len(cw) {
		// a file name the words are of is the value as written
		// ("memo1.ogg", not "memo1 ogg" or "memo1"): the flow's intent
		// holds its slot where the name was
		for _, v := range intent.FileNames(command) {
			if v.Start <= sp[first].start && sp[last].end <= v.End {
				return v.Text
			}
		}
	}
	return strings.Join(cw[first:last+1], " ")
}

// pickChoice returns the index in labels of the one option that value
// names: whose distinguishing words or whole label are value's words, or
// else the one option value names (named), or else the one whose word
// has value's root (sameRoot: "kenyan" for "Kenya"), or -1 (none, or
// several).
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
	if found >= 0 {
		return found
	}
	if opts, _ := named(labels, stems(choiceWords(value))); len(opts) == 1 {
		return opts[0]
	}
	return sameRoot(labels, value)
}

// sameRoot returns the index in labels of the one option that has a word
// beginning with the same three letters as value, a single word of four
// letters or more (accents folded, both words four letters or more): a
// name said in another form than the option's ("kenyan" for "Kenya",
// "peruvian" for "Peru"); -1 when no option or several do ("maltese":
// "Mali" and "Malta").
func sameRoot(labels []string, value string) int {
	vw := choiceWords(intent.FoldAccents(value))
	if len(vw) != 1 || len([]rune(vw[0])) < 4 {
		return -1
	}
	root := string([]rune(vw[0])[:3])
	found := -1
	for i, l := range labels {
		if !slices.ContainsFunc(choiceWords(intent.FoldAccents(l)), func(w string) bool {
			return len([]rune(w)) >= 4 && strings.HasPrefix(w, root)
		}) {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = i
	}
	return found
}

// pickByCommand returns the index in labels of the one option the command
// names (named), or -1 (none, or several). The
// command is read directly: slot alignment may keep only part of an
// option's words ("1" of "1 hour").
func pickByCommand(labels []string, command string) int {
	if opts, _ := named(labels, stems(choiceWords(command))); len(opts) == 1 {
		return opts[0]
	}
	return -1
}

// unknownChoice returns the slot of a choice step of f for which neither
// the command nor the slot value names any option the step learned, word
// for word or, through byMeaning (nil: none), by meaning, and true; a
// flow is then not replayed for the command (it could only stop at that
// step, after acting on the way there).
func unknownChoice(f *knowledge.Flow, command string, slots map[string]string, byMeaning func([]string) int) (string, bool) {
	for _, st := range f.Steps {
		name, ok := st.ChoiceSlot()
		if !ok {
			continue
		}
		if pickByCommand(st.Choices, command) < 0 && pickChoice(st.Choices, slots[name]) < 0 &&
			(byMeaning == nil || byMeaning(st.Choices) < 0) {
			return name, true
		}
	}
	return "", false
}

// pickOption returns the index in labels (the options of a choice step's
// group on the screen) of the option the command names: word for word
// (pickByCommand), else the slot's value (pickChoice), else by meaning
// (pickByMeaning); -1 when none or several are named — the step then
// fails rather than tap a guess.
func (r *run) pickOption(ctx context.Context, labels []string, value string) int {
	if i := pickByCommand(labels, r.res.Command); i >= 0 {
		return i
	}
	if r.readAs != "" && r.readAs != r.res.Command {
		// the command as the flows write it ("memo one.ogg" matched as
		// "memo1.ogg")
		if i := pickByCommand(labels, r.readAs); i >= 0 {
			return i
		}
	}
	if i := pickChoice(labels, value); i >= 0 {
		return i
	}
	return r.pickByMeaning(ctx, labels)
}

// pickByMeaning returns the index in labels of the option the command
// names in other words (semantic.Rescorer.PickChoice: "sort by time" for
// "Time added"), or -1: without an embedding model, when it fails (a log
// event; matching goes on word for word), or when no option is clearly
// named. A phrase that names it must share a word (stem or number) with
// the label, or be its cognate (anchored): the model scores a word the
// list lacks close to its neighbour on the same scale or in the same set
// ("tiny" against "Small", one country against another), and cannot tell
// that from a synonym.
func (r *run) pickByMeaning(ctx context.Context, labels []string) int {
	if r.sem == nil {
		return -1
	}
	c, err := r.sem.PickChoice(ctx, privacy.Redact(r.res.Command, r.secrets, false), labels)
	if err != nil {
		r.emit(event.Log, event.LogInfo{Level: "warn", Text: "choice by meaning: " + err.Error()})
		return -1
	}
	if c.Index < 0 || !slices.ContainsFunc(c.Phrases, func(p string) bool { return anchored(p, labels[c.Index]) }) {
		return -1
	}
	if slices.ContainsFunc(distinguishing(labels, c.Index), numberedWord) {
		// a numbered item ("memo1.ogg" beside "memo2.ogg") is named by
		// its number, word for word, never by meaning: every name of the
		// list is about as close to the command
		return -1
	}
	r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("option %q named by meaning (cosine %.2f)", privacy.Redact(labels[c.Index], r.secrets, false), c.Cosine)})
	return c.Index
}

// numberedWord: w holds letters and digits both ("memo1", "pic3"), the
// name of one of a numbered series.
func numberedWord(w string) bool {
	return strings.ContainsFunc(w, unicode.IsLetter) && strings.ContainsFunc(w, unicode.IsDigit)
}

// anchored reports whether phrase and label share a word, compared as
// optionStem gives them ("alarms by time" and "Time added"; "one hour" and
// "1 hour"), or a word of one is a cognate of a word of the other
// ("lisbon" and "Lisboa").
func anchored(phrase, label string) bool {
	have := setOf(stems(choiceWords(label)))
	for _, w := range stems(choiceWords(phrase)) {
		if have[w] && !intent.IsStopword(w) {
			return true
		}
	}
	for _, p := range choiceWords(intent.FoldAccents(phrase)) {
		for _, l := range choiceWords(intent.FoldAccents(label)) {
			if cognate(p, l) {
				return true
			}
		}
	}
	return false
}

// cognate reports whether one of words a and b (accents folded, four
// letters or more) holds the three letters that begin the other, or that
// follow its first letter: the same name in another language or spelling
// ("lisbon" and
// "lisboa", "polish" and "polski"), which a synonym of another word
// ("tiny" and "small") is not.
func cognate(a, b string) bool {
	if len([]rune(a)) < 4 || len([]rune(b)) < 4 {
		return false
	}
	for _, x := range []string{a, b} {
		y := b
		if x == b {
			y = a
		}
		r := []rune(x)
		for _, start := range []int{0, 1} {
			if start+3 <= len(r) && strings.Contains(y, string(r[start:start+3])) {
				return true
			}
		}
	}
	return false
}

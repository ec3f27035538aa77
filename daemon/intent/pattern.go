// Patterns: how a flow is indexed — its intent template and each past
// command turned into a pattern of literals and slot placeholders.

package intent

import (
	"cmp"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// pattern is one form of a flow: its intent template, or one past
// command with the slot values replaced by placeholders.
type pattern struct {
	src   string
	toks  []ptok
	tris  []uint64 // sorted scoring trigrams of the content words (ptok.stris)
	itris []uint64 // index trigrams (ptok.tris)
	runs  bool     // a literal is a quoted text of two words or more (mergeRuns)
	// derived: made from the flow's steps, not from words the owner said
	// (SwitchText); its score counts derivedWeight
	derived bool
}

// derivedWeight scales the score of a pattern made from a flow's steps: the
// owner's own words (the intent, past commands) outrank it, so a flow whose
// steps read like another flow's intent is never a tie for it: an exact
// match scores 1 against 0.94, apart by more than the engine's ambiguity
// margin (0.05, daemon/match.go), and little else is lost. Chosen from
// that margin, not fitted (0.9 lost a right command on tune2).
const derivedWeight = 0.94

// flowDoc is a flow as the Matcher indexes it; a BM25 document is the
// union of its patterns' terms.
type flowDoc struct {
	id       int64
	pkg      string
	slots    map[string]*slotInfo
	patterns []*pattern
	terms    map[string]int // term → number of patterns holding it
	length   int
	tris     []uint64 // unique trigram keys of all patterns
	dead     bool
	selects  bool // the intent picks one item (a selector: "the last photo")
	// said: the concepts of the intent's own words (slots aside), what
	// the flow does whichever of its patterns a command matched
	said []cmem
	// offLabel: the stems of the label's content words when the flow
	// turns one switch off (SwitchOf), nil otherwise; a command saying
	// that label and nothing else asks for the switch on (labelAsked)
	offLabel []string
}

// quotedIn reports whether one of commands quotes value (the owner set
// the slot's value off in quote marks when the flow was learned).
func quotedIn(commands []string, value string) bool {
	if value == "" {
		return false
	}
	for _, c := range commands {
		for _, t := range Tokenize(c) {
			if t.Kind == KindQuoted && strings.EqualFold(t.Text, value) {
				return true
			}
		}
	}
	return false
}

// buildFlowDoc indexes f; label is its app's label, whose mentions in its
// intent and past commands ("in the Mosaic app") are optional words
// (markMentions).
func buildFlowDoc(f *knowledge.Flow, label string) *flowDoc {
	d := &flowDoc{id: f.ID, pkg: f.Package, slots: map[string]*slotInfo{}, terms: map[string]int{}}
	for _, s := range f.Slots {
		if s.Name != "" {
			d.slots[s.Name] = newSlotInfo(s.Name, s.Example)
			d.slots[s.Name].quoted = quotedIn(f.Commands, s.Example)
		}
	}
	if label, on, ok := SwitchOf(f); ok && !on {
		for _, t := range analyze(label) {
			if !t.stop {
				d.offLabel = append(d.offLabel, t.stem)
			}
		}
	}
	for _, st := range f.Steps {
		if name, ok := knowledge.SlotRef(st.Text); ok && st.Action == "input" && d.slots[name] != nil {
			d.slots[name].typed = true
		}
	}
	acted := actedTexts(f)
	seen := map[string]bool{}
	// addPattern indexes toks (of src) as one of the flow's patterns;
	// derived: made from its steps (pattern.derived)
	addPattern := func(src string, toks []ptok, derived bool) {
		if len(toks) > maxToks {
			toks = toks[:maxToks]
		}
		key, content := patternKey(toks)
		if !content || seen[key] {
			return
		}
		seen[key] = true
		p := &pattern{src: src, toks: toks, derived: derived}
		for i := range toks {
			if t := &toks[i]; t.slot == "" && !t.stop {
				p.tris = append(p.tris, t.stris...)
				p.itris = append(p.itris, t.tris...)
				p.runs = p.runs || len(t.words) > 0
			}
		}
		slices.Sort(p.tris)
		d.patterns = append(d.patterns, p)
		for _, t := range patternTerms(toks) {
			d.terms[t]++
			d.length++
		}
	}
	var tpl []ptok
	if strings.TrimSpace(f.Intent) != "" {
		tpl = analyzeTemplate(f.Intent)
		markMentions(f.Intent, tpl, label)
		markUnacted(tpl, acted)
		for i, t := range tpl {
			if t.slot != "" && d.slots[t.slot] == nil {
				d.slots[t.slot] = &slotInfo{name: t.slot}
			}
			d.selects = d.selects || isSelector(&tpl[i])
			if t.slot == "" {
				d.said = append(d.said, t.concepts...)
			}
		}
		addPattern(f.Intent, tpl, false)
	}
	cmds := f.Commands
	if len(cmds) > maxCommands {
		cmds = cmds[len(cmds)-maxCommands:]
	}
	// the names the intent holds as values ("Bob's" in "delete Bob's
	// messages") are values in the past commands too, however written
	// ("delete the chat with bob"): a command leaving them out is about
	// another item
	names := map[string]bool{}
	for _, t := range tpl {
		if t.proper && t.kind == KindWord {
			names[t.stem] = true
		}
	}
	for i := len(cmds) - 1; i >= 0; i-- {
		c := cmds[i]
		toks := analyze(c)
		openingMarker(toks)
		for k := range toks {
			if t := &toks[k]; t.kind == KindWord && !t.proper && !t.stop && names[t.stem] {
				t.proper = true
			}
		}
		markMentions(c, toks, label)
		markUnacted(toks, acted)
		if len(toks) > maxToks {
			toks = toks[:maxToks]
		}
		addPattern(c, derivePattern(c, tpl, toks, d.slots), false)
	}
	if t := SwitchText(f); t != "" {
		toks := analyze(t)
		markMentions(t, toks, label)
		addPattern(t, toks, true)
	}
	tset := map[uint64]bool{}
	for _, p := range d.patterns {
		for _, k := range p.itris {
			if !tset[k] {
				tset[k] = true
				d.tris = append(d.tris, k)
			}
		}
	}
	return d
}

// patternKey is a dedup key of a pattern, and whether it has any content
// (a non-stopword or a slot).
func patternKey(toks []ptok) (string, bool) {
	var b strings.Builder
	content := false
	for _, t := range toks {
		if t.slot != "" {
			b.WriteString("{" + t.slot + "} ")
			content = true
			continue
		}
		if !t.stop {
			content = true
		}
		b.WriteString(t.stem + " ")
	}
	return b.String(), content
}

// patternTerms are the BM25 terms of a pattern: stems of its content
// words (not slot values) and "@id" for their concepts, each once.
func patternTerms(toks []ptok) []string {
	var out []string
	for i := range toks {
		t := &toks[i]
		if t.slot != "" || t.stop || t.strongValue() {
			continue
		}
		if !slices.Contains(out, t.stem) {
			out = append(out, t.stem)
		}
		for _, c := range t.concepts {
			if k := "@" + c.id; !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// derivePattern turns past command src (tokens cmd) into a pattern: the
// spans that hold the slots' example values verbatim become the slot
// placeholders (PromptRPA §4.2.1 stores what ran; here the values are
// abstracted out), and slots whose example is not there are located by
// aligning the command with the template. Without a template (or slots)
// the command is its own pattern.
func derivePattern(src string, tpl, cmd []ptok, slots map[string]*slotInfo) []ptok {
	hasSlot := false
	for _, t := range tpl {
		if t.slot != "" {
			hasSlot = true
			break
		}
	}
	if !hasSlot || len(cmd) == 0 {
		return cmd
	}
	slotOf := make([]int, len(cmd)) // template slot index consuming the token, or -1
	for j := range slotOf {
		slotOf[j] = -1
	}
	spans := map[int][2]int{}
	used := func(k int) bool { return slotOf[k] >= 0 }
	missing := false
	for i, t := range tpl {
		if t.slot == "" {
			continue
		}
		if _, done := spans[i]; done {
			continue
		}
		si := slots[t.slot]
		if si == nil || si.example == "" {
			missing = true
			continue
		}
		a, b, ok := findValue(src, cmd, si.example, used)
		if !ok {
			missing = true
			continue
		}
		spans[i] = [2]int{a, b}
		for k := a; k < b; k++ {
			slotOf[k] = i
		}
	}
	if missing {
		n, mm := len(tpl), len(cmd)
		sims := make([]float64, n*mm)
		for i := range tpl {
			for j := range cmd {
				sims[i*mm+j] = tokSim(&tpl[i], &cmd[j])
			}
		}
		al := align(src, tpl, cmd, slots, sims, &work{})
	fills:
		for i, sp := range al.fills {
			if tpl[i].slot == "" || sp.a < 0 {
				continue
			}
			if _, done := spans[i]; done {
				continue
			}
			for k := sp.a; k < sp.b; k++ {
				if slotOf[k] >= 0 {
					continue fills
				}
			}
			spans[i] = [2]int{sp.a, sp.b}
			for k := sp.a; k < sp.b; k++ {
				slotOf[k] = i
			}
		}
	}
	out := make([]ptok, 0, len(cmd))
	for j := 0; j < len(cmd); j++ {
		si := slotOf[j]
		if si < 0 {
			out = append(out, cmd[j])
			continue
		}
		sp := spans[si]
		slot := tpl[si]
		slot.start, slot.end = cmd[sp[0]].start, cmd[sp[1]-1].end
		out = append(out, slot)
		j = sp[1] - 1
	}
	return out
}

// SwitchText describes a flow that sets one switch in the app's own words,
// "turn on <its label>" or "turn off <its label>", when that is all it
// does (SwitchOf). The owner often says what the screen says ("turn off
// Haptic feedback" for a flow learned as "stop the buzzing on taps"). ""
// otherwise.
func SwitchText(f *knowledge.Flow) string {
	label, on, ok := SwitchOf(f)
	if !ok {
		return ""
	}
	return SwitchPhrase(label, on)
}

// SwitchPhrase says setting the switch labelled label on or off in the
// app's words: "turn on <label>", "turn off <label>".
func SwitchPhrase(label string, on bool) string {
	if on {
		return "turn on " + label
	}
	return "turn off " + label
}

// SwitchLabel returns a switch's label without the state its row shows
// as text ("Vibrate for calls ON" → "Vibrate for calls").
func SwitchLabel(label string) string {
	label = strings.TrimSpace(label)
	for _, st := range []string{" ON", " OFF"} {
		label = strings.TrimSpace(strings.TrimSuffix(label, st))
	}
	return label
}

// SwitchOf returns the label of the one switch flow f sets and the state
// it sets (on: knowledge.StepSwitchOn), when that is all it does: no
// slots, and its last step, the only one that sets a toggle. A state the
// row shows as text ("Vibrate for calls ON") is no part of the label.
func SwitchOf(f *knowledge.Flow) (label string, on bool, ok bool) {
	if len(f.Slots) > 0 || len(f.Steps) == 0 {
		return "", false, false
	}
	n := 0
	for _, s := range f.Steps {
		if s.Action == knowledge.StepSwitchOn || s.Action == knowledge.StepSwitchOff {
			n++
		}
	}
	last := f.Steps[len(f.Steps)-1]
	label = SwitchLabel(last.Target.Label())
	if n != 1 || label == "" {
		return "", false, false
	}
	switch last.Action {
	case knowledge.StepSwitchOn:
		return label, true, true
	case knowledge.StepSwitchOff:
		return label, false, true
	}
	return "", false, false
}

// actedTexts returns, lower case, the texts f's steps act on: the labels
// of their targets and the texts they type (not slot references); nil
// for a flow without steps, whose literals all stay requirements.
func actedTexts(f *knowledge.Flow) []string {
	if len(f.Steps) == 0 {
		return nil
	}
	out := []string{}
	for _, s := range f.Steps {
		for _, t := range []string{s.Target.Text, s.Target.Desc, s.Text} {
			if t != "" && !strings.HasPrefix(t, "{") {
				out = append(out, strings.ToLower(t))
			}
		}
	}
	return out
}

// markUnacted flags as optional the literal values of pts with digits (a
// number, a time, a date, a quoted name with a digit) that none of acted
// (actedTexts) carries: a value the app filled in by itself (the height
// it computed from the width typed, a default file name) is what the
// flow saw, not what it set, so a command that leaves it out leaves out
// no requirement ("scale the newest scan to 800 wide" against "scale the
// newest scan to {width}:768"). A command giving another value in its
// place still gives a value the flow does not use (VetoValue). Names
// (proper nouns) are never optional: the flow may have begun on their
// item's screen.
func markUnacted(pts []ptok, acted []string) {
	if acted == nil {
		return
	}
	for i := range pts {
		t := &pts[i]
		if t.slot != "" || !t.strongValue() || !strings.ContainsFunc(t.orig, isDigit) {
			continue
		}
		if !slices.ContainsFunc(acted, func(a string) bool { return carriesDigits(a, strings.ToLower(t.orig)) }) {
			t.optional = true
		}
	}
}

// carriesDigits reports whether acted text a holds value v, a value with
// digits: every run of digits of v is one of a's (leading zeros aside:
// "7:30" in "07:30"; "48" not in "4 hours", "0" not in "page 10").
func carriesDigits(a, v string) bool {
	runs := func(s string) []string {
		var out []string
		for _, r := range strings.FieldsFunc(s, func(r rune) bool { return !isDigit(r) }) {
			out = append(out, cmp.Or(strings.TrimLeft(r, "0"), "0"))
		}
		return out
	}
	have := runs(a)
	want := runs(v)
	if len(want) == 0 {
		return false
	}
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

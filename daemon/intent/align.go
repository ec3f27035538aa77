package intent

import (
	"slices"
	"strings"
)

// slotInfo describes one slot of a flow.
type slotInfo struct {
	name    string
	example string
	kind    Kind // kind of a one-token example (number, time, date, word), "" for free text
	quoted  bool // the example was quoted in a past command of the flow
	shape   []ptok
	// short: the example has at most two words and no negation (a name, a
	// title, a search term), so a value with a negation in it is a clause
	// run on ("weather but don't open it"), not a value
	short bool
	typed bool // a step types the value
}

func newSlotInfo(name, example string) *slotInfo {
	si := &slotInfo{name: name, example: example}
	toks := analyze(example)
	si.short = len(toks) <= 2 && !slices.ContainsFunc(toks, func(t ptok) bool { return t.neg })
	if len(toks) == 1 {
		si.kind = toks[0].kind
	}
	if len(toks) > 1 && len(toks) <= 4 {
		si.shape = toks
	}
	return si
}

// sameShape reports whether sp has the shape of the slot's example of
// several tokens: a value where the example has one of the same kind, the
// same word (by stem) elsewhere — "10 minutes" for "1 minute".
func (si *slotInfo) sameShape(sp []ptok) bool {
	if len(si.shape) == 0 || len(sp) != len(si.shape) {
		return false
	}
	values := 0
	for i := range sp {
		e, t := &si.shape[i], &sp[i]
		switch {
		case e.strongValue() || t.strongValue():
			if e.kind != t.kind {
				return false
			}
			values++
		case e.stem != t.stem:
			return false
		}
	}
	return values > 0
}

// span is a run [a, b) of command tokens filling a slot.
type span struct {
	a, b int
	conf float64 // 1 aligned, lower for fallbacks
	how  string  // "aligned", "example", "kind"
}

// alignment is the result of aligning a pattern with a command.
type alignment struct {
	patMatch []int  // per pattern token: matched command token, or -1
	slotOf   []int  // per command token: index of the pattern slot token consuming it, or -1
	fills    []span // per pattern token (slots only; a == b == -1: unfilled)
}

// Alignment weights (hand-set; see DefaultThreshold for how the final
// score was calibrated).
const (
	simStop        = 0.3  // a stopword matching the same stopword (an anchor)
	simConcept     = 0.8  // different words of one concept ("remove"/"delete")
	simConceptWeak = 0.7  // ... when one membership is weak
	simFuzzy       = 0.75 // one typo (Damerau–Levenshtein distance 1; 2 for long words)

	skipStop   = 0.05 // leaving a stopword unaligned
	skipWord   = 0.45 // leaving a content word unaligned
	skipValue  = 0.6  // leaving a quoted/number/time/date value unused
	skipProper = 0.45 // leaving a proper-noun-like value unused
	properFit  = 0.9  // a proper-noun-like value as a slot value (a quoted, number, time or date value: 1)
	skipSlot   = 1.0  // leaving a slot unfilled

	maxSpan = 10 // longest slot value, in tokens
	maxToks = 48 // tokens of a command or pattern considered
)

const negInf = -1e18

func skipCmdCost(c *ptok) float64 {
	switch {
	case c.stop, c.optional:
		return skipStop
	case c.strongValue():
		return skipValue
	case c.proper:
		return skipProper
	}
	return skipWord
}

func skipPatCost(p *ptok) float64 {
	switch {
	case p.slot != "":
		return skipSlot
	case p.stop:
		return skipStop
	}
	return skipWord
}

// kindFit scores a one-token value of kind k (proper: a proper-noun-like
// word) for a slot whose example had kind sk.
func kindFit(sk Kind, c *ptok) float64 {
	k := c.kind
	f := 1.0
	if c.proper {
		k, f = KindWord, properFit
	}
	return f * kindFit1(sk, k)
}

func kindFit1(sk, k Kind) float64 {
	switch {
	case sk == "" || sk == k:
		return 1
	case (sk == KindWord && k == KindQuoted) || (sk == KindQuoted && k == KindWord):
		return 0.9
	case sk == KindTime && k == KindNumber, sk == KindNumber && k == KindQuoted, sk == KindQuoted && k == KindNumber:
		return 0.7
	}
	return 0.5
}

// fillScore scores command tokens sp as the value of slot si; negInf
// when they cannot be one.
func fillScore(si *slotInfo, sp []ptok) float64 {
	if len(sp) == 1 && sp[0].isValue() {
		return kindFit(si.kind, &sp[0])
	}
	if si.sameShape(sp) {
		return 1
	}
	first, last := &sp[0], &sp[len(sp)-1]
	if first.kind == KindWord && slotEdge[first.text] || last.kind == KindWord && slotEdge[last.text] {
		return negInf
	}
	if len(sp) > 1 && first.kind == KindWord && leadParticles[first.text] {
		// the particle of a phrasal verb before it ("look up clip7")
		return negInf
	}
	if first.optional || last.optional {
		// a value does not begin or end in a mention of the app ("find
		// dentist in my planner" searches for "dentist")
		return negInf
	}
	content, values, objects := 0, 0, 0
	for i := range sp {
		t := &sp[i]
		if t.strongAction() || t.kind == KindQuoted || t.neg && si.short {
			// quote marks delimit a value exactly: a quoted text is the
			// whole value or none of it ("'Dentist' on march 3" is not one);
			// a negation ends a short value (slotInfo.short)
			return negInf
		}
		if !t.stop && !quantifiers[t.text] {
			content++
			if len(t.concepts) > 0 && !t.proper && !t.hasAction() {
				objects++
			}
		}
		if t.strongValue() {
			values++
		}
	}
	if content == 0 || objects == content {
		// nothing but stopwords, or nothing but vocabulary words ("an
		// email", "music"): the command names a kind of thing, not a value
		return negInf
	}
	switch si.kind {
	case KindTime, KindDate, KindNumber:
		// plain words for a typed slot: number words only ("seven thirty")
		for i := range sp {
			if !numberWords[sp[i].text] {
				return negInf
			}
		}
		return 0.6
	}
	v := 0.5 + 0.02*float64(len(sp)-1)
	if values > 0 || properThenStop(sp) || si.short && len(sp) > 2 && slices.ContainsFunc(sp[1:len(sp)-1], func(t ptok) bool { return slotEdge[t.text] }) {
		// a value mixed with other words ("7 am tomorrow", "Bob on
		// speaker"), or a short value run on into a phrase ("dentist in
		// my planner" for a one-word search term)
		v = 0.3
	}
	if onTail[last.text] {
		v -= 0.15
	}
	return v
}

// align aligns pattern pat with command cmd by dynamic programming (an
// edit-distance alignment where a slot consumes a run of 1..maxSpan
// command tokens), then fills unfilled slots by fallbacks: the slot's
// example value repeated verbatim in the command, then a leftover value
// of a fitting kind. sims is the tokSim matrix (len(pat) × len(cmd)).
func align(src string, pat, cmd []ptok, slots map[string]*slotInfo, sims []float64, wk *work) alignment {
	n, m := len(pat), len(cmd)
	W := m + 1
	dp := grow(&wk.dp, (n+1)*W)
	op := grow(&wk.op, (n+1)*W) // 0 skip cmd, 1 skip pat, 2 match, 3+ fill of length op-2
	dp[0], op[0] = 0, 0
	for j := 1; j <= m; j++ {
		op[j] = 0
		dp[j] = dp[j-1] - skipCmdCost(&cmd[j-1])
	}
	quoted := false // the command quotes a value
	for j := range cmd {
		quoted = quoted || cmd[j].kind == KindQuoted
	}
	for i := 1; i <= n; i++ {
		p := &pat[i-1]
		row, prow := i*W, (i-1)*W
		dp[row] = dp[prow] - skipPatCost(p)
		op[row] = 1
		si := slots[p.slot]
		if p.slot != "" && si == nil {
			si = &slotInfo{name: p.slot}
		}
		var forb uint64 // command tokens this slot's plain value must not contain
		if p.slot != "" {
			forb = anchorMask(pat, i-1, m, sims)
		}
		for j := 1; j <= m; j++ {
			best, o := dp[row+j-1]-skipCmdCost(&cmd[j-1]), uint8(0)
			if v := dp[prow+j] - skipPatCost(p); v >= best {
				best, o = v, 1
			}
			if p.slot == "" {
				if s := sims[(i-1)*m+j-1]; s > 0 {
					if v := dp[prow+j-1] + s; v >= best {
						best, o = v, 2
					}
				}
			} else {
				for L := 1; L <= maxSpan && L <= j; L++ {
					f := negInf
					if quoted && si.quoted && !(L == 1 && cmd[j-1].kind == KindQuoted) {
						// the value was quoted when learned and the command
						// quotes one: that is the value
					} else if L == 1 && cmd[j-1].strongValue() || forb>>(j-L)&(1<<L-1) == 0 {
						// a lone quoted text, number, time or date may be
						// the value even where it is a word of the pattern;
						// a name the pattern says is that word of the
						// pattern, wherever the command puts it ("open
						// Budget.xlsx from the attic folder" against "go to
						// {folder} folder and open Budget.xlsx")
						f = fillScore(si, cmd[j-L:j])
					}
					if j == L && L > 1 && i > 1 && si.typed && cmd[0].kind == KindWord {
						// a typed value of several words does not open the
						// command when the pattern says words before it:
						// the command's first word is its verb ("type moss
						// in the folder search" against "search for the
						// {folder} folder"), and typing it would be wrong;
						// a picked value's extra words pick nothing
						// ("give ben a call")
						f = negInf
					}
					if f <= negInf/2 {
						if cmd[j-L].strongAction() {
							break
						}
						continue
					}
					if v := dp[prow+j-L] + f; v >= best {
						best, o = v, uint8(2+L)
					}
				}
			}
			dp[row+j], op[row+j] = best, o
		}
	}
	al := alignment{patMatch: grow(&wk.patMatch, n), slotOf: grow(&wk.slotOf, m), fills: grow(&wk.fills, n)}
	for i := range al.patMatch {
		al.patMatch[i] = -1
		al.fills[i] = span{a: -1, b: -1}
	}
	for j := range al.slotOf {
		al.slotOf[j] = -1
	}
	i, j := n, m
	for i > 0 || j > 0 {
		switch o := op[i*W+j]; {
		case i == 0 || (o == 0 && j > 0):
			j--
		case o == 1 || j == 0:
			i--
		case o == 2:
			al.patMatch[i-1] = j - 1
			i, j = i-1, j-1
		default:
			L := int(o) - 2
			al.fills[i-1] = span{a: j - L, b: j, conf: 1, how: "aligned"}
			for k := j - L; k < j; k++ {
				al.slotOf[k] = i - 1
			}
			i, j = i-1, j-L
		}
	}
	fallbackFills(src, pat, cmd, slots, &al)
	return al
}

// properThenStop reports whether a proper-noun-like word in sp is
// followed by a stopword (the name ended there).
func properThenStop(sp []ptok) bool {
	seen := false
	for i := range sp {
		if sp[i].proper {
			seen = true
		} else if seen && sp[i].stop {
			return true
		}
	}
	return false
}

// anchorMask returns, as bits over command tokens, those a plain value of
// the slot at pattern index si must not contain: tokens matching one of
// the pattern's content words, or the stopword right before or after the
// slot ("titled {title}", "{message} to {contact}"). A value swallowing an
// anchor would misalign the whole command.
func anchorMask(pat []ptok, si, m int, sims []float64) uint64 {
	var mask uint64
	for i := range pat {
		p := &pat[i]
		if p.slot != "" || (p.stop && i != si-1 && i != si+1) {
			continue
		}
		for j := 0; j < m && j < 64; j++ {
			if sims[i*m+j] > 0 {
				mask |= 1 << j
			}
		}
	}
	return mask
}

// work holds buffers reused across the patterns scored for one command;
// slices returned by align alias them.
type work struct {
	sims     []float64
	dp       []float64
	op       []uint8
	patMatch []int
	slotOf   []int
	fills    []span
	ct       []uint64
	credC    []float64
	credP    []float64
	loneC    []bool
	loneP    []bool
	pairs    []wpair
	partC    []int // per command token: the pattern token assigned to it, or -1
}

// grow returns (*buf)[:n], reallocating when too short; contents are
// not cleared.
func grow[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n, n+n/2)
	}
	*buf = (*buf)[:n]
	return *buf
}

// fallbackFills fills slots the alignment left empty: first with the
// slot's example when the command repeats it verbatim, then with a
// leftover value whose kind fits.
func fallbackFills(src string, pat, cmd []ptok, slots map[string]*slotInfo, al *alignment) {
	used := func(k int) bool {
		if al.slotOf[k] >= 0 {
			return true
		}
		return slices.Contains(al.patMatch, k)
	}
	for i := range pat {
		p := &pat[i]
		if p.slot == "" || al.fills[i].a >= 0 {
			continue
		}
		si := slots[p.slot]
		if si == nil || si.example == "" {
			continue
		}
		if a, b, ok := findValue(src, cmd, si.example, used); ok {
			al.fills[i] = span{a: a, b: b, conf: 1, how: "example"}
			for k := a; k < b; k++ {
				al.slotOf[k] = i
			}
		}
	}
	for i := range pat {
		p := &pat[i]
		if p.slot == "" || al.fills[i].a >= 0 {
			continue
		}
		si := slots[p.slot]
		sk := Kind("")
		if si != nil {
			sk = si.kind
		}
		for k := range cmd {
			c := &cmd[k]
			if used(k) || !c.isValue() {
				continue
			}
			if kindFit(sk, c) < 0.9 {
				continue
			}
			al.fills[i] = span{a: k, b: k + 1, conf: 0.85, how: "kind"}
			al.slotOf[k] = i
			break
		}
	}
}

// findValue finds the run of command tokens whose text is value (case
// and white space aside), none of them used.
func findValue(src string, cmd []ptok, value string, used func(int) bool) (int, int, bool) {
	want := normText(strings.TrimSpace(value))
	if want == "" {
		return 0, 0, false
	}
	for a := range cmd {
		if used(a) {
			continue
		}
		for b := a; b < len(cmd) && b-a < maxSpan; b++ {
			if b > a && used(b) {
				break
			}
			if cmd[a].start < 0 || cmd[b].end > len(src) || cmd[a].start > cmd[b].end {
				break
			}
			got := normText(src[cmd[a].start:cmd[b].end])
			if got == want {
				return a, b + 1, true
			}
			if len(got) > len(want)+8 {
				break
			}
		}
	}
	return 0, 0, false
}

// spanText is the text of command tokens sp as written in src.
func spanText(src string, sp []ptok) string {
	if len(sp) == 1 {
		return sp[0].orig
	}
	a, b := sp[0].start, sp[len(sp)-1].end
	if a < 0 || b > len(src) || a > b {
		return ""
	}
	return src[a:b]
}

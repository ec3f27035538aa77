package intent

import (
	"math"
	"slices"
	"strings"
)

// slotInfo describes one slot of a flow.
type slotInfo struct {
	name    string
	example string
	kind    Kind // kind of a one-token example (number, time, date, word), "" for free text
}

func newSlotInfo(name, example string) *slotInfo {
	si := &slotInfo{name: name, example: example}
	if toks := analyze(example); len(toks) == 1 {
		si.kind = toks[0].kind
	}
	return si
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

// tokSim is the similarity of a pattern literal p and a command token c,
// 0 when they do not match.
func tokSim(p, c *ptok) float64 {
	if p.slot != "" || c.slot != "" {
		return 0
	}
	if p.stop || c.stop {
		if p.stop && c.stop && (p.text == c.text || stopClass[p.text] != "" && stopClass[p.text] == stopClass[c.text]) {
			return simStop
		}
		return 0
	}
	if p.stem == c.stem {
		return 1
	}
	best := 0.0
	for _, a := range p.concepts {
		for _, b := range c.concepts {
			if a.id == b.id {
				v := simConcept
				if a.weak || b.weak {
					v = simConceptWeak
				}
				best = max(best, v)
			}
		}
	}
	if best > 0 {
		return best
	}
	// a typo: not of an action word (lock/block), and not between two
	// vocabulary words (ascending/descending)
	if p.kind == KindWord && c.kind == KindWord && !p.hasAction() && !c.hasAction() &&
		(len(p.concepts) == 0 || len(c.concepts) == 0) && typo(p.text, c.text) {
		return simFuzzy
	}
	return 0
}

// typo reports whether a and b (lower case) differ by one edit
// (Damerau–Levenshtein: insert, delete, substitute, swap), or two for words
// of 8 runes or more; words shorter than 4 runes must be equal.
func typo(a, b string) bool {
	if a == b || len(a) < 4 || len(b) < 4 {
		return false
	}
	var ra, rb [maxTypoLen]rune
	la, lb := 0, 0
	for _, r := range a {
		if la == maxTypoLen {
			return false
		}
		ra[la] = r
		la++
	}
	for _, r := range b {
		if lb == maxTypoLen {
			return false
		}
		rb[lb] = r
		lb++
	}
	if min(la, lb) < 4 {
		return false
	}
	k := 1
	if min(la, lb) >= 8 {
		k = 2
	}
	if la-lb > k || lb-la > k {
		return false
	}
	return damerau(ra[:la], rb[:lb], k) <= k
}

const maxTypoLen = 31

// damerau is the optimal-string-alignment distance of a and b (at most
// maxTypoLen runes each), giving up (returning k+1) once it exceeds k.
func damerau(a, b []rune, k int) int {
	n, m := len(a), len(b)
	var r0, r1, r2 [maxTypoLen + 1]int
	prev2, prev, cur := r0[:m+1], r1[:m+1], r2[:m+1]
	for j := 0; j <= m; j++ {
		prev[j] = j
	}
	for i := 1; i <= n; i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= m; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > k {
			return k + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[m]
}

func skipCmdCost(c *ptok) float64 {
	switch {
	case c.stop:
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
	first, last := &sp[0], &sp[len(sp)-1]
	if first.kind == KindWord && slotEdge[first.text] || last.kind == KindWord && slotEdge[last.text] {
		return negInf
	}
	content, values, objects := 0, 0, 0
	for i := range sp {
		t := &sp[i]
		if t.strongAction() {
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
	if values > 0 || properThenStop(sp) {
		v = 0.3 // a value mixed with other words ("7 am tomorrow", "Bob on speaker")
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
					if L == 1 && cmd[j-1].isValue() || forb>>(j-L)&(1<<L-1) == 0 {
						f = fillScore(si, cmd[j-L:j])
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

// ---- character trigrams ----

// packTri packs three runes into one key.
func packTri(a, b, c rune) uint64 { return uint64(a)<<42 | uint64(b)<<21 | uint64(c) }

// appendTrigrams appends the trigrams of word w padded with spaces
// (" w "), as packed keys.
func appendTrigrams(dst []uint64, w string) []uint64 {
	rs := make([]rune, 0, len(w)+2)
	rs = append(rs, ' ')
	for _, r := range w {
		rs = append(rs, r)
	}
	rs = append(rs, ' ')
	if len(rs) < 3 {
		return dst
	}
	for i := 0; i+3 <= len(rs); i++ {
		dst = append(dst, packTri(rs[i], rs[i+1], rs[i+2]))
	}
	return dst
}

// dice is the Dice coefficient of two sorted multisets of trigram keys.
func dice(a, b []uint64) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	i, j, inter := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(inter) / float64(len(a)+len(b))
}

// ---- scoring one pattern ----

// Score weights: the combination of lexical coverage, BM25 and trigram
// similarity, and the multiplicative penalties.
const (
	wLex  = 0.55
	wBM25 = 0.15
	wTri  = 0.30

	actionWeight = 1.5 // weight of an action word relative to other content words

	penOpposite     = 0.25 // opposite concepts (on/off, add/delete), negation on one side, swapped roles
	penVerb         = 0.55 // both sides have an action word the other lacks
	penExtraVerb    = 0.7  // the command has a (strong) action word the flow lacks
	penObject       = 0.75 // both sides have a content word the other lacks
	penPolarity     = 0.7  // the flow names one side of a toggle, the command neither
	penUnfilled     = 0.45 // per slot the command gives no value for
	penKindFill     = 0.9  // per slot filled by value kind only
	penValue        = 0.5  // per quoted/number/time/date value the flow does not use
	penProper       = 0.85 // per proper-noun-like value the flow does not use
	penValueLiteral = 0.6  // per value of the flow (a literal, not a slot) the command does not name
	minMultiplier   = 0.05

	unanchoredConf = 0.5 // credit of a plain-word slot value whose neighbouring literals did not align
)

// patResult is the score of one pattern against the command; fills is
// only set when the score beat the best so far.
type patResult struct {
	score   float64
	fills   map[string]string
	missing []string
	vetoes  []string // Veto* reasons, in the order found
}

func (r *patResult) veto(v string) {
	if !slices.Contains(r.vetoes, v) {
		r.vetoes = append(r.vetoes, v)
	}
}

// scorePattern scores pattern p of flow f against query q (see Rank).
// w(tok) gives the lexical weight of a token.
func scorePattern(q *query, p *pattern, f *flowDoc, bm25n float64, w func(*ptok) float64, wk *work, best float64) patResult {
	pat, cmd := p.toks, q.toks
	n, m := len(pat), len(cmd)
	sims := grow(&wk.sims, n*m)
	for i := range pat {
		for j := range cmd {
			sims[i*m+j] = tokSim(&pat[i], &cmd[j])
		}
	}
	al := align(q.src, pat, cmd, f.slots, sims, wk)

	var res patResult
	mult := 1.0
	// slots
	slotW, slotCredit := 0.0, 0.0
	spanObj := false // a plain slot value holds a vocabulary object word
	for i := range pat {
		if pat[i].slot == "" {
			continue
		}
		slotW++
		sp := al.fills[i]
		if sp.a < 0 {
			if !slices.Contains(res.missing, pat[i].slot) {
				res.missing = append(res.missing, pat[i].slot)
			}
			res.veto(VetoUnfilled)
			mult *= penUnfilled
			continue
		}
		conf := sp.conf
		if plain := sp.b-sp.a > 1 || !cmd[sp.a].isValue(); plain {
			for k := sp.a; k < sp.b; k++ {
				if !cmd[k].stop && len(cmd[k].concepts) > 0 && !cmd[k].hasAction() {
					spanObj = true
				}
			}
			if sp.how == "aligned" && !anchored(pat, i, &al) {
				conf *= unanchoredConf
			}
		}
		slotCredit += conf
		if sp.how == "kind" {
			mult *= penKindFill
		}
	}
	// one-to-one matching of content words (greedy by similarity), then
	// coverage on both sides
	credC, credP, loneC, loneP := assignWords(pat, cmd, sims, al.slotOf, wk)
	qW, qC := 0.0, 0.0
	var cmdActs, patActs, cmdLone, patLone []cmem
	ct := wk.ct[:0]
	cmdLoneAct, cmdLoneObj, cmdLoneStrongAct := false, false, false
	for j := range cmd {
		c := &cmd[j]
		if al.slotOf[j] >= 0 || c.stop {
			continue
		}
		if c.isValue() && credC[j] == 0 {
			// a value the flow does not use (and, against an unmatched
			// word of the flow, a substitution: "Jack" for "alice")
			if c.strongValue() {
				mult *= penValue
			} else {
				mult *= penProper
			}
			res.veto(VetoValue)
			cmdLoneObj = true
			continue
		}
		ct = append(ct, c.stris...)
		cmdActs = append(cmdActs, c.concepts...)
		wt := w(c)
		qW += wt
		qC += wt * credC[j]
		if loneC[j] {
			cmdLone = append(cmdLone, c.concepts...)
		}
		if credC[j] == 0 {
			if c.hasAction() {
				cmdLoneAct = true
				cmdLoneStrongAct = cmdLoneStrongAct || c.strongAction()
			} else {
				cmdLoneObj = true
			}
		}
	}
	pW, pC := slotW, slotCredit
	patLoneAct, patLoneObj := false, false
	for i := range pat {
		t := &pat[i]
		if t.slot != "" || t.stop {
			continue
		}
		patActs = append(patActs, t.concepts...)
		wt := w(t)
		pW += wt
		pC += wt * credP[i]
		if loneP[i] {
			patLone = append(patLone, t.concepts...)
		}
		if credP[i] == 0 {
			switch {
			case t.hasAction():
				patLoneAct = true
			case t.isValue():
				// the flow is about a value the command does not name
				mult *= penValueLiteral
				res.veto(VetoLiteral)
				patLoneObj = true
			default:
				patLoneObj = true
			}
		}
	}
	qcov, pcov := 0.0, 0.0
	switch {
	case qW > 0:
		qcov = qC / qW
	case slotCredit > 0:
		qcov = 1
	}
	if pW > 0 {
		pcov = pC / pW
	}
	lex := qcov * pcov

	// decisive conflicts: opposite concepts left unmatched on the two
	// sides, negation on one side only, swapped roles
	opp, neg, swapped := opposed(cmdLone, patLone), negated(cmd, al.slotOf) != negated(pat, nil), rolesSwapped(pat, cmd, al.slotOf)
	if opp || neg || swapped {
		mult *= penOpposite
	}
	if opp {
		res.veto(VetoOpposite)
	}
	if neg {
		res.veto(VetoNegation)
	}
	if swapped {
		res.veto(VetoRoles)
	}
	switch {
	case cmdLoneAct && patLoneAct:
		mult *= penVerb
		res.veto(VetoAction)
	case cmdLoneStrongAct:
		mult *= penExtraVerb
		res.veto(VetoAction)
	}
	if (cmdLoneObj || spanObj) && patLoneObj {
		mult *= penObject
	}
	// unmatched words on one side only: not a rewording but a requirement
	// added or dropped (no score change; see Candidate.Vetoes)
	cmdExtra, patExtra := cmdLoneObj || spanObj || cmdLoneAct, patLoneObj || patLoneAct
	switch {
	case cmdExtra && !patExtra:
		res.veto(VetoExtra)
	case patExtra && !cmdExtra:
		res.veto(VetoOmitted)
	}
	if missingPolarity(cmdActs, patActs) {
		mult *= penPolarity
		res.veto(VetoPolarity)
	}

	// trigram similarity of the content words left after slot filling
	slices.Sort(ct)
	tri := dice(ct, p.tris)
	if len(ct) == 0 && len(p.tris) == 0 && slotCredit > 0 {
		tri = 1
	}
	base := wLex*lex + wBM25*min(1, bm25n) + wTri*tri
	wk.ct = ct
	res.score = math.Max(0, math.Min(1, base*math.Max(mult, minMultiplier)))
	if res.score > best {
		res.fills = map[string]string{}
		for i := range pat {
			if sp := al.fills[i]; pat[i].slot != "" && sp.a >= 0 {
				res.fills[pat[i].slot] = spanText(q.src, cmd[sp.a:sp.b])
			}
		}
	}
	return res
}

// anchored reports whether the slot at pattern index i has an aligned
// neighbour: the literal right before or after it matched a command
// token (or the slot stands alone).
func anchored(pat []ptok, i int, al *alignment) bool {
	left, right := i-1, i+1
	hasL := left >= 0 && pat[left].slot == ""
	hasR := right < len(pat) && pat[right].slot == ""
	if !hasL && !hasR {
		return true
	}
	return hasL && al.patMatch[left] >= 0 || hasR && al.patMatch[right] >= 0
}

// assignWords matches the pattern's literal content words with the
// command's free content words one to one, greedily by similarity. lone
// marks the words left without a partner. A lone word that is similar to
// some word of the other side anyway (a second synonym: "make a new
// note" against "create a note") still gets dupCredit times that
// similarity as its credit, but stays lone for conflict checks: "hide" in
// a command must not both match "hide" and stand in for "off" in the
// flow.
func assignWords(pat, cmd []ptok, sims []float64, slotOf []int, wk *work) (credC, credP []float64, loneC, loneP []bool) {
	n, m := len(pat), len(cmd)
	credC, credP = grow(&wk.credC, m), grow(&wk.credP, n)
	loneC, loneP = grow(&wk.loneC, m), grow(&wk.loneP, n)
	clear(credC)
	clear(credP)
	pairs := wk.pairs[:0]
	free := func(j int) bool { return slotOf[j] < 0 && !cmd[j].stop }
	lit := func(i int) bool { return pat[i].slot == "" && !pat[i].stop }
	for i := range pat {
		if !lit(i) {
			continue
		}
		for j := range cmd {
			if !free(j) {
				continue
			}
			if s := sims[i*m+j]; s > 0 {
				pairs = append(pairs, wpair{i: int16(i), j: int16(j), s: s})
			}
		}
	}
	slices.SortStableFunc(pairs, func(a, b wpair) int {
		switch {
		case a.s > b.s:
			return -1
		case a.s < b.s:
			return 1
		}
		return 0
	})
	for _, pr := range pairs {
		if credP[pr.i] == 0 && credC[pr.j] == 0 {
			credP[pr.i], credC[pr.j] = pr.s, pr.s
		}
	}
	wk.pairs = pairs
	for j := range cmd {
		loneC[j] = credC[j] == 0
	}
	for i := range pat {
		loneP[i] = credP[i] == 0
	}
	for _, pr := range pairs { // second synonyms
		if loneC[pr.j] {
			credC[pr.j] = max(credC[pr.j], dupCredit*pr.s)
		}
		if loneP[pr.i] {
			credP[pr.i] = max(credP[pr.i], dupCredit*pr.s)
		}
	}
	return credC, credP, loneC, loneP
}

// dupCredit scales the credit of a second synonym (see assignWords).
const dupCredit = 0.9

type wpair struct {
	i, j int16
	s    float64
}

// opposed reports whether an unmatched command word and an unmatched
// pattern word carry opposite concepts (on/off, add/delete,
// ascending/descending, …).
func opposed(c, p []cmem) bool {
	for _, a := range c {
		for _, b := range p {
			if isOpposite(a.id, b.id) {
				return true
			}
		}
	}
	return false
}

// negated reports whether the tokens (those not consumed by a slot, when
// slotOf is given) hold an odd number of negations ("not", "don't",
// "never", …).
func negated(toks []ptok, slotOf []int) bool {
	odd := false
	for j := range toks {
		if toks[j].slot != "" || slotOf != nil && slotOf[j] >= 0 {
			continue
		}
		if toks[j].neg {
			odd = !odd
		}
	}
	return odd
}

// rolesSwapped reports whether the command binds the words of the pattern
// to other role prepositions: "from monthly to yearly" against "from
// yearly to monthly".
func rolesSwapped(pat, cmd []ptok, slotOf []int) bool {
	roles := func(toks []ptok, skip func(int) bool) map[string]string {
		var r map[string]string
		for k := 0; k+1 < len(toks); k++ {
			if skip(k) || skip(k+1) || !toks[k].role {
				continue
			}
			next := &toks[k+1]
			if next.slot != "" || next.stop {
				continue
			}
			if r == nil {
				r = map[string]string{}
			}
			if _, ok := r[toks[k].text]; !ok {
				r[toks[k].text] = next.stem
			}
		}
		return r
	}
	pr := roles(pat, func(int) bool { return false })
	if len(pr) < 2 {
		return false
	}
	cr := roles(cmd, func(j int) bool { return slotOf[j] >= 0 })
	for p1, a := range pr {
		b, ok := cr[p1]
		if !ok || a == b {
			continue
		}
		for p2, x := range cr {
			if p2 != p1 && x == a {
				return true
			}
		}
	}
	return false
}

// missingPolarity reports whether the pattern strongly names one side of
// a toggle (on/off, add/delete, …) and the command names neither side.
func missingPolarity(c, p []cmem) bool {
	for _, b := range p {
		if !b.action || b.weak || !polarOf[b.id] {
			continue
		}
		found := false
		for _, a := range c {
			if a.id == b.id || isOpposite(a.id, b.id) {
				found = true
				break
			}
		}
		if !found {
			return true
		}
	}
	return false
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

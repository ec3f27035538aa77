// Scoring one pattern of a flow against a command: lexical coverage, BM25
// and trigram similarity combined, times the penalties for what differs.

package intent

import (
	"math"
	"slices"
	"strings"
)

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
	penExtra        = 0.75 // the command has content words the flow lacks, the flow none the command lacks
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
	score float64
	fills map[string]string
	// corrected: the command with its typos written as the flow's words
	// (Candidate.Corrected); only set with fills
	corrected string
	missing   []string
	vetoes    []string // Veto* reasons, in the order found
	// lone content words left without a partner: of the command, of the
	// pattern (Candidate.Unmatched, Candidate.FlowUnmatched)
	cmdLone, patLone []string
	substituted      bool // an unmatched object word on both sides
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
	if p.runs {
		cmd = mergeRuns(pat, cmd)
	}
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
	for i := range pat {
		if si := f.slots[pat[i].slot]; pat[i].slot == "" || si == nil || !si.typed || !modifiesBefore(pat, cmd, i, al.fills[i], wk.partC) {
			continue
		}
		// a typed value said as a word before the flow's noun for it
		// ("send ada a chirp message": "chirp" says what kind of
		// message, not what it says): no value of the slot
		if !slices.Contains(res.missing, pat[i].slot) {
			res.missing = append(res.missing, pat[i].slot)
		}
		res.veto(VetoUnfilled)
		mult *= penUnfilled
		al.fills[i] = span{a: -1, b: -1}
	}
	qW, qC := 0.0, 0.0
	var cmdActs, patActs, cmdLone, patLone []cmem
	ct := wk.ct[:0]
	cmdLoneAct, cmdLoneObj, cmdLoneStrongAct := false, false, false
	// lone plain words of the command, and whether the first of its
	// content words is one: a verb the vocabulary does not know ("film a
	// video"), which may stand for the flow's lone action word
	lonePlain, firstContent, verbLike := 0, -1, false
	for j := range cmd {
		c := &cmd[j]
		if al.slotOf[j] >= 0 || c.stop || c.optional && credC[j] == 0 {
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
			res.cmdLone = append(res.cmdLone, c.text)
			if c.hasAction() {
				cmdLoneAct = true
				cmdLoneStrongAct = cmdLoneStrongAct || c.strongAction()
			} else {
				cmdLoneObj = true
				lonePlain++
				if firstContent < 0 {
					verbLike = true
				}
			}
		}
		if firstContent < 0 {
			firstContent = j
		}
	}
	pW, pC := slotW, slotCredit
	patLoneAct, patLoneObj := false, false
	scope := hasQuantifier(cmd, al.slotOf) && !hasQuantifier(pat, nil)
	for i := range pat {
		t := &pat[i]
		if t.slot != "" || t.stop || t.optional && credP[i] == 0 {
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
			res.patLone = append(res.patLone, t.text)
			switch {
			case t.hasAction():
				patLoneAct = true
			case t.isValue() || isSelector(t) && scope:
				// the flow is about a value the command does not name, or
				// it picks one item and the command says all of them
				// ("delete all my clips" against "delete the newest clip")
				mult *= penValueLiteral
				res.veto(VetoLiteral)
				patLoneObj = true
			default:
				patLoneObj = true
			}
		}
	}
	if scope && f.selects && !slices.ContainsFunc(pat, func(t ptok) bool { return isSelector(&t) }) {
		// a past command of a flow that picks one item ("trash the clip
		// I just made" for "delete the newest clip I made") is still about
		// one item, not all of them
		mult *= penValueLiteral
		res.veto(VetoLiteral)
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
	var opp, neg bool
	if agree, ok := directionsAgree(pat, cmd, al.slotOf); ok {
		// both sides say which way a setting goes: compare where they
		// end up, their on/off words and negations together ("don't
		// show the numbers" asks what "turn on hide numbers" does)
		neg = !agree && negated(cmd, al.slotOf) != negated(pat, nil)
		opp = !agree && !neg || opposedBeyondSwitch(cmdLone, patLone)
	} else {
		opp = opposed(cmdLone, patLone) || switchFlipped(pat, cmd, al.slotOf)
		neg = negated(cmd, al.slotOf) != negated(pat, nil)
	}
	// a word of the command left unmatched that contradicts the flow's
	// intent, whichever pattern matched (contradictsIntent)
	opp = opp || contradictsIntent(cmdLone, f.said)
	swapped := rolesSwapped(pat, cmd, al.slotOf)
	// a word and its negation by prefix ("read", "unread") are opposites
	// too, whether or not the vocabulary knows them
	opp = opp || prefixOpposed(res.cmdLone, res.patLone)
	if opp || neg || swapped {
		mult *= penOpposite
	}
	if !opp && labelAsked(cmd, al.slotOf, f.offLabel) {
		// "ask before closing the editor" against the flow that turns
		// "Ask before closing the editor" off: saying a setting's name
		// asks to have it
		opp = true
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
		res.substituted = true
	}
	// unmatched words on one side only: not a rewording but a requirement
	// added (penalised: the flow would not do all the command asks) or
	// dropped (no score change; see Candidate.Vetoes)
	cmdExtra, patExtra := cmdLoneObj || spanObj || cmdLoneAct, patLoneObj || patLoneAct
	switch {
	case cmdExtra && !patExtra:
		mult *= penExtra
		res.veto(VetoExtra)
	case patExtra && !cmdExtra:
		res.veto(VetoOmitted)
	case patLoneAct && !patLoneObj && (spanObj || lonePlain > 1 || lonePlain == 1 && !verbLike):
		// the flow's lone words are actions, which the command's verb may
		// reword, but the command also names things the flow does not:
		// "capture a voice memo in the car" against "record a voice
		// memo"
		mult *= penExtra
		res.veto(VetoExtra)
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
		res.corrected = corrected(q.src, pat, cmd, sims, wk.partC)
	}
	return res
}

// corrected returns src with each command token whose partner (partC:
// command index → pattern index, -1 none) is only a typo away (simFuzzy)
// written as that pattern word; "" when there is no such token.
func corrected(src string, pat, cmd []ptok, sims []float64, partC []int) string {
	m := len(cmd)
	var sb strings.Builder
	prev := 0
	for j, i := range partC {
		if i < 0 || j >= m || sims[i*m+j] != simFuzzy || cmd[j].start < prev {
			continue
		}
		sb.WriteString(src[prev:cmd[j].start])
		sb.WriteString(pat[i].text)
		prev = cmd[j].end
	}
	if prev == 0 {
		return ""
	}
	sb.WriteString(src[prev:])
	return sb.String()
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
	quotedRuns(cmd, pat, credC, credP)
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
	partC := grow(&wk.partC, m)
	for j := range partC {
		partC[j] = -1
	}
	for _, pr := range pairs {
		if credP[pr.i] == 0 && credC[pr.j] == 0 {
			credP[pr.i], credC[pr.j] = pr.s, pr.s
			partC[pr.j] = int(pr.i)
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

// quotedRuns gives full credit to each quoted text of two words or more
// in the command that the pattern holds unquoted, word for word, in
// literals not yet credited: the command's 'weekly report' against the
// flow's "weekly report". The text and those literals are credited.
// (The other way round, mergeRuns.)
func quotedRuns(cmd, pat []ptok, credC, credP []float64) {
	for j := range cmd {
		ws := cmd[j].words
		if len(ws) == 0 || credC[j] > 0 {
			continue
		}
		if i, ok := runAt(pat, ws, func(i int) bool { return pat[i].slot == "" && credP[i] == 0 }); ok {
			credC[j] = 1
			for k := range ws {
				credP[i+k] = 1
			}
		}
	}
}

// runAt returns the index of the first run of tokens in ts whose stems are
// words, each with ok.
func runAt(ts []ptok, words []string, ok func(int) bool) (int, bool) {
next:
	for j := 0; j+len(words) <= len(ts); j++ {
		for k, w := range words {
			if ts[j+k].stem != w || !ok(j+k) {
				continue next
			}
		}
		return j, true
	}
	return 0, false
}

// mergeRuns returns cmd with each run of words that a quoted text of two
// words or more in pat holds (the flow's 'weekly report') merged into one
// quoted token like it, so that the command's unquoted "weekly report"
// aligns with it; cmd itself when there is none. The merged token keeps
// the run's source span.
func mergeRuns(pat, cmd []ptok) []ptok {
	out := cmd
	for i := range pat {
		ws := pat[i].words
		if len(ws) == 0 {
			continue
		}
		j, ok := runAt(out, ws, func(int) bool { return true })
		if !ok {
			continue
		}
		m := pat[i]
		m.words = nil
		m.start, m.end = out[j].start, out[j+len(ws)-1].end
		merged := make([]ptok, 0, len(out)-len(ws)+1)
		merged = append(append(append(merged, out[:j]...), m), out[j+len(ws):]...)
		out = merged
	}
	return out
}

// dupCredit scales the credit of a second synonym (see assignWords).
const dupCredit = 0.9

type wpair struct {
	i, j int16
	s    float64
}

// labelAsked reports whether cmd (slotOf: its tokens in slots) says the
// label whose content words' stems are label and nothing else — no on or
// off word, no negation, no value, no other content word (the app's
// mention aside): a command that names a setting asks to have it on.
func labelAsked(cmd []ptok, slotOf []int, label []string) bool {
	if len(label) == 0 || direction(cmd, slotOf) != 0 {
		return false
	}
	n := 0
	for j := range cmd {
		c := &cmd[j]
		if c.stop || c.optional {
			continue
		}
		if slotOf[j] >= 0 || c.isValue() || !slices.Contains(label, c.stem) {
			return false
		}
		n++
	}
	return n > 0
}

// modifiesBefore reports whether sp, the plain value of slot i of pat
// (a quoted text, number, time, date or name may stand anywhere), is
// followed right away in cmd by the word partnered (partC: command index
// → pattern index) with the pattern's nearest content word before the
// slot: "a chirp message" against "send a text message {text}", where
// the word says what kind of thing the slot's noun is.
func modifiesBefore(pat, cmd []ptok, i int, sp span, partC []int) bool {
	if sp.a < 0 || sp.b-sp.a == 1 && cmd[sp.a].isValue() || sp.b >= len(partC) {
		return false
	}
	for k := i - 1; k >= 0 && pat[k].slot == ""; k-- {
		if !pat[k].stop {
			return partC[sp.b] == k
		}
	}
	return false
}

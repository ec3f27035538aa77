// The matcher's vetoes: opposite concepts, negation, swapped roles and a
// missing polarity between a command and a flow.

package intent

import (
	"strings"
	"unicode"
)

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

// PrefixOpposite reports whether one of words a and b is the other with
// a negating prefix, "un" or "non" ("read" / "unread", "unfollow" /
// "follow"), case folded; the word without it of three letters or more.
// Not "dis" or "de": "display" is no opposite of "play", nor "detail" of
// "tail".
func PrefixOpposite(a, b string) bool {
	trim := func(w string) string {
		return strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }))
	}
	a, b = trim(a), trim(b)
	prefixed := func(base, w string) bool {
		return len(base) >= 3 && (w == "un"+base || w == "non"+base)
	}
	return prefixed(a, b) || prefixed(b, a)
}

// prefixOpposed reports whether an unmatched command word and an
// unmatched pattern word are opposites by a negating prefix
// (PrefixOpposite).
func prefixOpposed(cmd, pat []string) bool {
	for _, a := range cmd {
		for _, b := range pat {
			if PrefixOpposite(a, b) {
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

// Negated reports whether text holds an odd number of negations ("not",
// "don't", "never", …; quoted text aside): "do not prevent sleep" asks
// for the opposite of "prevent sleep".
func Negated(text string) bool { return negated(analyze(text), nil) }

// rolesSwapped reports whether the command binds the words of the pattern
// to other role prepositions: "from board to timeline" against "from
// timeline to board"; or names only what the pattern changes from, never
// what it changes to ("make me press back twice" against "change pressing
// back from twice to once"): the state the flow leaves behind.
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
	if from, to := pr["from"], pr["to"]; from != "" && to != "" && from != to {
		said := map[string]bool{}
		for j := range cmd {
			if slotOf[j] < 0 {
				said[cmd[j].stem] = true
			}
		}
		if said[from] && !said[to] {
			return true
		}
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

// switchSign is the state a text asks a switch to be in, reading its on
// and off words together (concepts "on" and "off"): +1 on, -1 off, 0 when
// it has none. Two such words compose: "turn on hide numbers" asks for
// the numbers hidden (-1), as does "disable showing the tab", while
// "show the numbers" asks for them shown (+1). Tokens consumed by a slot
// (slotOf, when given) do not count.
func switchSign(toks []ptok, slotOf []int) int {
	sign := 0
	for j := range toks {
		t := &toks[j]
		if t.slot != "" || slotOf != nil && slotOf[j] >= 0 {
			continue
		}
		s := 0
		for _, m := range t.concepts {
			switch m.id {
			case "on":
				s = 1
			case "off":
				s = -1
			}
		}
		switch {
		case s == 0:
		case sign == 0:
			sign = s
		default:
			sign *= s
		}
	}
	return sign
}

// direction is the state a text asks a setting to end in, its on and off
// words (switchSign) and its negations read together: "turn on hide
// numbers" -1, "don't show the numbers" -1, "the screen should not
// dim" -1 (a negation alone turns the setting it names off),
// "enable do not disturb" -1 and "turn off do not disturb" +1 (the
// negation in the setting's name counts too). 0 when the text has
// neither on/off words nor a negation.
func direction(toks []ptok, slotOf []int) int {
	s, n := switchSign(toks, slotOf), negated(toks, slotOf)
	switch {
	case s == 0 && !n:
		return 0
	case s == 0:
		return -1
	case n:
		return -s
	}
	return s
}

// directionsAgree compares the directions of pattern and command when
// at least one of them has an on/off word (a setting; a negation alone on
// both sides is no setting: "don't delete" against "delete") and both
// have a direction; ok false otherwise, when the negation and on/off
// checks apply one by one.
func directionsAgree(pat, cmd []ptok, slotOf []int) (agree, ok bool) {
	if switchSign(pat, nil) == 0 && switchSign(cmd, slotOf) == 0 {
		return false, false
	}
	p, c := direction(pat, nil), direction(cmd, slotOf)
	if p == 0 || c == 0 {
		return false, false
	}
	return p == c, true
}

// opposedBeyondSwitch is opposed for every pair of opposite concepts
// but on and off, which direction reads together.
func opposedBeyondSwitch(c, p []cmem) bool {
	return opposedUnless(c, p, func(a, b string) bool { return isSwitchWord(a) && isSwitchWord(b) })
}

// opposedUnless reports whether a concept of c is the opposite of one of
// p, pairs for which skip holds aside.
func opposedUnless(c, p []cmem, skip func(a, b string) bool) bool {
	for _, a := range c {
		for _, b := range p {
			if isOpposite(a.id, b.id) && !skip(a.id, b.id) {
				return true
			}
		}
	}
	return false
}

// contradictsIntent reports whether a concept of c, the command's words
// left unmatched, is the opposite of one of said, the concepts of the
// flow's intent, neither of a polar pair: a past command without
// "temporarily" does not make "always show hidden files" the flow that
// shows them temporarily. Polar pairs (on/off, play/stop, add/delete)
// are read with what they act on by the pattern matched ("stop starting
// the week on Sunday" turns off what "start week on Sunday" names:
// counted as a contradiction, it lost a right replay on tune10).
func contradictsIntent(c, said []cmem) bool {
	return opposedUnless(c, said, func(a, b string) bool { return polarOf[a] || polarOf[b] })
}

func isSwitchWord(id string) bool { return id == "on" || id == "off" }

// switchFlipped reports whether the command asks a switch for the other
// state than the pattern does, reading all their on and off words
// (switchSign), matched or not: "show the caller ID" against "turn on
// hide caller ID".
func switchFlipped(pat, cmd []ptok, slotOf []int) bool {
	p, c := switchSign(pat, nil), switchSign(cmd, slotOf)
	return p != 0 && c != 0 && p != c
}

// selectors are the concepts that pick one item a flow acts on (the
// last photo, the largest file).
var selectors = setOf("maximum", "minimum", "newest", "oldest", "first", "last", "largest", "smallest")

// isSelector reports whether t carries a selector concept.
func isSelector(t *ptok) bool {
	for _, m := range t.concepts {
		if selectors[m.id] {
			return true
		}
	}
	return false
}

// hasQuantifier reports whether toks say "all", "every", "each" … (those
// not consumed by a slot, when slotOf is given).
func hasQuantifier(toks []ptok, slotOf []int) bool {
	for j := range toks {
		if toks[j].slot == "" && (slotOf == nil || slotOf[j] < 0) && quantifiers[toks[j].text] {
			return true
		}
	}
	return false
}

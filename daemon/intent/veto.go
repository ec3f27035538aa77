// The matcher's vetoes: opposite concepts, negation, swapped roles and a
// missing polarity between a command and a flow.

package intent

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

package intent

import "strings"

// Switch states asked by a command: which state a command wants a switch
// in, reading its on and off words with the switch label's own (the graph
// planner sets switches by it; the engine's switch anchors match by it).

// Polarity of a command: +1 turn on / enable, -1 turn off / disable, 0
// neither.
func Polarity(cmd string) int {
	p := 0
	for _, c := range Understand(cmd).Verbs {
		switch c {
		case "on":
			p = 1
		case "off":
			p = -1
		}
	}
	return p
}

// SwitchState is the state a command asks the switch labelled label to
// be in: +1 on, -1 off, 0 when the command says neither. On and off words
// compose with the label's own ("turn on" the switch "Hide caller
// ID" hides it: on; "show the caller ID" against it: off), and a
// command whose only such words are the label's names the setting to have
// ("hide caller ID": on), and a negation in the command flips it ("don't
// show the caller ID": on). Words are compared by stem.
//
// A label ending in "ON" or "OFF" in capitals ends in its switch's state
// text (a Switch shows its textOn / textOff, and a row's label merges
// it): that word says what the switch is, not what it does, and is left
// out.
func SwitchState(cmd, label string) int {
	if Polarity(cmd) == 0 {
		return 0
	}
	if i := strings.LastIndexByte(strings.TrimSpace(label), ' '); i > 0 {
		if w := strings.TrimSpace(label)[i+1:]; w == "ON" || w == "OFF" {
			label = strings.TrimSpace(label)[:i]
		}
	}
	cw, lw := strings.Fields(strings.ToLower(cmd)), strings.Fields(strings.ToLower(label))
	stems := func(ws []string) map[string]bool {
		m := map[string]bool{}
		for _, w := range ws {
			m[Stem(strings.Trim(w, ".,!?'\""))] = true
		}
		return m
	}
	inLabel, inCmd := stems(lw), stems(cw)
	rest := func(ws []string, skip map[string]bool) string {
		var out []string
		for _, w := range ws {
			if !skip[Stem(strings.Trim(w, ".,!?'\""))] {
				out = append(out, w)
			}
		}
		return strings.Join(out, " ")
	}
	p := Polarity(rest(cw, inLabel))
	if p == 0 {
		p = 1 // the on/off words are the label's: the command names the setting
	}
	if Negated(cmd) {
		p = -p // "do not prevent …", "don't show …"
	}
	if l := Polarity(rest(lw, inCmd)); l != 0 {
		p *= l // the label says the other state ("Hide …" for "show …")
	}
	return p
}

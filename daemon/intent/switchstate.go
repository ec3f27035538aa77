package intent

import (
	"slices"
	"strings"
)

// Switch states asked by a command: which state a command wants a switch
// in, reading its on and off words with the switch label's own (the graph
// planner sets switches by it; the engine's switch anchors match by it).

// Polarity of a command: +1 turn on / enable, -1 turn off / disable, 0
// neither. An on or off word in its -ing form after an on, off or stop
// word is what that word acts on, not the command's own ("turn off
// showing hidden files": off; "stop showing the recent tab": neither
// here, off for a switch; "keep showing …" stays on).
func Polarity(cmd string) int {
	p, governed := 0, false
	for _, t := range analyzeTokens(cmd, Tokenize(cmd), nil) {
		if governed && gerund(t.orig) {
			continue
		}
		for _, m := range t.concepts {
			switch {
			case !m.action:
			case m.id == "on":
				p, governed = 1, true
			case m.id == "off":
				p, governed = -1, true
			case m.id == "stop":
				governed = true
			}
		}
	}
	return p
}

// switchPolarity is Polarity for a switch: also off for what unticks,
// mutes or stops doing something ("uncheck …", "mute the key
// clicks", "stop syncing drafts", "stop the player from fading in"), on
// for what unmutes. A stop with no doing after it ("stop the music") is
// no switch's state.
func switchPolarity(cmd string) int {
	if p := Polarity(cmd); p != 0 {
		return p
	}
	for _, c := range Understand(cmd).Verbs {
		switch c {
		case "deselect", "mute":
			return -1
		case "unmute":
			return 1
		}
	}
	if StopsDoing(cmd) {
		return -1
	}
	return 0
}

// closes reports whether cmd begins, stop words aside, with a verb that
// closes ("close …", "exit …"; not "require a tap twice to exit") and is
// none of the stems in label (the setting's own words: "Close app on
// launch").
func closes(cmd string, label map[string]bool) bool {
	for _, t := range analyzeTokens(cmd, Tokenize(cmd), nil) {
		if t.stop {
			continue
		}
		return !label[Stem(t.text)] && slices.ContainsFunc(t.concepts, func(m cmem) bool { return m.action && m.id == "close" })
	}
	return false
}

// StopsDoing reports whether cmd stops doing something: "stop" before a
// verb's -ing form ("stop saving …") or before one after "from" ("stop
// the alarm from ramping up").
func StopsDoing(cmd string) bool {
	ws := strings.Fields(strings.ToLower(cmd))
	for i, w := range ws {
		if w != "stop" || i+1 == len(ws) {
			continue
		}
		if gerund(ws[i+1]) {
			return true
		}
		for j := i + 2; j+1 < len(ws) && j <= i+6; j++ {
			if ws[j] == "from" && gerund(ws[j+1]) {
				return true
			}
		}
	}
	return false
}

// gerund reports whether w reads as a verb's -ing form ("saving",
// "closing"; not "ring").
func gerund(w string) bool {
	w = strings.Trim(w, ".,!?'\"")
	return len(w) > 5 && strings.HasSuffix(w, "ing")
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
	// a verb that closes: "close the key clicks" (not "don't close the
	// app on launch" for "Close app on launch")
	closed := closes(cmd, inLabel)
	if switchPolarity(cmd) == 0 && !closed {
		return 0
	}
	p := switchPolarity(rest(cw, inLabel))
	if p == 0 && StopsDoing(cmd) {
		p = -1 // "stop starting the week on Sunday": the doing is the label's
	}
	if p == 0 && closed {
		p = -1 // "close the key clicks", "exit dark mode": a command closes a switch as it closes a tab
	}
	if p == 0 {
		p = 1 // the on/off words are the label's: the command names the setting
	}
	if Negated(cmd) {
		p = -p // "do not prevent …", "don't show …"
	}
	if l := switchPolarity(rest(lw, inCmd)); l != 0 {
		p *= l // the label says the other state ("Hide …" for "show …")
	}
	return p
}

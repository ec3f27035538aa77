// Keypads: a number the command gives ("call 999", a PIN, a sum) is
// often entered by tapping keys, not typed into a field: a dialer's
// dialpad, a PIN pad, a calculator. Their keys are labelled by one digit
// ("9"), a digit and its letters ("9 WXYZ") or the digit's name ("Nine"),
// often only in content-desc. A screen holding a key for each of the ten
// digits is a keypad; on it, the keys of the command's number are tapped
// first (runState.keypadKey), and a path to it counts as one to the
// value (runState.match).

package graphplan

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// symbolNames are the English names of a keypad's two symbol keys (the
// content-desc of keys drawn as images); its digits are named by the
// number words (intent.NumberWord).
var symbolNames = map[string]rune{"asterisk": '*', "star": '*', "hash": '#', "hashtag": '#', "pound": '#'}

// keyOf returns the key a label names: "9", "9 WXYZ", "Nine", "*",
// "Asterisk"; false for any other label.
func keyOf(label string) (rune, bool) {
	l := strings.TrimSpace(label)
	if r, ok := symbolNames[strings.ToLower(l)]; ok {
		return r, true
	}
	if n, ok := intent.NumberWord(strings.ToLower(l)); ok && n < 10 {
		return rune('0' + n), true
	}
	if l == "" || !strings.ContainsRune("0123456789*#", rune(l[0])) {
		return 0, false
	}
	// the key's own character, then nothing, "+" or its letters in
	// capitals ("2 ABC", "0 +", "9 WXYZ")
	rest := strings.TrimSpace(l[1:])
	letters := len(rest) <= 4 && strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsUpper(r) }) < 0
	if rest == "" || rest == "+" || letters && l[1] == ' ' {
		return rune(l[0]), true
	}
	return 0, false
}

// isKeypad reports whether labels hold a key for each of the ten digits.
func isKeypad(labels []string) bool {
	seen := map[rune]bool{}
	for _, l := range labels {
		if r, ok := keyOf(l); ok && r >= '0' && r <= '9' {
			seen[r] = true
		}
	}
	return len(seen) == 10
}

// labelsOf returns the labels of elements.
func labelsOf(elements []screen.Element) []string {
	out := make([]string, len(elements))
	for i := range elements {
		out[i] = elements[i].Label
	}
	return out
}

// dialable returns the keys of value v when it is a number entered on a
// keypad: digits, and the symbols * # + and the separators space, dash,
// dot and brackets (dropped); false when it holds anything else or no
// digit.
func dialable(v string) (string, bool) {
	var b strings.Builder
	for _, r := range v {
		switch {
		case r >= '0' && r <= '9', r == '*', r == '#', r == '+':
			b.WriteRune(r)
		case r == ' ', r == '-', r == '.', r == '(', r == ')':
		default:
			return "", false
		}
	}
	keys := b.String()
	return keys, strings.ContainsAny(keys, "0123456789")
}

// nextKey returns the next key to tap for the first value of the
// command still to do that is dialable and follows a verb ("call 999",
// "dial +1 555 0100": not "mobile number 555 0100", a field's value, nor
// "set the timer to 5 minutes", a quantity), and its index; false when
// there is none.
func (rs *runState) nextKey() (rune, int, bool) {
	for i, v := range rs.values {
		if v.done {
			continue
		}
		keys, ok := dialable(v.text)
		if !ok || v.quantity || v.keyed >= len(keys) || !rs.dials && !slices.ContainsFunc(v.context, isActionTerm) {
			continue
		}
		return rune(keys[v.keyed]), i, true
	}
	return 0, -1, false
}

// measured reports whether value v of command u is followed by a word
// that is neither a stop word nor filler ("5 minutes", "40 percent", not
// "999 now"): its unit.
func measured(u intent.Command, v intent.Value) bool {
	for i, t := range u.Tokens {
		if t.Start < v.End {
			continue
		}
		return t.Kind == intent.KindWord && !intent.IsStopword(t.Text) && !u.Filler[i] && !intent.Tail(t.Text)
	}
	return false
}

// isActionTerm reports whether t is a concept of the vocabulary's actions
// or a word naming one.
func isActionTerm(t term) bool {
	if id, ok := strings.CutPrefix(string(t), "@"); ok {
		return intent.IsAction(id)
	}
	return intent.ActionWord(string(t))
}

// keypadKey returns a tap on the key of the next digit of the command's
// number when the screen is a keypad (the number is entered before the
// call, the sum or the PIN's OK), and notes the screen as a keypad for
// foldKey.
func (rs *runState) keypadKey(st *daemon.PlanState) (candidate, bool) {
	next, _, ok := rs.nextKey()
	if !ok || !isKeypad(labelsOf(st.Elements)) {
		return candidate{}, false
	}
	if n := len(st.History); n > 0 && !st.History[n-1].OK && st.History[n-1].Screen == st.Print {
		return candidate{}, false // a key that did nothing: the keypad is not working as thought
	}
	rs.keypadAt[st.Print] = true
	for i := range st.Elements {
		e := &st.Elements[i]
		if k, ok := keyOf(e.Label); ok && k == next && !e.Disabled {
			return candidate{action: device.Tap, element: i, reason: fmt.Sprintf("key %q of the number to enter", e.Label)}, true
		}
	}
	return candidate{}, false
}

// keypadKeyOn reports whether e is a key of a keypad on the current
// screen (keyOf, isKeypad); the screen is read only for key-like labels.
func keypadKeyOn(st *daemon.PlanState, e *screen.Element) bool {
	_, key := keyOf(e.Label)
	return key && isKeypad(labelsOf(st.Elements))
}

// foldKey counts a tap on label toward the command's number: the key of
// its next digit advances it, and the last one enters it (done, as
// typed).
func (rs *runState) foldKey(label string) {
	next, i, ok := rs.nextKey()
	if !ok {
		return
	}
	if k, ok := keyOf(label); !ok || k != next {
		return
	}
	v := &rs.values[i]
	v.keyed++
	rs.keys++
	if keys, _ := dialable(v.text); v.keyed == len(keys) {
		v.done, v.typed = true, true
		rs.typed++
	}
}

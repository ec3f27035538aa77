package daemon

import (
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Names in lower case: the owner types "find dora in the call log" where
// the app lists "Dora". The matcher tells a name from a word by its
// capital (a name may stand anywhere in the command and fill a slot out
// of the template's order), so before matching, a word of the command
// that is, but for its capital, a name the app's flows have seen as a
// value — a row picked from a list, a slot's example — is read with its
// capital. Only names no flow writes in lower case, that no vocabulary
// concept or stop word has: "Inbox" of a folder row stays a word.

// flowNames returns the names of the flows of pkg (the first text of a
// row of a list of content a step picked from, Step.Choices; the example of
// a slot a step types) that are one capitalised word of letters
// ("Dora", not "RAW", "Sentence case", "A"), by lower case; names any flow
// text writes in lower case, stop words and vocabulary words are left
// out.
func flowNames(flows map[int64]*knowledge.Flow, pkg string) map[string]string {
	out := map[string]string{}
	add := func(s string) {
		head, _, _ := strings.Cut(s, " · ")
		head = strings.TrimSpace(head)
		if !nameCased(head) {
			return
		}
		lw := strings.ToLower(head)
		if intent.IsStopword(lw) || len(intent.Concepts(lw)) > 0 {
			return
		}
		out[lw] = head
	}
	ids := poolOf(flows, pkg)
	for _, id := range ids {
		f := flows[id]
		typed := map[string]bool{} // slots an input step types
		for _, st := range f.Steps {
			if name, ok := knowledge.SlotRef(st.Text); ok && st.Action == device.Input {
				typed[name] = true
			}
			if st.Target.InList && !st.Target.Checkable {
				// the rows of a list of content (contacts, chats), not
				// a group of options ("Sepia", "Tiny")
				for _, c := range st.Choices {
					add(c)
				}
			}
		}
		for _, sl := range f.Slots {
			if typed[sl.Name] {
				add(sl.Example)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	for _, id := range ids {
		f := flows[id]
		for _, t := range append([]string{f.Intent}, f.Commands...) {
			for _, w := range strings.FieldsFunc(t, func(r rune) bool { return !unicode.IsLetter(r) }) {
				if w == strings.ToLower(w) {
					delete(out, w)
				}
			}
		}
	}
	return out
}

// nameCased reports whether s is one word of at least two letters, an
// upper-case letter then lower-case ones.
func nameCased(s string) bool {
	if len(s) < 2 {
		return false
	}
	for i, r := range s {
		if i == 0 && !unicode.IsUpper(r) || i > 0 && !unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// readNames returns command with each word that is a name of names
// (flowNames) written in lower case read with its capital, and whether
// it changed any; quoted values stay as written.
func readNames(command string, names map[string]string) (string, bool) {
	if len(names) == 0 {
		return command, false
	}
	return readAs(command, func(core string) string {
		if core != strings.ToLower(core) {
			return ""
		}
		base, poss := strings.CutSuffix(core, "'s")
		if n, ok := names[base]; ok {
			if poss {
				return n + "'s"
			}
			return n
		}
		return ""
	})
}

// asWritten returns slots with each value that command holds but for
// case as command writes it: a name read with its capital for matching is
// typed as the owner wrote it.
func asWritten(slots map[string]string, command string) map[string]string {
	lc := strings.ToLower(command)
	out := make(map[string]string, len(slots))
	for k, v := range slots {
		out[k] = v
		if i := strings.Index(lc, strings.ToLower(v)); i >= 0 && len(v) > 0 && len(lc) == len(command) {
			out[k] = command[i : i+len(v)]
		}
	}
	return out
}

// withoutPossessive returns slots with the "'s" taken off each value that
// is one word owning the word after it in command ("search for bob's
// contact info" names "bob"), of a slot learned as one word without one:
// the owner names the contact, not the contact's card. A value closing
// the command ("open the notes of alice's") or learned with its "'s"
// stays as said.
func withoutPossessive(f *knowledge.Flow, command string, slots map[string]string) map[string]string {
	return reslot(f, slots, func(sl knowledge.Slot, v string) (string, bool) {
		base := intent.Unpossessive(v)
		if base == v || base == "" || strings.ContainsAny(v, " \t") || len(strings.Fields(sl.Example)) != 1 || intent.Unpossessive(sl.Example) != sl.Example {
			return "", false
		}
		toks := intent.Tokenize(command)
		for i, t := range toks {
			if strings.EqualFold(t.Orig, v) && i+1 < len(toks) && toks[i+1].Kind == intent.KindWord && !intent.IsStopword(toks[i+1].Text) {
				return base, true // owns the word after it
			}
		}
		return "", false
	})
}

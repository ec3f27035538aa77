package graphplan

import (
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// term is one unit of meaning used for matching: a stem, mapped to its
// synonym concept when the generic UI vocabulary knows it (so "remove"
// matches a "Delete" button).
type term string

// termsOf splits a UI text or command into terms with the model-free
// understanding of package intent: generic concepts ("@add" for "New",
// "Create", "+"), stems of the content words, and the words of values
// (numbers keep their digits). Resource-id style words ("btn_add_note",
// "addNote") are split first. Results are cached: UI texts repeat.
func termsOf(s string) []term {
	termMu.Lock()
	if t, ok := termCache[s]; ok {
		termMu.Unlock()
		return t
	}
	termMu.Unlock()
	u := intent.Understand(splitIdentifier(s))
	var out []term
	participles := participleActions(u)
	for _, c := range u.Concepts {
		if !participles[c] {
			out = append(out, term("@"+c))
		}
	}
	// the literal words too, concept words included: an exact word match
	// ("save" and a "Save" button) counts more than a synonym ("OK")
	seen := map[term]bool{}
	for i, tok := range u.Tokens {
		if tok.Kind != intent.KindWord || u.Stems[i] == "" || u.Filler[i] || intent.IsStopword(tok.Text) || isPolarityWord(tok.Text) {
			continue
		}
		if t := term(u.Stems[i]); !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, w := range u.TargetWords {
		if t := term(intent.Stem(w)); !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, v := range u.Values {
		// "Dora's" names Dora: its "s" is no word of the value
		for _, f := range strings.FieldsFunc(strings.ToLower(intent.Unpossessive(v.Text)), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			out = append(out, partTerm(v.Kind, f))
		}
	}
	out = slices.Clip(out) // shared through the cache: a caller's append must copy it
	termMu.Lock()
	if len(termCache) > 50_000 {
		termCache = map[string][]term{}
	}
	termCache[s] = out
	termMu.Unlock()
	return out
}

// partTerm is the term of word f of a value of kind k: the digits of a
// date or a clock time are qualified by the kind ("date:3" in "Mon, 3
// Aug", "time:10" in "10:37 AM"), so that a command's bare number ("a
// 3 minute reminder") is not found in a date or a clock on screen; a
// command's own date or time still covers a label's bare number (a day
// of a date picker), see bareOf.
func partTerm(k intent.Kind, f string) term {
	if (k == intent.KindDate || k == intent.KindTime) && isNumber(f) {
		return term(string(k) + ":" + f)
	}
	return term(intent.Stem(f))
}

// bareOf returns the bare number of a date's or a clock time's digits
// term ("30" for "date:30"), and false for any other term.
func bareOf(t term) (term, bool) {
	for _, k := range []intent.Kind{intent.KindDate, intent.KindTime} {
		if n, ok := strings.CutPrefix(string(t), string(k)+":"); ok {
			return term(n), true
		}
	}
	return "", false
}

var (
	termMu    sync.Mutex
	termCache = map[string][]term{}
)

// idWords returns the words of a resource-id's name ("…:id/contact_number"
// → "contact number").
func idWords(resourceID string) string { return splitIdentifier(screen.ResourceName(resourceID)) }

// splitIdentifier turns "com.app:id/btn_add_note" or "addNote" into words,
// field by field.
func splitIdentifier(s string) string {
	fields := strings.Fields(s)
	for i, f := range fields {
		fields[i] = splitField(f)
	}
	return strings.Join(fields, " ")
}

func splitField(s string) string {
	if i := strings.Index(s, ":id/"); i >= 0 {
		s = s[i+4:]
	}
	var b strings.Builder
	prevLower := false
	for _, r := range s {
		switch {
		case r == '_' || r == '/' || r == '.':
			b.WriteRune(' ')
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			b.WriteRune(' ')
		}
		prevLower = unicode.IsLower(r)
		b.WriteRune(r)
	}
	return b.String()
}

// polarity of a command: +1 turn on / enable, -1 turn off / disable, 0
// neither (intent.Polarity).
func polarity(cmd string) int { return intent.Polarity(cmd) }

// onOffWords are the words and phrases that turn something on or off and
// mean nothing else (the vocabulary's strong members of "on" and "off":
// "enable", "turn off"; not "show" or "hide", which also mean to open or
// leave a view).
var onOffWords = append(intent.StrongSurfaces("on"), intent.StrongSurfaces("off")...)

// switchesSomething reports whether cmd says in so many words that it turns
// something on or off (onOffWords, whole words), or negates a word that
// may (negatedToggle).
func switchesSomething(cmd string) bool {
	words := " " + strings.Join(strings.FieldsFunc(strings.ToLower(cmd), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }), " ") + " "
	for _, w := range onOffWords {
		if strings.Contains(words, " "+w+" ") {
			return true
		}
	}
	return negatedToggle(cmd)
}

// negatedToggle reports whether cmd negates a word that may turn
// something on or off without meaning only that ("show", "allow": the
// concepts on and off): "don't show the digits" asks for them hidden, and
// opens nothing.
func negatedToggle(cmd string) bool {
	if !intent.Negated(cmd) {
		return false
	}
	for _, w := range strings.Fields(strings.ToLower(cmd)) {
		for _, c := range intent.Concepts(strings.Trim(w, ".,;:!?'\"")) {
			if c == "on" || c == "off" {
				return true
			}
		}
	}
	return false
}

// switchPolarity is the state a command asks the switch labelled label to
// be in (intent.SwitchState).
func switchPolarity(cmd, label string) int { return intent.SwitchState(cmd, label) }

// confirmOrder lists the concepts of buttons that commit a form (save /
// ok / done / apply, send, add / create / set), the surest first.
var confirmOrder = []string{"save", "send", "add"}

// isPolarityWord reports whether a word only says what kind of change the
// command makes — on or off ("enable", "disable"), open ("open", "view",
// "check"), edit ("set", "change", "adjust") — rather than naming a label
// to look for. Its concept term stays; its literal word is no target.
// "Rename" is no such word: it also says what changes, the name, and is
// the label of that operation in apps' menus.
func isPolarityWord(w string) bool {
	if strings.EqualFold(w, "rename") {
		return false
	}
	for _, c := range intent.Concepts(w) {
		switch c {
		case "on", "off", "open", "edit":
			return true
		}
	}
	return false
}

// participleActions returns the action concepts of u that only a past
// participle before a noun carries ("recorded clips", "deleted items",
// "recorded calls"): it describes a thing, it names no action to take.
// A participle that ends the text ("Recently deleted") or stands before a
// word that is no noun is left alone.
func participleActions(u intent.Command) map[string]bool {
	var out map[string]bool
	for i, tok := range u.Tokens {
		w := strings.ToLower(tok.Text)
		if tok.Kind != intent.KindWord || len(w) < 5 || !strings.HasSuffix(w, "ed") || i+1 >= len(u.Tokens) || u.Tokens[i+1].Kind != intent.KindWord {
			continue
		}
		for _, c := range intent.Understand(w).Concepts {
			if !intent.IsAction(c) || slices.Contains(intent.Understand(strings.Join(others(u, i), " ")).Concepts, c) {
				continue
			}
			if out == nil {
				out = map[string]bool{}
			}
			out[c] = true
		}
	}
	return out
}

// others returns the texts of u's tokens but the i-th.
func others(u intent.Command, i int) []string {
	var out []string
	for j, t := range u.Tokens {
		if j != i {
			out = append(out, t.Text)
		}
	}
	return out
}

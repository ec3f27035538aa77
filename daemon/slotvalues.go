package daemon

import (
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Slot values checked before a lexical replay: a value the matcher's
// alignment may have drawn wrong (it ran on over another requirement of
// the command, or the command never said where the name begins and ends)
// is asked about, not typed (match.go, askTop).

// runOnValue reports a slot of f whose value in slots runs on over more
// of the command than the slot ever held: more than twice the words of
// its example (and more than 2), and either a date, time or number in it
// where the example had none, or, for a name (an example with none of
// them), the command does not set it apart (setApart). Such a value has
// most often swallowed another requirement of the command (a reminder, a
// date, "repeating every day", "type called …") that the flow does not
// fulfil, or words that only said where ("in my calendar"). So has a
// value, set apart or not, that runs on over "and" or "then" into
// another action unless quoted (joinsClause: "called secrets and lock
// it"). A slot without an example is not checked. It returns the slot's
// name and value.
func runOnValue(f *knowledge.Flow, command string, slots map[string]string) (string, string, bool) {
	for _, sl := range f.Slots {
		v, ok := slots[sl.Name]
		if !ok || sl.Example == "" {
			continue
		}
		n := len(strings.Fields(v))
		if n <= 2 || n <= 2*len(strings.Fields(sl.Example)) {
			continue
		}
		if quotedWhole(command, v) && saysSlot(f, sl.Name) {
			continue // what is said, quoted whole: times and numbers are its text
		}
		had := valueKinds(sl.Example)
		if len(had) == 0 && !setApart(command, v) || joinsClause(command, v) {
			return sl.Name, v, true
		}
		if saidAsMessage(command, v) {
			continue // a message's words, set apart to the end: times and numbers are its text
		}
		for k := range valueKinds(v) {
			if !had[k] {
				return sl.Name, v, true
			}
		}
	}
	return "", "", false
}

// joinsClause reports whether value, not quoted in the command, runs on
// over "and" or "then" into another action ("called secrets and lock
// it"): a second requirement, not part of a name ("salt and pepper").
func joinsClause(command, value string) bool {
	if quotedWhole(command, value) {
		return false
	}
	ws := strings.Fields(strings.ToLower(value))
	for i := 0; i+1 < len(ws); i++ {
		if (ws[i] == "and" || ws[i] == "then") && intent.ActionWord(strings.Trim(ws[i+1], ".,!?;:")) {
			return true
		}
	}
	return false
}

// quotedWhole reports whether value is the whole of a quoted text of
// command (case and surrounding space aside).
func quotedWhole(command, value string) bool {
	return slices.ContainsFunc(intent.Tokenize(command), func(t intent.Token) bool {
		return t.Kind == intent.KindQuoted && strings.EqualFold(strings.TrimSpace(t.Text), strings.TrimSpace(value))
	})
}

// sayingWords introduce what is said, written or sent ("text Ana that
// {body}", "send a message {body}")
var sayingWords = map[string]bool{"that": true, "saying": true, "says": true, "said": true, "reading": true, "reads": true, "message": true, "text": true}

// saysSlot reports whether f's intent has the slot called name right
// after a word of sayingWords: its value is a message's text, not a title
// whose date or time may be one the command sets ("add event {title}").
func saysSlot(f *knowledge.Flow, name string) bool {
	before, _, ok := strings.Cut(f.Intent, "{"+name+"}")
	if !ok {
		return false
	}
	return saidAfter(before)
}

// saidAfter reports whether text ends with a word of sayingWords (case
// and closing punctuation aside): what follows it is a text said.
func saidAfter(text string) bool {
	ws := strings.Fields(strings.ToLower(text))
	return len(ws) > 0 && sayingWords[strings.Trim(ws[len(ws)-1], ".,:;!?'\"")]
}

// saidAsMessage reports whether value is the rest of the command after
// "saying" ("text Sam saying see you at 8"): a message's text, set apart
// to the command's end, where a time or a number is what is said.
func saidAsMessage(command, value string) bool {
	before, ok := endsCommand(command, value)
	words := strings.Fields(before)
	return ok && len(words) > 0 && words[len(words)-1] == "saying"
}

// endsCommand reports whether value (case aside) is the end of command,
// punctuation and space after it aside, and returns the command before
// it, in lower case.
func endsCommand(command, value string) (string, bool) {
	lower, v := strings.ToLower(command), strings.ToLower(strings.TrimSpace(value))
	at := strings.LastIndex(lower, v)
	if at < 0 || v == "" || strings.TrimFunc(lower[at+len(v):], func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }) != "" {
		return "", false
	}
	return lower[:at], true
}

// setApart reports whether the command marks where value begins and
// ends: the value is quoted, or it follows a naming word ("called",
// "named", nameWords) or a colon and runs to the command's end. Without
// such marks, which words are the value is the matcher's guess.
func setApart(command, value string) bool {
	if quotedWhole(command, value) {
		return true
	}
	before, ok := endsCommand(command, value)
	return ok && namedAfter(before)
}

// namedAfter reports whether prefix, the command before a value, ends
// with a colon or a naming word (nameWords): the value after it is set
// apart as a name.
func namedAfter(prefix string) bool {
	prefix = strings.TrimSpace(prefix)
	words := strings.Fields(strings.ToLower(prefix))
	return strings.HasSuffix(prefix, ":") || len(words) > 0 && nameWords[words[len(words)-1]]
}

// valueKinds returns the kinds of the dates, times and numbers in s.
func valueKinds(s string) map[intent.Kind]bool {
	out := map[intent.Kind]bool{}
	for _, v := range intent.Understand(s).Values {
		switch v.Kind {
		case intent.KindDate, intent.KindTime, intent.KindNumber:
			out[v.Kind] = true
		}
	}
	return out
}

// NamedValue returns the words after the command's last strong naming word
// ("called", "named", "titled", "saying", the "as" of a save: "save it as
// …", the "it" of "name it …") that run to its end — the way a
// spoken command, which has no quote marks, sets a name apart ("create a
// note called shopping list"): Start and End are byte offsets in command.
// ok is false when there is no such word, when nothing or more than
// maxNamedWords words follow it, or when a quoted value is among them
// (the quotes say where the name is).
func NamedValue(command string) (intent.Value, bool) {
	toks := intent.Tokenize(command)
	at := -1
	for i, t := range toks {
		switch {
		case t.Kind == intent.KindQuoted:
			at = -1
		case t.Kind == intent.KindWord && (strongNameWords[strings.ToLower(t.Text)] || savedAs(toks, i) || nameIt(toks, i)):
			at = i
		}
	}
	if at < 0 || at == len(toks)-1 {
		return intent.Value{}, false
	}
	start, end := toks[at+1].Start, len(strings.TrimRightFunc(command, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(".!?", r) }))
	if end <= start || len(strings.Fields(command[start:end])) > maxNamedWords {
		return intent.Value{}, false
	}
	if strings.ToLower(toks[at].Text) != "saying" {
		end = intent.WithoutPoliteEnd(command, start, end) // "called ideas please"
		end = withoutClosingStep(command, start, end)      // "titled vet save it"
	}
	return intent.Value{Text: command[start:end], Kind: intent.KindWord, Start: start, End: end}, true
}

// savedAs reports whether toks[i] is the "as" of a save ("save as …",
// "save it as …", "keep a copy as …"): what follows is the name it is
// saved under.
func savedAs(toks []intent.Token, i int) bool {
	if strings.ToLower(toks[i].Text) != "as" {
		return false
	}
	word := func(k int) string {
		if k < 0 || toks[k].Kind != intent.KindWord {
			return ""
		}
		return strings.ToLower(toks[k].Text)
	}
	k := i - 1
	switch {
	case word(k) == "copy" && word(k-1) == "a":
		k -= 2
	case objectPronouns[word(k)]:
		k--
	}
	return saves(word(k))
}

// nameIt reports whether toks[i] is the pronoun of "name it …" or "call
// it …": what follows is the name given.
func nameIt(toks []intent.Token, i int) bool {
	if i < 1 || toks[i].Kind != intent.KindWord || toks[i-1].Kind != intent.KindWord || !objectPronouns[strings.ToLower(toks[i].Text)] {
		return false
	}
	w := strings.ToLower(toks[i-1].Text)
	return w == "name" || w == "call" || w == "rename"
}

// saves reports whether w is a word of the vocabulary's "save" concept.
func saves(w string) bool { return slices.Contains(intent.Concepts(w), "save") }

// objectPronouns stand for what a closing step acts on ("save it").
var objectPronouns = map[string]bool{"it": true, "them": true, "this": true, "that": true}

// withoutClosingStep returns the end of the span [start, end) of command
// shortened by the step that commits it, said after a name without
// punctuation, as speech writes it: a word of saving (the vocabulary's
// "save" concept: "save", "done", "confirm") with an object pronoun ("…
// vet appointment save it") or after "and" / "then" ("… shopping
// and save"). Its words stay the command's, for the walk to do. Another
// action ("… plans and lock it") is a requirement of its own, left in
// the name for runOnValue to doubt. At least one word of the name is
// kept.
func withoutClosingStep(command string, start, end int) int {
	var ws []intent.Token
	for _, t := range intent.Tokenize(command[start:end]) {
		if t.Kind != intent.KindSymbol {
			ws = append(ws, t)
		}
	}
	n := len(ws)
	word := func(i int) string { return strings.ToLower(ws[i].Text) }
	k := n // the first word of the closing step
	switch {
	case n >= 3 && objectPronouns[word(n-1)] && saves(word(n-2)):
		k = n - 2
		if word(k-1) == "and" || word(k-1) == "then" {
			k--
		}
	case n >= 3 && saves(word(n-1)) && (word(n-2) == "and" || word(n-2) == "then"):
		k = n - 2
	}
	if k == n || k < 1 {
		return end
	}
	return start + len(strings.TrimRightFunc(command[start:start+ws[k].Start], func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }))
}

// strongNameWords are the naming words after which a spoken name begins
// (NamedValue); "name" and "title" also name a field ("change the title").
var strongNameWords = map[string]bool{"called": true, "named": true, "titled": true, "saying": true}

// maxNamedWords: more words after a naming word are a sentence with more
// to do in it, not a name.
const maxNamedWords = 6

// nameWords introduce a value as a name ("a note called ideas"): the
// strong ones, and "name" and "title".
var nameWords = func() map[string]bool {
	out := map[string]bool{"name": true, "title": true}
	for w := range strongNameWords {
		out[w] = true
	}
	return out
}()

// unnamedValue returns a slot of f whose template introduces it with a
// naming word ("create a note named {title}") while the command fills it
// with words that no naming word, quote or colon sets apart ("make the
// notes text 90 percent"): the value is then a guess at which words are a
// name, and the replay is offered, not made. So is a typed value the
// template introduces with one preposition and the command, unquoted, with
// another (otherPreposition).
func unnamedValue(f *knowledge.Flow, command string, slots map[string]string) (string, bool) {
	lower := strings.ToLower(command)
	typed := map[string]bool{}
	for _, st := range f.Steps {
		if name, ok := knowledge.SlotRef(st.Text); ok && st.Action == string(device.Input) {
			typed[name] = true
		}
	}
	for _, sl := range f.Slots {
		v, ok := slots[sl.Name]
		if !ok || v == "" {
			continue
		}
		ref := "{" + sl.Name + "}"
		at := strings.Index(f.Intent, ref)
		if at < 0 {
			continue
		}
		before := strings.Fields(strings.ToLower(f.Intent[:at]))
		vat := strings.Index(lower, strings.ToLower(v))
		if len(before) == 0 || vat < 0 {
			continue
		}
		prefix := strings.TrimSpace(command[:vat])
		lead := strings.Trim(before[len(before)-1], ",:")
		if !nameWords[lead] {
			if typed[sl.Name] && otherPreposition(lead, prefix, command[vat:]) {
				return sl.Name, true
			}
			continue
		}
		if namedAfter(prefix) || strings.HasSuffix(prefix, "'") || strings.HasSuffix(prefix, "\"") {
			continue
		}
		return sl.Name, true
	}
	return "", false
}

// fileInValue returns a typed slot of f whose value holds a file name
// among other words ("photo beach.jpg") where the slot's example has none,
// and the command does not set the value apart (setApart): "send Dora
// the photo beach.jpg" names a file to attach, not text for the message
// "{text}" of "send Dora {text}", and the replay is offered, not made. A
// value that is the file name alone ("beach.jpg" for a file's new name) is
// a name.
func fileInValue(f *knowledge.Flow, command string, slots map[string]string) (string, bool) {
	for _, st := range f.Steps {
		name, ok := knowledge.SlotRef(st.Text)
		if !ok || st.Action != string(device.Input) {
			continue
		}
		v := strings.TrimSpace(slots[name])
		if len(intent.FileNames(v)) == 0 || intent.IsFileName(intent.Value{Text: v, Kind: intent.KindWord}) || setApart(command, v) {
			continue
		}
		if i := slices.IndexFunc(f.Slots, func(sl knowledge.Slot) bool { return sl.Name == name }); i >= 0 && len(intent.FileNames(f.Slots[i].Example)) > 0 {
			continue
		}
		return name, true
	}
	return "", false
}

// valuePreps are the prepositions that introduce a slot's value in a
// flow's template ("rename the photo to {name}", "export as {file}").
var valuePreps = map[string]bool{"to": true, "as": true, "for": true, "with": true, "in": true, "into": true, "on": true, "at": true, "from": true, "by": true}

// otherPreposition reports whether the command introduces a value with
// "as" where the template's lead is another preposition, or the other
// way round: "set the last photo as wallpaper" fills "rename the last
// photo to {name}" with "wallpaper", which is what the photo becomes, not
// its name — "as" gives a role. prefix is the command before the value,
// rest the command from the value on. A file name ("as backup.ics") is a
// name whatever introduces it. (Any other preposition than the
// template's lost right replays on the tuning sets — "search the call
// history for Ezra" against "… with {name}"; so did file names:
// 2026-11-28, stop 41.)
func otherPreposition(lead, prefix, rest string) bool {
	pw := strings.Fields(strings.ToLower(prefix))
	if !valuePreps[lead] || len(pw) == 0 || !valuePreps[pw[len(pw)-1]] || (lead == "as") == (pw[len(pw)-1] == "as") {
		return false
	}
	first := strings.Fields(rest)
	return len(first) > 0 && !intent.IsFileName(intent.Value{Text: strings.TrimRight(first[0], ",;!?"), Kind: intent.KindWord})
}

// misplacedValue returns a typed slot of f whose value holds a word that
// names an option of a choice step while that step's own value names
// none ("create a weekly repeating event gym" drawn as the title "weekly
// repeating" and the repetition "gym"), and true: one word of the command
// cannot be both, so the slots were drawn in the wrong places, and the
// replay is offered, not made (match.go, askTop). So is a choice slot
// that ends the flow's template while its value goes on past the option
// it names ("albums by name z to a" drawn as "name z" for the option
// "Name" of "sort the albums by {order}"): the words after the option are
// another requirement (an order, a scope) the flow does not fulfil.
// Stopwords are not counted. (Asking for any word of a choice value its
// option lacks — also before it, "give sam" for "Sam", or where the
// template goes on after the slot and the words are its — lost two right
// replays on the tuning sets for one wrong one held back: 2026-11-27,
// stop 26.)
func misplacedValue(f *knowledge.Flow, command string, slots map[string]string) (string, bool) {
	choice := map[string]bool{}
	for _, st := range f.Steps {
		if name, ok := st.ChoiceSlot(); ok {
			choice[name] = true
		}
	}
	for _, st := range f.Steps {
		name, ok := st.ChoiceSlot()
		if !ok {
			continue
		}
		if i := pickChoice(st.Choices, slots[name]); i >= 0 {
			if endsTemplate(f.Intent, name) && trailsOption(slots[name], st.Choices[i]) {
				return name, true
			}
			continue
		}
		i := pickByCommand(st.Choices, command)
		if i < 0 {
			continue
		}
		dist := setOf(stems(distinguishing(st.Choices, i)))
		for _, sl := range f.Slots {
			if choice[sl.Name] {
				continue
			}
			for _, w := range stems(choiceWords(slots[sl.Name])) {
				if dist[w] && !intent.IsStopword(w) {
					return sl.Name, true
				}
			}
		}
	}
	return "", false
}

// endsTemplate reports whether slot name is the last thing of the
// template intent (nothing but punctuation after "{name}").
func endsTemplate(intent, name string) bool {
	ref := "{" + name + "}"
	at := strings.LastIndex(intent, ref)
	return at >= 0 && strings.TrimFunc(intent[at+len(ref):], func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }) == ""
}

// trailsOption reports whether value has a word that is no stopword after
// the last of its words that the option label has (compared as
// optionStem gives them).
func trailsOption(value, label string) bool {
	have := setOf(stems(choiceWords(label)))
	ws := stems(choiceWords(value))
	last := -1
	for i, w := range ws {
		if have[w] {
			last = i
		}
	}
	if last < 0 {
		return false
	}
	for _, w := range ws[last+1:] {
		if !intent.IsStopword(w) {
			return true
		}
	}
	return false
}

// withoutPoliteEnds returns slots with the closing polite words ("pls",
// "thanks") taken off each value of a slot learned as a name — an example
// of two words at most ("rename it to beach pls" names "beach") — unless
// the command sets the value apart as a message after "saying". A
// message's own "thanks" is the owner's text.
func withoutPoliteEnds(f *knowledge.Flow, command string, slots map[string]string) map[string]string {
	return reslot(f, slots, func(sl knowledge.Slot, v string) (string, bool) {
		if len(strings.Fields(sl.Example)) > 2 || saidAsMessage(command, v) {
			return "", false
		}
		end := intent.WithoutPoliteEnd(v, 0, len(v))
		return strings.TrimSpace(v[:end]), end != len(v)
	})
}

// reslot returns slots with fix applied to the value each of f's slots
// has in slots: fix returns the new value and whether it is one; slots
// itself when fix changed none, a copy otherwise (slots is never
// written).
func reslot(f *knowledge.Flow, slots map[string]string, fix func(sl knowledge.Slot, v string) (string, bool)) map[string]string {
	var out map[string]string
	for _, sl := range f.Slots {
		v, ok := slots[sl.Name]
		if !ok {
			continue
		}
		nv, changed := fix(sl, v)
		if !changed {
			continue
		}
		if out == nil {
			out = maps.Clone(slots)
		}
		out[sl.Name] = nv
	}
	if out == nil {
		return slots
	}
	return out
}

// tidySlots returns slots as the flow's fields take them: closing polite
// words off a name (withoutPoliteEnds), a possessive off a name owning
// the next word (withoutPossessive), a number said in groups written as
// the flow learned it (digitsAsLearned).
func tidySlots(f *knowledge.Flow, command string, slots map[string]string) map[string]string {
	return digitsAsLearned(f, command, withoutPossessive(f, command, withoutPoliteEnds(f, command, slots)))
}

// digitsAsLearned returns slots with each value that is a number said in
// groups ("555 123 4567", "07700-900123") written as one run of digits
// when the slot was learned as one (its example all digits, a leading
// "+" aside): a phone number dictated or typed in groups goes into the
// field the way the owner's own entry did. A value with anything but
// digits and single spaces, dashes or dots between them stays as said,
// and so does a text said (saidText: "a note with the text 555 0100").
func digitsAsLearned(f *knowledge.Flow, command string, slots map[string]string) map[string]string {
	return reslot(f, slots, func(sl knowledge.Slot, v string) (string, bool) {
		if !allDigits(strings.TrimPrefix(sl.Example, "+")) || saidText(f, sl.Name, command, v) {
			return "", false
		}
		groups := strings.FieldsFunc(strings.TrimPrefix(v, "+"), func(r rune) bool { return r == ' ' || r == '-' || r == '.' })
		joined := strings.Join(groups, "")
		if len(groups) < 2 || !allDigits(joined) || len(joined) != len(strings.TrimPrefix(v, "+"))-(len(groups)-1) {
			return "", false
		}
		if strings.HasPrefix(v, "+") {
			joined = "+" + joined
		}
		return joined, true
	})
}

// saidText reports whether value, of the slot called name, is a text the
// command says rather than a name or number it gives: quoted whole, after
// a saying word in the command ("with the text 555 0100", "saying …"), or
// in a slot that follows one in the flow's intent (saysSlot).
func saidText(f *knowledge.Flow, name, command, value string) bool {
	if quotedWhole(command, value) || saysSlot(f, name) {
		return true
	}
	lower := strings.ToLower(command)
	at := strings.Index(lower, strings.ToLower(value))
	if at < 0 {
		return false
	}
	return saidAfter(lower[:at])
}

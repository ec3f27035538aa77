// Reading the command: which of its words are values, which only
// describe or say where a change starts from, and its phrases — the
// parts newRunState builds the run's terms and values from.

package graphplan

import (
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

// fromOnly returns the terms of cmd that only the word right after a
// "from" carries when a "to" follows it ("switch the layout from weekly
// to daily", "move it from Inbox to Archive"): the state or place a
// change starts from guides the way there but is no requirement of the
// change, as a navigation word is not.
func fromOnly(cmd string) map[term]bool {
	ws := strings.Fields(strings.ToLower(cmd))
	var after, rest []string
	for i, w := range ws {
		if i > 0 && ws[i-1] == "from" && slices.Contains(ws[i+1:], "to") {
			after = append(after, w)
			continue
		}
		rest = append(rest, w)
	}
	if len(after) == 0 {
		return nil
	}
	other := map[term]bool{}
	for _, t := range termsOf(strings.Join(rest, " ")) {
		other[t] = true
	}
	out := map[term]bool{}
	for _, t := range termsOf(strings.Join(after, " ")) {
		if !other[t] {
			out[t] = true
		}
	}
	return out
}

// describingVerbs returns the terms of the words right after a subject
// pronoun inside the command ("the pic I took", "the clip we made"): the
// verb of a clause that says which thing, no action to take. The
// command's own first word is never one.
func describingVerbs(cmd string) map[term]bool {
	out := map[term]bool{}
	toks := intent.Tokenize(cmd)
	for i := 2; i < len(toks); i++ {
		switch toks[i-1].Text {
		case "i", "we", "you", "they":
			if toks[i].Kind == intent.KindWord && !intent.IsStopword(toks[i].Text) {
				for _, t := range termsOf(toks[i].Text) {
					out[t] = true
				}
			}
		}
	}
	return out
}

// wordsBefore returns the terms of the last n words of prefix that are
// no stopwords and have a term skip does not drop, in the order written
// ("… Dora's mobile number to": mobile, number).
func wordsBefore(prefix string, n int, skip func(term) bool) []term {
	toks := intent.Tokenize(prefix)
	var out []term
	for i := len(toks) - 1; i >= 0 && n > 0; i-- {
		if toks[i].Kind == intent.KindWord && intent.IsStopword(toks[i].Text) {
			continue
		}
		ts := slices.DeleteFunc(slices.Clone(termsOf(toks[i].Orig)), skip)
		if len(ts) == 0 {
			continue
		}
		out = append(ts, out...)
		n--
	}
	return out
}

// commandWithoutValues blanks the quoted values and file names of a
// command (u.Values, as commandValues reads them): they are typed, not
// matched against labels. Numbers stay: "5 minutes" is often a
// label to pick. A participle that introduces a quoted value ("called",
// "named", "titled" + 'X') is blanked too: it names the value, it is not
// an action to find on screen.
func commandWithoutValues(cmd string, u intent.Command) string {
	b := []byte(cmd)
	blank := func(from, to int) {
		for i := from; i < to && i < len(b); i++ {
			b[i] = ' '
		}
	}
	for _, v := range u.Values {
		if !namedAsWritten(v) {
			continue
		}
		blank(v.Start, v.End)
		before := strings.TrimRight(cmd[:v.Start], " '\"“‘«`")
		if i := strings.LastIndexAny(before, " \t"); i >= 0 || before != "" {
			w := before[i+1:]
			if len(w) > 3 && strings.HasSuffix(strings.ToLower(w), "ed") {
				blank(i+1, len(before))
			}
		}
	}
	return string(b)
}

// commandValues returns the values of the command (u, the understanding
// of cmd) in order, with the file names it writes without quote marks
// (intent.FileNames) and, when names (the command creates, changes, saves
// or sends something), the name a naming word sets apart to the end of a
// spoken command (daemon.NamedValue: "a note called shopping list", typed
// as written like a quoted name) in place of the words Understand read
// in them, and a proper name the command gives what it creates
// (createdName: "a new contact Ada Lovelace"), typed likewise; "open the
// folder named downloads" names a row to find, and its words stay words
// to match.
func commandValues(cmd string, u intent.Command, names bool) []intent.Value {
	whole := intent.FileNames(cmd)
	// a name after "named" / "called" runs to the clause's end, unless a
	// name written as such starts it ("named beach_day in Pictures")
	written := slices.Concat(whole, slices.DeleteFunc(slices.Clone(u.Values), func(v intent.Value) bool { return !namedAsWritten(v) }))
	nv, ok := daemon.NamedValue(cmd)
	if !ok {
		nv, ok = newName(cmd)
	}
	if ok && names && !slices.ContainsFunc(written, func(f intent.Value) bool { return nv.Start < f.End && nv.End > f.Start }) {
		nv.Kind = intent.KindQuoted // typed as written, like a quoted name
		whole = append(whole, nv)
	}
	values := u.Values
	if names && slices.ContainsFunc(values, func(v intent.Value) bool { return v.Kind == intent.KindWord && createdName(cmd, v) }) {
		values = slices.Clone(values)
		for i, v := range values {
			if v.Kind == intent.KindWord && createdName(cmd, v) {
				values[i].Kind = intent.KindQuoted // typed as written, like a quoted name
			}
		}
	}
	if len(whole) == 0 {
		return values
	}
	out := slices.DeleteFunc(slices.Clone(values), func(v intent.Value) bool {
		return slices.ContainsFunc(whole, func(f intent.Value) bool { return v.Start < f.End && v.End > f.Start })
	})
	out = append(out, whole...)
	slices.SortFunc(out, func(a, b intent.Value) int { return a.Start - b.Start })
	return out
}

// newName returns the new name a rename gives after its "to", to the
// end of the command ("rename the label urgent to later", "change the
// list's name to chores"): a command that renames (its words "rename",
// or "name" before the "to"), with at most four words after the last
// "to", none of them a word of the vocabulary's actions.
func newName(cmd string) (intent.Value, bool) {
	toks := intent.Tokenize(cmd)
	at, renames := -1, false
	for i, t := range toks {
		switch {
		case t.Kind != intent.KindWord:
		case t.Text == "rename" || t.Text == "name" || t.Text == "names":
			renames = true
		case t.Text == "to" && renames:
			at = i
		}
	}
	if at < 0 || at == len(toks)-1 || len(toks)-at-1 > 4 {
		return intent.Value{}, false
	}
	start := toks[at+1].Start
	end := len(strings.TrimRightFunc(cmd, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(".!?", r) }))
	if end <= start || len(intent.Understand(cmd[start:end]).Verbs) > 0 {
		return intent.Value{}, false
	}
	end = intent.WithoutPoliteEnd(cmd, start, end) // "… to chores please"
	return intent.Value{Text: cmd[start:end], Kind: intent.KindWord, Start: start, End: end}, true
}

// namedAsWritten reports whether a value of the command is a name to type
// or pick as it is written: quoted, a file name ("keep it as scan7.png"),
// or a name joined by "_" ("call it beach_day").
func namedAsWritten(v intent.Value) bool {
	return v.Kind == intent.KindQuoted || intent.IsFileName(v) || intent.IsIdentifier(v)
}

// phrases returns the command's word n-grams (2-4 words), normalised, for
// strict matching against element labels.
func phrases(cmd string) []string {
	var words []string
	for _, t := range intent.Tokenize(cmd) {
		if t.Kind == intent.KindWord || t.Kind == intent.KindNumber {
			words = append(words, t.Text)
		}
	}
	var out []string
	for n := 4; n >= 2; n-- {
		for i := 0; i+n <= len(words); i++ {
			out = append(out, strings.Join(words[i:i+n], " "))
		}
	}
	return out
}

// namesValue reports whether the word before a value (before is the
// command up to the value) introduces it as a name or a new value — not
// when it only completes an action phrase ("to" of "go to 'Archive'":
// a place to open, intent.Command.Filler).
func namesValue(before string) bool {
	if !namingWords[wordBefore(before, len(before))] {
		return false
	}
	u := intent.Understand(strings.TrimRight(before, openMarks))
	return len(u.Filler) == 0 || !u.Filler[len(u.Filler)-1]
}

// openMarks and closeMarks are what may stand between a value and the
// word before or after it: spaces, quote marks, a colon; wordMarks the
// punctuation a word may carry.
const (
	openMarks  = " '\"“‘«`:"
	closeMarks = " '\"”’»`"
	wordMarks  = ",;:.!?'\""
)

// wordBefore returns the word of cmd that ends before byte offset at,
// past the quote marks or colon that open a value there, lower case and
// without punctuation; "" when there is none.
func wordBefore(cmd string, at int) string {
	f := strings.Fields(strings.TrimRight(cmd[:at], openMarks))
	if len(f) == 0 {
		return ""
	}
	return strings.ToLower(strings.Trim(f[len(f)-1], wordMarks))
}

// wordAfter returns the word of cmd that begins after byte offset at,
// past the quote marks that close a value there, lower case and without
// punctuation; "" when there is none.
func wordAfter(cmd string, at int) string {
	f := strings.Fields(strings.TrimLeft(cmd[at:], closeMarks))
	if len(f) == 0 {
		return ""
	}
	return strings.ToLower(strings.Trim(f[0], wordMarks))
}

// clauseVerbs returns the action concepts, among verbs (the command's:
// intent.Command.Verbs), of the words cmd's clauses begin with — its
// first word that is no stopword, and the first after each "and",
// "then", comma or semicolon: what the command asks to do, not a word
// naming a thing ("delete Sam's message records": delete, not record).
func clauseVerbs(cmd string, verbs []string) []term {
	var out []term
	start := true
	for _, w := range strings.Fields(strings.ToLower(cmd)) {
		ends := strings.TrimRight(w, clauseMarks) != w
		w = strings.Trim(w, ",;.!?:'\"")
		switch {
		case clauseJoiners[w]:
			start = true
		case start && w != "" && !intent.IsStopword(w):
			start = false
			if intent.ActionWord(w) {
				for _, c := range intent.Concepts(w) {
					if t := term("@" + c); slices.Contains(verbs, c) && !slices.Contains(out, t) {
						out = append(out, t)
					}
				}
			}
		}
		if ends {
			start = true
		}
	}
	return out
}

// bareName returns the name a command gives the thing it creates when
// it writes the name with no naming word and no quote marks, in lower
// case as people type and speak it: "new entry plumber", "create a
// weekly entry glimwick and save it", "add entry: zorbit". The name
// is the run of words right after the thing's noun — a word the app
// knows (known: the UI graph's or the screen's) after the creating word
// (concept add, an action word: "new", "create") — up to the clause's
// end: a word of queryEnds, "that"/"which", a participle ("… sorted by
// date", "… repeating every day"), a comma, or the command's end. Every
// word of the name is one the app does not know and no action word; at
// most maxQueryWords of them. Anything else — a known or action word
// inside the run, a number, no known noun before it ("add argentina
// holidays") — is no name: the command is read as before, and the
// planner types nothing it has not been told.
func bareName(cmd string, u intent.Command, known func(term) bool) (intent.Value, bool) {
	knows := func(w string) bool {
		return slices.ContainsFunc(termsOf(w), func(t term) bool { return known(t) })
	}
	toks := u.Tokens
	at := slices.IndexFunc(toks, func(t intent.Token) bool {
		return t.Kind == intent.KindWord && intent.ActionWord(t.Text) && slices.Contains(intent.Concepts(t.Text), "add")
	})
	if at < 0 {
		return intent.Value{}, false
	}
	noun := false
	j := at + 1
	for ; j < len(toks); j++ {
		t := toks[j]
		if t.Kind != intent.KindWord || strings.Contains(cmd[toks[j-1].End:t.Start], ",") {
			return intent.Value{}, false
		}
		if intent.IsStopword(t.Text) {
			if noun {
				return intent.Value{}, false // "add a timer for 7 am": what follows is no name
			}
			continue
		}
		if !knows(t.Text) {
			if noun {
				break
			}
			continue // a modifier the app does not show ("a weekly event"), or no noun at all
		}
		noun = true
	}
	if !noun || j == len(toks) {
		return intent.Value{}, false
	}
	first, end := j, len(toks)
	for ; j < len(toks); j++ {
		t := toks[j]
		if j > first && (nameEnds[t.Text] || strings.Contains(cmd[toks[j-1].End:t.Start], ",")) {
			end = j
			break
		}
		if t.Kind != intent.KindWord {
			return intent.Value{}, false
		}
		if intent.ActionWord(t.Text) || knows(t.Text) {
			if j > first && participle(t.Text) {
				end = j
				break
			}
			return intent.Value{}, false
		}
	}
	if end-first > maxQueryWords {
		return intent.Value{}, false
	}
	from, to := toks[first].Start, toks[end-1].End
	return intent.Value{Text: cmd[from:to], Kind: intent.KindQuoted, Start: from, End: to}, true
}

// nameEnds are the words that end a bare name (bareName): those that end
// an unquoted search query (queryEnds), the relative pronouns and the
// prepositions that begin what follows a name ("… plumber at 7", "… for
// Friday", "… to my calendar").
var nameEnds = func() map[string]bool {
	m := maps.Clone(queryEnds)
	m["that"], m["which"], m["to"], m["for"], m["at"] = true, true, true, true, true
	return m
}()

// participle reports whether w is written as a present or past
// participle ("repeating", "sorted"), which opens a clause that modifies
// the noun before it.
func participle(w string) bool {
	return len(w) > 4 && (strings.HasSuffix(w, "ing") || strings.HasSuffix(w, "ed"))
}

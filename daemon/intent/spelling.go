package intent

import (
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Typed in a hurry: a command typed on a phone keyboard drops, doubles,
// swaps or mistypes letters ("dleete teh last pic", "serach the
// calender") and writes chat shorthand ("msgs", "vid", "fav", "5 mins").
// A misspelt word of the vocabulary is no word the matcher, the app
// identification or the graph planner knows, and an unknown word reads as
// a requirement the flow lacks. Spelled reads such a command as it was
// meant before anything is matched.

// chatForms are chat spellings of words, each unambiguous in a command
// ("vid", "convo"); afterNumber: those that mean a unit only after a
// number ("5 min"; "the min volume" is the minimum)
var (
	chatForms = map[string]string{
		"msg": "message", "msgs": "messages", "txts": "texts", "vid": "video", "vids": "videos",
		"fav": "favorite", "fave": "favorite", "favs": "favorites", "faves": "favorites",
		"bday": "birthday", "bdays": "birthdays", "convo": "conversation", "convos": "conversations",
		"teh": "the", "b4": "before", "pw": "password",
	}
	afterNumber = map[string]string{"min": "minutes", "mins": "minutes", "hr": "hour", "hrs": "hours", "sec": "seconds", "secs": "seconds"}
)

// spellTargets are the words a misspelling is read as, four letters or
// more: the vocabulary's single words and its own stop words
// (uiStopwords; Snowball's list is not among them), sorted (made at
// first use: the vocabulary's index is built by init)
var spellTargets = sync.OnceValue(func() []string {
	seen := map[string]bool{}
	for w := range conceptByText {
		if !strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) && len([]rune(w)) >= 4 {
			seen[w] = true
		}
	}
	for w := range uiStopwords {
		if len([]rune(w)) >= 4 && !strings.ContainsAny(w, "'’") {
			seen[w] = true
		}
	}
	out := make([]string, 0, len(seen))
	for w := range seen {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
})

// Spelled returns text with its chat forms written out ("msgs" →
// "messages", "5 mins" → "5 minutes") and each misspelt word corrected,
// and whether it changed anything. A word is misspelt when it is no
// vocabulary word, stop word or word known (known: the app's own words,
// nil for none), has four letters or more and no digit, and is one typo
// (intent's typo: one edit, two for long words) from exactly one word of
// spellTargets — "dleete" →
// "delete", "serach" → "search". Quoted text, words written with a
// capital (a name), words after a naming word ("called", "named",
// "titled", "saying") and a word after a dot (a file's extension) stay as
// written: they are values, never corrected.
func Spelled(text string, known func(string) bool) (string, bool) {
	toks := Tokenize(text)
	var b strings.Builder
	last, changed, naming := 0, false, false
	for i, t := range toks {
		if t.Kind != KindWord {
			continue
		}
		w := t.Text
		if naming {
			continue
		}
		naming = w == "called" || w == "named" || w == "titled" || w == "saying"
		if t.Start > 0 && text[t.Start-1] == '.' || strings.ContainsFunc(t.Orig, unicode.IsUpper) {
			continue
		}
		to := chatForms[w]
		if u, ok := afterNumber[w]; ok && i > 0 && isNumber(toks[i-1]) {
			to = u
		}
		if to == "" && known != nil && misspelt(w, known) {
			to = correction(w)
		}
		if to == "" || to == w {
			continue
		}
		b.WriteString(text[last:t.Start])
		b.WriteString(to)
		last, changed = t.End, true
	}
	if !changed {
		return text, false
	}
	b.WriteString(text[last:])
	return b.String(), true
}

// misspelt reports whether w (lower case) may be a misspelling: four
// letters or more, no digit, and no word of the vocabulary, a stop word
// or a word known.
func misspelt(w string, known func(string) bool) bool {
	if len([]rune(w)) < 4 || strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) {
		return false
	}
	if isStopword(w) || len(wordConcepts(w, stemWord(w))) > 0 || known != nil && known(w) {
		return false
	}
	return true
}

// correction returns the one spellTargets word w is a typo of, "" when
// none or several (by stem) are.
func correction(w string) string {
	found, stem := "", ""
	first, _ := utf8.DecodeRuneInString(w)
	for _, t := range spellTargets() {
		if !strings.HasPrefix(t, string(first)) || !typo(w, t) {
			continue // a typo rarely changes the first letter ("preset" is no "reset")
		}
		s := stemWord(t)
		switch {
		case found == "":
			found, stem = t, s
		case s != stem:
			return "" // "bock": "back", "book", "lock"…
		}
	}
	return found
}

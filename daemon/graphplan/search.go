// A search's query said without quote marks: "search the ledger for
// plumber", "find the entry plumber", "look up glimwick in contacts". What is
// searched for is a word the app never shows (an event's title, a
// contact's name not on any recorded screen); the words around it say
// where to search and what kind of thing it is, and the app shows those.

package graphplan

import (
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

// maxQueryWords bounds an unquoted query: a longer run of words is a
// clause, not a name.
const maxQueryWords = 4

// queryEnds are the words that end a search's object: a preposition
// that says where to search or with what, a conjunction that starts the
// next clause.
var queryEnds = map[string]bool{
	"in": true, "on": true, "from": true, "within": true, "inside": true, "among": true, "across": true,
	"through": true, "using": true, "with": true, "via": true, "and": true, "then": true, "so": true,
	"please": true, "pls": true, "plz": true,
}

// searchQuery returns the query of a search command that gives none as a
// value: the words after the search verb (after its "for", "called" or
// "named" when one follows), up to a preposition, a conjunction or a
// comma, without the stop words and the words of the app's name, and
// without the words before the first that known (the app's graph and
// screen) does not hold — "entry" of "find the entry plumber" says what
// is searched, "plumber" what for. None when every word is one the app
// shows (the thing is there to be tapped, or the words say where to go,
// not what to type), when a word says an action, or when the run is
// longer than maxQueryWords. kind are the terms of the words left before
// the query ("event"): they say what the query names, and are no target
// of their own.
func searchQuery(cmd string, u intent.Command, appWords map[term]bool, known func(term) bool) (q intent.Value, kind []term, ok bool) {
	toks := u.Tokens
	verb := -1
	for i, t := range toks {
		if t.Kind != intent.KindWord {
			continue
		}
		if t.Text == "look" && i+1 < len(toks) && (toks[i+1].Text == "up" || toks[i+1].Text == "for") {
			verb = i + 1
			kind = termsOf(t.Text) // a word of the verb: searching does it
			break
		}
		if slices.Contains(intent.Concepts(t.Text), "search") {
			verb = i
			break
		}
	}
	if verb < 0 {
		return intent.Value{}, nil, false
	}
	end := len(toks)
	for j := verb + 1; j < len(toks); j++ {
		if queryEnds[toks[j].Text] || strings.Contains(cmd[toks[j-1].End:toks[j].Start], ",") {
			end = j
			break
		}
	}
	start := verb + 1
	for j := start; j < end; j++ {
		switch toks[j].Text {
		case "called", "named", "titled": // "an event called …": what the query names
			for _, t := range toks[start:j] {
				if t.Kind == intent.KindWord && !intent.IsStopword(t.Text) {
					kind = append(kind, termsOf(t.Text)...)
				}
			}
			start = j + 1
		case "for": // "search my contacts for …": where to search, a target of its own
			start = j + 1
		}
	}
	var words []intent.Token
	for _, t := range toks[start:end] {
		if t.Kind != intent.KindWord || intent.ActionWord(t.Text) {
			return intent.Value{}, nil, false
		}
		if intent.IsStopword(t.Text) || slices.ContainsFunc(termsOf(t.Text), func(tm term) bool { return appWords[tm] }) {
			continue
		}
		words = append(words, t)
	}
	first := slices.IndexFunc(words, func(t intent.Token) bool {
		return slices.ContainsFunc(termsOf(t.Text), func(tm term) bool { return !strings.HasPrefix(string(tm), "@") && !known(tm) })
	})
	if first < 0 || len(words)-first > maxQueryWords {
		return intent.Value{}, nil, false
	}
	for _, t := range words[:first] {
		kind = append(kind, termsOf(t.Text)...)
	}
	words = words[first:]
	from, to := words[0].Start, words[len(words)-1].End
	return intent.Value{Text: cmd[from:to], Kind: intent.KindWord, Start: from, End: to}, kind, true
}

// A message's text in a spoken command: "text Ada that the train is
// late", "tell Ada: the train is late" — no quote marks, the recipient
// named first, the text after a word that introduces reported speech.

package graphplan

import (
	"slices"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

// maxMessageWords: more words after "that" are a sentence with more to
// do in it, not a message.
const maxMessageWords = 16

// messageValue returns the text of the message a sending command gives
// after its recipient: the words after "that" or ":" that directly
// follows a proper name ("text Ada that …", "message Ada: …") or the
// word right after the sending verb (recipientAt: "text ada that …"),
// or, after that word when known holds it (a name the app shows), the
// words right after it unless the first says how or where to send
// (notMessage: "text ada running late"), to the end of the command (its
// final punctuation left out). known nil: only "that" and ":" say where
// a text begins. ok is false when
// there is no such word, nothing or more than maxMessageWords words follow
// it, or a quoted value is among them (the quotes say where the text is).
func messageValue(cmd string, values []intent.Value, known func(term) bool) (intent.Value, bool) {
	toks := intent.Tokenize(cmd)
	for i := 0; i < len(toks)-1; i++ {
		at := toks[i]
		if !slices.ContainsFunc(values, func(v intent.Value) bool { return v.Kind == intent.KindWord && v.End == at.End }) && !recipientAt(toks, i) {
			continue // a "that" after no recipient starts a clause saying which thing
		}
		var from int // index of the message's first token
		switch {
		case strings.Contains(cmd[at.End:toks[i+1].Start], ":"):
			from = i + 1
		case toks[i+1].Text == "that" && i+2 < len(toks):
			from = i + 2
		case known != nil && recipientAt(toks, i) && verbFirst(toks[0].Text) && knownWord(toks[i].Text, known) && toks[i+1].Kind == intent.KindWord && !notMessage[toks[i+1].Text] &&
			slices.ContainsFunc(toks[i+1:], func(t intent.Token) bool { return !intent.Tail(t.Text) }):
			// nothing between the recipient, a word the app shows (a
			// contact's or a thread's name), and the text, as said ("text
			// ada running late"): what follows a word naming where or how
			// to send ("text ada on the work phone") is no text
			from = i + 1
		default:
			continue
		}
		if slices.ContainsFunc(toks[from:], func(t intent.Token) bool { return t.Kind == intent.KindQuoted }) {
			return intent.Value{}, false
		}
		start := toks[from].Start
		end := len(strings.TrimRightFunc(cmd, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(".!", r) }))
		if end <= start || len(strings.Fields(cmd[start:end])) > maxMessageWords {
			return intent.Value{}, false
		}
		return intent.Value{Text: cmd[start:end], Kind: intent.KindQuoted, Start: start, End: end}, true
	}
	return intent.Value{}, false
}

// notMessage: words that, right after a message's recipient, say how or
// where to send it, or join another request, not the text
var notMessage = map[string]bool{"on": true, "in": true, "via": true, "with": true, "using": true, "through": true, "from": true,
	"to": true, "about": true, "and": true, "then": true, "or": true, "but": true, "at": true, "by": true, "for": true, "of": true,
	"that": true, "saying": true, "says": true,
	"a": true, "an": true, "the": true, "my": true, "this": true, "his": true, "her": true, "their": true, "our": true, "your": true}

// verbFirst reports whether w, a sending command's first word, is said as
// a verb: not plural ("messages row height …" names messages) and no
// "send", which takes what it sends next ("send ada a photo").
func verbFirst(w string) bool {
	return w != "send" && (!strings.HasSuffix(w, "s") || w == "sms")
}

// knownWord reports whether a term of word w is one known holds.
func knownWord(w string, known func(term) bool) bool {
	return slices.ContainsFunc(termsOf(w), known)
}

// recipientAt reports whether token i is where a sending command names
// its recipient, written in any case: the one word right after a first
// word that sends or names a message ("text ada that …", "sms ada: …"),
// a word of no concept of the vocabulary ("share photo that …" names a
// thing, not a person).
func recipientAt(toks []intent.Token, i int) bool {
	if i != 1 || toks[1].Kind != intent.KindWord || intent.IsStopword(toks[1].Text) || len(intent.Concepts(toks[1].Text)) > 0 {
		return false
	}
	cs := intent.Concepts(toks[0].Text)
	return slices.Contains(cs, "send") || slices.Contains(cs, "message")
}

// messageAsVerb reports whether cmd uses a message's name as its verb
// ("sms Ada 'on my way'", "message Ada: on my way"): its first word is
// a message (the vocabulary's concept message) and the command gives a
// text to send, quoted or after the recipient (messageValue). A command
// that only names messages ("messages row height large", "sms night mode
// on") sends nothing.
func messageAsVerb(cmd string, u intent.Command) bool {
	first := slices.IndexFunc(u.Tokens, func(t intent.Token) bool { return t.Kind == intent.KindWord })
	if first < 0 || !slices.Contains(intent.Concepts(u.Tokens[first].Text), "message") {
		return false
	}
	values := commandValues(cmd, u, true)
	if slices.ContainsFunc(values, func(v intent.Value) bool { return v.Kind == intent.KindQuoted }) {
		return true
	}
	_, ok := messageValue(cmd, values, nil)
	return ok
}

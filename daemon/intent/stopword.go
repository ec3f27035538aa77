package intent

import (
	"strings"

	"github.com/kljensen/snowball/english"
)

// uiStopwords are words of spoken or typed commands that carry no task
// meaning and are not in Snowball's English stop-word list: politeness,
// modal and light verbs whose sense comes from a particle ("turn on") or
// from the UI ("tap", "button"), and words that introduce a value
// ("called", "titled"), the hesitations a dictated command keeps
// ("um", "uh"), and "every", which Snowball's list lacks beside "all".
var uiStopwords = setOf(
	"ah", "er", "erm", "hm", "hmm", "uh", "uhh", "uhm", "um", "umm",
	"every",        // as "all" and "each" are (Snowball): a quantifier, read by quantifiers
	"another",      // as "other" is (Snowball)
	"much", "many", // "how much storage …": a question, as "how" is
	"inside", "within", // prepositions of place, as "into" and "in" are (Snowball)
	"anymore", // an adverb of time, as "again" and "once" are (Snowball); the negation it goes with is read where it is
	"also", "app", "apps", "application", "applications", "bit", "button", "called", "click", "could", "don't", "dont", "don’t", "flip",
	"get", "gets", "go", "got", "hey", "hit", "i'd", "i'll", "i'm", "icon", "it's", "kindly", "let", "let's",
	"lets", "like", "little", "lot", "may", "might", "mine", "must", "named", "need", "never", "onto", "please",
	"pls", "plz", "press", "quickly", "really", "say", "saying", "says", "shall", "slightly", "switch", "tap",
	"thank", "thanks", "that's", "titled", "toggle", "touch", "turn", "us", "using", "via", "wanna", "want", "would",
	// the light verbs whose sense comes from a particle, inflected ("delivery reports turned on")
	"turned", "turning", "turns", "switched", "switching", "flipped", "flipping", "toggled", "toggling",
	// contractions of stop words Snowball's list lacks ("I've typed", "what's in …"); a negation among them
	// is still read as one (isNegation)
	"i've", "ive", "you're", "youre", "we're", "they're", "you've", "we've", "they've", "he's", "she's", "there's",
	"theres", "here's", "what's", "where's", "who's", "how's", "isn't", "aren't", "wasn't", "weren't", "can't",
	"didn't", "doesn't", "shouldn't", "wouldn't", "couldn't", "haven't", "hasn't",
)

// IsStopword reports whether word (any case) is a stopword of the
// vocabulary: Snowball's English stop words (github.com/kljensen/snowball)
// and uiStopwords.
func IsStopword(word string) bool { return isStopword(strings.ToLower(word)) }

// isStopword is IsStopword for a lower-case word.
func isStopword(w string) bool {
	return !scopeWords[w] && english.IsStopWord(w) || uiStopwords[w] || shorthand[w] != ""
}

// shorthand maps the chat spellings of stop words to what they spell
// ("u" for "you", "lemme" for "let me"); each expansion is made of stop
// words only (TestShorthandSpellsStopwords), so a command typed in
// shorthand reads as the same command.
var shorthand = map[string]string{
	"n": "and", "u": "you", "w": "with", "thats": "that is", "ur": "your", "r": "are", "thru": "through",
	"lemme": "let me", "whats": "what is", "wats": "what is", "im": "i am",
	"gotta": "got to", "ya": "you", "cuz": "because", "bc": "because",
}

// scopeWords are Snowball stop words that narrow what a command applies
// to ("sort only this folder by size" asks for a scope the plain sort
// does not set): they count as words of the command.
var scopeWords = setOf("only")

// IsScopeWord reports whether word (any case) narrows what a command or
// a setting applies to ("only").
func IsScopeWord(word string) bool { return scopeWords[strings.ToLower(word)] }

package intent

import "strings"

// A closing place phrase names where the command is to be carried out:
// "send hi to Ada on Chirper", "open the last photo in the Snaps app".
// When that place is no app the command runs in, a flow of the app in
// front is not what was asked (the engine's otherPlace decides).

var (
	// placePreps open a place phrase; "of", "for", "to" and "into" name
	// what is acted on, not where
	placePreps = setOf("in", "on", "via", "using", "with", "through", "inside", "within", "from")
	// politeFiller closes a request without being part of it; so may
	// "now" after a place phrase (PlaceNamed)
	politeFiller = setOf("please", "pls", "plz", "thanks", "thx")
)

// WithoutPoliteEnd returns the span [start, end) of text shortened by the
// polite words that close it ("please", "thanks"), at least one word
// kept: "chores please" is the name "chores". A message ("saying
// call me back please") keeps them; this is for names.
func WithoutPoliteEnd(text string, start, end int) int {
	toks := Tokenize(text[start:end])
	n := len(toks)
	for n > 1 && toks[n-1].Kind == KindWord && politeFiller[toks[n-1].Text] {
		n--
	}
	if n == len(toks) {
		return end
	}
	return start + toks[n-1].End
}

// PlaceNamed returns the name in the place phrase that closes text — a
// preposition of place, maybe a determiner, one or two words, maybe
// "app" ("on Chirper", "in the Snaps app", "using Mail Box"), closing
// filler ("please") aside — and false when text closes with none. Names
// are plain words: a number, time, date or quoted text is a value, never
// a place, and stop words are none. Two words at least come before the
// preposition ("turn on dark mode" is no place).
func PlaceNamed(text string) (name []string, ok bool) {
	name, _, ok = placeNamed(text)
	return name, ok
}

// BarePlace reports whether the place phrase closing text (PlaceNamed) is
// one word written in lower case right after its preposition — no
// determiner, no "app": "… so z is on top", "… from scratch", "… on
// whatsapp". Such a word is a name only when no dictionary knows it (the
// engine's otherPlace asks the model's vocabulary).
func BarePlace(text string) (word string, ok bool) {
	name, bare, ok := placeNamed(text)
	if !ok || !bare || len(name) != 1 {
		return "", false
	}
	return name[0], true
}

// placeNamed is PlaceNamed, with whether the name is bare: one word as
// written in lower case, straight after the preposition, no "app" after.
func placeNamed(text string) (name []string, bare, ok bool) {
	toks := Tokenize(text)
	for len(toks) > 0 && toks[len(toks)-1].Kind == KindWord && (politeFiller[toks[len(toks)-1].Text] || toks[len(toks)-1].Text == "now") {
		toks = toks[:len(toks)-1]
	}
	end := len(toks)
	if end > 0 && toks[end-1].Kind == KindWord && appNouns[toks[end-1].Text] {
		end--
	}
	start, ok := placeBefore(toks, end)
	if !ok {
		// a verb and what it acts on come first: "turn on dark mode"
		// opens with a verb's particle, no place
		return nil, false, false
	}
	for _, t := range toks[start:end] {
		name = append(name, t.Text)
	}
	bare = end == len(toks) && end-start == 1 && placePreps[toks[start-1].Text] && toks[start].Orig == strings.ToLower(toks[start].Orig)
	return name, bare, true
}

// AppNamedWithin returns the name of an app a place phrase names
// anywhere in text by the word "app" ("change the font in the messages
// app to medium", "in my Snaps app"): a preposition of place, maybe a
// determiner, one or two words, then "app" or "application"; false when
// text has none. Two words at least come before the preposition.
func AppNamedWithin(text string) (name []string, ok bool) {
	toks := Tokenize(text)
	for i, t := range toks {
		if t.Kind != KindWord || !appNouns[t.Text] {
			continue
		}
		start, ok := placeBefore(toks, i)
		if !ok {
			continue
		}
		for _, w := range toks[start:i] {
			name = append(name, w.Text)
		}
		return name, true
	}
	return nil, false
}

// placeBefore returns where the name that ends before toks[end] begins —
// one or two plain words (no stop word, preposition or determiner) — when
// a preposition of place opens it, maybe with a determiner between, and
// two tokens at least come before that preposition.
func placeBefore(toks []Token, end int) (int, bool) {
	start := end
	for start > 0 && end-start < 2 {
		t := toks[start-1]
		if t.Kind != KindWord || IsStopword(t.Text) || placePreps[t.Text] || mentionDets[t.Text] {
			break
		}
		start--
	}
	if start == end {
		return 0, false
	}
	p := start - 1
	if p >= 0 && toks[p].Kind == KindWord && mentionDets[toks[p].Text] {
		p--
	}
	if p < 2 || toks[p].Kind != KindWord || !placePreps[toks[p].Text] {
		return 0, false
	}
	return start, true
}

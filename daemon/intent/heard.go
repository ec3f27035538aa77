package intent

import (
	"slices"
	"strings"
)

// Spoken commands: a phone's speech recogniser writes what it hears,
// hesitations and repairs included — "change the ringtone to um
// marimba", "set the grid to 4 no 5", "text mia i mean theo that i'm
// late", "save the sketch as plan dot pdf". Read word for word, the
// hesitation becomes part of a value, the number given up is picked, the
// first name is texted. Heard reads such a transcript as the speaker
// meant it before anything is matched.

// hesitations are sounds a recogniser writes that are no words of a
// command
var hesitations = setOf("um", "umm", "uh", "uhh", "uhm", "er", "erm", "hmm", "mm")

// repairMarkers say that what follows replaces what came just before
// (the speaker's own correction), longest first
var repairMarkers = [][]string{
	{"no", "wait"}, {"wait", "no"}, {"no", "actually"}, {"actually", "no"}, {"or", "rather"}, {"scratch", "that"},
	{"i", "mean"}, {"i", "meant"}, {"sorry"}, {"actually"},
}

// discourseMarkers open a spoken utterance without being part of what it
// asks ("okay so turn …", "alright, …")
var discourseMarkers = setOf("okay", "ok", "alright", "so", "well")

// requestFrames open a request in so many words without being part of it:
// "is there a way to show …" asks to show, "would you mind calling …" to
// call
var requestFrames = [][]string{
	{"is", "there", "a", "way", "to"}, {"is", "there", "any", "way", "to"}, {"would", "you", "mind"}, {"do", "you", "mind"},
}

// fileExtensions are the extensions a file name is spoken with ("test
// dot ics"): common document, media and data formats
var fileExtensions = setOf("txt", "pdf", "ics", "vcf", "csv", "json", "xml", "html", "zip", "doc", "docx", "xls", "xlsx",
	"ppt", "pptx", "odt", "jpg", "jpeg", "png", "gif", "webp", "svg", "bmp", "heic", "mp3", "mp4", "m4a", "wav", "ogg",
	"flac", "aac", "mkv", "mov", "avi", "webm", "apk", "md")

// Heard returns text as its speaker meant it, and whether that differs:
//   - hesitations ("um", "uh", "erm") are dropped, and so are the words
//     a request opens with that ask nothing themselves: discourse
//     markers ("okay so …") and a request's frame ("is there a way to
//     …", "would you mind …"), when two words or more follow;
//   - a self-repair keeps the repair: after a marker ("i mean", "wait
//     no", "sorry", "actually", "or rather"), or a bare "no" between two
//     numbers ("4 no 5"), the words said again replace those they repeat
//     — from the last earlier word the repair begins with ("turn on …
//     wait no turn it off" → "turn it off"), else from the last action
//     word when the repair begins with one ("hide the tab no wait show
//     it" → "show it"), else from the last number when it begins with
//     one ("to 60 no 90 percent" → "to 90 percent"), else the one word
//     before the marker ("text mia i mean theo …" → "text theo …"); a
//     marker first is dropped;
//   - a file name spoken with "dot" before a known extension is written
//     with its dot ("plan dot pdf" → "plan.pdf"), and words spoken with
//     "underscore" between them as one ("team underscore notes" →
//     "team_notes").
//
// Quoted text is the owner's own and stays as it is; so does text with
// no word Heard reads, or nothing but hesitations.
func Heard(text string) (string, bool) {
	all := Tokenize(text)
	var ws []int // indexes in all of the tokens kept, in order
	changed := false
	for i, t := range all {
		if t.Kind != KindQuoted && hesitations[t.Text] {
			changed = true
			continue
		}
		ws = append(ws, i)
	}
	plain := func(i int) string { // a kept token's word, "" for a quoted text
		if all[i].Kind == KindQuoted {
			return ""
		}
		return all[i].Text
	}
	if k := requestStart(ws, plain); k > 0 {
		ws, changed = ws[k:], true
	}
	for from := 0; ; {
		words := make([]string, len(ws))
		for k, i := range ws {
			words[k] = plain(i)
		}
		at, n := repairAt(words, from, func(k int) bool { return isNumber(all[ws[k]]) })
		if at < 0 {
			break
		}
		before, after := ws[:at], ws[at+n:]
		if len(after) == 0 {
			ws, changed = before, true // a marker last: nothing replaces anything
			break
		}
		cut := len(before)
		if len(before) > 0 {
			cut = len(before) - 1
			if k := lastIndexOf(words[:at], words[at+n]); words[at+n] != "" && k >= 0 {
				cut = k // the word the repair begins with, said before
			} else if w := words[at+n]; w != "" && ActionWord(w) {
				// another action: the repair is a whole request
				cut = -1
				for k := at - 1; k >= 0; k-- {
					if words[k] != "" && ActionWord(words[k]) {
						cut = k
						break
					}
				}
				if cut < 0 && n == 1 && words[at] == "actually" {
					// no action said before it: "actually" is an
					// adverb of the sentence ("did my last video
					// actually save?"), not a repair of a request
					from = at + 1
					continue
				}
				cut = max(cut, 0)
			} else if isNumber(all[after[0]]) {
				for k := len(before) - 1; k >= 0; k-- {
					if isNumber(all[before[k]]) {
						cut = k
						break
					}
				}
			}
		}
		ws, changed = append(slices.Clone(before[:cut]), after...), true
		from = 0
	}
	if !changed && !slices.ContainsFunc(all, func(t Token) bool { return t.Text == "dot" || t.Text == "underscore" }) {
		return text, false
	}
	var b strings.Builder
	if len(ws) > 0 {
		b.WriteString(between(text, all, -1, ws[0]))
	}
	for k := 0; k < len(ws); k++ {
		i := ws[k]
		if k > 0 {
			b.WriteString(between(text, all, ws[k-1], i))
		}
		word := all[i].Orig
		for k+2 < len(ws) && plain(i) != "" && plain(ws[k+1]) == "underscore" && plain(ws[k+2]) != "" && ws[k+2] == i+2 {
			// "trip underscore photos" → "trip_photos"
			k += 2
			i = ws[k]
			word += "_" + all[i].Orig
			changed = true
		}
		if k+2 < len(ws) && plain(i) != "" && plain(ws[k+1]) == "dot" && fileExtensions[plain(ws[k+2])] && ws[k+2] == i+2 {
			word += "." + all[ws[k+2]].Orig
			k += 2
			changed = true
		}
		b.WriteString(word)
	}
	if !changed {
		return text, false
	}
	if len(ws) > 0 {
		b.WriteString(between(text, all, ws[len(ws)-1], len(all)))
	}
	out := strings.TrimSpace(b.String())
	if out == "" {
		return text, false // nothing but hesitations: nothing to read
	}
	return out, true
}

// between is what text has between kept tokens all[i] and all[j] (i <
// j): as written when they were neighbours, else a space and the quote
// marks that close all[i] and open all[j] when they are quoted.
func between(text string, all []Token, i, j int) string {
	start, end := 0, len(text) // i -1: the text's start; j len(all): its end
	if i >= 0 {
		start = all[i].End
	}
	if j < len(all) {
		end = all[j].Start
	}
	if j == i+1 {
		return text[start:end]
	}
	closing, opening := "", ""
	if j == len(all) {
		opening = strings.TrimLeft(text[all[j-1].End:], " ") // the text's closing punctuation
	}
	if i >= 0 && all[i].Kind == KindQuoted {
		rest := strings.TrimLeft(text[all[i].End:], " ")
		closing = rest[:len(rest)-len(strings.TrimLeftFunc(rest, isQuoteRune))]
	}
	if j < len(all) && all[j].Kind == KindQuoted {
		head := strings.TrimRight(text[:all[j].Start], " ")
		opening = head[len(strings.TrimRightFunc(head, isQuoteRune)):]
	}
	switch {
	case i < 0:
		return opening
	case j == len(all):
		return closing + opening
	}
	return closing + " " + opening
}

// lastIndexOf is the index of the last w in words, -1 when none.
func lastIndexOf(words []string, w string) int {
	for k := len(words) - 1; k >= 0; k-- {
		if words[k] == w {
			return k
		}
	}
	return -1
}

// isNumber reports whether t is a number, as digits or as a number name.
func isNumber(t Token) bool {
	if t.Kind == KindNumber {
		return true
	}
	_, ok := NumberWord(t.Text)
	return ok && t.Kind == KindWord
}

// repairAt returns where the first self-repair marker of words at index
// from or after begins and how many words it has, or -1: a marker of
// repairMarkers (a quoted text is ""), or a bare "no" between two numbers
// (number: by index).
func repairAt(words []string, from int, number func(int) bool) (int, int) {
	for i := from; i < len(words); i++ {
		for _, m := range repairMarkers {
			if i+len(m) <= len(words) && slices.Equal(words[i:i+len(m)], m) {
				return i, len(m)
			}
		}
		if words[i] == "no" && i > 0 && i+1 < len(words) && number(i-1) && number(i+1) {
			return i, 1
		}
	}
	return -1, 0
}

// requestStart returns how many of the kept tokens ws open the request
// without asking anything (discourseMarkers, then one of requestFrames),
// 0 when fewer than two words would be left.
func requestStart(ws []int, plain func(int) string) int {
	k := 0
	for k < len(ws) && discourseMarkers[plain(ws[k])] {
		k++
	}
	for _, f := range requestFrames {
		if len(ws)-k > len(f) && slices.EqualFunc(ws[k:k+len(f)], f, func(i int, w string) bool { return plain(i) == w }) && plain(ws[k+len(f)]) != "if" {
			k += len(f)
			break
		}
	}
	if len(ws)-k < 2 {
		return 0
	}
	return k
}

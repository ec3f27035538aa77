package daemon

import (
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

// Readings of a command as its app writes it (acronyms, units, compounds,
// number words: acronym.go, units.go, compound.go, numwords.go) share
// these helpers: a reading applies to the command's own words, never to
// its quoted values, and a word is read only when the texts give it one
// reading.

// readAs returns command with each word whose core (the word without the
// punctuation around it) read gives a reading ("" for none) replaced by
// that reading, the punctuation kept, and whether it replaced any: how the
// engine reads a command as the flows say it (acronyms, units.go).
func readAs(command string, read func(core string) string) (string, bool) {
	return outsideQuotes(command, func(part string) (string, bool) { return readWords(part, read) })
}

// outsideQuotes applies read to the parts of command outside its quoted
// values — the owner's own text, typed as written: "type 'two bottles'"
// keeps its "two" — and reports whether it changed any.
func outsideQuotes(command string, read func(part string) (string, bool)) (string, bool) {
	var b strings.Builder
	changed := false
	last := 0
	part := func(s string) {
		if x, ok := read(s); ok {
			b.WriteString(x)
			changed = true
		} else {
			b.WriteString(s)
		}
	}
	for _, t := range intent.Tokenize(command) {
		if t.Kind != intent.KindQuoted || t.Start < last {
			continue
		}
		part(command[last:t.Start])
		b.WriteString(command[t.Start:t.End])
		last = t.End
	}
	part(command[last:])
	if !changed {
		return command, false
	}
	return b.String(), true
}

// readWords is readAs on a part of a command without quoted values.
func readWords(command string, read func(core string) string) (string, bool) {
	words := strings.Fields(command)
	changed := false
	for i, w := range words {
		core := strings.TrimFunc(w, unicode.IsPunct)
		r := read(core)
		if r == "" {
			continue
		}
		at := strings.Index(w, core)
		words[i] = w[:at] + r + w[at+len(core):]
		changed = true
	}
	if !changed {
		return command, false
	}
	return strings.Join(words, " "), true
}

// oneReading collects the readings found for one word: the word is read
// only when they are all the same.
type oneReading struct {
	got       string
	ambiguous bool // two different readings: none
}

func (o *oneReading) add(r string) {
	switch {
	case o.got == "":
		o.got = r
	case o.got != r:
		o.ambiguous = true
	}
}

// result is the one reading, "" for none or two.
func (o *oneReading) result() string {
	if o.ambiguous {
		return ""
	}
	return o.got
}

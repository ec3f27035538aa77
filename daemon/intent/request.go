package intent

import (
	"slices"
	"strings"
)

// A request said with its reason: "I'm running out of space, sort the
// folders by size so I can see what's big", "mute the shutter click,
// it's embarrassing in meetings". Owners explain themselves; the
// explanation names things the request does not ask for ("space",
// "meetings"), and a flow matched on the whole utterance, or a route
// checked against every word of it, finds words nothing accounts for.

// reasonOpeners open a clause that gives a reason ("because it's late")
var reasonOpeners = setOf("because", "since", "cause", "cuz", "coz")

// reasonAfterSo: after "so" or "as", the words that make it open a clause
// with a subject ("so I stop forgetting", "so that …"), not a "so" of
// degree or an "as" naming a thing ("save it as pic9")
var reasonAfterSo = setOf("i", "we", "you", "it", "they", "that", "i'm", "im", "my", "the", "he", "she")

// remarkSubjects open a clause about the speaker or a thing rather than a
// request ("I'm running out of space", "my eyes aren't great", "the
// icons are way too cramped")
var remarkSubjects = setOf("i", "i'm", "im", "i've", "ive", "my", "it", "it's", "its", "the", "this", "that's", "thats",
	"these", "those", "there's", "theres", "they", "they're", "we", "we're", "he", "she")

// backRefs refer back to something named before ("make it louder")
var backRefs = setOf("it", "them", "they", "one", "ones")

// requestWords make a clause opening with a subject a request all the
// same ("I want …", "the week should start on monday", "I need it at 5")
var requestWords = setOf("want", "wanna", "like", "need", "should", "must", "wish", "prefer", "let", "gotta", "shall",
	"rather", "please")

// Request returns the request text asks for without the clauses that
// only explain it, and whether that differs. Clauses are split at ",",
// ";", ":", a dash or a sentence's end, and before "because", "since",
// and "so" or "as" with a subject after it. A clause is dropped when it
// gives a reason (it opens with one of those words) or remarks on
// something rather than asking (SpeechAct reads it as a report or a
// question, or it opens with a subject — "I'm …", "my …", "the …", "it's
// …" — and holds no word that requests: "want", "should", "need" …),
// provided a clause that asks remains, with two words or more that are no
// stop words ("open it" says too little alone). When a clause refers back
// ("it", "them", "one": "my alarm is too quiet, make it louder"), only a
// reason is dropped: a remark may name what it refers to. A clause holding a value (a
// quoted text, a number, a time or a date: "the title is 'laundry'", "my
// 7am alarm keeps ringing") is kept: the request needs it. Text that sends or writes a
// message (a clause opening with a verb of the concept send or message:
// "text Ada, I'm late") is left whole: what follows may be the message.
// So is text with one clause.
func Request(text string) (string, bool) {
	toks := Tokenize(text)
	type clause struct {
		start, end int // byte offsets in text
		first      int // index in toks of the clause's first token
		words      []string
		values     bool // a quoted text, number, time or date: what the request needs
		// reason, remark: the clause gives a reason (reasonAt) or
		// remarks rather than asks (remarks)
		reason, remark bool
	}
	var cls []clause
	cur := clause{start: -1}
	flush := func() {
		if cur.start >= 0 {
			cls = append(cls, cur)
		}
		cur = clause{start: -1}
	}
	for i, t := range toks {
		if i > 0 && clauseGap(text[toks[i-1].End:t.Start]) || t.Kind == KindWord && cur.start >= 0 && reasonAt(toks, i) {
			flush()
		}
		if cur.start < 0 {
			cur.start, cur.first = t.Start, i
		}
		cur.end = t.End
		if t.Kind == KindWord {
			cur.words = append(cur.words, t.Text)
		} else {
			cur.words = append(cur.words, "")
			cur.values = cur.values || t.Kind != KindSymbol
		}
	}
	flush()
	if len(cls) < 2 {
		return text, false
	}
	for i := range cls {
		c := &cls[i]
		if len(c.words) > 0 {
			c.reason = reasonAt(toks, c.first)
			c.remark = !c.reason && remarks(text[c.start:c.end], c.words)
		}
	}
	// a request that refers back ("make it louder") keeps the remarks
	// that may name what it refers to ("my alarm is too quiet"); only a
	// reason goes
	refers := slices.ContainsFunc(cls, func(c clause) bool {
		return len(c.words) > 0 && !c.reason && !c.remark && slices.ContainsFunc(c.words, func(w string) bool { return backRefs[w] })
	})
	var kept []clause
	asks := false
	for _, c := range cls {
		if len(c.words) == 0 {
			continue
		}
		if slices.ContainsFunc(Concepts(c.words[0]), func(id string) bool { return id == "send" || id == "message" }) {
			return text, false // the message may follow
		}
		if !c.values && (c.reason || !refers && c.remark) {
			continue
		}
		if !slices.ContainsFunc(c.words, func(w string) bool {
			return w != "" && !leadFiller[w] && !politeFiller[w] && !discourseMarkers[w]
		}) {
			continue // "hey", "please": kept with what asks, asking nothing
		}
		asks = true
		kept = append(kept, c)
	}
	if !asks || len(kept) == len(cls) {
		return text, false
	}
	parts := make([]string, len(kept))
	content := 0
	for i, c := range kept {
		parts[i] = text[c.start:c.end]
		for _, w := range c.words {
			if w != "" && !isStopword(w) {
				content++
			}
		}
	}
	if content < 2 {
		// "where's the faq? open it": what it acts on was in a clause
		// left out
		return text, false
	}
	return strings.Join(parts, ", "), true
}

// clauseGap reports whether gap, the text between two tokens, ends a
// clause: it holds ",", ";" or a long dash, or ":", "-", ".", "!" or "?"
// before a space.
func clauseGap(gap string) bool {
	if strings.ContainsAny(gap, ",;—–") {
		return true
	}
	for _, p := range []string{": ", "- ", ". ", "! ", "? "} {
		if strings.Contains(gap, p) {
			return true
		}
	}
	return false
}

// reasonAt reports whether word token i opens a clause giving a reason
// (reasonOpeners, or "so" / "as" before a subject).
func reasonAt(toks []Token, i int) bool {
	if toks[i].Kind != KindWord {
		return false
	}
	w := toks[i].Text
	if reasonOpeners[w] {
		return true
	}
	return (w == "so" || w == "as") && i+1 < len(toks) && toks[i+1].Kind == KindWord && reasonAfterSo[toks[i+1].Text]
}

// remarks reports whether a clause remarks rather than asks (Request).
func remarks(clause string, words []string) bool {
	switch act, _ := SpeechAct(clause); act {
	case ActReport, ActStateQuestion, ActQuestion:
		return true
	}
	return remarkSubjects[words[0]] && !slices.ContainsFunc(words, func(w string) bool { return requestWords[w] })
}

package intent

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Value is a parameter-like span of a command: a quoted string, a number,
// a time, a date, or a proper-noun-like word group ("Bob", "John Smith"),
// e-mail address or URL (Kind word). Text is as written, without quote
// marks, and equals cmd[Start:End] (byte offsets).
type Value struct {
	Text  string `json:"text"`
	Kind  Kind   `json:"kind"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// Command is the model-free understanding of one command (AutoTask §4.2.2
// asks an LLM for the intent phrase and the parameters; this is the
// offline stand-in: action concepts for the intent, values for the
// parameters).
type Command struct {
	Text   string  `json:"text"`
	Tokens []Token `json:"tokens"`
	// Stems[i] is the stem of Tokens[i] (Stem of the word; the lower-case
	// text for value and symbol tokens).
	Stems []string `json:"stems"`
	// Verbs are the canonical action concepts ("add", "delete", "on",
	// "off", "open", "search", …) in order of appearance, without repeats.
	Verbs []string `json:"verbs,omitempty"`
	// Concepts are all concepts, actions and objects ("settings", "photo").
	Concepts []string `json:"concepts,omitempty"`
	Values   []Value  `json:"values,omitempty"`
	// TargetWords are the lower-case content words that are neither values,
	// stopwords nor action words: what the command acts on ("dark", "mode").
	TargetWords []string `json:"target_words,omitempty"`
	// Filler[i]: Tokens[i] only completes a multi-word action phrase of
	// the vocabulary ("rid" and "of" of "get rid of", "to" of "go to"):
	// the phrase's concept, on its first word, is its meaning.
	Filler []bool `json:"-"`
	// Phrase[i]: the concept of the multi-word object phrase of the
	// vocabulary Tokens[i] is a word of ("newest" and "first" of "newest
	// first": descending), "" for a word of none; the phrase's words mean
	// it together.
	Phrase []string `json:"-"`
}

// Understand analyses cmd without a model. The heuristics, in order:
//
//   - Tokenize keeps quoted strings, numbers, times and dates whole.
//   - Multi-word phrases of the vocabulary ("go to", "look up", "more
//     options", "sign in") become one concept on their first word.
//   - Every other word is looked up in the vocabulary by its lower-case
//     text, then by its Porter stem ("removed" → delete).
//   - "on"/"off" are the on/off concepts when a particle verb (turn,
//     switch, flip, toggle, keep, leave) comes up to three words before
//     them ("turn the wifi on"), or when only "please", "now" and the like
//     follow them ("dark mode on"); "off" is, unless it opens a noun
//     phrase with no such verb, nor "take" or "get", before it ("wipe
//     everything off my calendar": what something is cleared from), and
//     so is the "out" of "take … out of". "up"/"down" after such a verb
//     are increase/decrease. Otherwise "on" is a preposition ("on
//     monday").
//   - The words of a vocabulary phrase after its first word are
//     stopwords for an action phrase ("to" of "go to") and plain content
//     words for an object phrase ("mode" of "dark mode").
//   - Stopwords (articles, pronouns, prepositions, politeness, light verbs
//     such as turn/tap/go) carry no meaning unless they are part of a
//     concept.
//   - A capitalised word that does not start a sentence, is no stopword
//     and no vocabulary word is a proper-noun-like value; consecutive ones
//     form one value ("John Smith"). In title case (two or more capitalised
//     stopwords or vocabulary words not starting a sentence: "Set An
//     Alarm For Seven") or all caps, capitals mean nothing and no word is
//     a value.
//   - E-mail addresses and URLs are word values.
//
// Negation ("don't") is not interpreted.
func Understand(cmd string) Command {
	toks := Tokenize(cmd)
	pts := analyzeTokens(cmd, toks, nil)
	c := Command{Text: cmd, Tokens: toks, Stems: make([]string, len(toks)), Filler: make([]bool, len(toks))}
	filler := map[int]bool{}   // start offsets of action-phrase tails
	phrase := map[int]string{} // … of the words of object phrases
	for _, p := range pts {
		if p.tail {
			filler[p.start] = true
		}
		if p.phrase != "" {
			phrase[p.start] = p.phrase
		}
	}
	c.Phrase = make([]string, len(toks))
	for i, t := range toks {
		c.Filler[i] = filler[t.Start]
		c.Phrase[i] = phrase[t.Start]
		if t.Kind == KindWord && !isAddress(t.Text) {
			c.Stems[i] = stemWord(t.Text)
		} else {
			c.Stems[i] = t.Text
		}
	}
	for _, p := range pts {
		for _, m := range p.concepts {
			if m.action && !slices.Contains(c.Verbs, m.id) {
				c.Verbs = append(c.Verbs, m.id)
			}
			if !slices.Contains(c.Concepts, m.id) {
				c.Concepts = append(c.Concepts, m.id)
			}
		}
		switch {
		case p.isValue():
			c.Values = append(c.Values, Value{Text: p.orig, Kind: p.kind, Start: p.start, End: p.end})
		case p.kind == KindWord && !p.stop && !p.hasAction() && !slices.Contains(c.TargetWords, p.text):
			c.TargetWords = append(c.TargetWords, p.text)
		}
	}
	return c
}

// ptok is an analysed token of a command or of a flow's pattern.
type ptok struct {
	text, orig, stem string
	kind             Kind
	proper           bool // proper-noun-like word value, e-mail or URL
	named            bool // a word of a file name before its extension: no concept ("backup" of "backup.ics")
	stop             bool
	concepts         []cmem
	start, end       int
	slot             string   // a slot placeholder of a pattern
	neg, role        bool     // a negation ("not"); a role preposition ("from", "to")
	tail             bool     // completes an action phrase ("rid" of "get rid of")
	phrase           string   // the concept of the object phrase the word is part of ("first" of "newest first")
	tris             []uint64 // character trigrams of a word token's text (unsorted), for the index
	stris            []uint64 // trigrams for scoring: of "@concept" for vocabulary words, else of the text
	// words: the stems of the words of a quoted text of two words or more,
	// so that the same words unquoted in the other text match it
	// (quotedRuns)
	words []string
	// optional: part of a mention of the app ("in the Planner app",
	// markMentions): unmatched, it is no word of the command or the flow
	optional bool
}

func (t *ptok) isSlot() bool { return t.slot != "" }

// strongValue: quoted, number, time or date.
func (t *ptok) strongValue() bool {
	switch t.kind {
	case KindQuoted, KindNumber, KindTime, KindDate:
		return true
	}
	return false
}

func (t *ptok) isValue() bool { return t.slot == "" && (t.strongValue() || t.proper) }

func (t *ptok) hasAction() bool {
	for _, m := range t.concepts {
		if m.action {
			return true
		}
	}
	return false
}

func (t *ptok) strongAction() bool {
	for _, m := range t.concepts {
		if m.action && !m.weak {
			return true
		}
	}
	return false
}

// isIdentifier reports whether s is a name written as one word of
// letters and digits joined by "_" ("holiday_2024", "team_notes"): no
// word of a language, so a value of the command, as a quoted text is.
func isIdentifier(s string) bool {
	if !strings.Contains(s, "_") || strings.HasPrefix(s, "_") || strings.HasSuffix(s, "_") || strings.Contains(s, "__") {
		return false
	}
	letter := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r), r == '_', r == '-':
		default:
			return false
		}
	}
	return letter
}

// IsIdentifier reports whether v is a word value that is a name written
// as one word joined by "_" (isIdentifier): typed as written.
func IsIdentifier(v Value) bool { return v.Kind == KindWord && isIdentifier(v.Text) }

func isAddress(s string) bool {
	return strings.Contains(s, "@") || strings.Contains(s, "://") || strings.HasPrefix(s, "www.")
}

var onTail = func() map[string]bool {
	m := setOf("now", "again", "thank", "you", "right", "away", "for", "me", "too", "as", "well")
	for w := range politeFiller { // "please", "pls", "thanks", "thx" …
		m[w] = true
	}
	return m
}()

// Tail reports whether word is one a command may end on without adding
// to its meaning ("now", "please", "right away").
func Tail(word string) bool { return onTail[strings.ToLower(word)] }

// analyze tokenizes and analyses text (see Understand).
func analyze(text string) []ptok { return analyzeTokens(text, Tokenize(text), nil) }

// inFileName reports whether token t is a word of one of files (FileNames)
// before its extension.
func inFileName(files []Value, t Token) bool {
	return slices.ContainsFunc(files, func(f Value) bool { return t.Start >= f.Start && t.End < f.End })
}

var rePlaceholder = regexp.MustCompile(`\{\s*([^{}\s][^{}]*?)\s*\}`)

// analyzeTemplate analyses an intent template; "{name}" placeholders
// become slot tokens.
func analyzeTemplate(tpl string) []ptok {
	locs := rePlaceholder.FindAllStringSubmatchIndex(tpl, -1)
	if len(locs) == 0 {
		return analyze(tpl)
	}
	var toks []Token
	var slots []string
	prev := 0
	for _, l := range locs {
		for _, t := range Tokenize(tpl[prev:l[0]]) {
			t.Start += prev
			t.End += prev
			toks = append(toks, t)
			slots = append(slots, "")
		}
		name := tpl[l[2]:l[3]]
		toks = append(toks, Token{Text: "{" + name + "}", Orig: tpl[l[0]:l[1]], Start: l[0], End: l[1]})
		slots = append(slots, name)
		prev = l[1]
	}
	for _, t := range Tokenize(tpl[prev:]) {
		t.Start += prev
		t.End += prev
		toks = append(toks, t)
		slots = append(slots, "")
	}
	return analyzeTokens(tpl, toks, slots)
}

// openers are the words that open a spoken command without being part
// of it ("okay so turn on …", "alright, delete …"): at its start, before
// more words, they are stop words — not the "OK" a dialog's button says.
var openers = setOf("ok", "okay", "alright", "so")

// openingMarker makes the opening words of a command (toks, as analyze
// gives them) that are openers, each followed by another word, stop words
// ("okay so change …"); an "OK" alone, or before a symbol, stays what it
// says. For commands only: an element's "OK" is its button's word.
func openingMarker(toks []ptok) {
	for i := range toks {
		p := &toks[i]
		if p.kind != KindWord || !openers[p.text] || i+1 >= len(toks) || toks[i+1].kind != KindWord {
			return
		}
		p.stop, p.concepts, p.tris, p.stris = true, nil, nil, nil
	}
}

// analyzeTokens does the analysis of Understand on tokens of src; slots,
// when not nil, names the tokens that are slot placeholders.
func analyzeTokens(src string, toks []Token, slots []string) []ptok {
	pts := make([]ptok, len(toks))
	var files []Value // file names: their words before the extension are a name
	if strings.ContainsRune(src, '.') {
		files = FileNames(src)
	}
	for i, t := range toks {
		p := ptok{text: t.Text, orig: t.Orig, kind: t.Kind, start: t.Start, end: t.End}
		if slots != nil && slots[i] != "" {
			p.slot = slots[i]
			p.kind = ""
			p.stem = t.Text
			pts[i] = p
			continue
		}
		if t.Kind == KindWord {
			if isAddress(t.Text) || isIdentifier(t.Text) && !inFileName(files, t) {
				p.stem, p.proper = t.Text, true
			} else {
				p.stem, p.named = stemWord(t.Text), inFileName(files, t)
			}
		} else {
			p.stem = t.Text
			if t.Kind == KindQuoted {
				p.stem, p.words = quotedStems(t.Text)
			}
		}
		pts[i] = p
	}
	word := func(i int) bool {
		return i >= 0 && i < len(pts) && pts[i].kind == KindWord && !pts[i].proper && !pts[i].named
	}
	inPhrase := make([]int8, len(pts)) // 1: tail of an action phrase ("go to"), 2: of an object phrase ("dark mode")
	// phrases
	for i := 0; i < len(pts); i++ {
		if !word(i) {
			continue
		}
		for _, ph := range phrasesByHead[pts[i].stem] {
			if particleVerbs[pts[i].text] {
				break // turn/switch + particle: handled below
			}
			ok := true
			for k := 1; k < len(ph.stems); k++ {
				if !word(i+k) || pts[i+k].stem != ph.stems[k] {
					ok = false
					break
				}
			}
			if ok {
				pts[i].concepts = appendMem(pts[i].concepts, ph.mem)
				tail := int8(1)
				if !ph.mem.action {
					tail = 2
					for k := range ph.stems {
						pts[i+k].phrase = ph.mem.id
					}
				}
				for k := 1; k < len(ph.stems); k++ {
					inPhrase[i+k] = tail
				}
				i += len(ph.stems) - 1
				break
			}
		}
	}
	// words, symbols and particles
	for i := range pts {
		p := &pts[i]
		if inPhrase[i] != 0 || p.slot != "" || len(p.concepts) > 0 {
			continue
		}
		switch p.kind {
		case KindSymbol:
			p.concepts = conceptByText[p.text]
			continue
		case KindWord:
		default:
			continue
		}
		if p.proper || p.named {
			continue // a name, whatever else the word means
		}
		switch p.text {
		case "on", "off", "up", "down":
			if id := particle(pts, i); id != "" {
				p.concepts = []cmem{{id: id, action: true}}
			}
			continue
		case "out":
			if verbBefore(pts, i, 5, "take") && i+1 < len(pts) && pts[i+1].text == "of" {
				// "take the photo out of my favourites": to remove, as
				// "take it off" is
				p.concepts = []cmem{{id: "off", action: true}}
				continue
			}
		}
		p.concepts = wordConcepts(p.text, p.stem)
		if p.text == "like" && i > 0 && wouldWords[pts[i-1].text] {
			p.concepts = nil // "i'd like …": a request's frame, not a favourite
		}
		if p.text == "last" && i+1 < len(pts) && pts[i+1].kind == KindWord && len(pts[i+1].text) > 3 && strings.HasSuffix(pts[i+1].text, "ed") {
			// "last" before a past participle means the most recent one
			// ("last saved", "last opened"), not the final one
			p.concepts = appendMem(slices.Clone(p.concepts), cmem{id: "newest"})
		}
	}
	// stopwords
	for i := range pts {
		p := &pts[i]
		switch {
		case p.slot != "":
		case inPhrase[i] == 1:
			p.stop, p.tail = true, true
		case inPhrase[i] == 2:
			// a content word of an object phrase ("mode" of "dark mode")
		case len(p.concepts) > 0:
		case p.kind == KindSymbol:
			p.stop = true
		case p.kind == KindWord && !p.proper:
			p.stop = isStopword(p.text)
		}
	}
	markProper(src, pts)
	pts = mergeProper(src, pts)
	for i := range pts {
		p := &pts[i]
		if p.kind == KindWord && p.slot == "" {
			p.neg = isNegation(p.text)
			p.role = rolePreps[p.text]
		}
		if p.slot != "" || p.stop {
			continue
		}
		if p.kind == KindWord {
			p.tris = appendTrigrams(nil, p.text)
			p.stris = p.tris
		}
		if len(p.concepts) > 0 {
			id := p.concepts[0].id
			for _, c := range p.concepts {
				if !c.weak {
					id = c.id
					break
				}
			}
			p.stris = appendTrigrams(nil, "@"+id)
		}
	}
	return pts
}

// sentenceStart reports whether token i begins a sentence of src.
func sentenceStart(src string, pts []ptok, i int) bool {
	if i == 0 {
		return true
	}
	a, b := pts[i-1].end, pts[i].start
	if a < 0 || b > len(src) || a > b {
		return false
	}
	return strings.ContainsAny(src[a:b], ".!?\n:;")
}

func capitalised(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// markProper marks proper-noun-like words (see Understand). Capitals
// mean nothing in title case (two or more capitalised stopwords or
// vocabulary words after the first word of a sentence) or in all caps.
func markProper(src string, pts []ptok) {
	common, words, upper := 0, 0, 0
	for i := range pts {
		p := &pts[i]
		if p.kind != KindWord || p.slot != "" || p.proper {
			continue
		}
		words++
		if strings.ToUpper(p.orig) == p.orig && strings.ToLower(p.orig) != p.orig {
			upper++
		}
		if (p.stop || len(p.concepts) > 0) && capitalised(p.orig) && !sentenceStart(src, pts, i) {
			common++
		}
	}
	if common >= 2 || (words >= 2 && upper == words) {
		return
	}
	for i := range pts {
		p := &pts[i]
		if p.kind != KindWord || p.slot != "" || p.proper || p.stop || len(p.concepts) > 0 {
			continue
		}
		if p.text == "i" || !capitalised(p.orig) || sentenceStart(src, pts, i) {
			continue
		}
		p.proper = true
	}
}

// mergeProper joins runs of proper-noun words separated by spaces only.
func mergeProper(src string, pts []ptok) []ptok {
	out := pts[:0]
	for i := 0; i < len(pts); i++ {
		p := pts[i]
		if p.proper && !isAddress(p.text) {
			for i+1 < len(pts) && pts[i+1].proper && !isAddress(pts[i+1].text) && onlySpaces(src, p.end, pts[i+1].start) {
				p.end = pts[i+1].end
				i++
			}
			p.orig = src[p.start:p.end]
			p.text = normText(p.orig)
			p.stem = p.text
			if !strings.Contains(p.text, " ") {
				p.stem = stemWord(p.text)
			}
		}
		out = append(out, p)
	}
	return out
}

func onlySpaces(src string, a, b int) bool {
	if a > b || b > len(src) {
		return false
	}
	return strings.TrimSpace(src[a:b]) == ""
}

// quotedStems returns the stem of a quoted text: that of its word when it
// is one word ("'recipes'" matches "recipes"), else the text itself, with
// the stems of its words when it has two or more.
func quotedStems(text string) (stem string, words []string) {
	toks := Tokenize(text)
	if len(toks) == 1 && toks[0].Kind == KindWord && toks[0].Text == text {
		return stemWord(text), nil
	}
	if len(toks) < 2 {
		return text, nil
	}
	for _, t := range toks {
		if t.Kind == KindWord {
			words = append(words, stemWord(t.Text))
		} else {
			words = append(words, t.Text)
		}
	}
	return text, words
}

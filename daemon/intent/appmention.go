// App mentions: "in the Planner app", "on the doc box" name the app
// a command is for, which app identification already used. They are not
// part of what the command asks the app to do, so neither side needs the
// other's: "turn off auto sync in the planner" against "disable auto
// sync", "show 3 tiles per row" against "display 3 tiles per row in the
// Mosaic app".

package intent

import (
	"slices"
	"strings"
)

var (
	mentionPreps = setOf("in", "on", "from", "of", "inside", "within", "using", "with", "for", "to", "into")
	mentionDets  = setOf("the", "my", "your", "this")
	appNouns     = setOf("app", "application")
)

// appMentions returns the byte ranges of text that mention the app
// labelled label: a preposition, maybe a determiner, the label, maybe
// "app" ("in the Planner app", "on my doc box"), or the label followed
// by "app" ("the Jotter app: …"). The label is matched by its words, or
// by their concatenation ("docbox" for "Doc Box", "doc box" for
// "Docbox"), case folded. A label alone without
// such a frame is no mention: "jotter light theme" may be about jotters.
// Quoted text is never one. Nil when label is empty or not mentioned.
func appMentions(text, label string) [][2]int {
	toks := Tokenize(text)
	word := func(i int) string {
		if i < 0 || i >= len(toks) || toks[i].Kind != KindWord {
			return ""
		}
		return toks[i].Text
	}
	var out [][2]int
	for _, run := range labelRuns(toks, label) {
		a, b := run.start, run.end
		framed := run.app // "… app"
		if mentionDets[word(a-1)] {
			a--
		}
		if mentionPreps[word(a-1)] {
			a--
			framed = true
		}
		if framed {
			out = append(out, [2]int{toks[a].Start, toks[b-1].End})
		}
	}
	return out
}

// labelRun is a run of word tokens [start, end) that spell an app's label,
// with the "app" that follows it (app) when there is one.
type labelRun struct {
	start, end int
	app        bool
}

// labelRuns returns the runs of toks that spell label (its words, or their
// concatenation, case folded), each with a following "app", left to right
// and not overlapping; nil when label has no words.
func labelRuns(toks []Token, label string) []labelRun {
	want := strings.Join(labelWords(label), "")
	if want == "" {
		return nil
	}
	var out []labelRun
	for i := 0; i < len(toks); i++ {
		n := labelAt(toks, i, want)
		if n == 0 {
			continue
		}
		r := labelRun{start: i, end: i + n}
		if r.end < len(toks) && toks[r.end].Kind == KindWord && appNouns[toks[r.end].Text] {
			r.end, r.app = r.end+1, true
		}
		out = append(out, r)
		i = r.end - 1
	}
	return out
}

// markMentions flags the tokens of pts inside a mention of the app
// labelled label (appMentions) as optional: matched, they count like any
// word; unmatched, they are neither an extra requirement nor a word left
// out ("turn off auto sync in the planner" against "disable auto
// sync").
func markMentions(src string, pts []ptok, label string) {
	for _, r := range appMentions(src, label) {
		for i := range pts {
			if pts[i].start >= r[0] && pts[i].end <= r[1] {
				pts[i].optional = true
			}
		}
	}
}

// labelAt returns how many word tokens from i spell want (the label's
// words concatenated), 0 when they do not; at most four words.
func labelAt(toks []Token, i int, want string) int {
	got := ""
	for k := i; k < len(toks) && k < i+4; k++ {
		if toks[k].Kind != KindWord {
			return 0
		}
		got += toks[k].Text
		switch {
		case got == want:
			return k - i + 1
		case !strings.HasPrefix(want, got):
			return 0
		}
	}
	return 0
}

// labelWords returns the lower-case words of an app label.
func labelWords(label string) []string {
	var out []string
	for _, t := range Tokenize(label) {
		if t.Kind == KindWord && !slices.Contains([]string{"app", "application"}, t.Text) {
			out = append(out, t.Text)
		}
	}
	return out
}

// AppNamed returns the byte ranges of text whose words spell the app
// label (its words, or their concatenation, case folded), with an "app"
// after them, framed by a preposition or not: "book shelf deep blue
// palette" names the app labelled "Bookshelf". The matcher needs the
// frame (a label alone may be a word of the command: "jotter light
// theme" may be about jotters); a rule that already knows which element
// of the app a command asks for (the engine's option anchors) does not.
// Quoted text is never a mention. Nil when label is empty.
func AppNamed(text, label string) [][2]int {
	toks := Tokenize(text)
	var out [][2]int
	for _, r := range labelRuns(toks, label) {
		out = append(out, [2]int{toks[r.start].Start, toks[r.end-1].End})
	}
	return out
}

// WithoutMentions returns text without its mentions of the app labelled
// label (appMentions: "in the Planner app", "the Jotter app:"), white
// space collapsed; text itself when there is none. A sentence-embedding
// model reads such a mention as part of the meaning ("open the help of the
// Planner app" is far from "check the help" for it, and close once the
// mention is gone), while the app is already chosen.
func WithoutMentions(text, label string) string {
	spans := appMentions(text, label)
	if len(spans) == 0 {
		return text
	}
	toks := Tokenize(text)
	var b strings.Builder
	last := 0
	for _, s := range spans {
		if modifies(text, toks, s) {
			continue // "go to the Planner tab": a feature named after the app
		}
		b.WriteString(text[last:s[0]])
		b.WriteByte(' ')
		last = s[1]
	}
	b.WriteString(text[last:])
	out := strings.Join(strings.Fields(b.String()), " ")
	out = strings.TrimLeft(out, ":;,. ")
	if out == "" {
		return text
	}
	return out
}

// modifies reports whether the mention span of text (toks, its tokens)
// names the app as a modifier of the next word, a content word ("the
// Planner tab"), rather than as the app ("in the Planner app", "… in Planner,
// then …").
func modifies(text string, toks []Token, span [2]int) bool {
	if w := strings.ToLower(text[span[0]:span[1]]); strings.HasSuffix(w, "app") || strings.HasSuffix(w, "application") {
		return false
	}
	for _, t := range toks {
		if t.Start < span[1] {
			continue
		}
		if strings.TrimSpace(text[span[1]:t.Start]) != "" {
			return false // punctuation between: the mention ends there
		}
		return t.Kind == KindWord && !IsStopword(t.Text)
	}
	return false
}

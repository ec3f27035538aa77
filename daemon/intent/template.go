package intent

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TypedText is a text the agent typed while carrying out a command, with
// the label of the field it went into ("" when unknown).
type TypedText struct {
	Text       string `json:"text"`
	FieldLabel string `json:"field_label,omitempty"`
}

// Template turns a command that succeeded, plus the texts the agent typed
// while carrying it out, into an intent template with named slots; see
// TemplateWithLabels.
func Template(cmd string, typed []string) (intent string, slots []knowledge.Slot) {
	tt := make([]TypedText, len(typed))
	for i, t := range typed {
		tt[i] = TypedText{Text: t}
	}
	return TemplateWithLabels(cmd, tt)
}

// slotNameFor maps a word right before a value to a slot name.
var namingWords = map[string]string{
	"called": "name", "named": "name", "name": "name",
	"titled": "title", "title": "title",
	"saying": "text", "says": "text", "say": "text", "text": "text", "reading": "text",
}

// TemplateWithLabels turns a successful command into an intent template
// ("send {text} to {name}") and its slots. Each typed text that occurs in
// the command (case-insensitively, as a whole quoted string or at word
// boundaries) becomes a slot whose Example is the typed text; the quote
// marks around it go too. Typed text that is not in the command is a
// literal of the flow, not a slot. The same text typed twice is one slot.
//
// Slot names, in order of preference: the field label (lower case, runs
// of non-letters as "_"); "time", "date" or "number" for such values; the
// naming word before the value ("called" → name, "titled" → title,
// "saying" → text); the nearest content word before it within two words
// ("note 'milk'" → note); "query" after a search verb; "name" for a
// proper-noun-like value; else "text". Repeated names get "_2", "_3".
// The literal parts of the template keep their case (a capitalised name
// left in a flow stays recognisable as a value); white space is collapsed
// and final punctuation dropped.
func TemplateWithLabels(cmd string, typed []TypedText) (intent string, slots []knowledge.Slot) {
	pts := analyze(cmd)
	type hole struct {
		a, b int // byte span in cmd replaced by the placeholder
		name string
		ex   string
	}
	var holes []hole
	overlaps := func(a, b int) bool {
		for _, h := range holes {
			if a < h.b && h.a < b {
				return true
			}
		}
		return false
	}
	names := map[string]bool{}
	for _, tt := range typed {
		text := strings.TrimSpace(tt.Text)
		text = strings.TrimFunc(text, func(r rune) bool { return isQuoteRune(r) || unicode.IsSpace(r) })
		if text == "" {
			continue
		}
		if slices.ContainsFunc(holes, func(h hole) bool { return strings.EqualFold(h.ex, text) }) {
			continue
		}
		a, b, ok := findTyped(cmd, pts, text, overlaps)
		if !ok {
			continue
		}
		// widen over the quote marks
		oa, ob := a, b
		if oa > 0 && ob < len(cmd) {
			r1, s1 := utf8.DecodeLastRuneInString(cmd[:oa])
			r2, s2 := utf8.DecodeRuneInString(cmd[ob:])
			if isQuoteRune(r1) && isQuoteRune(r2) {
				oa, ob = oa-s1, ob+s2
			}
		}
		name := slotName(tt.FieldLabel, text, cmd, pts, a)
		base := name
		for k := 2; names[name]; k++ {
			name = base + "_" + strconv.Itoa(k)
		}
		names[name] = true
		holes = append(holes, hole{a: oa, b: ob, name: name, ex: text})
	}
	slices.SortFunc(holes, func(x, y hole) int { return x.a - y.a })
	var b strings.Builder
	prev := 0
	for _, h := range holes {
		b.WriteString(cmd[prev:h.a])
		b.WriteString("{" + h.name + "}")
		prev = h.b
		slots = append(slots, knowledge.Slot{Name: h.name, Example: h.ex})
	}
	b.WriteString(cmd[prev:])
	intent = strings.Join(strings.Fields(b.String()), " ")
	intent = strings.TrimRight(intent, ".!?;, ")
	return intent, slots
}

// findTyped locates typed text in cmd: a quoted or value token equal to
// it, else a case-insensitive occurrence at word boundaries not
// overlapping earlier slots.
func findTyped(cmd string, pts []ptok, text string, overlaps func(a, b int) bool) (int, int, bool) {
	for _, p := range pts {
		if p.isValue() && strings.EqualFold(p.orig, text) && !overlaps(p.start, p.end) {
			return p.start, p.end, true
		}
	}
	ok := func(i int) bool {
		n := len(text)
		if alnumEdge(text, true) && alnumBefore(cmd, i) || alnumEdge(text, false) && isAlnumAt(cmd, i+n) {
			return false
		}
		return !overlaps(i, i+n)
	}
	lc, lt := strings.ToLower(cmd), strings.ToLower(text)
	if len(lc) == len(cmd) && len(lt) == len(text) {
		// lower-casing kept byte offsets: search the lower-case copies
		for from := 0; from+len(lt) <= len(lc); {
			k := strings.Index(lc[from:], lt)
			if k < 0 {
				break
			}
			if i := from + k; ok(i) {
				return i, i + len(text), true
			}
			_, sz := utf8.DecodeRuneInString(lc[from+k:])
			from += k + sz
		}
		return 0, 0, false
	}
	n := len(text)
	for i := 0; i+n <= len(cmd); i++ {
		if utf8.RuneStart(cmd[i]) && strings.EqualFold(cmd[i:i+n], text) && ok(i) {
			return i, i + n, true
		}
	}
	return 0, 0, false
}

// alnumEdge reports whether text starts (first) or ends with a letter or digit.
func alnumEdge(text string, first bool) bool {
	var r rune
	if first {
		r, _ = utf8.DecodeRuneInString(text)
	} else {
		r, _ = utf8.DecodeLastRuneInString(text)
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// slotName names the slot for typed text found at byte a of cmd.
func slotName(label, text, cmd string, pts []ptok, a int) string {
	if n := labelName(label); n != "" {
		return n
	}
	if vt := analyze(text); len(vt) == 1 {
		switch vt[0].kind {
		case KindTime:
			return "time"
		case KindDate:
			return "date"
		case KindNumber:
			return "number"
		}
	}
	// tokens before the value
	k := -1
	for i := range pts {
		if pts[i].end <= a {
			k = i
		}
	}
	if k >= 0 {
		if n, ok := namingWords[pts[k].text]; ok {
			return n
		}
	}
	for i := k; i >= 0 && i > k-3; i-- {
		if slices.ContainsFunc(pts[i].concepts, func(c cmem) bool { return c.id == "search" }) {
			return "query"
		}
	}
	for steps := 0; k >= 0 && steps < 3; k, steps = k-1, steps+1 {
		p := &pts[k]
		if p.isValue() || p.hasAction() {
			break
		}
		if p.stop {
			continue
		}
		if p.kind == KindWord {
			if n := labelName(p.text); n != "" {
				return n
			}
		}
		break
	}
	if vt := analyze("x " + text); len(vt) > 1 && vt[1].proper {
		return "name"
	}
	return "text"
}

// labelName normalises a field label into a slot name: lower case, runs
// of other characters as one "_"; "" when nothing but stopwords is left.
func labelName(label string) string {
	var b strings.Builder
	us := false
	content := false
	for _, w := range strings.FieldsFunc(strings.ToLower(label), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !isStopword(w) {
			content = true
		}
		if us {
			b.WriteByte('_')
		}
		b.WriteString(w)
		us = true
	}
	if !content {
		return ""
	}
	return b.String()
}

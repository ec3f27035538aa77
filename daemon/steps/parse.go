// Package steps follows procedural input (PromptRPA §4.1): steps the owner
// pasted from a web tutorial or a friend's message. Parse turns the text
// into formalised instructions (PromptRPA Table 1: operation, parameter,
// object description) without a model; ParseLLM does it with one, through
// a schema'd reply. Planner follows the instructions on the phone as a
// daemon.Planner: it grounds each on the current screen (strict, then
// synonym matching of the object words), through the UI transition graph
// when the target is elsewhere, skips instructions the phone does not need,
// falls back to planning for the goal when an instruction does not fit this
// phone (outdated wording, a missing step), and asks the owner when it
// cannot ground one. The engine runs it, so every action still goes through
// daemon.Engine, and a success is learned as a flow named by the goal.
package steps

import (
	"regexp"
	"strings"
	"unicode"
)

// Operations of an instruction (PromptRPA Table 1, with its switch split
// into on and off).
const (
	OpOpen   = "open" // open an app or a screen: tap its entry, or nothing when already there
	OpTap    = "tap"  // click / select / choose / press
	OpLong   = "long_press"
	OpOn     = "turn_on"  // switch a toggle on
	OpOff    = "turn_off" // switch a toggle off
	OpInput  = "input"    // type Value into Target
	OpScroll = "scroll"   // Value down|up
	OpBack   = "back"
	OpHome   = "home"
)

// Instruction is one formalised step. Target is the object description
// (the words of the widget or page), Value the parameter (text to type,
// scroll direction, app name for open).
type Instruction struct {
	Text   string `json:"text"`
	Op     string `json:"op"`
	Target string `json:"target,omitempty"`
	Value  string `json:"value,omitempty"`
	// Alt is another description of the target the text gave, e.g. the
	// label in "the overflow menu (More options)".
	Alt string `json:"alt,omitempty"`
}

// MaxInstructions bounds a parsed procedure; longer texts are cut (a
// tutorial of more steps than the engine's step limit cannot be followed).
const MaxInstructions = 40

var (
	// a list marker at the start of a line: "1.", "1)", "(1)", "Step 1:",
	// "-", "*", "•", "–"
	reMarker = regexp.MustCompile(`(?i)^\s*(?:(?:step\s*)?\(?\d{1,2}[.):]\)?|[-*•·–—>]|\d{1,2}\s*-)\s*`)
	// sentence ends: ". " "! " "; " followed by a capital or a digit
	reSentence = regexp.MustCompile(`([.!;])\s+`)
	// ", then", " then ", " and then ", " > " (menu paths), " → "
	reThen = regexp.MustCompile(`(?i)\s*(?:,\s*(?:and\s+)?then\s+|\s+and\s+then\s+|;\s*then\s+|\s+then\s+|\s*>\s*|\s*→\s*|\s*->\s*)`)
)

// Split cuts a procedure into instruction texts: one per list item (numbered
// or bulleted lines), else one per sentence, and within each, parts joined
// by "then" or a menu path "Settings > Display". Empty parts and lines
// without a letter are dropped.
func Split(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var items []string
	lines := strings.Split(text, "\n")
	listed := 0
	for _, l := range lines {
		if reMarker.MatchString(l) && strings.TrimSpace(reMarker.ReplaceAllString(l, "")) != "" {
			listed++
		}
	}
	if listed >= 2 {
		// list items; a line without a marker continues the item above,
		// and lines before the first item are a heading or an intro
		for _, l := range lines {
			t := strings.TrimSpace(l)
			if t == "" || (len(items) == 0 && !reMarker.MatchString(l)) {
				continue
			}
			if reMarker.MatchString(l) {
				items = append(items, strings.TrimSpace(reMarker.ReplaceAllString(l, "")))
			} else {
				items[len(items)-1] += " " + t
			}
		}
	} else {
		items = []string{reMarker.ReplaceAllString(strings.Join(strings.Fields(text), " "), "")}
	}
	var out []string
	for _, it := range items {
		for _, s := range sentences(it) {
			for _, p := range reThen.Split(s, -1) {
				for _, p := range splitAnd(p) {
					p = reMarker.ReplaceAllString(strings.TrimSpace(p), "")
					p = strings.TrimSpace(strings.Trim(strings.TrimSpace(p), ".,;:!"))
					p = dropContext(p)
					if p != "" && strings.IndexFunc(p, unicode.IsLetter) >= 0 {
						out = append(out, p)
					}
				}
			}
		}
	}
	if len(out) > MaxInstructions {
		out = out[:MaxInstructions]
	}
	return out
}

// startsWithVerb reports whether s begins with an operation word.
func startsWithVerb(s string) bool {
	low := strings.ToLower(strings.TrimSpace(s))
	for _, v := range verbs {
		for _, w := range v.words {
			if low == w || strings.HasPrefix(low, w+" ") {
				return true
			}
		}
	}
	return false
}

// splitAnd splits "Go to Settings and turn on X" at each "and" followed
// by an operation word, and at each ", " followed by one when the part
// before it starts with one too, outside quotes.
func splitAnd(s string) []string {
	var out []string
	for {
		cut, width := -1, 0
		low := strings.ToLower(s)
		for _, sep := range []string{" and ", ", "} {
			for from := 0; from < len(low); {
				i := strings.Index(low[from:], sep)
				if i < 0 {
					break
				}
				i += from
				// ", choose" needs an instruction before it; "X and choose" does not
				if (cut < 0 || i < cut) && strings.Count(s[:i], `"`)%2 == 0 && startsWithVerb(s[i+len(sep):]) && (sep == " and " || startsWithVerb(s[:i])) {
					cut, width = i, len(sep)
					break
				}
				from = i + len(sep)
			}
		}
		if cut < 0 {
			return append(out, s)
		}
		out = append(out, s[:cut])
		s = s[cut+width:]
	}
}

// dropContext removes a leading clause that only sets the scene, "In the
// gallery, open DCIM" -> "open DCIM".
func dropContext(s string) string {
	if i := strings.Index(s, ", "); i > 0 && !startsWithVerb(s) && startsWithVerb(s[i+2:]) {
		return strings.TrimSpace(s[i+2:])
	}
	return s
}

// sentences splits s at sentence ends, keeping quoted text and
// abbreviations such as "e.g." whole.
func sentences(s string) []string {
	var out []string
	start := 0
	for _, m := range reSentence.FindAllStringSubmatchIndex(s, -1) {
		end := m[1]
		part := s[start:m[0]]
		if strings.Count(part, `"`)%2 == 1 || strings.HasSuffix(strings.ToLower(part), "e.g") || strings.HasSuffix(strings.ToLower(part), "i.e") {
			continue
		}
		out = append(out, part)
		start = end
	}
	return append(out, s[start:])
}

// verbs map leading words to operations, longest first within each op.
var verbs = []struct {
	op    string
	words []string
}{
	{OpOn, []string{"turn on", "switch on", "toggle on", "enable", "activate", "check the box", "tick"}},
	{OpOff, []string{"turn off", "switch off", "toggle off", "disable", "deactivate", "uncheck", "untick"}},
	{OpInput, []string{"type in", "type", "enter", "input", "write", "fill in", "key in", "put"}},
	{OpLong, []string{"long press", "long-press", "press and hold", "tap and hold", "long tap"}},
	{OpScroll, []string{"scroll down", "scroll up", "scroll", "swipe up", "swipe down"}},
	{OpBack, []string{"go back", "press back", "tap back", "navigate back", "back"}},
	{OpHome, []string{"go home", "press home", "go to the home screen", "return to the home screen"}},
	{OpOpen, []string{"open up", "open", "launch", "start", "go to", "go into", "navigate to", "head to", "head over to", "visit", "find"}},
	{OpTap, []string{"tap on", "tap", "click on", "click", "press", "hit", "touch", "select", "choose", "pick"}},
}

// fillers are words around the object that name its kind, not it.
var fillers = map[string]bool{"the": true, "a": true, "an": true, "your": true, "button": true, "option": true, "options": true,
	"menu": true, "tab": true, "icon": true, "toggle": true, "switch": true, "field": true, "box": true, "checkbox": true,
	"item": true, "entry": true, "folder": true, "link": true, "section": true, "page": true, "app": true, "application": true, "labeled": true,
	"labelled": true, "called": true, "named": true, "there": true, "now": true, "then": true, "finally": true, "next": true, "on": true}

var reParen = regexp.MustCompile(`\(([^()]{1,60})\)`)

var reQuoted = regexp.MustCompile(`["“”']([^"“”']{1,80})["“”']`)

// Normalise formalises one instruction text.
func Normalise(text string) Instruction {
	in := Instruction{Text: strings.TrimSpace(text), Op: OpTap}
	low := strings.ToLower(in.Text)
	// leading politeness and sequencing words
	for _, p := range []string{"please ", "first, ", "first ", "next, ", "next ", "now, ", "now ", "then, ", "then ", "finally, ", "finally ", "and ", "just "} {
		if strings.HasPrefix(low, p) {
			low = low[len(p):]
		}
	}
	rest := low
	found := false
	for _, v := range verbs {
		for _, w := range v.words {
			if rest == w || strings.HasPrefix(rest, w+" ") {
				in.Op, rest, found = v.op, strings.TrimSpace(rest[len(w):]), true
				if v.op == OpScroll {
					in.Value = "down"
					if strings.Contains(w, "up") {
						in.Value = "up"
					}
				}
				break
			}
		}
		if found {
			break
		}
	}
	// original-case remainder, for values and targets
	orig := rest
	if n := len(in.Text) - len(rest); n >= 0 && strings.EqualFold(in.Text[n:], rest) {
		orig = in.Text[n:]
	}
	switch in.Op {
	case OpInput:
		// type VALUE in|into TARGET; type your name in "Name"
		val, target := orig, ""
		for _, sep := range []string{" into ", " in the ", " in ", " as ", " for "} {
			if i := strings.Index(strings.ToLower(orig), sep); i >= 0 {
				val, target = orig[:i], orig[i+len(sep):]
				break
			}
		}
		if m := reQuoted.FindStringSubmatch(val); m != nil {
			val = m[1]
		}
		in.Value, in.Target = strings.TrimSpace(val), cleanTarget(target)
	case OpScroll:
		// "scroll down to Dark theme": the target is what to look for
		t := orig
		for _, p := range []string{"down", "up", " ", "to ", "until you see "} {
			if len(t) >= len(p) && strings.EqualFold(t[:len(p)], p) {
				t = t[len(p):]
			}
		}
		in.Target = cleanTarget(t)
	case OpBack, OpHome:
	default:
		// "on X" after "turn on", "X to on", "Dark theme on"
		t := orig
		lt := strings.ToLower(t)
		for _, suf := range []string{" to on", " to off", " on", " off"} {
			if strings.HasSuffix(lt, suf) && !found {
				if strings.Contains(suf, "off") {
					in.Op = OpOff
				} else {
					in.Op = OpOn
				}
				t = t[:len(t)-len(suf)]
				break
			}
		}
		if m := reParen.FindStringSubmatch(t); m != nil {
			in.Alt = cleanTarget(m[1])
		}
		in.Target = cleanTarget(t)
	}
	return in
}

// cleanTarget strips quotes, articles and widget-kind words around the
// object description, keeping its own words and case.
func cleanTarget(t string) string {
	t = strings.TrimSpace(t)
	if m := reQuoted.FindStringSubmatch(t); m != nil {
		return strings.TrimSpace(m[1])
	}
	// cut trailing clauses: "Display to change the theme", "Save at the top"
	for _, sep := range []string{" to ", " at the ", " in the ", " on the ", " from the ", " under ", " below ", " which ", " that ", " so ", " (", ","} {
		if i := strings.Index(strings.ToLower(t), sep); i > 0 {
			t = t[:i]
		}
	}
	words := strings.Fields(t)
	for len(words) > 1 && fillers[strings.ToLower(words[0])] {
		words = words[1:]
	}
	for len(words) > 1 && fillers[strings.ToLower(words[len(words)-1])] {
		words = words[:len(words)-1]
	}
	return strings.Trim(strings.Join(words, " "), ".,;:!\"'“”")
}

// Parse splits text and formalises each part (the rule-based parser).
func Parse(text string) []Instruction {
	parts := Split(text)
	out := make([]Instruction, 0, len(parts))
	for _, p := range parts {
		in := Normalise(p)
		if in.Target == "" && in.Op != OpBack && in.Op != OpHome && in.Op != OpScroll && in.Op != OpInput {
			continue // "Done!" or "That's it": nothing to ground
		}
		out = append(out, in)
	}
	return out
}

// Package safety owns Wayfinder's one sensitive-action policy: which
// actions on a phone are consequential (they delete, send, pay, call,
// change an account or type over text the owner wrote), whether the
// owner's command asks for them, and what the engine must do about an
// action before it happens — act, ask the owner, or refuse.
//
// Every action the engine performs passes Decide, whoever chose it (graph
// planner, LLM planner, replay, repair, recovery) and whichever transport
// started the run (CLI, websocket, bridge, shortcut). The package is pure:
// it reads element descriptions and command text and must not touch the
// device, the store or any model. Screen text is data here too: it can make
// an element sensitive (a dialog saying "Delete 3 items?"), never less so.
package safety

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

// Category is the kind of consequence an action has.
type Category string

// The categories. An action can have several ("Delete account").
const (
	Destroy Category = "delete"  // data is deleted, reset or uninstalled
	Send    Category = "send"    // something leaves the phone: message, post, share, upload
	Money   Category = "pay"     // money is spent or moved
	Call    Category = "call"    // a call is placed
	Account Category = "account" // sign-out, blocking, reporting, security settings
	// Overwrite: typing replaces text the owner wrote (a note's body);
	// device input sets a field's whole text, it does not append.
	Overwrite Category = "overwrite"
)

// Target is an element about to be acted on, in its context.
type Target struct {
	Action      string   // device action type: tap, long_press, ime_enter, ...
	Label       string   // the element's text (or merged label)
	ContentDesc string   // its content-desc
	ResourceID  string   // its resource-id ("com.app:id/btn_delete")
	Dialog      []string // when the element sits in a dialog: the dialog's other texts (title, message)
	// Toggle: the element is, or holds, a switch or checkbox. Its label
	// names a setting ("Send large photos as links"), and flipping a
	// setting is not itself deleting, sending, paying or calling.
	Toggle bool
	// Beside: for Enter in a field (ime_enter), the labels (else
	// resource-id words) of the screen's buttons: a Send button beside
	// the field makes Enter a send.
	Beside []string
	// Next: the texts (labels, content-descs) of the screens the UI
	// transition graph says this action has led to before, when known. An
	// ongoing call's controls among them ("Hang up") make it a call: a
	// row of a call log calls back when tapped, and nothing on it says so.
	Next []string
	// Replaces: for typing ("input"), the length in characters of the
	// text the field holds when it is a document's body (screen.IsBody):
	// typing replaces it. 0 for any other field (a search box, a form
	// field, an empty or hint-only body). The text itself stays out of
	// the policy and of the verdict.
	Replaces int
}

// Verdict says whether an action is sensitive, and why.
type Verdict struct {
	Sensitive  bool       `json:"sensitive"`
	Categories []Category `json:"categories,omitempty"`
	// Why quotes the words that made it sensitive: `label "Delete"`,
	// `confirms dialog "Delete 3 items?"`.
	Why string `json:"why,omitempty"`
}

// actsOn lists the action types that activate an element; typing text and
// scrolling do not by themselves delete, send or pay.
var actsOn = map[string]bool{"tap": true, "long_press": true, "ime_enter": true, "ensure_on": true, "ensure_off": true}

// Activates reports whether the action activates t's element (a tap, a
// long press, Enter) on something that is no switch or checkbox: only such
// an action can delete, send, pay or call by the element's words or by
// where it leads (Target.Next).
func (t Target) Activates() bool { return actsOn[t.Action] && !t.Toggle }

// Classify tells whether acting on t is sensitive. It looks at the label,
// the content-desc and the words of the resource-id, and, for an accepting
// button of a dialog ("OK", "Yes", "Confirm" and their translations), at
// what the dialog asks.
//
// Typing into a document's body that holds text (Target.Replaces) is an
// Overwrite, whatever the field is called.
func Classify(t Target) Verdict {
	if t.Action == "input" && t.Replaces > 0 {
		return Verdict{Sensitive: true, Categories: []Category{Overwrite},
			Why: fmt.Sprintf("typing replaces the %d characters of text the field holds", t.Replaces)}
	}
	if !t.Activates() {
		return Verdict{}
	}
	label := strings.TrimSpace(firstNonEmpty(t.Label, t.ContentDesc))
	if label != "" && isOneOf(label, safeWords) {
		return Verdict{}
	}
	cats := map[Category]bool{}
	var why []string
	fields := []struct{ name, text string }{{"label", t.Label}, {"content-desc", t.ContentDesc}}
	if label == "" {
		// an unlabelled icon: its resource-id is all that says what it does
		// (ids of labelled views name the view, "speed_dial_label")
		fields = append(fields, struct{ name, text string }{"resource-id", IDWords(t.ResourceID)})
	}
	for _, f := range fields {
		if c := actionCategories(actionPart(f.text)); len(c) > 0 {
			for _, k := range c {
				cats[k] = true
			}
			why = append(why, fmt.Sprintf("%s %q", f.name, clip(f.text)))
		}
	}
	if t.Action == "tap" && PhoneNumber(label) {
		// a contact's or a call log's number row places a call when
		// tapped; nothing on it says so
		cats[Call] = true
		why = append(why, fmt.Sprintf("label %q is a phone number", clip(label)))
	}
	if n := inCall(t.Next); n != "" {
		cats[Call] = true
		why = append(why, fmt.Sprintf("leads to a call in progress (UI graph: %q)", clip(n)))
	}
	if len(t.Dialog) > 0 && label != "" && isOneOf(label, confirmWords) {
		for _, d := range t.Dialog {
			if c := actionCategories(d); len(c) > 0 {
				for _, k := range c {
					cats[k] = true
				}
				why = append(why, fmt.Sprintf("confirms dialog %q", clip(d)))
				break
			}
		}
	}
	if len(cats) == 0 && t.Action == "ime_enter" && !isSearchField(t) {
		// Enter submits what the field holds: where the screen also has a
		// Send button (a compose field), that is sending it
		for _, b := range t.Beside {
			if c := actionCategories(actionPart(b)); len(c) > 0 && contains(c, Send) {
				cats[Send] = true
				why = append(why, fmt.Sprintf("Enter in %q, beside %q", clip(label), clip(b)))
				break
			}
		}
	}
	if len(cats) == 0 {
		return Verdict{}
	}
	return Verdict{Sensitive: true, Categories: sorted(cats), Why: strings.Join(why, ", ")}
}

// PhoneNumber reports whether label is a row whose first text (before
// " · ", the separator of a row's texts) is shaped like a phone number
// and whose other texts say more of it ("555 0100 · Mobile"): 3 to 15
// digits (the numbering plan's most, ITU-T E.164 §6) with nothing else
// than spaces, "+", "-", "(" and ")" between them. A lone number is a
// field's value or an amount far more often (a width "1920", a level
// "4.5"), and a date, a time of day or a quantity has other signs.
func PhoneNumber(label string) bool {
	head, rest, ok := strings.Cut(label, " · ")
	if !ok || strings.TrimSpace(rest) == "" {
		return false
	}
	digits := 0
	for _, r := range strings.TrimSpace(head) {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == ' ' || r == '+' || r == '-' || r == '(' || r == ')':
		default:
			return false
		}
	}
	return digits >= 3 && digits <= 15
}

// inCall returns the first of texts that labels an ongoing call's
// control (inCallWords), "" for none.
func inCall(texts []string) string {
	for _, x := range texts {
		if x != "" && isOneOf(x, inCallWords) {
			return x
		}
	}
	return ""
}

// searchWords mark a search or filter field: Enter there searches.
var searchWords = []string{"search", "find", "query", "filter", "buscar", "rechercher", "suchen", "pesquisar", "搜索", "検索"}

// isSearchField reports whether the field t names is a search field.
func isSearchField(t Target) bool {
	text := fold(t.Label + " " + t.ContentDesc + " " + IDWords(t.ResourceID))
	for _, w := range searchWords {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// Implied returns the categories the owner's command asks for: "delete the
// note" asks to delete, "text Dora I'm late" to send, "call Mom" to call.
// A category counts when the command names it as written and still with
// the words after its determiners blanked (withoutDetermined): the second
// reading only ever takes one away.
func Implied(command string) []Category {
	asked := asks(withoutDetermined(command))
	var out []Category
	for _, c := range asks(command) {
		if contains(asked, c) {
			out = append(out, c)
		}
	}
	return out
}

// asks returns the categories text names: its action words and its
// command words, in any of the languages, sorted.
func asks(text string) []Category {
	cats := map[Category]bool{}
	for _, c := range actionCategories(text) {
		cats[c] = true
	}
	for _, c := range append(categoriesOf(text, commandWords, true), categoriesOf(text, commandWordsIntl, false)...) {
		cats[c] = true
	}
	return sorted(cats)
}

// determiners make the word after them a noun: "my phone" is the device,
// "the text" a message, "your call" one being made — none of them asks
// for a call or a message to be sent. Not "a": "give Ezra a call" asks
// for one; nor "that", which also joins a message to its verb ("text Ezra
// that …").
var determiners = map[string]bool{"my": true, "the": true, "this": true, "these": true, "your": true, "our": true, "his": true, "her": true, "their": true}

// nounMark stands for a blanked word: letters, so that it keeps its place
// between its neighbours, and in no vocabulary.
const nounMark = "noun"

// withoutDetermined returns command's words (tokens) with each word that
// follows a determiner blanked out, for Implied: "how much storage does my
// phone have" asks for no call, "delete the text" for no sending. A
// command asks by its verbs; blanking a noun only ever asks for less.
func withoutDetermined(command string) string {
	toks := tokens(command)
	for i := len(toks) - 1; i > 0; i-- {
		if determiners[toks[i-1]] {
			toks[i] = nounMark // a word still: "erase the call history" keeps "erase" apart from "history"
		}
	}
	return strings.Join(toks, " ")
}

// Requested reports whether command asks for every consequence v has. A
// sensitive action that the command does not ask for is refused whatever
// chose it: screen text and model replies cannot widen what the owner
// asked.
func Requested(command string, v Verdict) bool {
	if !v.Sensitive {
		return true
	}
	have := map[Category]bool{}
	for _, c := range Implied(command) {
		have[c] = true
	}
	for _, c := range v.Categories {
		if !have[c] {
			return false
		}
	}
	return true
}

// Decision is what happens to an action.
type Decision string

// The decisions of Decide.
const (
	Act     Decision = "act"     // not sensitive, or the owner allowed it
	Confirm Decision = "confirm" // sensitive and asked for: the owner confirms first
	Refuse  Decision = "refuse"  // sensitive and not asked for: never performed
)

// Policy is the owner's standing answer for the run.
type Policy struct {
	// Unattended skips the confirmation of sensitive actions the command
	// asks for (scripted runs, the simulated phone); refusals still apply.
	Unattended bool
	// Allowed: the owner said "don't ask again" for the flow being
	// replayed.
	Allowed bool
	// Replay: the step comes from a saved flow the owner keeps (its
	// sensitive steps were confirmed or allowed when it was learned), so a
	// sensitive step is confirmed rather than refused when the command's
	// words do not name it.
	Replay bool
}

// Decide applies the policy to an action on t for command.
func Decide(command string, t Target, p Policy) (Decision, Verdict) {
	v := Classify(t)
	switch {
	case !v.Sensitive:
		return Act, v
	case !p.Replay && !Requested(command, v):
		return Refuse, v
	case p.Unattended || p.Allowed:
		return Act, v
	}
	return Confirm, v
}

// ---- text ----

// fold lower-cases s and removes diacritics ("Löschen" → "loschen").
func fold(s string) string { return intent.FoldAccents(s) }

// tokens splits folded text into words of letters and digits.
func tokens(s string) []string {
	return strings.FieldsFunc(fold(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// IDWords turns a resource-id into words: "com.app:id/btnDeleteAll" →
// "btn delete all".
func IDWords(id string) string {
	if i := strings.LastIndex(id, "/"); i >= 0 {
		id = id[i+1:]
	}
	var b strings.Builder
	prev := rune(0)
	for _, r := range id {
		switch {
		case r == '_' || r == '-' || r == '.':
			b.WriteRune(' ')
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteRune(' ')
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
		prev = r
	}
	return b.String()
}

// isCJK reports whether an entry is compared as a substring.
func isCJK(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return true
		}
	}
	return false
}

// maxActionTokens bounds the words of an element's text that can name
// its action: buttons and menu items say what they do first ("Delete all
// events", "Permanently delete"); a sensitive word further into a long
// text describes something ("Update the file itself (the note gets
// deleted if ...)").
const maxActionTokens = 4

// actionPart is the part of an element's own text that names its action:
// its first maxActionTokens words (CJK text, which has no spaces, is kept
// whole).
func actionPart(s string) string {
	f := strings.Fields(s)
	if len(f) <= maxActionTokens {
		return s
	}
	return strings.Join(f[:maxActionTokens], " ")
}

// actionCategories returns the categories of the action words in text,
// in any of the languages.
func actionCategories(text string) []Category {
	seen := map[Category]bool{}
	for _, c := range append(categoriesOf(text, actionWords, true), categoriesOf(text, actionWordsIntl, false)...) {
		seen[c] = true
	}
	return sorted(seen)
}

// categoriesOf returns the categories of the entries that occur in text;
// inflect lets English entries match their inflected forms.
func categoriesOf(text string, vocab map[Category][]string, inflect bool) []Category {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	toks := withoutArticles(tokens(text))
	raw := strings.ToLower(text)
	var out []Category
	for c, entries := range vocab {
		for _, e := range entries {
			if isCJK(e) {
				if strings.Contains(raw, e) {
					out = append(out, c)
					break
				}
				continue
			}
			if containsPhrase(toks, tokens(e), inflect) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// articles are skipped when phrases are compared: "Empty the recycle bin"
// says "empty recycle bin".
var articles = map[string]bool{"the": true, "a": true, "an": true, "my": true, "your": true, "this": true, "these": true, "those": true}

func withoutArticles(toks []string) []string {
	out := toks[:0:0]
	for _, t := range toks {
		if !articles[t] {
			out = append(out, t)
		}
	}
	return out
}

// containsPhrase reports whether phrase occurs in toks as consecutive
// words, its words matching inflected forms, and not followed by a noun
// that makes it the name of a place or list ("call log").
func containsPhrase(toks, phrase []string, inflect bool) bool {
	if len(phrase) == 0 {
		return false
	}
next:
	for i := 0; i+len(phrase) <= len(toks); i++ {
		for j, w := range phrase {
			if toks[i+j] != w && (!inflect || !inflectionOf(toks[i+j], w)) {
				continue next
			}
		}
		if end := i + len(phrase); end < len(toks) && isOneOfTokens(toks[end], navigationNouns) {
			continue
		}
		return true
	}
	return false
}

// inflectionOf reports whether tok is w or an English inflection of it:
// -s, -es, -ing, -ion, with a final e dropped before -ing/-ion
// ("deleting", "deletion"). Past participles (-ed) are left out: in labels
// they describe a state or a place ("Blocked numbers", "Deleted"), not an
// action.
func inflectionOf(tok, w string) bool {
	if tok == w {
		return true
	}
	if len(w) < 3 || !strings.HasPrefix(tok, strings.TrimSuffix(w, "e")) {
		return false
	}
	for _, suf := range []string{"s", "es", "ing", "ion"} {
		if tok == w+suf || (strings.HasSuffix(w, "e") && tok == w[:len(w)-1]+suf) {
			return true
		}
	}
	return false
}

// isOneOf reports whether the whole of s is one of the entries.
func isOneOf(s string, entries []string) bool {
	f := strings.Join(tokens(s), " ")
	raw := strings.TrimSpace(strings.ToLower(s))
	for _, e := range entries {
		if isCJK(e) {
			if raw == e {
				return true
			}
			continue
		}
		if f == strings.Join(tokens(e), " ") {
			return true
		}
	}
	return false
}

func isOneOfTokens(tok string, entries []string) bool {
	for _, e := range entries {
		if tok == e {
			return true
		}
	}
	return false
}

func sorted(m map[Category]bool) []Category {
	out := make([]Category, 0, len(m))
	for c := range m {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

func clip(s string) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return string(r)
}

func contains(cs []Category, c Category) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

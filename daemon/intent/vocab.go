package intent

import (
	"slices"
	"strings"
	"unicode"
)

// The generic UI vocabulary: groups of words and phrases that name the
// same action or object on any app ("remove" and a "Delete" button; "⋮"
// and "More options"). Each group has a canonical concept id. Members are
// strong (unambiguous) or weak (the word has other common senses: "set",
// "show", "make"); a weak member never starts a verb-mismatch penalty on
// its own, but opposite concepts always conflict.
//
// The groups are ordinary English and Android UI conventions only: no
// app names and no app-specific words.
type conceptDef struct {
	id     string
	action bool
	strong []string
	weak   []string
}

var conceptDefs = []conceptDef{
	// actions
	{"add", true, []string{"add", "new", "create", "+", "plus", "insert", "compose", "jot down", "➕"}, []string{"make", "write", "draft", "jot", "set", "put"}},
	{"delete", true, []string{"delete", "remove", "trash", "erase", "discard", "get rid of", "🗑"}, []string{"clear", "wipe", "drop", "bin"}},
	{"edit", true, []string{"edit", "change", "modify", "rename", "update", "alter", "adjust", "✎", "✏"}, []string{"set", "fix", "make"}},
	{"on", true, []string{"enable", "activate", "turn on", "switch on", "unhide"}, []string{"show", "allow"}},
	{"off", true, []string{"disable", "deactivate", "turn off", "switch off", "disallow"}, []string{"hide", "prevent"}},
	{"search", true, []string{"search", "find", "look up", "look for", "lookup", "🔍", "🔎"}, []string{"seek"}},
	{"open", true, []string{"open", "launch", "go to", "navigate to", "take me to", "bring up", "visit"}, []string{"show", "view", "display", "see", "check"}},
	{"close", true, []string{"close", "cancel", "exit", "dismiss", "go back", "back", "quit", "←", "✕", "✖", "×"}, []string{"leave"}},
	{"save", true, []string{"save", "ok", "okay", "done", "confirm", "apply", "submit", "accept", "✓", "✔"}, []string{"finish", "store", "keep"}},
	{"send", true, []string{"send", "share", "forward", "sent"}, []string{"post", "reply", "text"}},
	{"sort", true, []string{"sort", "arrange", "sort by"}, []string{"order", "rank"}},
	{"select", true, []string{"select", "choose", "pick", "tick"}, []string{"check", "mark"}},
	{"deselect", true, []string{"deselect", "unselect", "uncheck", "untick", "unmark"}, nil},
	{"play", true, []string{"play", "resume", "▶", "⏯"}, []string{"start", "continue", "listen", "watch"}},
	{"pause", true, []string{"pause", "⏸"}, nil},
	{"stop", true, []string{"stop", "halt", "⏹"}, []string{"end"}},
	{"next", true, []string{"next", "skip", "⏭"}, nil},
	{"previous", true, []string{"previous", "prev", "⏮"}, []string{"rewind"}},
	{"call", true, []string{"call", "dial", "ring"}, []string{"phone"}},
	{"mute", true, []string{"mute", "silence"}, nil},
	{"unmute", true, []string{"unmute"}, nil},
	{"lock", true, []string{"lock"}, nil},
	{"unlock", true, []string{"unlock"}, nil},
	{"increase", true, []string{"increase", "raise", "turn up", "louder", "brighter", "maximize"}, []string{"higher", "boost"}},
	{"decrease", true, []string{"decrease", "reduce", "lower", "turn down", "quieter", "dimmer", "dim", "minimize"}, []string{"less"}},
	{"pin", true, []string{"pin"}, nil},
	{"unpin", true, []string{"unpin"}, nil},
	{"favorite", true, []string{"favorite", "favourite", "star", "bookmark", "♥", "❤", "★", "☆"}, []string{"like"}},
	{"unfavorite", true, []string{"unfavorite", "unfavourite", "unstar", "unbookmark"}, []string{"unlike"}},
	{"block", true, []string{"block"}, nil},
	{"unblock", true, []string{"unblock"}, nil},
	{"archive", true, []string{"archive"}, nil},
	{"unarchive", true, []string{"unarchive"}, nil},
	{"copy", true, []string{"copy", "duplicate"}, nil},
	{"paste", true, []string{"paste"}, nil},
	{"undo", true, []string{"undo"}, nil},
	{"redo", true, []string{"redo"}, nil},
	{"refresh", true, []string{"refresh", "reload"}, []string{"sync"}},
	{"download", true, []string{"download"}, nil},
	{"upload", true, []string{"upload"}, nil},
	{"login", true, []string{"login", "log in", "sign in", "signin"}, nil},
	{"logout", true, []string{"logout", "log out", "sign out", "signout"}, nil},
	{"record", true, []string{"record", "⏺"}, []string{"capture"}},
	{"filter", true, []string{"filter"}, nil},
	{"backup", true, []string{"backup", "back up"}, nil},
	{"reset", true, []string{"reset", "restore"}, nil},
	// objects
	{"settings", false, []string{"settings", "setting", "preferences", "preference", "options", "more options", "⋮", "⋯", "menu", "configure", "configuration", "config", "⚙", "prefs"}, []string{"option", "gear"}},
	{"photo", false, []string{"photo", "picture", "image", "pic", "photograph"}, nil},
	{"video", false, []string{"video"}, []string{"clip"}},
	{"message", false, []string{"message", "sms", "text message"}, []string{"chat"}},
	{"song", false, []string{"song"}, []string{"track", "tune", "music"}},
	{"email", false, []string{"email", "e-mail", "mail"}, nil},
	{"event", false, []string{"event", "appointment", "meeting"}, nil},
	{"note", false, []string{"note", "memo"}, nil},
	{"folder", false, []string{"folder", "directory"}, nil},
	{"file", false, []string{"file", "document"}, nil},
	{"wifi", false, []string{"wifi", "wi-fi", "wlan", "wireless network"}, nil},
	{"volume", false, []string{"volume"}, []string{"sound"}},
	{"notification", false, []string{"notification"}, []string{"alert"}},
	{"darkmode", false, []string{"dark mode", "dark theme", "night mode"}, nil},
	{"contact", false, []string{"contact"}, []string{"person"}},
	{"page", false, []string{"page", "tab", "screen", "pane", "section"}, nil},
	// modifiers
	{"ascending", false, []string{"ascending", "asc", "a to z", "a-z", "smallest first", "oldest first", "lowest first"}, nil},
	{"descending", false, []string{"descending", "desc", "z to a", "z-a", "largest first", "biggest first", "newest first", "latest first", "highest first"}, nil},
	{"maximum", false, []string{"maximum", "highest"}, nil},
	{"minimum", false, []string{"minimum", "lowest"}, nil},
	{"newest", false, []string{"newest", "latest", "most recent"}, nil},
	{"oldest", false, []string{"oldest", "earliest"}, nil},
	{"first", false, []string{"first"}, nil},
	{"last", false, []string{"last"}, nil},
	{"largest", false, []string{"largest", "biggest"}, nil},
	{"smallest", false, []string{"smallest"}, nil},
	{"landscape", false, []string{"landscape"}, nil},
	{"portrait", false, []string{"portrait"}, nil},
	// how long a setting holds: "always show hidden files" is not
	// "temporarily show hidden files"
	{"always", false, []string{"always", "permanently", "forever"}, nil},
	{"temporarily", false, []string{"temporarily", "temporary", "for now"}, nil},
}

// opposites are concept pairs that contradict each other. polar pairs
// are toggles: a flow naming one side is ambiguous for a command naming
// neither.
var opposites = []struct {
	a, b  string
	polar bool
}{
	{"add", "delete", true},
	{"on", "off", true},
	{"open", "close", false},
	{"save", "close", false},
	{"play", "pause", true},
	{"play", "stop", true},
	{"mute", "unmute", true},
	{"lock", "unlock", true},
	{"increase", "decrease", true},
	{"next", "previous", true},
	{"pin", "unpin", true},
	{"favorite", "unfavorite", true},
	{"block", "unblock", true},
	{"archive", "unarchive", true},
	{"select", "deselect", true},
	{"download", "upload", true},
	{"login", "logout", true},
	{"undo", "redo", true},
	{"copy", "paste", false},
	{"ascending", "descending", false},
	{"maximum", "minimum", false},
	{"newest", "oldest", false},
	{"first", "last", false},
	{"largest", "smallest", false},
	{"landscape", "portrait", false},
	{"always", "temporarily", false},
}

// slotEdge words never begin or end a slot value taken from plain words.
var slotEdge = setOf("a", "an", "the", "to", "for", "of", "in", "on", "at", "by", "with", "from", "into",
	"and", "or", "but", "then", "as", "about", "my", "your", "please", "called", "named", "titled", "saying", "says")

// leadParticles end a phrasal verb ("look up", "find out", "pull up"):
// a value of more than one word never begins with one.
var leadParticles = setOf("up", "out")

// stopClass groups stopwords that anchor a slot the same way ("a note
// called X" = "a note titled X").
var stopClass = map[string]string{"called": "name", "named": "name", "titled": "name", "saying": "say", "says": "say"}

// negations flip what a command asks for ("do not show …"); so does any
// word ending in "n't" (isNegation).
var negations = setOf("not", "never", "no", "cannot", "without", "nothing",
	// the contractions as typed without their apostrophe
	"dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "shouldnt", "wouldnt", "couldnt",
	"mustnt", "hasnt", "havent", "hadnt", "neednt", "cant", "wont")

// isNegation reports whether word (lower case) negates: one of
// negations, or a contraction with "n't" (either apostrophe: "shouldn't",
// "won’t").
func isNegation(word string) bool {
	w := strings.ReplaceAll(word, "’", "'")
	return negations[w] || strings.HasSuffix(w, "n't")
}

// rolePreps bind the word after them to a role ("from X to Y").
var rolePreps = setOf("from", "to", "into", "onto", "than", "until", "till", "before", "after", "instead")

// quantifiers alone are never a slot value ("delete all notes").
var quantifiers = setOf("all", "every", "everything", "each", "both", "any", "none", "nothing", "everyone", "anyone")

// universals ask for all of something ("delete all notes", "clear the
// whole list", "everyone's birthdays"): the quantifiers that cover every
// item, and the adjectives that do.
var universals = setOf("all", "every", "everything", "everyone", "everybody", "entire", "whole")

// Universal reports whether s asks for all of something: a word of
// universals among its words (letters only, any case).
func Universal(s string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if universals[w] {
			return true
		}
	}
	return false
}

// numberValues are the English number words with a value of their own
// (the teens, the tens, "hundred"): the one table of them (NumberWord).
var numberValues = map[string]int{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
	"sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
	"forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
}

// NumberWord returns the number an English number word names ("five" →
// 5, "ninety" → 90, "hundred" → 100; lower case), false for any other
// word.
func NumberWord(w string) (int, bool) {
	n, ok := numberValues[w]
	return n, ok
}

// numberWords may stand for a number, time or date slot value ("seven
// thirty").
var numberWords = setOf("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
	"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
	"twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred", "thousand",
	"half", "quarter")

// particle verbs give meaning to a following on/off/up/down ("turn the
// wifi on", "switch off").
var particleVerbs = setOf("turn", "switch", "flip", "toggle", "keep", "leave")

func setOf(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// cmem is a token's membership in a concept.
type cmem struct {
	id     string
	weak   bool
	action bool
}

type phraseDef struct {
	stems []string
	mem   cmem
}

var (
	conceptByText = map[string][]cmem{} // lower-case word or symbol → memberships
	conceptByStem = map[string][]cmem{} // stem → memberships
	phrasesByHead = map[string][]phraseDef{}
	conceptIndex  = map[string]*conceptDef{}
	oppositeOf    = map[string][]string{}
	polarOf       = map[string]bool{}
	surfaceByID   = map[string][]string{}
)

func init() {
	for i := range conceptDefs {
		d := &conceptDefs[i]
		conceptIndex[d.id] = d
		add := func(w string, weak bool) {
			surfaceByID[d.id] = append(surfaceByID[d.id], w)
			m := cmem{id: d.id, weak: weak, action: d.action}
			fields := strings.Fields(w)
			if len(fields) > 1 {
				st := make([]string, len(fields))
				for j, f := range fields {
					st[j] = stemWord(f)
				}
				phrasesByHead[st[0]] = append(phrasesByHead[st[0]], phraseDef{stems: st, mem: m})
				return
			}
			conceptByText[w] = appendMem(conceptByText[w], m)
			s := stemWord(w)
			conceptByStem[s] = appendMem(conceptByStem[s], m)
		}
		for _, w := range d.strong {
			add(w, false)
		}
		for _, w := range d.weak {
			add(w, true)
		}
	}
	for _, o := range opposites {
		oppositeOf[o.a] = append(oppositeOf[o.a], o.b)
		oppositeOf[o.b] = append(oppositeOf[o.b], o.a)
		if o.polar {
			polarOf[o.a], polarOf[o.b] = true, true
		}
	}
	// longest phrases first
	for h, ps := range phrasesByHead {
		slices.SortStableFunc(ps, func(a, b phraseDef) int { return len(b.stems) - len(a.stems) })
		phrasesByHead[h] = ps
	}
}

// appendMem adds m unless the concept is already there (a strong
// membership wins over a weak one).
func appendMem(ms []cmem, m cmem) []cmem {
	for i := range ms {
		if ms[i].id == m.id {
			if !m.weak {
				ms[i].weak = false
			}
			return ms
		}
	}
	return append(ms, m)
}

// wordConcepts returns the concept memberships of one word (looked up by
// its lower-case text, then, unless it is a stopword such as "called", by
// its stem).
func wordConcepts(text, stem string) []cmem {
	if ms, ok := conceptByText[text]; ok {
		return ms
	}
	if isStopword(text) {
		return nil
	}
	return conceptByStem[stem]
}

func isOpposite(a, b string) bool { return slices.Contains(oppositeOf[a], b) }

// Opposites returns the concept ids that contradict concept id ("add" →
// ["delete"]; "on" → ["off"]), or nil.
func Opposites(id string) []string { return slices.Clone(oppositeOf[id]) }

// IsAction reports whether concept id names an action (add, delete, on,
// off, open, …) rather than an object (settings, photo, …).
func IsAction(id string) bool {
	d := conceptIndex[id]
	return d != nil && d.action
}

// ConceptIDs lists all concept ids of the generic vocabulary.
func ConceptIDs() []string {
	ids := make([]string, len(conceptDefs))
	for i, d := range conceptDefs {
		ids[i] = d.id
	}
	return ids
}

// Surfaces returns the words and phrases of concept id (strong first),
// or nil for an unknown id.
func Surfaces(id string) []string { return slices.Clone(surfaceByID[id]) }

// StrongSurfaces returns the strong words and phrases of concept id, those
// that name it without another common sense ("enable" and "turn on" for
// "on", not "show"), or nil for an unknown id.
func StrongSurfaces(id string) []string {
	if d := conceptIndex[id]; d != nil {
		return slices.Clone(d.strong)
	}
	return nil
}

// Synonyms returns the words and phrases that share a concept with word
// (a word, a phrase such as "turn on", or a symbol such as "⋮"), itself
// included first, lower-cased; nil when the word belongs to no concept.
// "remove" → [remove delete trash erase …]; "on" → [on enable activate
// turn on …].
func Synonyms(word string) []string {
	ids := Concepts(word)
	if len(ids) == 0 {
		return nil
	}
	w := normText(strings.TrimSpace(word))
	out := []string{w}
	seen := map[string]bool{w: true}
	for _, id := range ids {
		for _, s := range surfaceByID[id] {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		if id == "on" || id == "off" {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}

// Concepts returns the concept ids found in text — a command, a UI label
// such as "More options" or "Delete", or a single word — in order of
// appearance, without repeats. A bare "on"/"off" (a switch label, or
// "dark mode on") counts as the on/off concept.
func Concepts(text string) []string {
	toks := analyze(text)
	var out []string
	for _, t := range toks {
		for _, m := range t.concepts {
			if !slices.Contains(out, m.id) {
				out = append(out, m.id)
			}
		}
	}
	return out
}

// ActionWord reports whether word is a member, strong or weak, of an
// action concept of the vocabulary ("delete", "start", "show", "set").
func ActionWord(word string) bool {
	return slices.ContainsFunc(analyze(word), func(t ptok) bool { return t.hasAction() })
}

// StrongAction reports whether word is a strong (unambiguous) member of an
// action concept of the vocabulary ("delete", "sort"; not "set", "show" or
// "text", which have other common senses).
func StrongAction(word string) bool {
	toks := analyze(word)
	return len(toks) == 1 && toks[0].strongAction()
}

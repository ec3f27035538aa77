// Package ctxlib resolves the owner's references in a command against the
// context library (PromptRPA §4.2.2, "automated" and "interactive context
// enrichment" of §4.1.1): "text mom I'm late" finds the person the owner
// calls mom and the value the command needs (her phone number), asks which
// one when two entries fit ("Alex"), asks for a missing value once and
// remembers it only with the owner's consent, and collects the private
// values for the engine to keep out of logs, events and prompts.
package ctxlib

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Ref is one reference the resolver filled.
type Ref struct {
	Mention string `json:"mention"` // as written in the command, e.g. "my mom"
	EntryID int64  `json:"entry_id"`
	Name    string `json:"name"`
	Field   string `json:"field"` // phone | email | address | username | value | name
	Value   string `json:"-"`     // never serialised: it may be private
	Private bool   `json:"private"`
	// Remembered: the value was asked for and stored with consent.
	Remembered bool `json:"remembered,omitempty"`
	// Asked: the value was asked for (and, without consent, not stored).
	Asked bool `json:"asked,omitempty"`
}

// Resolution is a command with its references filled.
type Resolution struct {
	Original string `json:"original"`
	// Command is the command with each mention replaced by its value in
	// double quotes (a value the intent matcher keeps whole).
	Command string `json:"-"`
	// Shown is Command with private values redacted, for display.
	Shown   string            `json:"command"`
	Refs    []Ref             `json:"refs,omitempty"`
	Private *daemon.Private   `json:"-"`
	Slots   map[string]string `json:"-"`
}

// ErrNeedsOwner is returned (wrapped in *Question) when resolution needs an
// answer and no Asker is there.
var ErrNeedsOwner = errors.New("ctxlib: the owner must answer")

// Question is a question the resolver could not ask.
type Question struct {
	Text    string
	Options []string
}

func (q *Question) Error() string {
	if len(q.Options) > 0 {
		return fmt.Sprintf("%s (%s)", q.Text, strings.Join(q.Options, " / "))
	}
	return q.Text
}
func (q *Question) Unwrap() error { return ErrNeedsOwner }

// Resolver resolves commands against a store's context library.
type Resolver struct {
	Store *knowledge.Store
	// Asker answers which entry and missing values; nil: such a command
	// fails with a *Question.
	Asker daemon.Asker
}

// fieldWords map a command's verbs to the field it needs; the first verb
// found wins. Generic English vocabulary of messaging, calling, mailing and
// navigation apps.
var fieldWords = []struct {
	field string
	words []string
}{
	{"email", []string{"email", "e-mail", "mail"}},
	{"phone", []string{"text", "sms", "message", "msg", "call", "phone", "dial", "ring", "whatsapp"}},
	{"address", addressWords},
}

var addressWords = []string{"navigate", "directions", "direction", "drive", "route", "ride", "taxi", "walk", "map"}

// needsAddress reports whether one of the command's words asks for an
// address (navigate, directions, ride, ...).
func needsAddress(command string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(command), func(r rune) bool { return !(r >= 'a' && r <= 'z') }) {
		if slices.Contains(addressWords, w) {
			return true
		}
	}
	return false
}

// capitalised reports whether the mention of k at offset i (after an
// optional "my ") starts with an upper-case letter.
func capitalised(command string, i int, k string) bool {
	j := strings.Index(strings.ToLower(command[i:]), k)
	if j < 0 {
		return false
	}
	c := command[i+j]
	return c >= 'A' && c <= 'Z'
}

// fieldFor returns the field a command needs from an entry of kind.
func fieldFor(command, kind string) string {
	words := strings.FieldsFunc(strings.ToLower(command), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r == '-' || r >= '0' && r <= '9')
	})
	for _, w := range words {
		for _, fw := range fieldWords {
			if slices.Contains(fw.words, w) {
				if kind == knowledge.KindPlace && fw.field != "address" {
					continue
				}
				if kind == knowledge.KindPerson || fw.field == "address" {
					return fw.field
				}
			}
		}
	}
	switch kind {
	case knowledge.KindPerson:
		return "name"
	case knowledge.KindPlace:
		return "address"
	case knowledge.KindAccount:
		return "username"
	}
	return "value"
}

var fieldLabel = map[string]string{"phone": "phone number", "email": "e-mail address", "address": "address", "username": "user name"}

// mention is a span of the command that names some entries.
type mention struct {
	start, end int // byte offsets in the command
	entries    []knowledge.ContextEntry
}

// keys are the phrases that name an entry: its aliases, its name, and a
// person's first name.
func keys(e knowledge.ContextEntry) []string {
	ks := slices.Clone(e.Aliases)
	name := strings.ToLower(e.Name)
	ks = append(ks, name)
	if e.Kind == knowledge.KindPerson {
		if f := strings.Fields(name); len(f) > 1 {
			ks = append(ks, f[0])
		}
	}
	return ks
}

// find returns the mentions of entries in command, longest spans first
// and non-overlapping; a span naming several entries lists them all.
func find(command string, entries []knowledge.ContextEntry) []mention {
	type hit struct {
		start, end int
		entry      int
	}
	var hits []hit
	travel := needsAddress(command)
	for i, e := range entries {
		if e.Kind == knowledge.KindPreference {
			continue // preferences are settings, not things a command names
		}
		if e.Kind == knowledge.KindPlace && !travel {
			continue // "home" in "go to the home screen" is not the owner's home
		}
		for _, k := range keys(e) {
			re := regexp.MustCompile(`(?i)\b(?:my\s+)?` + regexp.QuoteMeta(k) + `(?:'s)?\b`)
			for _, m := range re.FindAllStringIndex(command, -1) {
				// a name that is also a common word ("Will", "May") counts
				// only when written with a capital
				if !strings.Contains(k, " ") && intent.IsStopword(k) && !capitalised(command, m[0], k) {
					continue
				}
				hits = append(hits, hit{m[0], m[1], i})
			}
		}
	}
	sort.SliceStable(hits, func(a, b int) bool {
		la, lb := hits[a].end-hits[a].start, hits[b].end-hits[b].start
		if la != lb {
			return la > lb
		}
		return hits[a].start < hits[b].start
	})
	var out []mention
	for _, h := range hits {
		placed := false
		for j := range out {
			m := &out[j]
			if m.start == h.start && m.end == h.end {
				if !slices.ContainsFunc(m.entries, func(e knowledge.ContextEntry) bool { return e.ID == entries[h.entry].ID }) {
					m.entries = append(m.entries, entries[h.entry])
				}
				placed = true
				break
			}
			if h.start < m.end && m.start < h.end {
				placed = true // overlaps a longer mention
				break
			}
		}
		if !placed {
			out = append(out, mention{start: h.start, end: h.end, entries: []knowledge.ContextEntry{entries[h.entry]}})
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].start < out[b].start })
	return out
}

// Resolve fills the references of command. It returns the command
// unchanged (and no refs) when it names no entry. Errors: a *Question
// (wrapping ErrNeedsOwner) when an answer is needed and no Asker is set;
// the Asker's error; an empty answer; store errors.
func (r *Resolver) Resolve(ctx context.Context, command string) (*Resolution, error) {
	res := &Resolution{Original: command, Command: command, Shown: command, Private: &daemon.Private{}}
	if r.Store == nil {
		return res, nil
	}
	entries, err := r.Store.ContextEntries(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("context library: %w", err)
	}
	ms := find(command, entries)
	if len(ms) == 0 {
		return res, nil
	}
	var b, shown strings.Builder
	last := 0
	for _, m := range ms {
		said := command[m.start:m.end]
		e, err := r.choose(ctx, said, m.entries)
		if err != nil {
			return nil, err
		}
		field := fieldFor(command, e.Kind)
		ref := Ref{Mention: said, EntryID: e.ID, Name: e.Name, Field: field}
		if field == "name" {
			ref.Value = e.Name
		} else if v, ok := e.Value(field); ok && v.Value != "" {
			ref.Value, ref.Private = v.Value, v.Private
			if v.Private {
				res.Private.Add(v.Value, v.AllowInPrompt)
			}
		} else {
			if err := r.askValue(ctx, e, said, field, &ref); err != nil {
				return nil, err
			}
			if ref.Private {
				res.Private.Add(ref.Value, false)
			}
		}
		res.Refs = append(res.Refs, ref)
		// quote the value (the intent matcher keeps a quoted value whole)
		// unless the mention is already quoted; keep a possessive 's
		q, poss := `"`, ""
		if inQuotes(command, m.start) {
			q = ""
		}
		if strings.HasSuffix(strings.ToLower(said), "'s") {
			poss = "'s"
		}
		b.WriteString(command[last:m.start])
		shown.WriteString(command[last:m.start])
		b.WriteString(q + ref.Value + q + poss)
		if ref.Private {
			shown.WriteString(q + e.Name + "'s " + label(field) + q + poss)
		} else {
			shown.WriteString(q + ref.Value + q + poss)
		}
		last = m.end
	}
	b.WriteString(command[last:])
	shown.WriteString(command[last:])
	res.Command, res.Shown = b.String(), shown.String()
	return res, nil
}

// inQuotes reports whether offset i of s is inside double quotes.
func inQuotes(s string, i int) bool {
	return strings.Count(s[:i], `"`)%2 == 1
}

func label(field string) string {
	if l, ok := fieldLabel[field]; ok {
		return l
	}
	return field
}

// choose picks one of the entries a mention names, asking when several do.
func (r *Resolver) choose(ctx context.Context, said string, es []knowledge.ContextEntry) (knowledge.ContextEntry, error) {
	if len(es) == 1 {
		return es[0], nil
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name)
	}
	q := fmt.Sprintf("Which %s do you mean?", strings.TrimSpace(said))
	ans, err := r.ask(ctx, q, names)
	if err != nil {
		return knowledge.ContextEntry{}, err
	}
	ans = strings.TrimSpace(ans)
	for _, e := range es {
		if strings.EqualFold(e.Name, ans) {
			return e, nil
		}
	}
	// a number, or an unambiguous part of a name
	var fit []knowledge.ContextEntry
	for i, e := range es {
		if ans == fmt.Sprint(i+1) || (ans != "" && strings.Contains(strings.ToLower(e.Name), strings.ToLower(ans))) {
			fit = append(fit, e)
		}
	}
	if len(fit) == 1 {
		return fit[0], nil
	}
	return knowledge.ContextEntry{}, fmt.Errorf("%q does not pick one of %s", ans, strings.Join(names, ", "))
}

// askValue asks for a missing value, then whether to remember it; only a
// yes stores it (as a private value, not allowed in prompts).
func (r *Resolver) askValue(ctx context.Context, e knowledge.ContextEntry, said, field string, ref *Ref) error {
	who := e.Name
	if !strings.EqualFold(strings.TrimSpace(said), e.Name) {
		who = fmt.Sprintf("%s (%s)", strings.TrimSpace(said), e.Name)
	}
	ans, err := r.ask(ctx, fmt.Sprintf("What is %s's %s?", who, label(field)), nil)
	if err != nil {
		return err
	}
	ans = strings.TrimSpace(ans)
	if ans == "" {
		return fmt.Errorf("no %s given for %s", label(field), e.Name)
	}
	ref.Value, ref.Asked = ans, true
	ref.Private = field != "value" // contact details and addresses are private by default
	yes, err := r.ask(ctx, fmt.Sprintf("Remember %s's %s for next time?", e.Name, label(field)), []string{"yes", "no"})
	if err != nil {
		return err
	}
	if !strings.HasPrefix(strings.ToLower(strings.TrimSpace(yes)), "y") {
		return nil // used once, not stored
	}
	if err := r.Store.SetContextValue(ctx, e.ID, knowledge.ContextValue{Field: field, Value: ans, Private: ref.Private}); err != nil {
		return fmt.Errorf("context library: %w", err)
	}
	ref.Remembered = true
	return nil
}

func (r *Resolver) ask(ctx context.Context, q string, options []string) (string, error) {
	if r.Asker == nil {
		return "", &Question{Text: q, Options: options}
	}
	return r.Asker.Ask(ctx, q, options)
}

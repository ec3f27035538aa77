package daemon

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Private holds the owner's private values that one run uses (from the
// context library): every one is replaced by a placeholder "‹private N›"
// in the run's events, its run-log entry and its Result; those not allowed
// in a prompt are also replaced in what planners send to a model, and a
// placeholder in a planner's reply is turned back into the value before the
// device types it. The zero value and nil hold nothing.
type Private struct {
	values []privateValue
}

type privateValue struct {
	text        string
	placeholder string
	inPrompt    bool
}

// Add registers a private value; allowInPrompt lets it reach model prompts
// (it is still redacted from events and logs). Values shorter than 2 bytes
// are ignored: redacting them would garble every text.
func (p *Private) Add(value string, allowInPrompt bool) {
	if p == nil || len(strings.TrimSpace(value)) < 2 {
		return
	}
	for i := range p.values {
		if p.values[i].text == value {
			p.values[i].inPrompt = p.values[i].inPrompt && allowInPrompt
			return
		}
	}
	p.values = append(p.values, privateValue{text: value, placeholder: fmt.Sprintf("‹private %d›", len(p.values)+1), inPrompt: allowInPrompt})
	// longest first, so a value inside another is not replaced first
	sort.SliceStable(p.values, func(i, j int) bool { return len(p.values[i].text) > len(p.values[j].text) })
}

// Empty reports whether p holds no value.
func (p *Private) Empty() bool { return p == nil || len(p.values) == 0 }

// Redact replaces every private value in s (for events and logs).
func (p *Private) Redact(s string) string {
	if p.Empty() {
		return s
	}
	for _, v := range p.values {
		s = strings.ReplaceAll(s, v.text, v.placeholder)
	}
	return s
}

// Scrub replaces the values not allowed in a prompt (for model prompts).
func (p *Private) Scrub(s string) string {
	if p.Empty() {
		return s
	}
	for _, v := range p.values {
		if !v.inPrompt {
			s = strings.ReplaceAll(s, v.text, v.placeholder)
		}
	}
	return s
}

// Restore turns placeholders back into the values (a model's reply that
// types "‹private 1›").
func (p *Private) Restore(s string) string {
	if p.Empty() || !strings.Contains(s, "‹private ") {
		return s
	}
	for _, v := range p.values {
		s = strings.ReplaceAll(s, v.placeholder, v.text)
	}
	return s
}

// redactJSON redacts the JSON encoding of data: each value is replaced in
// its JSON-escaped form.
func (p *Private) redactJSON(raw []byte) []byte {
	s := string(raw)
	for _, v := range p.values {
		q, _ := json.Marshal(v.text)
		ph, _ := json.Marshal(v.placeholder)
		s = strings.ReplaceAll(s, string(q[1:len(q)-1]), string(ph[1:len(ph)-1]))
	}
	return []byte(s)
}

// Scrub returns s as a planner may send it to a model: the run's private
// values that are not allowed in prompts replaced by placeholders.
func (st *PlanState) Scrub(s string) string { return st.Private.Scrub(s) }

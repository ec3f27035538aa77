package steps

import (
	"encoding/json"
	"strings"
)

// FakeReply answers a rendered parse prompt the way the rule-based parser
// reads its pasted text: a deterministic stand-in for a model, for tests
// and `wayfinder eval --tutorials` with a fake endpoint. It reads the text
// between the prompt's triple quotes; any other prompt gets an empty list
// (which the schema check rejects).
func FakeReply(prompt string) string {
	var p Parsed
	p.Instructions = []ParsedInstruction{}
	if _, rest, ok := strings.Cut(prompt, `"""`+"\n"); ok {
		if text, _, ok := strings.Cut(rest, "\n"+`"""`); ok {
			for _, in := range Parse(text) {
				p.Instructions = append(p.Instructions, ParsedInstruction{Op: in.Op, Target: in.Target, Value: in.Value, Text: in.Text})
			}
		}
	}
	b, _ := json.Marshal(p)
	return string(b)
}

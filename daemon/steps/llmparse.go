package steps

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"slices"
	"strings"
	"sync"
	"text/template"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/llm"
)

// Parsed is the model's reply to the parse prompt; its JSON Schema is
// generated from the type and checked by llm.CompleteJSON.
type Parsed struct {
	Instructions []ParsedInstruction `json:"instructions" jsonschema_description:"The instructions in order."`
}

// ParsedInstruction is one instruction of a Parsed reply.
type ParsedInstruction struct {
	Op     string `json:"op" jsonschema:"enum=open,enum=tap,enum=long_press,enum=turn_on,enum=turn_off,enum=input,enum=scroll,enum=back,enum=home" jsonschema_description:"The operation."`
	Target string `json:"target" jsonschema:"maxLength=120" jsonschema_description:"The words of the widget or page on the phone; empty for back and home."`
	Value  string `json:"value,omitempty" jsonschema:"maxLength=200" jsonschema_description:"For input: the text to type. For scroll: down or up. Otherwise empty."`
	Text   string `json:"text" jsonschema:"maxLength=200" jsonschema_description:"The instruction in a few words."`
}

//go:embed prompts/parse.tmpl
var promptFS embed.FS

var parseTmpl = sync.OnceValues(func() (*template.Template, error) {
	return template.New("parse.tmpl").Option("missingkey=error").ParseFS(promptFS, "prompts/parse.tmpl")
})

type parseData struct {
	Goal, Text, Schema string
}

// ParseMessages renders the parse prompt for goal and the pasted text,
// with priv's values that may not reach a prompt replaced (nil: none).
func ParseMessages(goal, text string, priv *daemon.Private) ([]llm.Message, error) {
	tm, err := parseTmpl()
	if err != nil {
		return nil, fmt.Errorf("steps: parse template: %w", err)
	}
	schema, err := llm.SchemaText[Parsed]()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := tm.Execute(&b, parseData{Goal: goal, Text: text, Schema: schema}); err != nil {
		return nil, fmt.Errorf("steps: parse template: %w", err)
	}
	return []llm.Message{
		{Role: llm.RoleSystem, Content: "You turn pasted how-to steps into instructions for operating an Android phone. Reply with JSON only."},
		{Role: llm.RoleUser, Content: priv.Scrub(b.String())},
	}, nil
}

// checkParsed rejects replies the planner cannot follow: no instruction,
// too many, or a target missing where the operation needs one.
func checkParsed(p *Parsed) error {
	if len(p.Instructions) == 0 {
		return fmt.Errorf("no instructions")
	}
	if len(p.Instructions) > MaxInstructions {
		return fmt.Errorf("%d instructions, at most %d", len(p.Instructions), MaxInstructions)
	}
	for i, in := range p.Instructions {
		needs := !slices.Contains([]string{OpBack, OpHome, OpScroll, OpInput}, in.Op)
		if needs && strings.TrimSpace(in.Target) == "" {
			return fmt.Errorf("instructions[%d]: %s needs a target", i, in.Op)
		}
		if in.Op == OpInput && in.Value == "" {
			return fmt.Errorf("instructions[%d]: input needs a value", i)
		}
	}
	return nil
}

// ParseLLM turns text into instructions with the model behind c: one
// schema'd reply, one repair retry (llm.CompleteJSON). Placeholders of
// private values in the reply are restored. The Reply reports the calls and
// tokens spent, also on error; callers fall back to Parse on an error.
func ParseLLM(ctx context.Context, c *llm.Client, goal, text string, priv *daemon.Private) ([]Instruction, llm.Reply, error) {
	msgs, err := ParseMessages(goal, text, priv)
	if err != nil {
		return nil, llm.Reply{}, err
	}
	out, reply, err := llm.CompleteJSON[Parsed](ctx, c, msgs, checkParsed)
	if err != nil {
		return nil, reply, fmt.Errorf("steps: parse with the model: %w", err)
	}
	ins := make([]Instruction, 0, len(out.Instructions))
	for _, p := range out.Instructions {
		in := Instruction{Op: p.Op, Target: cleanTarget(priv.Restore(p.Target)), Value: priv.Restore(p.Value), Text: priv.Restore(p.Text)}
		if in.Op == OpScroll && in.Value != "up" {
			in.Value = "down"
		}
		if in.Text == "" {
			in.Text = strings.TrimSpace(in.Op + " " + in.Target)
		}
		ins = append(ins, in)
	}
	return ins, reply, nil
}

// Prepare parses a pasted procedure for goal and returns the planner that
// follows it over inner: with a model (client non-nil and configured) the
// text is parsed through it, falling back to the rule-based parser when
// the model fails (note then says why); without one, by rules. calls is
// the number of LLM calls spent. It fails when the text holds no step.
func Prepare(ctx context.Context, client *llm.Client, inner daemon.Planner, goal, text string, priv *daemon.Private) (p *Planner, calls int, note string, err error) {
	var ins []Instruction
	if client != nil && client.Config().Enabled() {
		var reply llm.Reply
		var perr error
		ins, reply, perr = ParseLLM(ctx, client, goal, text, priv)
		calls = reply.Calls
		if perr != nil {
			note = perr.Error() + "; parsed by rules instead"
		}
	}
	if ins == nil {
		ins = Parse(text)
	}
	if len(ins) == 0 {
		return nil, calls, note, fmt.Errorf("steps: no step found in the text (%d characters)", len(text))
	}
	return New(inner, goal, ins), calls, note, nil
}

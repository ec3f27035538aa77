package llm

import (
	"bytes"
	"embed"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"text/template"
)

// Prompt template names (files prompts/<name>.tmpl) for Render.
const (
	PromptSystem     = "system"      // data SystemData
	PromptNextAction = "next_action" // data NextActionData; reply NextAction
	PromptCheck      = "check"       // data CheckData; reply Check
	PromptDescribe   = "describe"    // data DescribeData; reply ElementDoc
	PromptRepair     = "repair"      // data RepairData; used by CompleteJSON
)

//go:embed prompts/*.tmpl
var promptFS embed.FS

// promptTypes is the data type each template is executed with.
var promptTypes = map[string]reflect.Type{
	PromptSystem:     reflect.TypeFor[SystemData](),
	PromptNextAction: reflect.TypeFor[NextActionData](),
	PromptCheck:      reflect.TypeFor[CheckData](),
	PromptDescribe:   reflect.TypeFor[DescribeData](),
	PromptRepair:     reflect.TypeFor[RepairData](),
}

var templateFuncs = template.FuncMap{
	"inc":   func(i int) int { return i + 1 },
	"quote": func(s string) string { return `"` + dataEscaper.Replace(strings.ReplaceAll(s, `"`, `\"`)) + `"` },
	// data escapes app-supplied text (screen renderings, labels) for a
	// <screen> block: it cannot close the block or open another one.
	"data": func(s string) string { return dataEscaper.Replace(s) },
}

// dataEscaper keeps screen text inside its delimited block: angle
// brackets become \u003c / \u003e (inside quoted labels these are Go
// escapes; screen.Render quotes every label), and backquotes, which some
// models read as code fences, become \u0060.
var dataEscaper = strings.NewReplacer("<", `\u003c`, ">", `\u003e`, "`", `\u0060`)

var loadTemplates = sync.OnceValues(func() (*template.Template, error) {
	return template.New("prompts").Funcs(templateFuncs).Option("missingkey=error").ParseFS(promptFS, "prompts/*.tmpl")
})

var reBlankLines = regexp.MustCompile(`\n{3,}`)

// Render executes the prompt template name ("next_action" or
// "next_action.tmpl") with data, which must be the template's data type
// (see the Prompt* constants) or a pointer to it. Runs of blank lines are
// folded to one and the result is trimmed. Errors: unknown name, wrong
// data type, template execution failure.
func Render(name string, data any) (string, error) {
	name = strings.TrimSuffix(name, ".tmpl")
	want, ok := promptTypes[name]
	if !ok {
		return "", fmt.Errorf("llm: render: unknown prompt %q", name)
	}
	got := reflect.TypeOf(data)
	if got != nil && got.Kind() == reflect.Pointer && got.Elem() == want {
		if reflect.ValueOf(data).IsNil() {
			return "", fmt.Errorf("llm: render %s: nil %s", name, got)
		}
		data = reflect.ValueOf(data).Elem().Interface()
		got = want
	}
	if got != want {
		return "", fmt.Errorf("llm: render %s: data is %v, want %v", name, got, want)
	}
	tmpl, err := loadTemplates()
	if err != nil {
		return "", fmt.Errorf("llm: render: parse templates: %w", err)
	}
	var b bytes.Buffer
	if err := tmpl.ExecuteTemplate(&b, name+".tmpl", data); err != nil {
		return "", fmt.Errorf("llm: render %s: %w", name, err)
	}
	return strings.TrimSpace(reBlankLines.ReplaceAllString(b.String(), "\n\n")), nil
}

// ---- data ----

// SystemData is the data of the system prompt.
type SystemData struct {
	// Acting adds the rules for choosing actions (next_action). The check
	// and describe prompts judge or describe and do not act, so they go
	// without them: about 200 tokens less on half of a step's calls.
	Acting bool
}

// HistoryLine is one executed step as shown to the model.
type HistoryLine struct {
	Step   int    // 1-based step number
	Action string // tap, long_press, input, scroll, back, home, ...
	Label  string // label of the node acted on ("Save"), "" for back/home
	Text   string // typed text for input (secrets already removed by the caller)
	Result string // what happened: "opened Settings", "no change", ...
}

// NextActionData is the data of next_action.tmpl.
type NextActionData struct {
	Command string // the owner's command, as said or typed
	App     string // app label or package in the foreground
	// Screen is the compact screen rendering (screen.Render): one node a
	// line, `[3] button "Save" id=save`.
	Screen  string
	History []HistoryLine
	// Guides is an instruction list: steps of similar saved flows or of a
	// route planned on the UI transition graph (UICOMPASS §3.2-3.3; Phan &
	// Luong's "similar flow guide"). Some may already be done.
	Guides []string
	// Lessons are natural-language lessons from earlier mistakes
	// (AutoTask §3, Type-2 execution knowledge).
	Lessons []string
	// Docs are element documentation lines for nodes on this screen
	// (AppAgent §3.3), e.g. `[3] opens the note's settings`.
	Docs []string
	// Slots are intent slot values from the command, used verbatim.
	Slots map[string]string
	// Fields is the reply's JSON shape (ReplyFields); NextActionMessages fills it.
	Fields    string
	StepLimit int // maximum steps for this command (0: no limit shown)
	Step      int // 1-based number of the step being decided
}

// CheckData is the data of check.tmpl (AutoTask §4.5).
type CheckData struct {
	Command string
	App     string
	// Before is what the screen before the last action had that the
	// screen now lacks: node lines without their index, "" when nothing
	// is gone (llmplan renders it so; any rendering works).
	Before  string
	Screen  string // compact rendering of the screen now
	History []HistoryLine
	// LastAction describes the step just executed, e.g. `tap [4] "Save"`.
	LastAction string
	// LastPenalty is the backtracking penalty the last action had already
	// accumulated (AutoTask §4.4-4.5): above 0 the model is told to be
	// tolerant, since the alternatives looked even worse.
	LastPenalty int
	Guides      []string
	Fields      string // JSON shape of Check (ReplyFields); CheckMessages fills it
}

// DescribeData is the data of describe.tmpl (AppAgent §3.3).
type DescribeData struct {
	Command string // the command being carried out (context only)
	App     string
	Action  string // the action performed: "tap", "long_press", "input", ...
	Element string // the node's line from the screen rendering
	Before  string // compact rendering before the action
	After   string // compact rendering after the action
	OldDoc  string // earlier documentation of the node, to refine ("" if none)
	Fields  string // JSON shape of ElementDoc (ReplyFields); DescribeMessages fills it
}

// RepairData is the data of repair.tmpl, the one repair retry of
// CompleteJSON.
type RepairData struct {
	Error     string // what was wrong with the reply, paths included
	Fields    string // the reply's JSON shape (ReplyFields), restated
	Truncated bool   // the reply was cut off (finish_reason "length")
}

// ---- replies ----

// Next-action kinds (NextAction.Action).
const (
	ActionTap       = "tap"
	ActionLongPress = "long_press"
	ActionInput     = "input"
	ActionScroll    = "scroll"
	ActionBack      = "back"
	ActionHome      = "home"
	ActionImeEnter  = "ime_enter" // the keyboard's Enter / submit in an input field
	ActionDone      = "done"
	ActionAsk       = "ask"
)

// Scroll directions (NextAction.Direction).
const (
	DirectionForward  = "forward"  // further down / right: content that comes later
	DirectionBackward = "backward" // back up / left
)

// NextAction is the model's reply to next_action.tmpl: one step. Fields
// are in the order the model should write them (reason first).
type NextAction struct {
	Reason  string `json:"reason" jsonschema:"maxLength=400" jsonschema_description:"One sentence: what the screen shows and why this action moves the command forward."`
	Action  string `json:"action" jsonschema:"enum=tap,enum=long_press,enum=input,enum=ime_enter,enum=scroll,enum=back,enum=home,enum=done,enum=ask" jsonschema_description:"The kind of step."`
	Element int    `json:"element" jsonschema:"minimum=-1" jsonschema_description:"Index of the node to act on, as shown in brackets; -1 for back, home, done, ask, whole-screen scroll and ime_enter in the focused field."`
	// Text is the text to type (input) or the question for the owner (ask).
	Text      string `json:"text,omitempty" jsonschema_description:"For input: the exact text to type. For ask: one short question to the owner. Otherwise empty."`
	Direction string `json:"direction,omitempty" jsonschema:"enum=forward,enum=backward" jsonschema_description:"For scroll only: forward shows content further down, backward goes back up."`
	// Done is true when this action finishes the command (e.g. the final
	// Save); Action "done" means the command was already finished.
	Done bool `json:"done" jsonschema_description:"true if the command is fulfilled once this action is performed."`
}

// NextActionCheck returns a CompleteJSON check for NextAction: the fields
// must fit the action (an element for tap/long_press/input, text for
// input/ask, a direction for scroll, no element for back/home/done/ask), and
// every element index must satisfy exists (the daemon passes "index is on
// the current screen and actionable"). A nil exists skips the index test.
// Error messages are written for the model to read in the repair prompt.
func NextActionCheck(exists func(index int) bool) func(*NextAction) error {
	return func(a *NextAction) error {
		switch a.Action {
		case ActionTap, ActionLongPress, ActionInput:
			if a.Element < 0 {
				return fmt.Errorf("$.element: action %q needs the index of a node on the screen", a.Action)
			}
		case ActionScroll:
			if a.Direction == "" {
				return fmt.Errorf("$.direction: action %q needs direction forward or backward", a.Action)
			}
		case ActionImeEnter:
			if a.Element < -1 {
				return fmt.Errorf("$.element: action %q takes the index of an input node, or -1 for the focused field", a.Action)
			}
		case ActionBack, ActionHome, ActionDone, ActionAsk:
			if a.Element != -1 {
				return fmt.Errorf("$.element: action %q takes no node; use -1", a.Action)
			}
		}
		if (a.Action == ActionInput || a.Action == ActionAsk) && strings.TrimSpace(a.Text) == "" {
			what := "the text to type"
			if a.Action == ActionAsk {
				what = "the question for the owner"
			}
			return fmt.Errorf("$.text: action %q needs %s", a.Action, what)
		}
		if a.Element >= 0 && exists != nil && !exists(a.Element) {
			return fmt.Errorf("$.element: %d is not an index on the current screen; use only indices shown in brackets", a.Element)
		}
		return nil
	}
}

// Check is the model's reply to check.tmpl (AutoTask §4.5).
type Check struct {
	Reason    string `json:"reason" jsonschema:"maxLength=400" jsonschema_description:"One sentence: what the current screen shows about progress."`
	Completed bool   `json:"completed" jsonschema_description:"true only if the current screen shows the command fully carried out."`
	Correct   bool   `json:"correct" jsonschema_description:"true if the last action keeps a path that can still fulfil the command."`
	Penalty   int    `json:"penalty" jsonschema:"minimum=0,maximum=9" jsonschema_description:"0 if the last action is correct or failed only because an earlier step was wrong; up to 9 for a serious mistake by the last action itself."`
}

// ElementDoc is the model's reply to describe.tmpl (AppAgent §3.3).
type ElementDoc struct {
	Doc string `json:"doc" jsonschema:"minLength=3,maxLength=300" jsonschema_description:"One sentence on what the node does in general."`
}

// ---- message builders ----

// NextActionMessages renders the system prompt and next_action.tmpl (with
// Fields filled from ReplyFields[NextAction] when empty).
func NextActionMessages(d NextActionData) ([]Message, error) {
	if d.Fields == "" {
		d.Fields = mustReplyFields[NextAction]()
	}
	return withSystem(PromptNextAction, d)
}

// CheckMessages renders the system prompt and check.tmpl.
func CheckMessages(d CheckData) ([]Message, error) {
	if d.Fields == "" {
		d.Fields = mustReplyFields[Check]()
	}
	return withSystem(PromptCheck, d)
}

// DescribeMessages renders the system prompt and describe.tmpl.
func DescribeMessages(d DescribeData) ([]Message, error) {
	if d.Fields == "" {
		d.Fields = mustReplyFields[ElementDoc]()
	}
	return withSystem(PromptDescribe, d)
}

// SchemaText returns the indented JSON schema of T, as put in prompts.
func SchemaText[T any]() (string, error) {
	s, err := cachedSchemaOf(reflect.TypeFor[T]())
	if err != nil {
		return "", err
	}
	return s.String(), nil
}

// mustReplyFields is for this package's reply types, whose schemas are
// covered by tests; it returns "" rather than panic.
func mustReplyFields[T any]() string {
	s, _ := ReplyFields[T]()
	return s
}

func withSystem(name string, data any) ([]Message, error) {
	sys, err := Render(PromptSystem, SystemData{Acting: name == PromptNextAction})
	if err != nil {
		return nil, err
	}
	user, err := Render(name, data)
	if err != nil {
		return nil, err
	}
	return []Message{{Role: RoleSystem, Content: sys}, {Role: RoleUser, Content: user}}, nil
}

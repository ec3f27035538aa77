// Package llmplan holds the planners that call a model: the LLM planner
// (one next-action prompt per step, validated JSON, one repair retry, and
// AutoTask §4.5's completion and correctness check after each step) and
// the Auto planner, which lets the graph planner decide wherever it is
// confident and asks the LLM only where it is not, giving the graph plan
// as a guide (UICOMPASS's instruction list and adaptive replanning).
//
// The package owns prompt data assembly and reply mapping. It must not act
// on the device or write knowledge; prompts are published redacted.
package llmplan

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Planner asks an OpenAI-compatible model for every step.
type Planner struct {
	client *llm.Client
	store  *knowledge.Store // element documentation; may be nil
	// NoCheck skips the per-step check prompt (halves the calls).
	NoCheck bool
}

// New returns an LLM planner.
func New(client *llm.Client, store *knowledge.Store) *Planner {
	return &Planner{client: client, store: store}
}

// Name implements daemon.Planner.
func (p *Planner) Name() string { return "llm" }

// Next implements daemon.Planner: it renders the next-action prompt, asks
// the model, validates the reply against the schema of llm.NextAction and
// the screen (the element must exist), with one repair retry.
func (p *Planner) Next(ctx context.Context, st *daemon.PlanState) (daemon.Decision, error) {
	data := llm.NextActionData{Command: st.Command, App: appName(st), Screen: collapseRuns(screen.Render(st.Elements)),
		History: history(st.History), Guides: st.Guides, Lessons: st.Lessons, Docs: p.docs(ctx, st),
		Slots: st.Slots, StepLimit: st.StepLimit, Step: st.Step + 1}
	msgs, err := llm.NextActionMessages(data)
	if err != nil {
		return daemon.Decision{}, err
	}
	withoutSecrets(msgs, st.Secrets)
	scrub(st, msgs)
	p.emitPrompt(st, "next_action", msgs)
	exists := func(i int) bool { return i >= 0 && i < len(st.Elements) }
	t0 := time.Now()
	out, reply, err := llm.CompleteJSON[llm.NextAction](ctx, p.client, msgs, llm.NextActionCheck(exists))
	p.emitReply(st, reply, time.Since(t0), err)
	d := daemon.Decision{LLMCalls: reply.Calls, Tokens: reply.PromptTokens + reply.CompletionTokens, Mode: "llm"}
	if err != nil {
		return d, err
	}
	d.Element, d.Text, d.Direction, d.Reason, d.Confidence = out.Element, out.Text, out.Direction, out.Reason, 0.8
	switch out.Action {
	case llm.ActionDone:
		d.Action = daemon.ActDone
	case llm.ActionAsk:
		d.Action = daemon.ActAsk
	default:
		d.Action = out.Action // tap, long_press, input, ime_enter, scroll, back, home share device's names
	}
	if out.Done && d.Action != daemon.ActDone && d.Action != daemon.ActAsk {
		d.Reason += " (then done)"
	}
	return d, nil
}

// Check implements daemon.Checker: AutoTask §4.5's completion check and
// correctness check of the last step, with its penalty 0-9.
func (p *Planner) Check(ctx context.Context, st *daemon.PlanState, last daemon.StepRecord) (daemon.Verdict, error) {
	if p.NoCheck {
		return daemon.Verdict{Correct: last.OK}, nil
	}
	now := screen.Render(st.Elements)
	data := llm.CheckData{Command: st.Command, App: appName(st), Screen: collapseRuns(now), Before: goneLines(screen.Render(st.Before), now),
		History: history(st.History), LastAction: describeLast(last), Guides: st.Guides}
	msgs, err := llm.CheckMessages(data)
	if err != nil {
		return daemon.Verdict{}, err
	}
	withoutSecrets(msgs, st.Secrets)
	scrub(st, msgs)
	p.emitPrompt(st, "check", msgs)
	t0 := time.Now()
	out, reply, err := llm.CompleteJSON[llm.Check](ctx, p.client, msgs, nil)
	p.emitReply(st, reply, time.Since(t0), err)
	v := daemon.Verdict{LLMCalls: reply.Calls, Tokens: reply.PromptTokens + reply.CompletionTokens}
	if err != nil {
		return v, err
	}
	v.Completed, v.Correct, v.Penalty, v.Reason = out.Completed, out.Correct, float64(out.Penalty), out.Reason
	return v, nil
}

// goneLines returns the nodes of the rendering before that are not in the
// rendering now, one a line without their [index] (indices are the
// current screen's; these nodes are gone), in order; "" when none is gone.
// The check prompt shows these instead of the whole screen before: what
// changed is what the check needs, and the prompt stays small (two whole
// screens made it the largest prompt of a step).
func goneLines(before, now string) string {
	left := map[string]int{}
	for _, l := range strings.Split(now, "\n") {
		left[withoutIndex(l)]++
	}
	var out []string
	for _, l := range strings.Split(before, "\n") {
		k := withoutIndex(l)
		if k == "" {
			continue
		}
		if left[k] > 0 {
			left[k]--
			continue
		}
		out = append(out, k)
	}
	return strings.Join(out, "\n")
}

// minRun is the shortest run of alike lines collapseRuns folds.
const minRun = 3

// collapseRuns folds each run of at least minRun consecutive lines that
// differ only in their consecutive [index] into one line "[a-b] rest (n
// alike)", e.g. the 42 unlabelled day cells of a month view. Such runs
// made a calendar screen's prompt 1,600 tokens; the model can still name
// any index of the range. Other lines are kept as they are.
func collapseRuns(rendered string) string {
	lines := strings.Split(rendered, "\n")
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); {
		first, ok := indexOf(lines[i])
		j := i + 1
		if ok {
			rest := withoutIndex(lines[i])
			for j < len(lines) {
				n, ok := indexOf(lines[j])
				if !ok || n != first+(j-i) || withoutIndex(lines[j]) != rest {
					break
				}
				j++
			}
			if j-i >= minRun {
				out = append(out, fmt.Sprintf("[%d-%d] %s (%d alike)", first, first+j-i-1, rest, j-i))
				i = j
				continue
			}
		}
		out = append(out, lines[i:j]...)
		i = j
	}
	return strings.Join(out, "\n")
}

// indexOf parses a rendered line's leading "[n]".
func indexOf(line string) (int, bool) {
	if !strings.HasPrefix(line, "[") {
		return 0, false
	}
	end := strings.Index(line, "] ")
	if end < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(line[1:end])
	return n, err == nil
}

// withoutIndex drops a rendered line's leading "[n] ".
func withoutIndex(line string) string {
	if strings.HasPrefix(line, "[") {
		if i := strings.Index(line, "] "); i > 0 {
			return line[i+2:]
		}
	}
	return strings.TrimSpace(line)
}

// docs returns the stored documentation (AppAgent §3.3) of the elements on
// the current screen, as "label: doc" lines.
func (p *Planner) docs(ctx context.Context, st *daemon.PlanState) []string {
	if p.store == nil || st.AppID == 0 {
		return nil
	}
	sc, err := p.store.ScreenByFingerprint(ctx, st.AppID, st.Print)
	if err != nil {
		return nil
	}
	els, err := p.store.Elements(ctx, sc.ID)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range els {
		if e.Doc != "" {
			out = append(out, fmt.Sprintf("%s: %s", e.Descriptor.Label(), e.Doc))
		}
		if len(out) >= 12 {
			break
		}
	}
	return out
}

// scrub keeps the owner's private values that are not allowed in prompts
// out of msgs (the command, typed text and the screen may all hold them).
func scrub(st *daemon.PlanState, msgs []llm.Message) {
	for i := range msgs {
		msgs[i].Content = st.Scrub(msgs[i].Content)
	}
}

func (p *Planner) emitPrompt(st *daemon.PlanState, kind string, msgs []llm.Message) {
	if st.Emit == nil {
		return
	}
	var b strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&b, "[%s]\n%s\n", m.Role, m.Content)
	}
	st.Emit(event.Prompt, event.PromptInfo{Step: st.Step + 1, Kind: kind, Text: p.client.Redact(b.String())})
}

func (p *Planner) emitReply(st *daemon.PlanState, r llm.Reply, d time.Duration, err error) {
	if st.Emit == nil {
		return
	}
	info := event.ReplyInfo{Step: st.Step + 1, Text: p.client.Redact(privacy.Redact(r.Text, passwordText(st, r.Text), false)), PromptTokens: r.PromptTokens,
		CompletionTokens: r.CompletionTokens, MS: d.Milliseconds()}
	if err != nil {
		info.Error = p.client.Redact(err.Error())
	}
	st.Emit(event.LLMReply, info)
}

// withoutSecrets replaces the run's secrets (a password from the command,
// text typed into password fields) in every message by
// privacy.SecretMark: a model never sees them. It types the mark into a
// password field, and the engine types the secret.
func withoutSecrets(msgs []llm.Message, secrets []string) {
	for i := range msgs {
		msgs[i].Content = privacy.Redact(msgs[i].Content, secrets, false)
	}
}

// passwordText returns the text a raw reply would type into a password
// field of the screen, so the reply event can hide it.
func passwordText(st *daemon.PlanState, reply string) []string {
	var a struct {
		Element int    `json:"element"`
		Text    string `json:"text"`
	}
	raw, err := llm.ExtractJSON(reply)
	if err != nil || json.Unmarshal(raw, &a) != nil || a.Text == "" {
		return nil
	}
	if a.Element >= 0 && a.Element < len(st.Elements) && st.Elements[a.Element].Password {
		return []string{a.Text}
	}
	return nil
}

func describeLast(s daemon.StepRecord) string {
	h := lineOf(s)
	out := h.Action
	if h.Label != "" {
		out += fmt.Sprintf(" %q", h.Label)
	}
	if h.Text != "" {
		out += fmt.Sprintf(" text=%q", h.Text)
	}
	return out + " → " + h.Result
}

func appName(st *daemon.PlanState) string {
	if st.AppLabel != "" {
		return st.AppLabel + " (" + st.Package + ")"
	}
	return st.Package
}

// history renders the executed steps for prompts; text typed into
// password fields is masked.
func history(steps []daemon.StepRecord) []llm.HistoryLine {
	out := make([]llm.HistoryLine, 0, len(steps))
	for _, s := range steps {
		out = append(out, lineOf(s))
	}
	return out
}

func lineOf(s daemon.StepRecord) llm.HistoryLine {
	h := llm.HistoryLine{Step: s.Step + 1, Action: s.Action, Label: s.Label, Text: s.Text}
	if s.Target.Password && h.Text != "" {
		h.Text = "••••"
	}
	switch {
	case s.Undo:
		h.Result = "undo of a wrong step"
	case s.Backtracked:
		h.Result = "wrong step, undone"
	case !s.OK:
		h.Result = "no effect: " + s.Message
	case !s.Changed:
		h.Result = "screen unchanged"
	default:
		h.Result = "ok"
	}
	return h
}

// Auto is the composite planner: the graph planner decides when its
// confidence reaches Threshold (no model call); otherwise the LLM planner
// decides, with the graph planner's proposal as a guide.
type Auto struct {
	Graph     daemon.Planner
	LLM       *Planner
	Threshold float64
	llmStep   map[int]bool // steps the LLM decided, for Check
}

// DefaultAutoThreshold is the graph-planner confidence above which Auto
// does not consult the model.
const DefaultAutoThreshold = 0.6

// NewAuto returns the composite planner.
func NewAuto(graph daemon.Planner, l *Planner) *Auto {
	return &Auto{Graph: graph, LLM: l, Threshold: DefaultAutoThreshold, llmStep: map[int]bool{}}
}

// Name implements daemon.Planner.
func (a *Auto) Name() string { return "auto" }

// Next implements daemon.Planner.
func (a *Auto) Next(ctx context.Context, st *daemon.PlanState) (daemon.Decision, error) {
	if st.Step == 0 {
		a.llmStep = map[int]bool{}
	}
	g, err := a.Graph.Next(ctx, st)
	if err == nil && g.Action != daemon.ActFail && g.Confidence >= a.Threshold {
		g.Mode = "graph"
		return g, nil
	}
	guide := "The offline graph planner could not decide confidently."
	if err == nil && g.Action != daemon.ActFail {
		guide = "The offline graph planner proposes: " + describe(st, g) + " — " + g.Reason + ". Follow it if it fits the command."
	} else if err == nil {
		guide += " " + g.Reason
	}
	st2 := *st
	st2.Guides = append(append([]string(nil), st.Guides...), guide)
	d, err := a.LLM.Next(ctx, &st2)
	if err == nil {
		a.llmStep[st.Step] = true
	}
	return d, err
}

// Check implements daemon.Checker: steps the LLM chose are checked by the
// LLM, the others by the graph planner's model-free check.
func (a *Auto) Check(ctx context.Context, st *daemon.PlanState, last daemon.StepRecord) (daemon.Verdict, error) {
	if a.llmStep[last.Step] {
		return a.LLM.Check(ctx, st, last)
	}
	if c, ok := a.Graph.(daemon.Checker); ok {
		return c.Check(ctx, st, last)
	}
	return daemon.Verdict{Correct: last.OK}, nil
}

// Observe implements daemon.Learner by passing through to the graph planner.
func (a *Auto) Observe(ctx context.Context, st *daemon.PlanState, rec daemon.StepRecord) {
	if l, ok := a.Graph.(daemon.Learner); ok {
		l.Observe(ctx, st, rec)
	}
}

func describe(st *daemon.PlanState, d daemon.Decision) string {
	switch d.Action {
	case daemon.ActDone:
		return "the command is complete"
	case device.Back, device.Home:
		return "press " + d.Action
	case device.ImeEnter:
		if d.Element < 0 {
			return "press enter in the focused field"
		}
	}
	label := ""
	if d.Element >= 0 && d.Element < len(st.Elements) {
		label = fmt.Sprintf(" [%d] %q", d.Element, st.Elements[d.Element].Label)
	}
	switch d.Action {
	case device.Input:
		return fmt.Sprintf("type %q into%s", d.Text, label)
	case device.ImeEnter:
		return "press enter in" + label
	}
	return d.Action + label
}

var (
	_ daemon.Planner = (*Planner)(nil)
	_ daemon.Checker = (*Planner)(nil)
	_ daemon.Planner = (*Auto)(nil)
	_ daemon.Checker = (*Auto)(nil)
	_ daemon.Learner = (*Auto)(nil)
)

// Choose builds the planner for a setting: "graph" (no model), "llm"
// (every step by the model), "auto" or "" (the graph planner, and the
// model where the graph planner is unsure; the graph planner alone when
// no endpoint is configured). "llm" without an endpoint is an error.
func Choose(kind string, cfg llm.Config, store *knowledge.Store, graph daemon.Planner) (daemon.Planner, error) {
	var client *llm.Client
	if cfg.Enabled() {
		client = llm.New(cfg)
	}
	return ChooseClient(kind, client, store, graph)
}

// ChooseClient is Choose with a client made by the caller, so that one
// client (and what it learnt about the endpoint: the response format it
// accepts, its Stats) serves many planners, e.g. one per evaluated task.
// A nil client, or one whose config is not Enabled, means no endpoint.
func ChooseClient(kind string, client *llm.Client, store *knowledge.Store, graph daemon.Planner) (daemon.Planner, error) {
	enabled := client != nil && client.Config().Enabled()
	switch kind {
	case "graph":
		return graph, nil
	case "llm":
		if !enabled {
			return nil, fmt.Errorf("planner llm needs an LLM endpoint: set a base URL and model (OPENAI_BASE_URL, WAYFINDER_MODEL) and a key if the endpoint needs one")
		}
		return New(client, store), nil
	case "", "auto":
		if !enabled {
			return graph, nil
		}
		return NewAuto(graph, New(client, store)), nil
	}
	return nil, fmt.Errorf("unknown planner %q (want graph, llm or auto)", kind)
}

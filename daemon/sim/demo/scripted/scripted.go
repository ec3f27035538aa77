// Package scripted is a scripted inspect.Controller for the inspector's
// browser end-to-end test: the built-in demo phone's notes app
// (daemon/sim/demo) whose runs publish the event sequence a real run would
// (run_started, app_chosen, flow_matched, then per step snapshot, prompt,
// llm_reply and action, then flow_saved and run_finished) on an
// event.Bus, paced by Controller.Delay. The first run of a command is
// planned by a scripted "LLM" (so the inspector's prompt and reply panes
// fill without a model); later runs of a similar command replay the flow
// it saved. Nothing here touches a device, a store or a network.
package scripted

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/inspect"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// App is the demo app's package; label its name.
const (
	App      = demo.Package
	appLabel = "Notebook"
)

// routes: the demo app's screens a saved flow passes through, one per
// step ("+title": with the flow's value typed), and the screen it ends on.
var routes = map[string]struct {
	steps []string
	end   string
}{
	"create note": {[]string{"home", "new_note", "new_note+title"}, "editor+title"},
	"dark mode":   {[]string{"home", "menu", "settings"}, "settings_dark"},
}

// Controller is the scripted controller. Set Bus; Delay is the pause
// between two events of a run (0: none). Safe for concurrent use.
type Controller struct {
	Bus   *event.Bus
	Delay time.Duration

	mu     sync.Mutex
	n      int
	runs   map[string]context.CancelFunc
	cur    *screen.Snapshot
	notes  []string
	flows  []knowledge.Flow
	counts map[[2]string]int // transition use counts by screen fingerprints
	graph  *knowledge.Graph
	wg     sync.WaitGroup
}

// New returns a controller publishing to bus, showing the demo app's home
// screen. The error is the demo app's data failing to build.
func New(bus *event.Bus, delay time.Duration) (*Controller, error) {
	c := &Controller{Bus: bus, Delay: delay, runs: map[string]context.CancelFunc{},
		notes: demo.Notes(), counts: map[[2]string]int{}}
	data, err := demo.Load()
	if err != nil {
		return nil, err
	}
	if c.graph, _, err = data.ExplorationGraph(demo.App); err != nil {
		return nil, err
	}
	if c.cur, err = c.screen("home", ""); err != nil {
		return nil, err
	}
	now := time.Now()
	c.flows = []knowledge.Flow{{ID: 1, AppID: 1, Package: App, Name: "dark mode", Intent: "turn on dark mode",
		Commands: []string{"turn on dark mode", "switch to the dark theme"},
		Steps: []knowledge.Step{
			{Index: 0, Action: "tap", Target: screen.Descriptor{Desc: "More options"}, Comment: "open the menu"},
			{Index: 1, Action: "tap", Target: screen.Descriptor{Text: "Settings"}, Comment: "open settings"},
			{Index: 2, Action: "tap", Target: screen.Descriptor{Text: "Dark mode"}, Comment: "switch dark mode on"},
		}, Source: knowledge.SourceLearned, Uses: 4, Successes: 4, Created: now, Updated: now}}
	return c, nil
}

// screen returns the demo app's screen id ("+title": with title typed or
// shown) listing the controller's notes.
func (c *Controller) screen(id, title string) (*screen.Snapshot, error) {
	id, typed := strings.CutSuffix(id, "+title")
	v := demo.Variant{Notes: c.notesCopy()}
	if typed {
		v.Title = title
	}
	return demo.Snapshot(id, v)
}

// shown is a screen a run shows: the snapshot, and the fingerprint of the
// recorded screen it varies (the graph's node).
type shown struct {
	snap  *screen.Snapshot
	print string
}

// screens returns the screens ids with title.
func (c *Controller) screens(title string, ids ...string) ([]shown, error) {
	out := make([]shown, len(ids))
	for i, id := range ids {
		s, err := c.screen(id, title)
		if err != nil {
			return nil, err
		}
		rec, err := demo.Snapshot(strings.TrimSuffix(id, "+title"), demo.Variant{})
		if err != nil {
			return nil, err
		}
		out[i] = shown{s, screen.Fingerprint(rec)}
	}
	return out, nil
}

// Wait blocks until every run started so far has finished.
func (c *Controller) Wait() { c.wg.Wait() }

// Run starts command; see the package doc.
func (c *Controller) Run(ctx context.Context, command string) (string, error) {
	command = strings.TrimSpace(command)
	if command == "" {
		return "", errors.New("demo: empty command")
	}
	c.mu.Lock()
	var flow *knowledge.Flow
	for i := range c.flows {
		if c.flows[i].Name == "create note" && similar(command, c.flows[i].Commands) {
			f := c.flows[i]
			flow = &f
		}
	}
	c.mu.Unlock()
	if flow != nil {
		return c.start(func(ctx context.Context, id string) { c.replay(ctx, id, command, *flow, titleOf(command), 0.93) })
	}
	return c.start(func(ctx context.Context, id string) { c.learn(ctx, id, command) })
}

// Replay starts saved flow flowID with slots.
func (c *Controller) Replay(ctx context.Context, flowID int64, slots map[string]string) (string, error) {
	c.mu.Lock()
	var flow *knowledge.Flow
	for i := range c.flows {
		if c.flows[i].ID == flowID {
			f := c.flows[i]
			flow = &f
		}
	}
	c.mu.Unlock()
	if flow == nil {
		return "", fmt.Errorf("demo: flow %d: %w", flowID, knowledge.ErrNotFound)
	}
	title := slots["title"]
	if title == "" && len(flow.Slots) > 0 {
		title = flow.Slots[0].Example
	}
	cmd := strings.ReplaceAll(flow.Intent, "{"+firstSlot(flow)+"}", title)
	return c.start(func(ctx context.Context, id string) { c.replay(ctx, id, cmd, *flow, title, 1) })
}

// Cancel stops run runID.
func (c *Controller) Cancel(runID string) error {
	c.mu.Lock()
	cancel, ok := c.runs[runID]
	c.mu.Unlock()
	if !ok {
		return fmt.Errorf("demo: run %q: %w", runID, knowledge.ErrNotFound)
	}
	cancel()
	return nil
}

// Snapshot returns the current screen.
func (c *Controller) Snapshot(ctx context.Context) (*screen.Snapshot, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cur, nil
}

// Flows lists the saved flows.
func (c *Controller) Flows(ctx context.Context) ([]knowledge.Flow, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]knowledge.Flow(nil), c.flows...), nil
}

// Graph returns the demo app's explored UI transition graph, each
// transition's count raised by the runs that took it.
func (c *Controller) Graph(ctx context.Context) (*knowledge.Graph, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g := *c.graph
	prints := map[int64]string{}
	for _, s := range g.Screens {
		prints[s.ID] = s.Fingerprint
	}
	g.Transitions = append([]knowledge.Transition(nil), c.graph.Transitions...)
	for i := range g.Transitions {
		t := &g.Transitions[i]
		t.Count += c.counts[[2]string{prints[t.From], prints[t.To]}]
	}
	return &g, nil
}

func (c *Controller) start(script func(ctx context.Context, id string)) (string, error) {
	c.mu.Lock()
	c.n++
	id := fmt.Sprintf("run-%d", c.n)
	ctx, cancel := context.WithCancel(context.Background())
	c.runs[id] = cancel
	c.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer func() {
			c.mu.Lock()
			delete(c.runs, id)
			c.mu.Unlock()
			cancel()
		}()
		script(ctx, id)
	}()
	return id, nil
}

// run is one scripted run's publishing state.
type run struct {
	c        *Controller
	ctx      context.Context
	id       string
	start    time.Time
	step     int
	tokens   int
	llmCalls int
	hits     int
	ms       int64
	prev     string // fingerprint of the recorded screen shown last
}

func (r *run) pub(typ string, data any) bool {
	if r.c.Delay > 0 {
		select {
		case <-r.ctx.Done():
		case <-time.After(r.c.Delay):
		}
	}
	if r.ctx.Err() != nil {
		return false
	}
	r.c.Bus.Publish(r.id, typ, data)
	return true
}

func (r *run) cancelled() {
	r.c.Bus.Publish(r.id, event.RunFinished, event.RunResult{Outcome: knowledge.OutcomeCancelled, Error: "cancelled by the user",
		Mode: "llm", Steps: r.step, LLMCalls: r.llmCalls, Tokens: r.tokens, MS: time.Since(r.start).Milliseconds(), CacheHits: r.hits})
}

// failed ends the run with err (the demo app's screens failing to build).
func (r *run) failed(err error) {
	r.c.Bus.Publish(r.id, event.RunFinished, event.RunResult{Outcome: knowledge.OutcomeFailure, Error: err.Error(),
		Mode: "llm", Steps: r.step, MS: time.Since(r.start).Milliseconds()})
}

// show makes sh the current screen and publishes it as step r.step.
func (r *run) show(sh shown) (event.ScreenInfo, bool) {
	info := inspect.ScreenInfoOf(sh.snap, r.step)
	r.c.mu.Lock()
	r.c.cur = sh.snap
	if r.prev != "" && r.prev != sh.print {
		r.c.counts[[2]string{r.prev, sh.print}]++
	}
	r.prev = sh.print
	r.c.mu.Unlock()
	info.CaptureMS = 38 + int64(r.step*7%23)
	return info, r.pub(event.Snapshot, info)
}

// ask publishes a prompt and the "LLM" reply for it.
func (r *run) ask(kind, command string, snap *screen.Snapshot, reply any, pt, ct int, ms int64) bool {
	text := fmt.Sprintf("You operate the Android app %s for the user.\nTask: %s\nStep: %d\n\nScreen (index: element):\n%s\n"+
		"Reply with JSON {\"action\", \"element\", \"text\", \"reason\"}.", App, command, r.step, screen.Render(screen.Elements(snap)))
	if !r.pub(event.Prompt, event.PromptInfo{Step: r.step, Kind: kind, Text: text}) {
		return false
	}
	b, _ := json.MarshalIndent(reply, "", "  ")
	r.llmCalls++
	r.tokens += pt + ct
	r.ms += ms
	return r.pub(event.LLMReply, event.ReplyInfo{Step: r.step, Text: string(b), PromptTokens: pt, CompletionTokens: ct, MS: ms})
}

// act publishes the action on the element labelled label (an input: the
// screen's first field when none is so labelled, as a field is labelled by
// its hint or its dialog's title).
func (r *run) act(info event.ScreenInfo, mode, action, label, text, reason string, ms int64, tokens int) bool {
	idx := indexOf(info, label)
	for _, e := range info.Elements {
		if idx < 0 && action == "input" && e.Kind == "input" {
			idx = e.Index
		}
	}
	if mode == "replay" || mode == "graph" {
		r.hits++
	}
	r.ms += ms
	return r.pub(event.Action, event.ActionInfo{Step: r.step, Mode: mode, Action: action, Element: idx, Label: label, Text: text,
		Reason: reason, OK: idx >= 0, Changed: true, MS: ms, Tokens: tokens})
}

func (c *Controller) learn(ctx context.Context, id, command string) {
	r := &run{c: c, ctx: ctx, id: id, start: time.Now()}
	title := titleOf(command)
	type choice struct {
		Action  string `json:"action"`
		Element int    `json:"element"`
		Text    string `json:"text,omitempty"`
		Reason  string `json:"reason"`
	}
	ok := r.pub(event.RunStarted, event.RunInfo{Command: command, Planner: "llm"}) &&
		r.pub(event.AppChosen, event.AppInfo{Package: App, Label: appLabel, Score: 0.91, Reason: "the command is about a note"}) &&
		r.pub(event.FlowMatched, event.FlowMatch{Score: 0.18, Threshold: 0.8})
	if !ok {
		r.cancelled()
		return
	}
	snaps, err := c.screens(title, "home", "new_note", "new_note+title", "editor+title")
	if err != nil {
		r.failed(err)
		return
	}
	// step 1: open a new note
	r.step = 1
	info, ok := r.show(snaps[0])
	fab := indexOf(info, "Create a new note")
	why := "Creating a note starts with the Create a new note button."
	ok = ok && r.ask("next_action", command, snaps[0].snap, choice{"tap", fab, "", why}, 812, 41, 640) &&
		r.act(info, "llm", "tap", "Create a new note", "", why, 702, 853)
	// step 2: type the title
	r.step = 2
	if ok {
		info, ok = r.show(snaps[1])
	}
	field := -1
	for _, e := range info.Elements {
		if e.Kind == "input" && field < 0 {
			field = e.Index
		}
	}
	why = "The title field is empty; type the title."
	ok = ok && r.ask("next_action", command, snaps[1].snap, choice{"input", field, title, why}, 774, 47, 588) &&
		r.act(info, "llm", "input", "Title", title, why, 655, 821)
	// step 3: create it, by the known route dialog -> editor
	r.step = 3
	if ok {
		info, ok = r.show(snaps[2])
	}
	ok = ok && r.act(info, "graph", "tap", "Create", "", "known route: Create opens the new note (seen in exploration)", 84, 0)
	// step 4: check the goal
	r.step = 4
	c.mu.Lock()
	c.notes = append([]string{title}, c.notes...)
	c.mu.Unlock()
	if ok {
		_, ok = r.show(snaps[3])
	}
	ok = ok && r.ask("check", command, snaps[3].snap, map[string]any{"done": true, "reason": "the new note is open in the editor"}, 690, 22, 410) &&
		r.pub(event.Log, event.LogInfo{Level: "info", Text: "goal reached: the note is created"})
	if !ok {
		r.cancelled()
		return
	}
	c.mu.Lock()
	var fid int64
	for i, f := range c.flows {
		if f.Name == "create note" { // learned again in other words: one more command for the flow
			c.flows[i].Commands = append(c.flows[i].Commands, command)
			c.flows[i].Uses++
			c.flows[i].Successes++
			c.flows[i].Updated = time.Now()
			c.mu.Unlock()
			r.pub(event.FlowSaved, event.FlowInfo{FlowID: f.ID, Name: f.Name, Intent: f.Intent, Steps: len(f.Steps), Slots: []string{"title"}})
			c.Bus.Publish(id, event.RunFinished, event.RunResult{Outcome: knowledge.OutcomeSuccess, Mode: "llm", Steps: 3, LLMCalls: r.llmCalls,
				Tokens: r.tokens, MS: max(r.ms, time.Since(r.start).Milliseconds()), CacheHits: r.hits, FlowID: f.ID})
			return
		}
		fid = max(fid, f.ID)
	}
	fid++
	now := time.Now()
	c.flows = append(c.flows, knowledge.Flow{ID: fid, AppID: 1, Package: App, Name: "create note", Intent: "create a note titled {title}",
		Commands: []string{command}, Slots: []knowledge.Slot{{Name: "title", Example: title}},
		Steps: []knowledge.Step{
			{Index: 0, Action: "tap", Target: screen.Descriptor{Desc: "Create a new note"}, Comment: "open a new note"},
			{Index: 1, Action: "input", Target: screen.Descriptor{Text: "Title", Editable: true}, Text: "{title}", Comment: "type the title"},
			{Index: 2, Action: "tap", Target: screen.Descriptor{Text: "Create"}, Comment: "create the note"},
		}, Source: knowledge.SourceLearned, Uses: 1, Successes: 1, Created: now, Updated: now})
	c.mu.Unlock()
	r.pub(event.FlowSaved, event.FlowInfo{FlowID: fid, Name: "create note", Intent: "create a note titled {title}", Steps: 3, Slots: []string{"title"}})
	c.Bus.Publish(id, event.RunFinished, event.RunResult{Outcome: knowledge.OutcomeSuccess, Mode: "llm", Steps: 3, LLMCalls: r.llmCalls,
		Tokens: r.tokens, MS: max(r.ms, time.Since(r.start).Milliseconds()), CacheHits: r.hits, FlowID: fid})
}

func (c *Controller) replay(ctx context.Context, id, command string, f knowledge.Flow, value string, score float64) {
	r := &run{c: c, ctx: ctx, id: id, start: time.Now()}
	slot := firstSlot(&f)
	ok := r.pub(event.RunStarted, event.RunInfo{Command: command, Planner: "graph"}) &&
		r.pub(event.AppChosen, event.AppInfo{Package: App, Label: appLabel, Score: 0.95, Reason: "saved flow's app"}) &&
		r.pub(event.FlowMatched, event.FlowMatch{FlowID: f.ID, Name: f.Name, Score: score, Threshold: 0.8, Slots: map[string]string{slot: value}, Replay: true})
	route := routes[f.Name]
	snaps, err := c.screens(value, slices.Concat(route.steps, []string{route.end})...)
	if err != nil || len(route.steps) == 0 {
		r.failed(fmt.Errorf("demo: flow %q: no scripted route (%v)", f.Name, err))
		return
	}
	for i, st := range f.Steps {
		if !ok {
			break
		}
		r.step = i + 1
		snap := snaps[min(i, len(snaps)-2)]
		var info event.ScreenInfo
		info, ok = r.show(snap)
		label, text := st.Target.Label(), ""
		if strings.HasPrefix(st.Text, "{") {
			text = value
		}
		ok = ok && r.act(info, "replay", st.Action, label, text, "step "+fmt.Sprint(i+1)+" of saved flow "+fmt.Sprintf("%q", f.Name), 60+int64(i*9), 0)
	}
	if !ok {
		r.cancelled()
		return
	}
	if f.Name == "create note" {
		c.mu.Lock()
		c.notes = append([]string{value}, c.notes...)
		c.mu.Unlock()
	}
	r.step++
	r.show(snaps[len(snaps)-1])
	c.mu.Lock()
	for i := range c.flows {
		if c.flows[i].ID == f.ID {
			c.flows[i].Uses++
			c.flows[i].Successes++
			c.flows[i].Updated = time.Now()
		}
	}
	c.mu.Unlock()
	c.Bus.Publish(id, event.RunFinished, event.RunResult{Outcome: knowledge.OutcomeSuccess, Mode: "replay", Steps: len(f.Steps),
		MS: max(r.ms, time.Since(r.start).Milliseconds()), CacheHits: r.hits, FlowID: f.ID})
}

func (c *Controller) notesCopy() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.notes...)
}

func firstSlot(f *knowledge.Flow) string {
	if len(f.Slots) > 0 {
		return f.Slots[0].Name
	}
	return "value"
}

func indexOf(info event.ScreenInfo, label string) int {
	for _, e := range info.Elements {
		if e.Label == label {
			return e.Index
		}
	}
	return -1
}

// titleOf takes the note title from a command: the text after "titled" or
// "called", else after the first colon, else the whole command.
func titleOf(command string) string {
	low := strings.ToLower(command)
	for _, w := range []string{" titled ", " called ", ":"} {
		if i := strings.LastIndex(low, w); i >= 0 {
			if t := strings.Trim(strings.TrimSpace(command[i+len(w):]), `"'`); t != "" {
				return t
			}
		}
	}
	return command
}

// similar reports whether command and one of the commands share the words
// before the title.
func similar(command string, commands []string) bool {
	head := func(s string) string {
		t := titleOf(s)
		return strings.ToLower(strings.TrimSpace(strings.TrimSuffix(s, t)))
	}
	for _, c := range commands {
		if h := head(command); h != "" && h == head(c) {
			return true
		}
	}
	return false
}

package steps

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// Instruction outcomes, as Planner.Outcomes reports them.
const (
	StatusPending   = "pending"
	StatusDone      = "done"      // grounded and carried out
	StatusSkipped   = "skipped"   // not needed: a later step was already on screen, or the app was already open
	StatusReplanned = "replanned" // did not fit this phone: the goal was planned instead
	StatusAnswered  = "answered"  // the owner said what to do instead
)

// Outcome is what became of one instruction.
type Outcome struct {
	Instruction
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
}

// Limits of how far the planner departs from the text (constants of this
// implementation, not from PromptRPA, which leaves them to its LLM).
const (
	lookAhead     = 2   // later instructions checked for an already-visible target
	graphTries    = 3   // steps through the UI graph towards one instruction's target
	goalSteps     = 4   // steps planned for the goal when an instruction does not fit
	finishSteps   = 3   // steps planned for the goal after the last instruction
	groundScore   = 0.6 // least label-match score that grounds an instruction
	strictScore   = 0.8 // a match good enough to skip the instructions before it
	maxScrolls    = 3   // exploratory scrolls looking for one instruction's target
	maxDirect     = 4   // failed steps on one instruction before it counts as ungrounded
	innerMinConf  = 0.3 // least inner-planner confidence followed
	sureConf      = 0.5 // inner-planner confidence followed before exploring by scrolling
	finishMinConf = 0.5 // ... after the last instruction
)

// Planner follows a list of instructions, as a daemon.Planner; Inner (the
// graph planner, or auto) grounds through the UI transition graph and plans
// for the goal when an instruction does not fit. Nil Inner: the
// instructions alone, asking the owner when one cannot be grounded. A
// Planner serves one run.
type Planner struct {
	Inner daemon.Planner
	Goal  string

	mu       sync.Mutex
	out      []Outcome
	cur      int
	pending  int  // instruction the last decision acted on (-1 none)
	direct   bool // ... on its own target (a success completes it)
	tries    int  // indirect steps towards cur
	replans  int  // goal steps for cur
	finish   int  // goal steps after the last instruction
	seen     int  // history folded
	asked    string
	askCount int
	bad      map[string]bool // "instruction|label" that had no effect
	scrolls  int             // exploratory scrolls for cur
	listEnd  bool            // a scroll for cur had no effect: the end of the list
}

// New returns a planner for goal following ins.
func New(inner daemon.Planner, goal string, ins []Instruction) *Planner {
	p := &Planner{Inner: inner, Goal: goal, pending: -1}
	for _, in := range ins {
		p.out = append(p.out, Outcome{Instruction: in, Status: StatusPending})
	}
	return p
}

// Name implements daemon.Planner.
func (p *Planner) Name() string {
	if p.Inner != nil {
		return "steps+" + p.Inner.Name()
	}
	return "steps"
}

// Outcomes returns what became of each instruction so far.
func (p *Planner) Outcomes() []Outcome {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Outcome(nil), p.out...)
}

func (p *Planner) mark(st *daemon.PlanState, i int, status, detail string) {
	p.out[i].Status, p.out[i].Detail = status, detail
	if st.Emit != nil {
		st.Emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("instruction %d/%d %q: %s%s", i+1, len(p.out), p.out[i].Text, status, prefix(": ", detail))})
	}
}

func prefix(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

// Next implements daemon.Planner.
func (p *Planner) Next(ctx context.Context, st *daemon.PlanState) (daemon.Decision, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fold(st)
	if p.asked != "" {
		p.useAnswer(st)
	}
	for p.cur < len(p.out) {
		in := p.out[p.cur].Instruction
		var d daemon.Decision
		var ok bool
		var skip string
		if p.tries < maxDirect {
			d, ok, skip = p.ground(st, in)
		}
		if skip != "" {
			p.mark(st, p.cur, StatusSkipped, skip)
			p.advance(p.cur + 1)
			continue
		}
		if ok {
			p.pending, p.direct = p.cur, true
			d.Mode, d.Reason = "steps", fmt.Sprintf("instruction %d/%d %q", p.cur+1, len(p.out), in.Text)+prefix(": ", d.Reason)
			return d, nil
		}
		// a later instruction is already on screen: the ones before it are not needed here
		if k := p.ahead(st); k > p.cur {
			for j := p.cur; j < k; j++ {
				p.mark(st, j, StatusSkipped, "a later instruction's target is already on screen")
			}
			p.advance(k)
			continue
		}
		return p.notGrounded(ctx, st, in)
	}
	return p.afterLast(ctx, st)
}

// fold reads the steps taken since the last call: a successful step on an
// instruction's own target completes it.
func (p *Planner) fold(st *daemon.PlanState) {
	if len(st.History) <= p.seen {
		return
	}
	last := st.History[len(st.History)-1]
	p.seen = len(st.History)
	if p.pending < 0 {
		return
	}
	i := p.pending
	p.pending = -1
	op := p.out[i].Op
	if last.Action == device.Scroll && !last.OK {
		p.listEnd = true
		if op == OpScroll && i == p.cur {
			p.mark(st, i, StatusSkipped, "the list ends before its target")
			p.advance(i + 1)
		}
		return
	}
	ok := last.OK && !last.Backtracked && (last.Changed || op == OpOn || op == OpOff || op == OpInput || op == OpScroll)
	if !ok {
		p.tries++
		if p.bad == nil {
			p.bad = map[string]bool{}
		}
		p.bad[fmt.Sprint(i, "|", last.Label)] = true // not that element again
		return
	}
	if p.direct {
		if p.out[i].Status == StatusPending {
			p.mark(st, i, StatusDone, "")
		}
		if i >= p.cur {
			p.advance(i + 1)
		}
	}
}

// advance moves to instruction i with fresh per-instruction counters.
func (p *Planner) advance(i int) {
	p.cur, p.tries, p.replans, p.scrolls, p.listEnd = i, 0, 0, 0, false
}

// ground finds the instruction's target on the current screen and the
// decision that carries it out. skip, when set, says why the instruction
// needs no action here.
func (p *Planner) ground(st *daemon.PlanState, in Instruction) (d daemon.Decision, ok bool, skip string) {
	switch in.Op {
	case OpBack:
		return daemon.Decision{Action: device.Back, Element: -1, Confidence: 0.9}, true, ""
	case OpHome:
		return daemon.Decision{Action: device.Home, Element: -1, Confidence: 0.9}, true, ""
	case OpScroll:
		if in.Target != "" {
			if i, s := best(st, in.Target, nil); s >= groundScore && i >= 0 {
				return d, false, "its target is on screen"
			}
		}
		dir := device.Forward
		if in.Value == "up" {
			dir = device.Backward
		}
		return daemon.Decision{Action: device.Scroll, Element: -1, Direction: dir, Confidence: 0.6}, true, ""
	case OpInput:
		i := p.inputFor(st, in.Target)
		if i < 0 {
			return d, false, ""
		}
		return daemon.Decision{Action: device.Input, Element: i, Text: in.Value, Confidence: 0.8, Reason: fmt.Sprintf("typing into %q", st.Elements[i].Label)}, true, ""
	}
	if in.Op == OpOpen && names(st, in.Target) {
		return d, false, "the app is already open"
	}
	keep := func(e screen.Element) bool { return !p.bad[fmt.Sprint(p.cur, "|", e.Label)] }
	i, s := best(st, in.Target, keep)
	if s < groundScore && in.Alt != "" {
		i, s = best(st, in.Alt, keep)
	}
	if s < groundScore {
		return d, false, ""
	}
	e := st.Elements[i]
	why := fmt.Sprintf("%q matches %q", e.Label, in.Target)
	switch in.Op {
	case OpOn, OpOff:
		t := toggleFor(st, i)
		if t >= 0 && !keep(st.Elements[t]) {
			return d, false, "" // that switch did nothing for this instruction
		}
		act := daemon.ActEnsureOn
		if in.Op == OpOff {
			act = daemon.ActEnsureOff
		}
		if t < 0 {
			act = device.Tap // a row that switches when tapped
			t = i
		}
		return daemon.Decision{Action: act, Element: t, Confidence: s, Reason: why}, true, ""
	case OpLong:
		return daemon.Decision{Action: device.LongPress, Element: i, Confidence: s, Reason: why}, true, ""
	}
	return daemon.Decision{Action: device.Tap, Element: i, Confidence: s, Reason: why}, true, ""
}

// ahead returns the first of the next lookAhead instructions whose target
// is strictly on screen, or -1.
func (p *Planner) ahead(st *daemon.PlanState) int {
	for k := p.cur + 1; k < len(p.out) && k <= p.cur+lookAhead; k++ {
		in := p.out[k].Instruction
		if in.Target == "" || in.Op == OpScroll {
			continue
		}
		if in.Op == OpInput {
			if p.inputFor(st, in.Target) >= 0 && in.Target != "" {
				return k
			}
			continue
		}
		if _, s := best(st, in.Target, nil); s >= strictScore {
			return k
		}
	}
	return -1
}

// notGrounded handles an instruction whose target is not on screen: go
// towards it through the UI graph, else plan for the goal (the instruction
// does not fit this phone), else ask the owner.
func (p *Planner) notGrounded(ctx context.Context, st *daemon.PlanState, in Instruction) (daemon.Decision, error) {
	n := fmt.Sprintf("instruction %d/%d %q", p.cur+1, len(p.out), in.Text)
	// towards the target through the UI graph when the graph knows the way;
	// else it may be further down this list (PromptRPA's exploratory
	// mechanism: try on the phone rather than trust the text)
	var towards daemon.Decision
	if p.Inner != nil && p.tries < graphTries && in.Target != "" {
		var err error
		if towards, err = p.inner(ctx, st, in.Text); err != nil {
			return towards, err
		}
	}
	follow := func(d daemon.Decision) daemon.Decision {
		p.tries++
		p.pending, p.direct = p.cur, false
		if d.Element >= 0 && d.Element < len(st.Elements) && score(st.Elements[d.Element].Label, in.Target) >= groundScore {
			p.direct = true
		}
		d.Reason = n + ": through the UI graph: " + d.Reason
		return d
	}
	if acts(towards) && towards.Confidence >= sureConf {
		return follow(towards), nil
	}
	if !p.listEnd && p.scrolls < maxScrolls && in.Target != "" && scrollable(st) {
		p.scrolls++
		p.pending, p.direct = p.cur, false
		return daemon.Decision{Action: device.Scroll, Element: -1, Direction: device.Forward, Confidence: 0.4, Mode: "steps",
			Reason: n + ": not on screen; scrolling to look for " + fmt.Sprintf("%q", in.Target)}, nil
	}
	if acts(towards) && towards.Confidence >= innerMinConf {
		return follow(towards), nil
	}
	if p.Inner != nil && p.replans < goalSteps && p.Goal != "" {
		d, err := p.inner(ctx, st, p.Goal)
		if err != nil {
			return d, err
		}
		if d.Action == daemon.ActDone && p.replans > 0 {
			for j := p.cur; j < len(p.out); j++ {
				p.mark(st, j, StatusReplanned, "the goal was reached without it")
			}
			p.cur = len(p.out)
			return d, nil
		}
		if acts(d) && d.Confidence >= innerMinConf {
			if p.replans == 0 {
				p.mark(st, p.cur, StatusReplanned, "not found on this phone; planning for the goal")
			}
			p.replans++
			p.pending = -1
			d.Reason = n + " does not fit this phone; for the goal: " + d.Reason
			return d, nil
		}
	}
	if p.askCount >= 2 {
		return daemon.Decision{Action: daemon.ActFail, Element: -1, Reason: n + " could not be grounded, even with the owner's answers"}, nil
	}
	p.askCount++
	p.asked = fmt.Sprintf("I can't find %q on this screen (step %d of %d: %q). What should I tap instead? Answer with its label, or \"skip\".",
		in.Target, p.cur+1, len(p.out), in.Text)
	return daemon.Decision{Action: daemon.ActAsk, Element: -1, Text: p.asked, Reason: n + " cannot be grounded"}, nil
}

// useAnswer applies the owner's answer to the question put for cur: skip
// it, or ground it on the label they gave.
func (p *Planner) useAnswer(st *daemon.PlanState) {
	q := p.asked
	p.asked = ""
	ans := ""
	for i := len(st.Guides) - 1; i >= 0; i-- {
		g := st.Guides[i]
		if strings.HasSuffix(g, " to: "+q) {
			ans = strings.TrimSuffix(strings.TrimPrefix(g, "The user answered "), " to: "+q)
			ans = strings.Trim(ans, `"`)
			break
		}
	}
	ans = strings.TrimSpace(ans)
	if ans == "" || p.cur >= len(p.out) {
		return
	}
	if strings.EqualFold(ans, "skip") {
		p.mark(st, p.cur, StatusSkipped, "the owner said to skip it")
		p.advance(p.cur + 1)
		return
	}
	o := &p.out[p.cur]
	o.Detail = fmt.Sprintf("the owner said %q", ans)
	o.Target = cleanTarget(ans)
	o.Status = StatusAnswered
	p.tries, p.replans, p.scrolls, p.listEnd = 0, 0, 0, false
}

// afterLast finishes once every instruction was handled: the inner
// planner may complete a goal the text left unfinished (a missing last
// step), when it is confident.
func (p *Planner) afterLast(ctx context.Context, st *daemon.PlanState) (daemon.Decision, error) {
	done := daemon.Decision{Action: daemon.ActDone, Element: -1, Confidence: 0.8, Mode: "steps", Reason: "every instruction was followed"}
	if p.Inner == nil || p.Goal == "" || p.finish >= finishSteps {
		return done, nil
	}
	d, err := p.inner(ctx, st, p.Goal)
	if err != nil {
		return done, nil //nolint:nilerr // the instructions are done; a planner fault here does not undo them
	}
	// only steps forward: back, home or a scroll after the last
	// instruction would undo or wander, not finish
	if acts(d) && d.Confidence >= finishMinConf && d.Action != device.Back && d.Action != device.Home && d.Action != device.Scroll {
		p.finish++
		d.Reason = "after the last instruction, for the goal: " + d.Reason
		return d, nil
	}
	return done, nil
}

// inner asks the inner planner with command in place of the run's command.
func (p *Planner) inner(ctx context.Context, st *daemon.PlanState, command string) (daemon.Decision, error) {
	cp := *st
	cp.Command = command
	d, err := p.Inner.Next(ctx, &cp)
	if err != nil {
		return d, err
	}
	if d.Mode == "" {
		d.Mode = p.Inner.Name()
	}
	return d, nil
}

// acts reports whether d is a device action (not done, fail or ask).
func acts(d daemon.Decision) bool {
	switch d.Action {
	case daemon.ActDone, daemon.ActFail, daemon.ActAsk, "":
		return false
	}
	return true
}

// scrollable reports whether the screen has something to scroll.
func scrollable(st *daemon.PlanState) bool {
	for _, e := range st.Elements {
		if e.Kind == screen.KindScroll {
			return true
		}
		if n := st.Screen.Node(e.NodeID); n != nil && n.Scrollable {
			return true
		}
	}
	return false
}

// inputFor returns the input field an input instruction means: the one
// whose label or hint matches target, else the focused or only input.
func (p *Planner) inputFor(st *daemon.PlanState, target string) int {
	isInput := func(e screen.Element) bool { return e.Kind == screen.KindInput }
	if target != "" {
		if i, s := best(st, target, isInput); s >= groundScore {
			return i
		}
		for i, e := range st.Elements {
			if isInput(e) && (score(e.Hint, target) >= groundScore || score(e.Resource, target) >= groundScore) {
				return i
			}
		}
	}
	only, n := -1, 0
	for i, e := range st.Elements {
		if !isInput(e) {
			continue
		}
		if e.Focused {
			return i
		}
		only, n = i, n+1
	}
	if n == 1 {
		return only
	}
	return -1
}

// best returns the element whose label matches target best, and the score.
func best(st *daemon.PlanState, target string, keep func(screen.Element) bool) (int, float64) {
	bi, bs := -1, 0.0
	for i, e := range st.Elements {
		if keep != nil && !keep(e) || e.Disabled {
			continue
		}
		s := score(e.Label, target)
		if e.Kind == screen.KindText {
			s *= 0.95 // prefer the control to a caption with the same words
		}
		if s > bs {
			bi, bs = i, s
		}
	}
	return bi, bs
}

// names reports whether target names the app itself (its label or a part
// of its package).
func names(st *daemon.PlanState, target string) bool {
	if st.AppLabel != "" && score(st.AppLabel, target) >= groundScore {
		return true
	}
	for _, part := range strings.Split(st.Package, ".") {
		if len(part) > 2 && score(part, target) >= groundScore {
			return true
		}
	}
	return false
}

// toggleFor returns the switch or checkbox that element i labels: itself,
// or a checkable element on the same row; -1 when there is none.
func toggleFor(st *daemon.PlanState, i int) int {
	e := st.Elements[i]
	if n := st.Screen.Node(e.NodeID); n != nil && n.Checkable {
		return i
	}
	cy := (e.Bounds[1] + e.Bounds[3]) / 2
	for j, o := range st.Elements {
		n := st.Screen.Node(o.NodeID)
		if n == nil || !n.Checkable {
			continue
		}
		if o.Bounds[1] <= cy && cy <= o.Bounds[3] {
			return j
		}
		// a toggle inside the row's bounds
		if o.Bounds[1] >= e.Bounds[1] && o.Bounds[3] <= e.Bounds[3] {
			return j
		}
	}
	return -1
}

// words returns the content words of s, lower case (stopwords and
// widget-kind words dropped), and their stems.
func words(s string) (raw, stems []string) {
	all := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '+' })
	for _, w := range all {
		if fillers[w] || intent.IsStopword(w) && len(all) > 1 {
			continue
		}
		raw, stems = append(raw, w), append(stems, intent.Stem(w))
	}
	if len(raw) == 0 { // "More options": every word is a filler, so keep them
		for _, w := range all {
			raw, stems = append(raw, w), append(stems, intent.Stem(w))
		}
	}
	return raw, stems
}

// score is how well a label matches an object description in [0, 1]: the
// share of the description's words found in the label (a synonym counts
// 0.8), lowered a little when the label says much more.
func score(label, target string) float64 {
	traw, tw := words(target)
	_, lw := words(label)
	if len(tw) == 0 || len(lw) == 0 {
		return 0
	}
	have := map[string]bool{}
	for _, w := range lw {
		have[w] = true
	}
	got := 0.0
	for i, w := range tw {
		if have[w] {
			got++
			continue
		}
		for _, syn := range intent.Synonyms(traw[i]) {
			if !strings.Contains(syn, " ") && have[intent.Stem(syn)] {
				got += 0.8
				break
			}
		}
	}
	s := got / float64(len(tw))
	if extra := len(lw) - len(tw); extra > 2 {
		s *= 1 - min(0.3, 0.05*float64(extra-2))
	}
	return s
}

// Package sim is a simulated phone built from recorded apps: it rebuilds an
// app's recorded UI transition graph from a DroidTask/DroidBot-format
// directory (daemon/droidtask) and answers the Device interface from it,
// deterministically. A recorded state is shown as its canonical DroidBot
// capture; an action moves along the recorded edge it matches. An action
// nobody recorded leaves the screen unchanged and says so in the Result
// (OK false, Message "unexplored ..."), as a phone whose tap hit nothing.
//
// Matching rules, in order: the edge's target node is the acted-on node;
// else both resolve to the same clickable node (a tap on a row's label is a
// tap on the row; the target's clickable ancestor); taps at a point are
// hit-tested against the screen first. Among several recorded next states
// for one (state, action, target), the most frequent wins, ties to the
// first recorded. Typed text is kept: after an input action the next
// screen shows the typed value in the same field, so slot values are
// visible to the agent. Elements that the recordings saw only below the
// fold (README: requires_scroll) are revealed by a scroll forward on the
// screen.
//
// The package owns only the simulation; it must not touch the knowledge
// store or the agent.
package sim

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// edge is one recorded transition, resolved against the canonical state.
type edge struct {
	action string // device action type: tap, input, back, launch, home
	node   int    // target node ID in the from state, -1 for none
	text   string // input text recorded
	label  string // html-only target label (below-the-fold targets)
	to     string
	count  int
	latest string // latest event tag (a timestamp), "" for task demonstrations
	order  int
	scroll bool
}

// Phone is a simulated phone running one recorded app (and the launcher
// the recordings saw). Safe for concurrent use.
type Phone struct {
	data *droidtask.Dataset
	app  droidtask.AppInfo
	name string

	mu       sync.Mutex
	edges    map[string][]edge // from state -> edges
	scenario map[string][]edge // from state -> the episode's own recorded edges
	home     string            // launcher state, "" when unknown
	cur      string
	typed    map[string]string // descriptor key -> typed text, on the current screen
	revealed map[int]edge      // node ID of a revealed below-the-fold element -> its edge
	shown    *screen.Snapshot  // the snapshot last returned
	focus    int               // node ID of the field typed into last on this screen, -1 for none
	steps    int
}

// New builds a simulated phone for app from a loaded data set. It fails
// when the app is unknown or has no start state.
func New(data *droidtask.Dataset, app string) (*Phone, error) {
	info, ok := data.Apps[app]
	if !ok {
		return nil, fmt.Errorf("sim: no app %q in %s (have %s)", app, data.Dir, strings.Join(data.AppNames(), ", "))
	}
	p := &Phone{data: data, app: info, name: app, edges: map[string][]edge{}}
	for i, t := range data.AppTransitions(app) {
		e := edge{to: t.To, count: max(t.Count, 1), order: i, node: -1, scroll: t.RequiresScroll, text: t.Action.Text}
		for _, tag := range t.EventTags {
			e.latest = max(e.latest, tag)
		}
		switch t.Action.Type {
		case "click":
			e.action = device.Tap
		case "input":
			e.action = device.Input
		case "key":
			if e.action = keyAction(t.Action.Key); e.action == "" {
				continue
			}
		case "intent":
			e.action = device.Launch
			if p.home == "" && t.FromKnown && t.From != t.To {
				p.home = t.From
			}
		case "kill_app":
			continue
		default:
			continue
		}
		if t.Target != nil {
			switch {
			case t.Target.CanonicalTempID != nil:
				e.node = *t.Target.CanonicalTempID
			case t.Target.HTMLOnly != nil:
				e.label = droidtask.HTMLLabel(t.Target.HTMLOnly.Inner)
			}
		}
		if !t.ToKnown || !data.HasState(app, t.To) {
			continue // a next screen nobody captured cannot be shown
		}
		if (e.action == device.Tap || e.action == device.Input) && e.node < 0 && e.label == "" {
			continue // a target we cannot locate on the canonical capture
		}
		p.edges[t.From] = append(p.edges[t.From], e)
	}
	if info.StartState() == "" {
		return nil, fmt.Errorf("sim: app %q has no start state", app)
	}
	p.reset(info.StartState())
	return p, nil
}

// keyAction maps a recorded DroidBot key event (its key name, as
// Android's KEYCODE_* without the prefix) to a device action type: BACK is
// device.Back; ENTER (the keyboard's Enter, as `adb shell input keyevent
// ENTER` and DroidBot's KeyEvent record it) is device.ImeEnter. Other keys
// have no device action ("").
func keyAction(key string) string {
	switch strings.ToUpper(strings.TrimPrefix(strings.ToUpper(key), "KEYCODE_")) {
	case "BACK":
		return device.Back
	case "ENTER":
		return device.ImeEnter
	}
	return ""
}

func (p *Phone) reset(state string) {
	p.focus = -1
	p.cur = state
	p.typed = map[string]string{}
	p.revealed = map[int]edge{}
	p.shown = nil
}

// Reset puts the phone on a recorded state (a task's start state).
func (p *Phone) Reset(state string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.data.HasState(p.name, state) {
		return fmt.Errorf("sim: no recorded state %s for %s", state, p.name)
	}
	p.reset(state)
	return nil
}

// Episode makes the recorded trajectory of one task the phone's hidden app
// state: an action that the task recorded on a screen leads where it led
// in that recording, even where other recordings of the same action on the
// same screen went elsewhere (README: about 8% of recorded actions have
// several next states, because the app's data differed between
// recordings). Other actions follow the general rule. It also resets the
// phone to the task's start state. Pass nil to clear.
func (p *Phone) Episode(task *droidtask.Task) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.scenario = map[string][]edge{}
	if task == nil {
		return nil
	}
	if !p.data.HasState(p.name, task.StartState) {
		return fmt.Errorf("sim: no recorded start state %s for %s", task.StartState, task.ID)
	}
	for i, st := range task.Actions() {
		e := edge{node: -1, to: st.NextState, count: 1, order: i, text: st.Action.Text, scroll: st.RequiresScroll}
		switch st.Action.Type {
		case "click":
			e.action = device.Tap
		case "input":
			e.action = device.Input
		case "key":
			if e.action = keyAction(st.Action.Key); e.action == "" {
				e.action = device.Back // DroidTask's "go back" steps
			}
		default:
			continue
		}
		switch {
		case st.Action.Target != nil && st.Action.Target.TempID != nil:
			e.node = *st.Action.Target.TempID
		case st.TargetHTML != nil:
			e.label = droidtask.HTMLLabel(st.TargetHTML.Inner)
		}
		p.scenario[st.State] = append(p.scenario[st.State], e)
	}
	p.reset(task.StartState)
	return nil
}

// State returns the current recorded state id.
func (p *Phone) State() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cur
}

// Steps returns the number of actions performed.
func (p *Phone) Steps() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.steps
}

// App returns the simulated app's recorded info.
func (p *Phone) App() droidtask.AppInfo { return p.app }

// Snapshot implements device.Device.
func (p *Phone) Snapshot(ctx context.Context) (*screen.Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.snapshotLocked()
}

func (p *Phone) snapshotLocked() (*screen.Snapshot, error) {
	if p.shown != nil {
		return p.shown, nil
	}
	base, err := p.data.State(p.name, p.cur)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	s := base
	if len(p.typed) > 0 || len(p.revealed) > 0 {
		s = base.Clone()
		for i := range s.Nodes {
			n := &s.Nodes[i]
			if !n.Editable {
				continue
			}
			if v, ok := p.typed[screen.Describe1(base, i).Key()]; ok {
				n.Text = v
				if n.Password {
					// as Android shows a password field: one dot a character
					n.Text = strings.Repeat("•", utf8.RuneCountInString(v))
				}
			}
		}
		if len(p.revealed) > 0 {
			if err := p.appendRevealed(s); err != nil {
				return nil, err
			}
		}
		s.Changed()
	}
	p.shown = s
	return s, nil
}

// Perform implements device.Device.
func (p *Phone) Perform(ctx context.Context, a device.Action) (device.Result, error) {
	start := time.Now()
	if err := ctx.Err(); err != nil {
		return device.Result{}, err
	}
	if err := a.Validate(); err != nil {
		return device.Result{Message: err.Error()}, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.steps++
	res := p.perform(a)
	res.DurationMS = time.Since(start).Milliseconds()
	return res, nil
}

func (p *Phone) perform(a device.Action) device.Result {
	cur, err := p.snapshotLocked()
	if err != nil {
		return device.Result{Message: err.Error()}
	}
	switch a.Type {
	case device.Home:
		if p.home == "" || p.home == p.cur {
			return device.Result{OK: p.home != "", Message: "no launcher screen recorded"}
		}
		p.reset(p.home)
		return device.Result{OK: true, Changed: true}
	case device.Launch:
		if a.Package != p.app.MainPackage {
			return device.Result{Message: fmt.Sprintf("unexplored: %s is not installed on the simulated phone", a.Package)}
		}
		start := p.app.StartState()
		changed := start != p.cur
		p.reset(start)
		return device.Result{OK: true, Changed: changed}
	case device.Scroll:
		return p.scroll(cur, a)
	case device.ImeEnter:
		return p.enter(cur, a)
	}
	node := a.Node
	if a.Type == device.Tap || a.Type == device.LongPress {
		if node < 0 {
			node = cur.HitTest(a.X, a.Y)
		}
	}
	if a.Type == device.LongPress {
		return device.Result{Message: "unexplored: no long press was recorded"}
	}
	if (a.Type == device.Tap || a.Type == device.Input) && cur.Node(node) == nil {
		return device.Result{Message: fmt.Sprintf("no node %d on this screen", node)}
	}
	e, ok := p.match(cur, a.Type, node, a.Text)
	if !ok {
		if a.Type == device.Input {
			// a field nobody recorded typing into still takes the text
			p.typed[screen.Describe1(cur, node).Key()] = a.Text
			p.shown = nil
			return device.Result{OK: true, Changed: true, Message: "unexplored: text typed, screen otherwise unchanged"}
		}
		return device.Result{Message: fmt.Sprintf("unexplored: no recorded %s on %s here", a.Type, labelOf(cur, node))}
	}
	var carry map[string]string
	if a.Type == device.Input {
		carry = map[string]string{screen.Describe1(cur, node).Key(): a.Text}
	}
	changed := e.to != p.cur || a.Type == device.Input
	if e.to != p.cur || a.Type != device.Input {
		p.reset(e.to)
	}
	for k, v := range carry {
		p.typed[k] = v
	}
	if a.Type == device.Input && e.to == p.cur {
		p.focus = node
	}
	p.shown = nil
	return device.Result{OK: true, Changed: changed}
}

// enter presses the keyboard's Enter in a field: the acted-on node, else
// the field typed into last on this screen, else the focused editable node
// of the capture. It follows a recorded ENTER key event from this screen
// (on that field, or recorded without a target); none recorded leaves the
// screen as it is, like any unexplored action.
func (p *Phone) enter(cur *screen.Snapshot, a device.Action) device.Result {
	field := a.Node
	if field < 0 {
		field = p.focus
	}
	if field < 0 {
		for i := range cur.Nodes {
			if n := &cur.Nodes[i]; n.Editable && n.Focused {
				field = i
				break
			}
		}
	}
	n := cur.Node(field)
	if n == nil {
		return device.Result{Message: "no input field has focus"}
	}
	if !n.Editable {
		return device.Result{Message: fmt.Sprintf("%s is not an input field", labelOf(cur, field))}
	}
	e, ok := p.match(cur, device.ImeEnter, field, "")
	if !ok {
		return device.Result{Message: fmt.Sprintf("unexplored: no recorded enter in %s here", labelOf(cur, field))}
	}
	changed := e.to != p.cur
	if changed {
		p.reset(e.to)
	}
	p.shown = nil
	return device.Result{OK: true, Changed: changed}
}

func labelOf(s *screen.Snapshot, id int) string {
	n := s.Node(id)
	if n == nil {
		return "nothing"
	}
	if l := n.Label(); l != "" {
		return fmt.Sprintf("%q", l)
	}
	if n.ResourceID != "" {
		return n.ResourceName()
	}
	return n.ShortClass()
}

// scroll reveals the elements the recordings reached below the fold of the
// current screen (forward) or hides them again (backward).
func (p *Phone) scroll(cur *screen.Snapshot, a device.Action) device.Result {
	if a.Direction == device.Backward {
		if len(p.revealed) == 0 {
			return device.Result{Message: "unexplored: already at the top"}
		}
		p.revealed = map[int]edge{}
		p.shown = nil
		return device.Result{OK: true, Changed: true}
	}
	if len(p.revealed) > 0 {
		return device.Result{Message: "unexplored: nothing more was recorded below"}
	}
	next := len(cur.Nodes)
	for _, e := range append(p.scenario[p.cur], p.edges[p.cur]...) {
		if e.scroll && e.label != "" && !revealedLabel(p.revealed, e.label) {
			p.revealed[next] = e
			next++
		}
	}
	if len(p.revealed) == 0 {
		return device.Result{Message: "unexplored: no content was recorded below the fold here"}
	}
	p.shown = nil
	return device.Result{OK: true, Changed: true}
}

func revealedLabel(m map[int]edge, label string) bool {
	for _, e := range m {
		if e.label == label {
			return true
		}
	}
	return false
}

// appendRevealed adds one clickable row per revealed edge at the bottom of
// the first scrollable container (or the screen), in node-ID order.
func (p *Phone) appendRevealed(s *screen.Snapshot) error {
	parent := -1
	for i := range s.Nodes {
		if s.Nodes[i].Scrollable {
			parent = i
			break
		}
	}
	if parent < 0 {
		parent = s.Roots()[len(s.Roots())-1]
	}
	pb := s.Nodes[parent].Bounds
	rowH := 150
	ids := make([]int, 0, len(p.revealed))
	for id := range p.revealed {
		ids = append(ids, id)
	}
	sortInts(ids)
	for k, id := range ids {
		if id != len(s.Nodes) {
			return fmt.Errorf("sim: revealed node %d out of order", id)
		}
		e := p.revealed[id]
		top := max(pb[1], pb[3]-rowH*(len(ids)-k))
		n := screen.Node{ID: id, Parent: parent, Window: s.Nodes[parent].Window,
			Class: "android.widget.TextView", Package: s.Nodes[parent].Package, Text: e.label,
			Bounds: screen.Rect{pb[0], top, pb[2], top + rowH}, Clickable: true, Focusable: true, Enabled: true, Visible: true}
		if sw := p.switchAfter(e); sw != nil {
			// the row's tap led to a screen showing it as a check box or
			// switch: it is one, in the state before that tap
			n.Class, n.Checkable, n.Checked = sw.Class, true, !sw.Checked
		}
		s.Nodes = append(s.Nodes, n)
		s.Nodes[parent].Children = append(s.Nodes[parent].Children, id)
	}
	return nil
}

// switchAfter returns the checkable node labelled e.label on the screen
// e leads to, nil when there is none: a row revealed below the fold is
// recorded by its label only, and a check box's tap stays on a screen
// that shows it toggled.
func (p *Phone) switchAfter(e edge) *screen.Node {
	to, err := p.data.State(p.name, e.to)
	if err != nil {
		return nil
	}
	for i := range to.Nodes {
		if n := &to.Nodes[i]; n.Checkable && n.Text == e.label {
			return n
		}
	}
	return nil
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// InstalledApps implements device.Device: the simulated app.
func (p *Phone) InstalledApps(ctx context.Context) ([]device.App, error) {
	return []device.App{{Package: p.app.MainPackage, Label: p.data.Label(p.name)}}, ctx.Err()
}

// ForegroundApp implements device.Device.
func (p *Phone) ForegroundApp(ctx context.Context) (string, error) {
	s, err := p.Snapshot(ctx)
	if err != nil {
		return "", err
	}
	return s.ForegroundPackage(), nil
}

var _ device.Device = (*Phone)(nil)

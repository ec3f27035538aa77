package daemon

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// A saved flow confirmed by planning it again, on paper: when no flow
// matches a command well enough by its words (daemon/intent) or meaning
// (daemon/semantic), the route checker — a planner that makes no model
// call, the graph planner — is walked over the screens a candidate flow
// recorded, as if the phone showed them. The flow replays only when, at
// every step, the checker chooses the very element and action the flow
// took (and, where the flow types or picks a slot's value, gives it one),
// and then declares the command done, sure of it, on the flow's end
// screen. Two readings that share no rule — sentence similarity over the
// flow's words and element scoring over its screens — must agree on the
// whole route and on the end state; nothing touches the phone meanwhile.
// This is UICOMPASS's simulated execution (§3.3) used as a check of a
// remembered route instead of a search for a new one.

// RouteCheckCandidates is how many of a command's best flow candidates
// (by the model's cosine, else the lexical score) the route checker
// walks; a walk of a flow for the command that learned it took 5.6 ms
// p50 and 18 ms p99 on a 2-core AMD EPYC (`wayfinder bench`, stop 38).
// 5, not 3 since stop 57: on the tuning sets +5 right replays ("favorite
// Ana" walks the favourites flow, sixth by meaning before), no wrong one,
// with confirmed flows that replay as one route no guess (oneRoute).
const RouteCheckCandidates = 5

// routeCheckFloor is the least lexical score or cosine a candidate needs
// to be walked at all: the bottom of the grey zone (semantic.Config's
// on-device default), below which a flow shares too little with the
// command to be worth unpacking its screens.
const routeCheckFloor = 0.1

// Resetter is implemented by planners that keep per-run state: Reset
// forgets it, so that a check of one flow's route starts clean of the
// last.
type Resetter interface {
	Reset()
}

// routeFits reports the candidates among cands whose route the checker
// confirms, with the slot values the walk bound (cands carry the
// matcher's own values; the walk's replace them), and why each other one
// walked was not. The walk reads only the store; it never acts.
func (r *run) routeFits(ctx context.Context, cands []intent.Candidate, flows map[int64]*knowledge.Flow) (fits []intent.Candidate, whyNot []string) {
	p := r.cfg.RouteCheck
	if p == nil || r.e.store == nil {
		return nil, nil
	}
	walked := 0
	for _, c := range cands {
		f := flows[c.FlowID]
		if f == nil || f.Package != r.res.Package || f.Goal == nil || len(f.Steps) == 0 || !f.Healthy() {
			continue
		}
		if walked >= RouteCheckCandidates {
			break
		}
		walked++
		var sub substitution
		if c.Substituted {
			sub = substitution{c.Unmatched, c.FlowUnmatched}
		}
		slots, rows, why := r.checkFlow(ctx, p, f, sub)
		unsaid := ""
		if why == "" && len(rows) == 0 {
			unsaid = unsaidValue(r.res.Command, slots)
		}
		switch {
		case why != "" || len(rows) > 0:
		case unsaid != "":
			// the walk took the row or option the flow learned, which this
			// command does not name: replaying it would act on that one
			why = fmt.Sprintf("the walk gives {%s} %q, which the command does not say", unsaid, r.private(slots[unsaid]))
		case slices.Contains(c.Vetoes, intent.VetoValue):
			why = "the command names another value, and the walk tapped no row carrying it"
		case slices.Contains(c.Vetoes, intent.VetoLiteral):
			if intent.Universal(r.res.Command) && !intent.Universal(learnedAs(f)) {
				why = "the command asks for all of something, and the flow was learned for one"
			} else if row, ok := unnamedRow(f, r.res.Command); ok {
				why = fmt.Sprintf("the flow taps the row %q its own command named, which this one does not", r.private(row))
			}
		}
		if why != "" {
			whyNot = append(whyNot, fmt.Sprintf("flow %d: %s", f.ID, why))
			continue
		}
		c.Slots = slots
		fits = append(fits, c)
		if len(rows) > 0 {
			if r.routeRows == nil {
				r.routeRows = map[int64]map[int]string{}
			}
			r.routeRows[f.ID] = rows
		}
	}
	return fits, whyNot
}

// unsaidValue returns the name of a slot whose value in slots shares no
// word with command (an option or row the walk took as the flow learned
// it: "Tamsin" for "ring Orla"), or "". Stop words aside, words compare
// by stem.
func unsaidValue(command string, slots map[string]string) string {
	said := wordStems(command)
	for _, name := range slices.Sorted(maps.Keys(slots)) {
		if st := contentStems(slots[name]); len(st) > 0 && !slices.ContainsFunc(st, func(s string) bool { return said[s] }) {
			return name
		}
	}
	return ""
}

// substitution: the command's words that stand in for the flow's
// (PlanState.Strict, Replaced).
type substitution struct{ words, replaced []string }

// checkFlow walks checker p over flow f (walkRoute), leaves p clean for
// the next walk, and doubts the values the walk gave (valueDoubt): the
// slot values and the other rows the walk tapped (walkRoute), or why the
// route does not fit the run's command.
func (r *run) checkFlow(ctx context.Context, p Planner, f *knowledge.Flow, sub substitution) (map[string]string, map[int]string, string) {
	slots, rows, why := r.walkRoute(ctx, p, f, sub)
	if rs, ok := p.(Resetter); ok {
		rs.Reset()
	}
	if why == "" {
		why = r.valueDoubt(f, slots)
	}
	return slots, rows, why
}

// valueDoubt says why the values a walk gave are not to be typed on
// their own — the doubts the matcher has of its own values
// (slotvalues.go) — or "".
func (r *run) valueDoubt(f *knowledge.Flow, slots map[string]string) string {
	if name, _, ok := runOnValue(f, r.res.Command, slots); ok {
		return fmt.Sprintf("the value for {%s} runs on over more than the flow's example", name)
	}
	if name, ok := unnamedValue(f, r.res.Command, slots); ok {
		return fmt.Sprintf("the command gives {%s} without naming it as the flow did", name)
	}
	if name, ok := misplacedValue(f, r.res.Command, slots); ok {
		return fmt.Sprintf("the value for {%s} crosses an option of a choice step", name)
	}
	if name, ok := fileInValue(f, r.res.Command, slots); ok {
		return fmt.Sprintf("the value for {%s} names a file among other words", name)
	}
	return ""
}

// walkRoute walks planner p over the screens flow f kept (the run that
// learned or last replayed it saw them: knowledge.FlowScreen). It
// returns the slot values the walk gave and the list rows it tapped in
// place of the flow's (otherRow: step index → the row's name, nil when
// none), or why the route was not confirmed; sub: the command's words
// standing in for the flow's.
func (r *run) walkRoute(ctx context.Context, p Planner, f *knowledge.Flow, sub substitution) (map[string]string, map[int]string, string) {
	kept, err := r.e.store.FlowScreens(ctx, f.ID)
	if err != nil {
		return nil, nil, "its screens could not be read: " + err.Error()
	}
	if len(kept) != len(f.Steps)+1 {
		return nil, nil, "its screens were not kept" // learned before they were, or repaired with a step unaccounted for
	}
	typed := map[string]string{} // descriptor key of a field → text the walk typed there
	slots := map[string]string{}
	var rows map[int]string
	var hist []StepRecord
	owed := -1 // a later step the checker must agree with itself (onTheWay)
	for i, sc := range kept {
		fp := f.Goal.Screen
		if i < len(f.Steps) {
			fp = f.Steps[i].Screen
		}
		if sc.Index != i || sc.Fingerprint != fp {
			return nil, nil, fmt.Sprintf("its screen %d is not the one its step %d acts on", sc.Index, i+1)
		}
		s, err := walkScreen(sc.Snapshot, typed)
		if err != nil {
			return nil, nil, fmt.Sprintf("screen %d: %v", i, err)
		}
		if i > 0 {
			hist[i-1].After = fp
			hist[i-1].Changed = hist[i-1].Screen != fp || hist[i-1].Action == device.Input
			if hist[i-1].Toggle != "" {
				hist[i-1].Toggled = toggledIn(s, hist[i-1])
			}
		}
		if name, ok := valueTapAt(f, i); ok && slots[name] != "" {
			// the row showing the value the walk typed before: this
			// screen shows the rows for the value the flow typed when it
			// kept it, so the walk takes the step as the replay will
			// (valuetap.go), and the checker reads it in the history
			step := f.Steps[i]
			hist = append(hist, StepRecord{Step: i, Screen: fp, Action: device.Tap, Target: step.Target, Label: slots[name], OK: true, Where: goalOf(s, fp)})
			continue
		}
		st := &PlanState{Check: true, Command: r.res.Command, Package: r.res.Package, AppLabel: r.appLabel, AppID: r.app.ID, Screen: s,
			Elements: screen.Elements(s), Print: fp, History: hist, Step: i, StepLimit: r.cfg.StepLimit,
			Penalties: map[string]float64{}, Emit: func(string, any) {}, Secrets: r.secrets, Private: r.owner, Embedder: r.cfg.Embedder, Strict: sub.words, Replaced: sub.replaced, Learned: learnedAs(f)}
		d, err := p.Next(ctx, st)
		if err != nil {
			return nil, nil, "the checker failed: " + err.Error()
		}
		if i == len(f.Steps) {
			switch {
			case d.Action != ActDone:
				return nil, nil, fmt.Sprintf("on the flow's end screen the checker would %s, not stop", d.Action)
			case d.Unsure:
				return nil, nil, "on the flow's end screen the checker is not sure the command is done"
			}
			return slots, rows, ""
		}
		rec, why := agrees(s, st, d, f.Steps[i], flowSaid(f), slots)
		if why != "" {
			if way, ok := onTheWay(p, s, st, f, i, &owed); ok {
				rec, why = way, ""
			}
		}
		if why != "" {
			return nil, nil, fmt.Sprintf("step %d: %s", i+1, why)
		}
		if i == owed {
			owed = -1
		}
		if _, slot := knowledge.SlotRef(f.Steps[i].Text); !slot && rec.Target.Key() != f.Steps[i].Target.Key() {
			if rows == nil {
				rows = map[int]string{}
			}
			rows[f.Steps[i].Index] = screen.RowName(rec.Label)
		}
		if rec.Action == device.Input && rec.Target.Class != "" {
			typed[rec.Target.Key()] = rec.Text
		}
		rec.Step, rec.Screen, rec.OK, rec.Mode, rec.Reason, rec.Where = i, fp, true, d.Mode, d.Reason, goalOf(s, fp)
		hist = append(hist, rec)
	}
	return nil, nil, "no end screen" // not reached: kept holds one
}

// valueTapAt is IsValueTap of f's step i, false past its last step.
func valueTapAt(f *knowledge.Flow, i int) (string, bool) {
	if i >= len(f.Steps) {
		return "", false
	}
	return IsValueTap(f.Steps[i])
}

// learnedAs is the command flow f was learned for (its first past
// command), else its intent.
func learnedAs(f *knowledge.Flow) string { return flowSaid(f)[0] }

// flowSaid returns the commands flow f was learned and replayed for, the
// one it was learned for first; its intent when it has none.
func flowSaid(f *knowledge.Flow) []string {
	if len(f.Commands) > 0 {
		return f.Commands
	}
	return []string{f.Intent}
}

// agrees compares the checker's decision d on screen s with the flow's
// step; it returns the step as the walk took it, or why they differ. A
// step that types or picks a slot's value binds it in slots. said are
// the commands the flow was learned and replayed for, the one it was
// learned for first (learnedAs, flowSaid): where the step sets a switch,
// the words of one of them must ask for the state the step leaves it in,
// as the command's do.
func agrees(s *screen.Snapshot, st *PlanState, d Decision, step knowledge.Step, said []string, slots map[string]string) (StepRecord, string) {
	learned := said[0]
	rec := StepRecord{Action: step.Action, Target: step.Target, Label: step.Target.Label()}
	if d.Element < 0 || d.Element >= len(st.Elements) {
		switch {
		case d.Action != step.Action:
			return rec, fmt.Sprintf("the checker would %s, the flow %ss", d.Action, step.Action)
		case d.Action == device.Scroll && cmp.Or(d.Direction, device.Forward) != cmp.Or(step.Text, device.Forward):
			return rec, "the checker would scroll the other way"
		case step.Target.Class != "" && d.Action != device.Scroll && d.Action != device.ImeEnter:
			return rec, "the checker would act on no element"
		}
		return rec, ""
	}
	if step.Target.Password {
		return rec, "a password is never checked on paper" // the replay asks for it
	}
	el := &st.Elements[d.Element]
	if d.Action == ActEnsureOn && step.Action == device.Tap && isOption(s, el) && toggleOf(s, el) != toggleOn {
		// an option not chosen yet: choosing it is tapping it, as the
		// flow does
		d.Action = device.Tap
	}
	target := screen.Describe(s, el.NodeID)
	name, isSlot := knowledge.SlotRef(step.Text)
	switch {
	case target.Key() == step.Target.Key():
		if isSlot && step.Action == device.Tap {
			rec.Target, rec.Label = target, el.Label // the option the walk picked, as its label reads
		}
	case isSlot && step.Action == device.Tap && d.Action == device.Tap && hasLabel(step.Choices, el.Label):
		// another option of the group the flow picks a slot's value from
		rec.Target, rec.Label = target, el.Label
	case !isSlot && step.Action == device.Tap && d.Action == device.Tap && swappedPeer(s, st, step, el):
		// the flow's element with the command's word in place of the
		// flow's ("Tilt left" for "Tilt right"): the replay taps it
		// (run.rows), as another row named
		rec.Target, rec.Label = target, el.Label
	case !isSlot && step.Action == device.Tap && d.Action == device.Tap && otherRow(s, st, step, el, learned):
		// the row the command names in place of the one the flow's
		// command named ("Dora" for "Ezra"): the replay taps it (run.rows)
		rec.Target, rec.Label = target, el.Label
	default:
		return rec, fmt.Sprintf("the checker would %s %q, the flow %ss %q", d.Action, el.Label, step.Action, step.Target.Label())
	}
	if t := toggleOf(s, el); t != "" && !isOption(s, el) && isSetting(step.Action) && isSetting(d.Action) {
		// a switch: the walk and the flow must leave it in the same
		// state, the one the command asks for
		if step.Action == device.Tap && !slices.ContainsFunc(said, func(c string) bool { return asksFor(c, el.Label, setsTo(device.Tap, t)) }) {
			// the kept screen shows the switch in the state the flow's
			// own commands asked for: a screen kept after the tap (a
			// recording keeps one capture for every visit of a screen),
			// so the tap set it from the other state to the asked one —
			// what the flow did for those commands, and does again for
			// one asking the same ("stop syncing photos on mobile data"
			// is not "sync photos on mobile data")
			t = setsTo(device.Tap, t)
		}
		want, got := setsTo(step.Action, t), setsTo(d.Action, t)
		if d.Action == device.Tap && !asksFor(st.Command, el.Label, got) {
			return rec, fmt.Sprintf("the checker would tap %q, which sets it %s, not as the command asks", el.Label, got)
		}
		if got != want {
			return rec, fmt.Sprintf("the checker would set %q %s, the flow %s", el.Label, got, want)
		}
		if !slices.ContainsFunc(said, func(c string) bool { return asksFor(c, el.Label, want) }) {
			// the screen kept shows the switch in a state none of its
			// own commands turned it from: what the flow's tap does is
			// not known
			return rec, fmt.Sprintf("the flow's tap sets %q %s on its kept screen, not as the commands it was learned and replayed for ask", el.Label, want)
		}
		d.Action = step.Action
	}
	if d.Action == device.Input && step.Action == device.Tap && step.Target.Editable && target.Key() == step.Target.Key() {
		// the flow tapped the field before typing into it, the checker
		// types at once: the tap only focuses it, and the checker is
		// asked again on the screen after it
		d.Action = device.Tap
	}
	if d.Action != step.Action {
		// a tap on a toggle where the flow sets it on or off: the
		// checker does not say which state the command wants
		return rec, fmt.Sprintf("the checker would %s %q, the flow %ss it", d.Action, el.Label, step.Action)
	}
	if d.Action == device.Tap || d.Action == ActEnsureOn || d.Action == ActEnsureOff {
		rec.Toggle = toggleOf(s, el)
	}
	switch {
	case step.Action == device.Input && isSlot:
		if strings.TrimSpace(d.Text) == "" {
			return rec, "the checker would type nothing"
		}
		rec.Text, slots[name] = d.Text, d.Text
	case step.Action == device.Input:
		if !strings.EqualFold(strings.TrimSpace(d.Text), strings.TrimSpace(step.Text)) {
			return rec, "the checker would type other text than the flow"
		}
		rec.Text = d.Text
	case isSlot && step.Action == device.Tap:
		if len(step.Choices) == 0 {
			return rec, "the flow taps the row its typed value shows" // not checked on a recording
		}
		slots[name] = el.Label
		if !isOption(s, el) {
			// a row is its first text ("memo1.ogg · 12 kB · …" is
			// "memo1.ogg"), as the flow learned it (act: rowHeads)
			slots[name] = rowChoice(el.Label)
		}
	}
	return rec, ""
}

// isSetting reports whether action can set a switch: a tap, or
// ensure_on / ensure_off.
func isSetting(action string) bool {
	return action == device.Tap || action == ActEnsureOn || action == ActEnsureOff
}

// setsTo is the state ("on", "off") action leaves a switch in that shows
// state shown: ensure_on / ensure_off theirs, a tap the other.
func setsTo(action, shown string) string {
	switch {
	case action == ActEnsureOn, action == device.Tap && shown == toggleOff:
		return toggleOn
	}
	return toggleOff
}

// asksFor reports whether command asks for the switch labelled label to
// be in state: by its on / off words (intent.SwitchState), or, without
// any, on — off when negated: a command that names a setting asks to
// have it.
func asksFor(command, label, state string) bool {
	want := intent.SwitchState(command, label)
	if want == 0 {
		want = 1
		if intent.Negated(command) {
			want = -1
		}
	}
	return (want > 0) == (state == toggleOn)
}

// hasLabel reports whether labels holds label, case folded.
func hasLabel(labels []string, label string) bool {
	for _, l := range labels {
		if strings.EqualFold(strings.TrimSpace(l), strings.TrimSpace(label)) {
			return true
		}
	}
	return false
}

// hardVeto: the matcher's rules a route check never overrules — an
// opposite, a negation on one side, swapped roles (issue 11: those rules
// stay whatever a model says). Another value or name of the command
// (intent.VetoValue) it overrules only by tapping, on the flow's kept
// screens, the row the command names in place of the flow's; a value of
// the flow's the command leaves out (intent.VetoLiteral), only where that
// value is no row the flow tapped (routerows.go, routeFits).
func hardVeto(v string) bool {
	switch v {
	case intent.VetoOpposite, intent.VetoNegation, intent.VetoRoles:
		return true
	}
	return false
}

// barStands reports whether bar b, a reason the embedding check gave not
// to promote a candidate, stands whatever a route check finds: a choice
// the command leaves out, a stretched value, a contradiction — the walk
// over one recorded route cannot tell those apart. Other bars the walk
// may overrule: too few words in common, a requirement that differs and
// the walk itself checks (a veto embeddings may not bridge, a slot the
// matcher found no value for), or a substituted word that names another
// element, which the walk must then find on a step's own target as
// written (substitution, daemon.PlanState.Strict).
func barStands(b string) bool {
	switch b {
	case semantic.BarChoice, semantic.BarStretched, semantic.BarContradicted, semantic.BarGone:
		return true
	}
	return false
}

// routeCheck walks the command's best candidates (d's when embeddings
// were compared, else the lexical cands), best first by the higher of
// their cosine and lexical score, and returns the one flow whose route
// the checker confirms. Two or more confirmed flows are a guess between
// them — none is returned — unless they replay as one route (oneRoute).
func (r *run) routeCheck(ctx context.Context, d semantic.Decision, cands []intent.Candidate, flows map[int64]*knowledge.Flow) (intent.Candidate, bool) {
	if r.cfg.RouteCheck == nil {
		return intent.Candidate{}, false
	}
	type scored struct {
		c     intent.Candidate
		score float64
	}
	var order []scored
	seen := map[int64]bool{}
	add := func(c intent.Candidate, cos float64) {
		if slices.ContainsFunc(c.Vetoes, hardVeto) {
			return
		}
		if s := max(c.Score, cos); !seen[c.FlowID] && s >= routeCheckFloor {
			seen[c.FlowID] = true
			order = append(order, scored{c, s})
		}
	}
	for i, c := range d.Cands {
		if i < len(d.Barred) && barStands(d.Barred[i]) {
			seen[c.FlowID] = true // nor as a lexical candidate
			continue
		}
		cos := -1.0
		if i < len(d.Cosine) {
			cos = d.Cosine[i]
		}
		add(c, cos)
	}
	for _, c := range cands {
		if r.sem == nil && c.Substituted {
			// a word of the flow's swapped for another ("the last video" for
			// "the last photo"): with no model to tell a synonym from
			// another thing, a walk whose screens show both is no evidence
			continue
		}
		add(c, -1)
	}
	slices.SortStableFunc(order, func(a, b scored) int { return cmp.Compare(b.score, a.score) })
	walk := make([]intent.Candidate, len(order))
	for i, o := range order {
		walk[i] = o.c
	}
	fits, whyNot := r.routeFits(ctx, walk, flows)
	r.routeWhy = whyNot
	switch len(fits) {
	case 0:
		if len(whyNot) > 0 {
			r.emit(event.Log, event.LogInfo{Level: "info", Text: "route check: no saved flow's route, planned again, does what the command asks (" + r.private(strings.Join(whyNot, "; ")) + ")"})
		}
		return intent.Candidate{}, false
	case 1:
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow matching: the route of flow %d, planned again over its recorded screens, does what the command asks", fits[0].FlowID)})
		if rows := r.routeRows[fits[0].FlowID]; len(rows) > 0 {
			// the replay taps the rows the walk took (rebound): another
			// route than the flow's, neither learned nor repaired
			r.rows = rows
			r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow matching: flow %d replays with the row %s in place of the one it learned", fits[0].FlowID, r.private(quoteAll(rows)))})
		}
		return fits[0], true
	}
	routes := make([]candidateRoute, len(fits))
	for i, c := range fits {
		routes[i] = candidateRoute{flows[c.FlowID], r.routeRows[c.FlowID], c.Slots}
	}
	if oneRoute(routes) {
		// the same taps on the same screens, whichever is replayed
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow matching: the routes of %d flows fit the command and replay as one; flow %d replays", len(fits), fits[0].FlowID)})
		if rows := r.routeRows[fits[0].FlowID]; len(rows) > 0 {
			r.rows = rows
		}
		return fits[0], true
	}
	r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow matching: the routes of %d flows fit the command; none replayed", len(fits))})
	return intent.Candidate{}, false
}

// CheckRoute walks the route checker over saved flow flowID's recorded
// screens for command, as flow matching does for a command no flow
// matched well enough, and returns the slot values the walk gave and why
// the route was not confirmed ("" when it was). For tools: timing the
// walk (`wayfinder bench`) and asking why a command did not replay a
// flow. Errors: no route checker configured (Config.RouteCheck), no such
// flow, the store failing.
func (e *Engine) CheckRoute(ctx context.Context, command string, flowID int64) (map[string]string, string, error) {
	if e.cfg.RouteCheck == nil {
		return nil, "", errors.New("daemon: no route checker configured")
	}
	f, err := e.store.Flow(ctx, flowID)
	if err != nil {
		return nil, "", err
	}
	app, err := e.store.AppByPackage(ctx, f.Package)
	if err != nil {
		return nil, "", err
	}
	e.runMu.Lock() // the checker's run state is one, as the phone is
	defer e.runMu.Unlock()
	r := &run{e: e, cfg: e.cfg, app: app, appLabel: cmp.Or(app.Label, e.matcher.label(f.Package)), secrets: privacy.SecretsIn(command),
		res: &Result{Command: command, Package: f.Package}}
	slots, _, why := r.checkFlow(ctx, e.cfg.RouteCheck, f, substitution{})
	return slots, why, nil
}

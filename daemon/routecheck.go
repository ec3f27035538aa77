package daemon

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
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
// walks; each walk is a few graph-planner steps (about 1 ms each on a
// workstation core, see `wayfinder bench`).
const RouteCheckCandidates = 3

// routeCheckFloor is the least lexical score or cosine a candidate needs
// to be walked at all: below it the flow shares too little with the
// command to be worth the snapshots' parsing.
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
		if f == nil || f.Package != r.res.Package || f.Goal == nil || len(f.Steps) == 0 {
			continue
		}
		if walked >= RouteCheckCandidates {
			break
		}
		walked++
		slots, why := r.walkRoute(ctx, p, f)
		if rs, ok := p.(Resetter); ok {
			rs.Reset()
		}
		if why == "" {
			why = r.valueDoubt(f, slots)
		}
		if why != "" {
			whyNot = append(whyNot, fmt.Sprintf("flow %d: %s", f.ID, why))
			continue
		}
		c.Slots = slots
		fits = append(fits, c)
	}
	return fits, whyNot
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
	return ""
}

// walkRoute walks planner p over flow f's recorded screens. It returns
// the slot values the walk gave, or why the route was not confirmed.
func (r *run) walkRoute(ctx context.Context, p Planner, f *knowledge.Flow) (map[string]string, string) {
	typed := map[string]string{} // descriptor key of a field → text the walk typed there
	// toggles the flow sets, in the state the walk left them: a stored
	// snapshot shows a screen's last visit, not the state the flow found
	toggles := map[string]shownToggle{}
	slots := map[string]string{}
	var hist []StepRecord
	for i := 0; i <= len(f.Steps); i++ {
		fp := f.Goal.Screen
		if i < len(f.Steps) {
			fp = f.Steps[i].Screen
			switch a := f.Steps[i].Action; a {
			case ActEnsureOn, ActEnsureOff:
				// the flow found it in the other state, or it would not
				// have been tapped when learned
				toggles[f.Steps[i].Target.Key()] = shownToggle{f.Steps[i].Target, a == ActEnsureOff}
			}
		}
		s, err := r.recordedScreen(ctx, fp, typed, toggles)
		if err != nil {
			return nil, err.Error()
		}
		if i < len(f.Steps) && f.Steps[i].Action == device.Tap {
			if m, ok := screen.Ground(s, f.Steps[i].Target); ok {
				el := &screen.Element{NodeID: m.NodeID}
				if toggleOf(s, el) != "" && !isOption(s, el) {
					return nil, fmt.Sprintf("step %d taps a toggle in a state the flow did not keep", i+1)
				}
			}
		}
		if i > 0 {
			hist[i-1].After = fp
			hist[i-1].Changed = hist[i-1].Screen != fp || hist[i-1].Action == device.Input
			if hist[i-1].Toggle != "" {
				hist[i-1].Toggled = toggledIn(s, hist[i-1])
			}
		}
		st := &PlanState{Check: true, Command: r.res.Command, Package: r.res.Package, AppLabel: r.appLabel, AppID: r.app.ID, Screen: s,
			Elements: screen.Elements(s), Print: fp, History: hist, Step: i, StepLimit: r.cfg.StepLimit,
			Penalties: map[string]float64{}, Emit: func(string, any) {}, Secrets: r.secrets, Private: r.owner, Embedder: r.cfg.Embedder}
		d, err := p.Next(ctx, st)
		if err != nil {
			return nil, "the checker failed: " + err.Error()
		}
		if i == len(f.Steps) {
			switch {
			case d.Action != ActDone:
				return nil, fmt.Sprintf("on the flow's end screen the checker would %s, not stop", d.Action)
			case d.Unsure:
				return nil, "on the flow's end screen the checker is not sure the command is done"
			}
			return slots, ""
		}
		rec, why := agrees(s, st, d, f.Steps[i], slots)
		if why != "" {
			return nil, fmt.Sprintf("step %d: %s", i+1, why)
		}
		if rec.Action == device.Input && rec.Target.Class != "" {
			typed[rec.Target.Key()] = rec.Text
		}
		if t, ok := toggles[rec.Target.Key()]; ok && (rec.Action == ActEnsureOn || rec.Action == ActEnsureOff) {
			toggles[rec.Target.Key()] = shownToggle{t.d, rec.Action == ActEnsureOn}
		}
		rec.Step, rec.Screen, rec.OK, rec.Mode, rec.Reason = i, fp, true, d.Mode, d.Reason
		hist = append(hist, rec)
	}
	return nil, "no end screen" // not reached
}

// agrees compares the checker's decision d on screen s with the flow's
// step; it returns the step as the walk took it, or why they differ. A
// step that types or picks a slot's value binds it in slots.
func agrees(s *screen.Snapshot, st *PlanState, d Decision, step knowledge.Step, slots map[string]string) (StepRecord, string) {
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
	target := screen.Describe(s, el.NodeID)
	name, isSlot := knowledge.SlotRef(step.Text)
	switch {
	case target.Key() == step.Target.Key():
	case isSlot && step.Action == device.Tap && d.Action == device.Tap && hasLabel(step.Choices, el.Label):
		// another option of the group the flow picks a slot's value from
		rec.Target, rec.Label = target, el.Label
	default:
		return rec, fmt.Sprintf("the checker would %s %q, the flow %ss %q", d.Action, el.Label, step.Action, step.Target.Label())
	}
	if d.Action == device.Tap && step.Action == ActEnsureOn && toggleOf(s, el) == toggleOff && intent.Polarity(st.Command) == 0 && !intent.Negated(st.Command) {
		// a command that names a setting without saying on or off asks
		// to have it (intent.SwitchState): the tap sets it on
		d.Action = ActEnsureOn
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
	}
	return rec, ""
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

// recordedScreen returns the stored snapshot of screen fp of the run's
// app (kept without the text its run typed: keptSnapshot), with a field
// the walk typed into showing that text and the flow's toggles in the
// state the walk left them.
func (r *run) recordedScreen(ctx context.Context, fp string, typed map[string]string, toggles map[string]shownToggle) (*screen.Snapshot, error) {
	sc, err := r.e.store.ScreenByFingerprint(ctx, r.app.ID, fp)
	if err != nil {
		return nil, fmt.Errorf("screen %.12s is not in the store: %w", fp, err)
	}
	packed, err := r.e.store.ScreenSnapshot(ctx, sc.ID)
	if err != nil || len(packed) == 0 {
		return nil, fmt.Errorf("screen %.12s has no snapshot kept", fp)
	}
	raw, err := unpackSnapshot(packed)
	if err != nil {
		return nil, fmt.Errorf("snapshot of screen %.12s: %w", fp, err)
	}
	keys, err := screen.ParseJSON(raw) // descriptors are cached: read them from a copy
	if err != nil {
		return nil, fmt.Errorf("snapshot of screen %.12s: %w", fp, err)
	}
	s, _ := screen.ParseJSON(raw)
	for i := range s.Nodes {
		n := &s.Nodes[i]
		if !n.Editable {
			continue
		}
		if t, ok := typed[screen.Describe(keys, i).Key()]; ok {
			n.Text = t
		}
	}
	for _, t := range toggles {
		m, ok := screen.Ground(keys, t.d)
		if !ok {
			continue
		}
		var ids []int
		keys.Walk(m.NodeID, func(n *screen.Node, _ int) bool {
			if n.Checkable {
				ids = append(ids, n.ID)
			}
			return true
		})
		if len(ids) == 1 {
			s.Nodes[ids[0]].Checked = t.on
		}
	}
	return s, nil
}

// shownToggle is a toggle of a flow step (its target) and the state the
// walk shows it in.
type shownToggle struct {
	d  screen.Descriptor
	on bool
}

// keptSnapshot is s as the store keeps it for the route check: snapshot
// JSON without the text this run typed (a field shows what it showed
// before the run, so a walk types its own value there) and with the
// run's secrets redacted; nil when it cannot be encoded.
func (r *run) keptSnapshot(s *screen.Snapshot) []byte {
	if s == nil || r.cfg.RouteCheck == nil {
		return nil
	}
	raw, err := s.MarshalJSON()
	if err != nil {
		return nil
	}
	var fields []screen.Descriptor
	for _, st := range r.steps {
		if st.Action == device.Input && st.Target.Class != "" {
			fields = append(fields, st.Target)
		}
	}
	if len(fields) > 0 {
		c, err := screen.ParseJSON(raw)
		if err != nil {
			return nil
		}
		var ids []int
		for _, d := range fields {
			if m, ok := screen.Ground(c, d); ok && c.Nodes[m.NodeID].Editable {
				ids = append(ids, m.NodeID)
			}
		}
		for _, id := range ids {
			c.Nodes[id].Text = ""
		}
		if raw, err = c.MarshalJSON(); err != nil {
			return nil
		}
	}
	return packSnapshot(privacy.RedactJSON(raw, r.secrets, false))
}

// maxSnapshot bounds a kept snapshot's JSON once unpacked (bytes): a
// phone's screen is tens of kB; anything past this is not one.
const maxSnapshot = 8 << 20

// packSnapshot gzips snapshot JSON for the store (about a tenth of its
// size: the 2.6 MB of the 226 screens the 127 recorded tasks visit
// become 0.34 MB);
// nil when it cannot.
func packSnapshot(raw []byte) []byte {
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, gzip.BestSpeed)
	if err != nil {
		return nil
	}
	if _, err := w.Write(raw); err != nil || w.Close() != nil {
		return nil
	}
	return b.Bytes()
}

// unpackSnapshot returns the JSON of a kept snapshot: gunzipped when
// packed (packSnapshot), as is when not. Errors: a corrupt stream, or
// JSON past maxSnapshot.
func unpackSnapshot(b []byte) ([]byte, error) {
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return b, nil
	}
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(io.LimitReader(r, maxSnapshot+1))
	if err != nil {
		return nil, err
	}
	if len(raw) > maxSnapshot {
		return nil, fmt.Errorf("more than %d bytes unpacked", maxSnapshot)
	}
	return raw, nil
}

// hardVeto: the matcher's rules a route check never overrules — an
// opposite, a negation on one side, swapped roles, another value or name
// (issue 11: those rules stay whatever a model says).
func hardVeto(v string) bool {
	switch v {
	case intent.VetoOpposite, intent.VetoNegation, intent.VetoRoles, intent.VetoValue, intent.VetoLiteral:
		return true
	}
	return false
}

// softBar: a reason the embedding check gave not to promote a candidate
// that a route check may overrule — the words were too few in common,
// or a requirement differs that the walk itself checks (a veto
// embeddings may not bridge, a slot the matcher found no value for).
// Another element named by a substituted word, a choice the command
// leaves out, a stretched value or a contradiction it may not: the walk
// over one recorded route cannot tell those apart.
func softBar(b string) bool {
	switch b {
	case semantic.BarSubstituted, semantic.BarChoice, semantic.BarStretched, semantic.BarContradicted, semantic.BarGone:
		return true
	}
	return false
}

// routeCheck walks the command's best candidates (d's when embeddings
// were compared, else the lexical cands), best first by the higher of
// their cosine and lexical score, and returns the one flow whose route
// the checker confirms. Two or more confirmed flows are a guess between
// them: none is returned.
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
		if i < len(d.Barred) && softBar(d.Barred[i]) {
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
		add(c, -1)
	}
	slices.SortStableFunc(order, func(a, b scored) int { return cmp.Compare(b.score, a.score) })
	walk := make([]intent.Candidate, len(order))
	for i, o := range order {
		walk[i] = o.c
	}
	fits, whyNot := r.routeFits(ctx, walk, flows)
	switch len(fits) {
	case 0:
		if len(whyNot) > 0 {
			r.emit(event.Log, event.LogInfo{Level: "info", Text: "route check: no saved flow's route, planned again, does what the command asks (" + r.private(strings.Join(whyNot, "; ")) + ")"})
		}
		return intent.Candidate{}, false
	case 1:
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow matching: the route of flow %d, planned again over its recorded screens, does what the command asks", fits[0].FlowID)})
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
	r := &run{e: e, cfg: e.cfg, app: app, appLabel: e.matcher.label(f.Package), secrets: privacy.SecretsIn(command),
		res: &Result{Command: command, Package: f.Package}}
	slots, why := r.walkRoute(ctx, e.cfg.RouteCheck, f)
	if rs, ok := e.cfg.RouteCheck.(Resetter); ok {
		rs.Reset()
	}
	if why == "" {
		why = r.valueDoubt(f, slots)
	}
	return slots, why, nil
}

package daemon

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// matcherCache keeps the intent matcher over all saved flows, rebuilt
// after a flow is saved, repaired or deleted.
type matcherCache struct {
	mu    sync.Mutex
	m     *intent.Matcher
	flows map[int64]*knowledge.Flow
}

func (c *matcherCache) invalidate() {
	c.mu.Lock()
	c.m, c.flows = nil, nil
	c.mu.Unlock()
}

func (c *matcherCache) get(ctx context.Context, st *knowledge.Store) (*intent.Matcher, map[int64]*knowledge.Flow, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m != nil {
		return c.m, c.flows, nil
	}
	flows, err := st.Flows(ctx, knowledge.FlowFilter{})
	if err != nil {
		return nil, nil, err
	}
	c.flows = make(map[int64]*knowledge.Flow, len(flows))
	healthy := flows[:0:0]
	for i := range flows {
		c.flows[flows[i].ID] = &flows[i]
		if flows[i].Healthy() {
			healthy = append(healthy, flows[i])
		}
	}
	// an unhealthy flow acts only when the owner names it (Options.FlowID)
	c.m = intent.NewMatcher(healthy)
	return c.m, c.flows, nil
}

// InvalidateFlows must be called after flows change outside the engine
// (import, rename, delete).
func (e *Engine) InvalidateFlows() { e.matcher.invalidate() }

// MatchFlow ranks the saved flows of pkg ("" for all) against a command
// and returns the best candidates, best first.
func (e *Engine) MatchFlow(ctx context.Context, command, pkg string, k int) ([]intent.Candidate, error) {
	m, _, err := e.matcher.get(ctx, e.store)
	if err != nil {
		return nil, machineErr{err}
	}
	return m.Rank(command, pkg, k), nil
}

// semanticCandidates is how many lexical candidates the embedding check
// sees: every flow close to the command must be compared, or a closer one
// ranked lower could not make the command ambiguous (daemon/semantic).
const semanticCandidates = 10

// matchFlow returns the saved flow to replay, or nil when none fits well
// enough: a wrong flow replayed is worse than planning, so below the
// calibrated threshold nothing is replayed — except a candidate just below
// it that embeddings promote under daemon/semantic's rule, when an
// embedder is configured and reachable.
func (r *run) matchFlow(ctx context.Context, opt Options) (*knowledge.Flow, error) {
	e := r.e
	if opt.FlowID != 0 {
		f, err := e.store.Flow(ctx, opt.FlowID)
		if err != nil {
			return nil, err
		}
		r.slots = map[string]string{}
		for _, s := range f.Slots {
			r.slots[s.Name] = s.Example
		}
		for k, v := range opt.Slots {
			r.slots[k] = v
		}
		r.res.FlowID, r.res.FlowName, r.res.Matched, r.res.Score, r.res.Slots = f.ID, f.Name, true, 1, r.slots
		r.emit(event.FlowMatched, event.FlowMatch{FlowID: f.ID, Name: f.Name, Score: 1, Threshold: r.cfg.ReplayThreshold, Slots: r.slots, Replay: true})
		return f, nil
	}
	m, flows, err := e.matcher.get(ctx, e.store)
	if err != nil {
		return nil, machineErr{err}
	}
	k := 3
	if r.sem != nil {
		k = semanticCandidates
	}
	cands := m.Rank(r.res.Command, r.res.Package, k)
	if len(cands) == 0 && r.sem == nil {
		r.emit(event.FlowMatched, event.FlowMatch{Threshold: r.cfg.ReplayThreshold})
		return nil, nil
	}
	var top intent.Candidate
	if len(cands) > 0 {
		top = cands[0]
	}
	var sm *event.SemanticMatch
	promoted := false
	if top.Score < r.cfg.ReplayThreshold && r.sem != nil {
		// a secret the command carries is never embedded: the model may be
		// an endpoint, and vectors are cached in the store with their text
		d := r.sem.DecideIn(ctx, privacy.Redact(r.res.Command, r.secrets, false), semantic.Input{Cands: cands, Flows: flows, Threshold: r.cfg.ReplayThreshold, Pool: poolOf(flows, r.res.Package), Scorer: m})
		if d.Err != nil {
			r.emit(event.Log, event.LogInfo{Level: "warn", Text: "flow matching: " + d.Reason})
		}
		if (d.Consulted || d.Err != nil) && len(d.Cands) > 0 {
			sm = &event.SemanticMatch{Model: r.sem.Model(), Requests: d.Requests, CacheHits: d.CacheHits, Reason: d.Reason, Offline: d.Err != nil}
			best := 0
			if d.Promoted >= 0 {
				best, promoted = d.Promoted, true
			}
			if !promoted && opt.FlowID == 0 {
				if i, ok := r.offer(ctx, d, flows); ok {
					best, promoted, sm.Chosen = i, true, true
					r.res.Chosen = true
				}
			}
			top = d.Cands[best]
			sm.Promoted, sm.Cosine = promoted, max(0, d.Cosine[best])
			sm.Candidates = semanticCandidatesOf(d)
			r.res.Semantic = sm
		}
	}
	if len(cands) == 0 && sm == nil {
		r.emit(event.FlowMatched, event.FlowMatch{Threshold: r.cfg.ReplayThreshold})
		return nil, nil
	}
	disagreed := false
	if g := flows[top.FlowID]; g != nil && top.Score >= r.cfg.ReplayThreshold && r.sem != nil && opt.FlowID == 0 {
		// the lexical match must also mean what the command means
		ok, cos, err := r.sem.Agrees(ctx, privacy.Redact(r.res.Command, r.secrets, false), top, g)
		if err != nil {
			r.emit(event.Log, event.LogInfo{Level: "warn", Text: "flow matching: embeddings unavailable, the lexical match stands: " + err.Error()})
		}
		if !ok {
			sm = &event.SemanticMatch{Model: r.sem.Model(), Cosine: cos,
				Reason: fmt.Sprintf("flow %d: lexical %.3f, but the model finds it far from the command (cosine %.3f)", top.FlowID, top.Score, cos)}
			if _, chosen := r.offer(ctx, semantic.Decision{Cands: []intent.Candidate{top}, Suggest: []int{0}}, flows); chosen {
				sm.Chosen, r.res.Chosen = true, true
			} else {
				disagreed = true
			}
			r.res.Semantic = sm
		}
	}
	f := flows[top.FlowID]
	fm := event.FlowMatch{FlowID: top.FlowID, Score: top.Score, Threshold: r.cfg.ReplayThreshold, Slots: top.Slots, Semantic: sm}
	if f != nil {
		fm.Name = f.Name
	}
	r.res.Score = top.Score
	if f == nil || (top.Score < r.cfg.ReplayThreshold && !promoted) || disagreed {
		r.emit(event.FlowMatched, fm)
		return nil, nil
	}
	examples := map[string]string{}
	for _, sl := range f.Slots {
		examples[sl.Name] = sl.Example
	}
	top.Slots = intent.SplitAdjacent(f.Intent, top.Slots, examples)
	if name, ok := unknownChoice(f, r.res.Command, top.Slots); ok && opt.FlowID == 0 {
		// "add the holidays of Wakanda": no option the flow knows
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow %q not replayed: the command names no option it knows for {%s}", f.Name, name)})
		r.emit(event.FlowMatched, fm)
		return nil, nil
	}
	fm.Replay, fm.Slots = true, top.Slots
	r.emit(event.FlowMatched, fm)
	r.slots = top.Slots
	r.res.FlowID, r.res.FlowName, r.res.Matched, r.res.Slots, r.res.Promoted = f.ID, f.Name, true, top.Slots, promoted
	return f, nil
}

// AnswerNone is the option of a "did you mean" question that declines
// every flow offered.
const AnswerNone = "none of these"

// offer asks the owner which of the flows d suggests the command means
// ("did you mean …?"), when there are any and somebody can answer, and
// returns the chosen candidate's index in d.Cands. Nothing is replayed
// without the owner's choice; a replay the owner chose adds the command to
// the flow's past commands like any successful replay, so the same words
// match without asking next time.
func (r *run) offer(ctx context.Context, d semantic.Decision, flows map[int64]*knowledge.Flow) (int, bool) {
	r.e.mu.Lock()
	asker := r.e.asker
	r.e.mu.Unlock()
	if asker == nil || len(d.Suggest) == 0 {
		return -1, false
	}
	options := make([]string, 0, len(d.Suggest)+1)
	seen := map[string]bool{}
	for _, i := range d.Suggest {
		f := flows[d.Cands[i].FlowID]
		name := f.Name
		if seen[strings.ToLower(name)] {
			name = fmt.Sprintf("%s (#%d)", f.Name, f.ID)
		}
		seen[strings.ToLower(name)] = true
		options = append(options, name)
	}
	options = append(options, AnswerNone)
	ans, err := r.ask(ctx, fmt.Sprintf("No saved flow matches %q word for word. Did you mean one of these?", privacy.Redact(r.res.Command, r.secrets, false)), options)
	if err != nil {
		return -1, false
	}
	ans = strings.TrimSpace(ans)
	for k, o := range options[:len(options)-1] {
		if strings.EqualFold(ans, o) || ans == strconv.Itoa(k+1) {
			return d.Suggest[k], true
		}
	}
	return -1, false
}

// poolOf lists the healthy flows of pkg ("" for every app), by ID: the
// flows embeddings may retrieve by meaning (semantic.Input.Pool).
func poolOf(flows map[int64]*knowledge.Flow, pkg string) []int64 {
	var ids []int64
	for id, f := range flows {
		if f.Healthy() && (pkg == "" || f.Package == pkg) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// semanticShown is how many candidates a SemanticMatch event lists.
const semanticShown = 5

// semanticCandidatesOf lists the candidates of d with the highest
// cosines, highest first, for the event and the result.
func semanticCandidatesOf(d semantic.Decision) []event.SemanticCandidate {
	out := make([]event.SemanticCandidate, 0, len(d.Cands))
	for i, c := range d.Cands {
		out = append(out, event.SemanticCandidate{FlowID: c.FlowID, Lexical: c.Score, Cosine: d.Cosine[i], Vetoes: c.Vetoes, Missing: c.Missing, Unmatched: c.Unmatched, FlowUnmatched: c.FlowUnmatched, Slots: c.Slots, Substituted: c.Substituted})
	}
	slices.SortStableFunc(out, func(a, b event.SemanticCandidate) int { return cmp.Compare(b.Cosine, a.Cosine) })
	if len(out) > semanticShown {
		out = out[:semanticShown]
	}
	return out
}

// similarFlowGuides turns saved flows that resemble the command (below
// the replay threshold) into instruction lists for the planner: the
// virtual-assistant seed's "find similar flows" and UICOMPASS's guide.
// With an embedder, flows close in meaning fill the places the lexical
// ranking left (guides.go).
func (r *run) similarFlowGuides(ctx context.Context) []string {
	m, flows, err := r.e.matcher.get(ctx, r.e.store)
	if err != nil {
		return nil
	}
	var out []string
	picked := map[int64]bool{}
	for _, c := range m.Rank(r.res.Command, r.res.Package, maxGuides) {
		if f := flows[c.FlowID]; f != nil && c.Score >= 0.3 {
			out = append(out, guideFromFlow(f, 0))
			picked[c.FlowID] = true
		}
	}
	return append(out, r.closeFlowGuides(ctx, flows, picked, maxGuides-len(out))...)
}

// guideFromFlow writes a flow's steps from index from on as a numbered
// instruction list.
func guideFromFlow(f *knowledge.Flow, from int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Saved flow %q (%s):", f.Name, f.Intent)
	for i := from; i < len(f.Steps); i++ {
		s := f.Steps[i]
		fmt.Fprintf(&b, " %d. %s", i+1, describeStep(s))
	}
	return b.String()
}

// DescribeStep renders a flow step for people: `tap "Send"`,
// `input "{message}" into "Message"`.
func DescribeStep(s knowledge.Step) string { return describeStep(s) }

func describeStep(s knowledge.Step) string {
	switch s.Action {
	case device.Input:
		return fmt.Sprintf("input %q into %q", s.Text, s.Target.Label())
	case device.Back, device.Home:
		return "press " + s.Action
	case device.ImeEnter:
		if s.Target.Label() == "" {
			return "press enter"
		}
		return fmt.Sprintf("press enter in %q", s.Target.Label())
	case ActEnsureOn:
		return fmt.Sprintf("switch on %q", s.Target.Label())
	case ActEnsureOff:
		return fmt.Sprintf("switch off %q", s.Target.Label())
	case device.Scroll:
		return "scroll " + s.Target.Label()
	}
	return fmt.Sprintf("%s %q", s.Action, s.Target.Label())
}

// Grounding thresholds for replay: on the expected screen the usual
// threshold; on a screen with another fingerprint the element must be
// recognised with more certainty before the flow acts on it.
const (
	replayGroundOther = 0.75
)

// dismissWords label buttons that close an unexpected dialog or banner
// without committing to anything (generic UI vocabulary).
var dismissWords = []string{"ok", "got it", "close", "dismiss", "not now", "skip", "later", "no thanks", "cancel", "allow", "continue"}

// replay carries out a saved flow: for each step it waits for the screen
// to settle, checks it is the expected screen, re-grounds the element by
// its descriptor, fills slots, acts and verifies. On a mismatch it tries
// recovery (ground wider, dismiss a dialog, back) before giving up on the
// step. It returns done, or the index of the step that failed.
func (r *run) replay(ctx context.Context, f *knowledge.Flow) (bool, int, error) {
	for i, step := range f.Steps {
		s, fp, err := r.observe(ctx, len(r.steps))
		if err != nil {
			return false, i, err
		}
		a, el, ok := r.groundStep(s, fp, step)
		if !ok && step.Target.Class != "" {
			// the element left its screen: an entry moved deeper?
			moved, err := r.replanStep(ctx, s, fp, step)
			if err != nil {
				return false, i, err
			}
			if moved {
				if s, fp, err = r.observe(ctx, len(r.steps)); err != nil {
					return false, i, err
				}
				a, el, ok = r.groundStep(s, fp, step)
			}
		}
		for attempt := 0; !ok && attempt < 2 && !ownDialog(step, s); attempt++ {
			recovered, err := r.recover(ctx, s, attempt)
			if err != nil {
				return false, i, err
			}
			if !recovered {
				break
			}
			if s, fp, err = r.observe(ctx, len(r.steps)); err != nil {
				return false, i, err
			}
			a, el, ok = r.groundStep(s, fp, step)
		}
		if !ok {
			r.emit(event.Log, event.LogInfo{Level: "warn", Text: fmt.Sprintf("replay: step %d (%s) not found on this screen", i+1, describeStep(step))})
			return false, i, nil
		}
		if a.Type == device.Input {
			if a.Text, err = r.fillMissing(ctx, a.Text, step.Target.Password); err != nil {
				return false, i, err
			}
		}
		dec := Decision{Action: step.Action, Reason: fmt.Sprintf("flow %q step %d", f.Name, i+1), Mode: "replay"}
		var rec StepRecord
		if step.Action == ActEnsureOn || step.Action == ActEnsureOff {
			rec, err = r.ensure(ctx, s, fp, a, el, dec, 0)
		} else {
			rec, err = r.act(ctx, s, fp, a, el, dec, 0)
		}
		if err != nil {
			return false, i, err
		}
		if !rec.OK {
			return false, i, nil
		}
		if a.Type == device.Input {
			r.res.Typed = append(r.res.Typed, rec.Text) // masked for password fields
		}
	}
	// verify: the flow ends on the screen it ended on when learned
	// (fingerprint, else element level); not there is a failure
	if g := flowGoal(f); g != nil {
		s, fp, err := r.observe(ctx, len(r.steps))
		if err != nil {
			return false, len(f.Steps), err
		}
		if !goalReached(g, s, fp) && !g.Dialog && screen.IsDialog(s) {
			// a dialog over the end screen ("What's new"): dismiss it, look again
			if recovered, err := r.recover(ctx, s, 0); err != nil {
				return false, len(f.Steps), err
			} else if recovered {
				if s, fp, err = r.observe(ctx, len(r.steps)); err != nil {
					return false, len(f.Steps), err
				}
			}
		}
		if !goalReached(g, s, fp) {
			r.emit(event.Log, event.LogInfo{Level: "warn", Text: "replay: ended on a screen that is not the flow's recorded end screen"})
			return false, len(f.Steps), nil
		}
	}
	return true, 0, nil
}

// groundStep finds the step's element on the screen and builds its action.
func (r *run) groundStep(s *screen.Snapshot, fp string, step knowledge.Step) (device.Action, *screen.Element, bool) {
	a := device.Action{Type: step.Action, Node: -1}
	if step.Action == ActEnsureOn || step.Action == ActEnsureOff {
		a.Type = device.Tap
	}
	switch step.Action {
	case device.Back, device.Home:
		return a, nil, true
	case device.Launch:
		a.Package = r.res.Package
		return a, nil, true
	case device.ImeEnter:
		if step.Target.Key() == (screen.Descriptor{}).Key() {
			return a, nil, true // enter in whatever field has focus
		}
	}
	m, ok := screen.Ground(s, step.Target)
	if !ok || (fp != step.Screen && m.Score < replayGroundOther) {
		// the app may have changed: a looser match on the same screen
		id, found := reground(s, step, r.cfg.LabelSimilarity)
		if !found {
			return a, nil, false
		}
		m = screen.Match{NodeID: id}
	} else if d := screen.Describe(s, m.NodeID); step.Target.InList && relaxedLabel(step.Target) != "" && relaxedLabel(d) != relaxedLabel(step.Target) {
		// another row of the list (Ground credits rows for any content): a
		// row that clearly carries the step's label, maybe reworded, wins
		if id, found := reground(s, step, r.cfg.LabelSimilarity); found {
			m = screen.Match{NodeID: id}
		} else if screen.IsDialog(s) {
			// rows of a popup menu are commands, not content: another
			// label is another command
			return a, nil, false
		}
	}
	elems := screen.Elements(s)
	idx := ElementIndex(s, elems, m.NodeID)
	if idx < 0 {
		return a, nil, false
	}
	el := &elems[idx]
	if name, ok := knowledge.SlotRef(step.Text); ok && step.Action == device.Tap {
		// a choice slot: the option of the group that the value names
		labels := peers(s, el)
		i := pickByCommand(labels, r.res.Command)
		if i < 0 {
			i = pickChoice(labels, r.slots[name])
		}
		if i < 0 {
			return a, nil, false // no option, or several, carry the value: never a guess
		}
		if i > 0 {
			el = nil
			for j := range elems {
				if elems[j].Label == labels[i] && elems[j].Kind == elems[idx].Kind {
					el = &elems[j]
					break
				}
			}
			if el == nil {
				return a, nil, false
			}
		}
	}
	a.Node, a.Bounds, a.Label = el.NodeID, el.Bounds, el.Label
	switch step.Action {
	case device.Input:
		a.Text = fillSlots(step.Text, r.slots)
	case device.Scroll:
		a.Direction = device.Forward
		if step.Text == device.Backward {
			a.Direction = device.Backward
		}
	}
	return a, el, true
}

// fillSlots replaces "{name}" references by slot values; a slot without
// a value stays a reference (fillMissing asks for it).
func fillSlots(text string, slots map[string]string) string {
	for k, v := range slots {
		if v != "" {
			text = strings.ReplaceAll(text, "{"+k+"}", v)
		}
	}
	return text
}

// reSlotRef finds the slot references left in text to type.
var reSlotRef = regexp.MustCompile(`\{([A-Za-z][A-Za-z0-9_]*)\}`)

// fillMissing asks the owner for each slot text still refers to — a slot
// the command did not fill, or a password, which is never stored — so
// that a placeholder is never typed. The answer is used for this run
// only; a secret one joins the run's secrets. With nobody to ask, the
// replay stops with an error naming the slot.
func (r *run) fillMissing(ctx context.Context, text string, secret bool) (string, error) {
	for _, m := range reSlotRef.FindAllStringSubmatch(text, -1) {
		name := m[1]
		q := fmt.Sprintf("What should Wayfinder type for %s?", strings.ReplaceAll(name, "_", " "))
		if secret {
			q = fmt.Sprintf("Wayfinder needs the %s to continue (it is typed once and never stored).", strings.ReplaceAll(name, "_", " "))
		}
		var ans string
		var err error
		if cs := privacy.SecretsIn(r.res.Command); secret && len(cs) == 1 {
			ans = cs[0] // "log in with password ...": the owner just said it
		} else {
			ans, err = r.ask(ctx, q, nil)
		}
		if err != nil || ans == "" {
			return text, fmt.Errorf("the flow needs a value for {%s}, which the command does not give: %v", name, errOr(err, "no answer"))
		}
		if secret {
			r.secrets = append(r.secrets, ans)
		} else {
			r.slots[name] = ans
		}
		text = strings.ReplaceAll(text, m[0], ans)
	}
	return text, nil
}

func errOr(err error, s string) string {
	if err != nil {
		return err.Error()
	}
	return s
}

// recover tries to get past an unexpected screen: first a dismissing
// button of a dialog, then BACK. It reports whether it acted.
func (r *run) recover(ctx context.Context, s *screen.Snapshot, attempt int) (bool, error) {
	elems := screen.Elements(s)
	fp := screen.Fingerprint(s)
	if attempt == 0 && IsDialog(s) {
		for _, w := range dismissWords {
			for i := range elems {
				if elems[i].Kind == screen.KindButton && strings.EqualFold(strings.TrimSpace(elems[i].Label), w) {
					a := device.Action{Type: device.Tap, Node: elems[i].NodeID, Bounds: elems[i].Bounds, Label: elems[i].Label}
					_, err := r.act(ctx, s, fp, a, &elems[i], Decision{Reason: "recovery: dismiss an unexpected dialog", Mode: "recovery"}, 0)
					if isRefused(err) {
						return false, nil // the dialog asks to confirm something consequential
					}
					return err == nil, err
				}
			}
		}
	}
	if attempt == 1 {
		_, err := r.act(ctx, s, fp, device.Action{Type: device.Back, Node: -1}, nil, Decision{Reason: "recovery: back", Mode: "recovery"}, 0)
		return err == nil, err
	}
	return attempt == 0, nil
}

// ownDialog reports whether s is the dialog the flow itself leads to (the
// step was learned on a dialog that looked like s): recovery must not
// dismiss it, its "Cancel" would undo the flow's own last step.
func ownDialog(step knowledge.Step, s *screen.Snapshot) bool {
	return step.Where != nil && step.Where.Dialog && screenLike(step.Where, s)
}

// IsDialog is screen.IsDialog.
func IsDialog(s *screen.Snapshot) bool { return screen.IsDialog(s) }

// repairFlow replaces the steps of flow from failedAt on by the steps the
// planner took (steps[kept:] of the run, backtracked ones dropped), and
// saves the result as a new version of the flow; the old version stays in
// its history. It does so only when the run's goal was verified: the run
// succeeded, which run.accept allows only on the flow's recorded end
// screen, checked here once more on the screen the run ended on.
func (r *run) repairFlow(ctx context.Context, f *knowledge.Flow, failedAt, kept int) error {
	if r.res.Outcome != knowledge.OutcomeSuccess || r.cfg.NoLearn || r.steered {
		return nil
	}
	fresh := r.flowSteps(r.steps[kept:], len(f.Steps[:failedAt]))
	if len(fresh) == 0 {
		return nil
	}
	s, err := r.e.dev.Snapshot(ctx)
	if err != nil {
		return machineErr{fmt.Errorf("snapshot: %w", err)}
	}
	goal := flowGoal(f)
	if !goalReached(goal, s, screen.Fingerprint(s)) {
		r.emit(event.Log, event.LogInfo{Level: "warn", Text: "repair not saved: the run did not end on the flow's recorded end screen"})
		return nil
	}
	if goal == nil || f.Goal == nil {
		goal = goalOf(s, screen.Fingerprint(s))
	}
	repaired := *f
	repaired.Goal = goal
	repaired.Steps = append(append([]knowledge.Step(nil), f.Steps[:failedAt]...), fresh...)
	repaired.Slots = withPasswordSlot(append([]knowledge.Slot(nil), f.Slots...), repaired.Steps)
	for _, st := range fresh {
		if st.Sensitive {
			// "don't ask again" was said of the old steps, not of these
			repaired.AllowSensitive = false
		}
	}
	for i := range repaired.Steps {
		repaired.Steps[i].Index = i
	}
	repaired.Updated = time.Now()
	reason := fmt.Sprintf("%s: step %d on replaced (%d steps now)", knowledge.ReasonRepaired, failedAt+1, len(repaired.Steps))
	if err := r.e.store.ReviseFlow(ctx, &repaired, reason); err != nil {
		return machineErr{err}
	}
	r.e.matcher.invalidate()
	r.res.Repaired = true
	r.emit(event.FlowRepaired, event.FlowInfo{FlowID: repaired.ID, Name: repaired.Name, Intent: repaired.Intent, Steps: len(repaired.Steps)})
	return nil
}

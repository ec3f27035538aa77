package daemon

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

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
		a, el, ok := r.groundStep(ctx, s, fp, step)
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
				a, el, ok = r.groundStep(ctx, s, fp, step)
			}
		}
		for attempt := 0; !ok && attempt < 2 && !ownDialog(step, s); attempt++ {
			if attempt == 1 && onStepScreen(step, s, fp) {
				// back leaves the screen the element belongs on (from
				// the app's first screen, the app itself): the planner
				// repairs the step from here instead
				break
			}
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
			a, el, ok = r.groundStep(ctx, s, fp, step)
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
		r.end = r.shot(fp, s)
	}
	return true, 0, nil
}

// groundStep finds the step's element on the screen and builds its action.
func (r *run) groundStep(ctx context.Context, s *screen.Snapshot, fp string, step knowledge.Step) (device.Action, *screen.Element, bool) {
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
	if name, ok := IsValueTap(step); ok {
		// the row carrying the slot's value, not the one tapped when learned
		elems := screen.Elements(s)
		i := valueRow(s, elems, step, r.slots[name])
		if i < 0 {
			return a, nil, false
		}
		el := &elems[i]
		a.Node, a.Bounds, a.Label = el.NodeID, el.Bounds, el.Label
		return a, el, true
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
		if name, named := semantic.RowNames(r.flow)[step.Index]; named {
			// the flow's intent names the row ("play clip2.mp4"): only a
			// row carrying that name will do — a look-alike label
			// ("clip1.mp4") is another item
			elems := screen.Elements(s)
			i := namedRow(s, elems, step, name)
			if i < 0 {
				return a, nil, false
			}
			m = screen.Match{NodeID: elems[i].NodeID}
		} else if id, found := reground(s, step, r.cfg.LabelSimilarity); found {
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
	if r.res != nil {
		if name, ok := promisedRow(r.flow, r.res.Command, step); ok {
			// the row the flow's words and the command name, a row of the
			// same list as the one its recording tapped by a slip
			if i := namedRow(s, elems, step, name); i >= 0 && slices.Contains(peers(s, el), elems[i].Label) {
				el = &elems[i]
			}
		}
	}
	value, choose, given := "", false, false
	if name, ok := knowledge.SlotRef(step.Text); ok && step.Action == device.Tap {
		// a choice slot: the option of the group that the value names
		value, choose, given = r.slots[name], true, r.given[name]
	} else if v, ok := r.picks[step.Index]; ok && step.Action == device.Tap && len(step.Options) > 0 {
		// an option tap whose other option the command names (anchor.go)
		value, choose = v, true
	}
	if choose {
		full, labels := choiceLabels(s, el)
		i := -1
		if given {
			i = pickChoice(labels, value) // the owner's option, word for word
		}
		if i < 0 {
			i = r.pickOption(ctx, labels, value)
		}
		if i < 0 {
			return a, nil, false // no option, or several, carry the value: never a guess
		}
		if i > 0 {
			el = nil
			for j := range elems {
				if elems[j].Label == full[i] && elems[j].Kind == elems[idx].Kind {
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

// namedRow returns the index in elems (screen.Elements of s) of the one
// element of the step's class whose label's first part (before " · ") is
// name, word for word and case folded; -1 when none is, or several are.
// "Trip ideas 2" is not the row "Trip ideas", nor "clip1.mp4" "clip2.mp4".
// When no row leads with the name, the one row with a part that is the
// name will do: an app update may put a row's texts in another order
// ("30.06 · Hello · Dora" for "Dora · Hello · 30.06"; drift kind shuffle).
func namedRow(s *screen.Snapshot, elems []screen.Element, step knowledge.Step, name string) int {
	want := strings.Join(choiceWords(name), " ")
	if want == "" {
		return -1
	}
	find := func(parts func(label string) []string) (int, bool) {
		found := -1
		for i := range elems {
			if !slices.ContainsFunc(parts(elems[i].Label), func(p string) bool { return strings.Join(choiceWords(p), " ") == want }) {
				continue
			}
			if d := screen.Describe(s, elems[i].NodeID); d.Editable || d.Class != step.Target.Class {
				continue
			}
			if found >= 0 {
				return -1, true // several: never a guess
			}
			found = i
		}
		return found, found >= 0
	}
	if i, decided := find(func(l string) []string { head, _, _ := strings.Cut(l, screen.RowTextSep); return []string{head} }); decided {
		return i
	}
	i, _ := find(func(l string) []string { return strings.Split(l, screen.RowTextSep) })
	return i
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

// onStepScreen reports whether s (fingerprint fp) is the screen step acts
// on: the fingerprint it was learned on, or recognisably that screen
// (screenLike).
func onStepScreen(step knowledge.Step, s *screen.Snapshot, fp string) bool {
	return fp == step.Screen || screenLike(step.Where, s)
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
	goal, fp := flowGoal(f), screen.Fingerprint(s)
	if !goalReached(goal, s, fp) {
		r.emit(event.Log, event.LogInfo{Level: "warn", Text: "repair not saved: the run did not end on the flow's recorded end screen"})
		return nil
	}
	if goal == nil || f.Goal == nil {
		goal = goalOf(s, fp)
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
	// its old screens show the old route: this run's replace them when
	// every step's is known, else none until a replay keeps them
	if err := r.e.store.SetFlowScreens(ctx, repaired.ID, nil); err != nil {
		return machineErr{err}
	}
	r.end = r.shot(fp, s)
	if path, ok := repairedPath(f, failedAt, kept, len(repaired.Steps), r.steps); ok {
		if err := r.keepScreens(ctx, repaired.ID, path); err != nil {
			return err
		}
	}
	r.e.matcher.invalidate()
	r.res.Repaired = true
	r.emit(event.FlowRepaired, event.FlowInfo{FlowID: repaired.ID, Name: repaired.Name, Intent: repaired.Intent, Steps: len(repaired.Steps)})
	return nil
}

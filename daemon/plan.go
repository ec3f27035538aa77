package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// maxRefusals is how many actions the sensitive-action policy refuses in
// one run before the run stops: a planner that keeps reaching for what
// the command did not ask for (an injected instruction, say) is not
// trusted to finish it.
const maxRefusals = 3

// targetOf describes the element el of s (the zero descriptor for a
// global action).
func targetOf(s *screen.Snapshot, el *screen.Element) screen.Descriptor {
	if el == nil {
		return screen.Descriptor{}
	}
	return screen.Describe(s, el.NodeID)
}

// plan runs the planner step by step until it says done, the checker says
// complete, or the step limit is reached. Steps the correctness check
// rejects are undone (AutoTask Table 3) and penalised (AutoTask §4.3).
//
// A step with no effect never counts toward completion: the planner's
// "done" or the checker's "complete" is accepted only as run.accept says.
func (r *run) plan(ctx context.Context) error {
	planned := 0
	var prog progress
	checker, _ := r.planner.(Checker)
	learner, _ := r.planner.(Learner)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		s, fp, err := r.observe(ctx, len(r.steps))
		if err != nil {
			return err
		}
		st := r.planState(s, fp)
		if planned >= r.cfg.StepLimit {
			return fmt.Errorf("step limit of %d reached before the command was complete", r.cfg.StepLimit)
		}
		t0 := time.Now()
		d, err := r.planner.Next(ctx, st)
		r.llmCalls += d.LLMCalls
		r.tokens += d.Tokens
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			return &PlannerError{Planner: r.planner.Name(), Err: err}
		}
		if d.Mode == "" {
			d.Mode = r.planner.Name()
		}
		d.Text = r.owner.Restore(d.Text) // a model typed a placeholder
		switch d.Action {
		case ActDone:
			if err := r.accept(s, fp, prog, "the "+r.planner.Name()+" planner"); err != nil {
				// not an end, whatever the owner would say: nobody is asked
				return err
			}
			if d.Unsure {
				if err := r.confirmDone(ctx, d); err != nil {
					r.res.Outcome = knowledge.OutcomeFailure
					return err
				}
			}
			return nil
		case ActFail:
			return fmt.Errorf("the %s planner gave up: %s", r.planner.Name(), d.Reason)
		case ActAsk:
			ans, err := r.ask(ctx, d.Text, nil)
			if err != nil {
				return err
			}
			r.guides = append(r.guides, "The user answered "+fmt.Sprintf("%q", ans)+" to: "+d.Text)
			continue
		}
		a, el, err := actionFor(st, d)
		if err != nil {
			return &PlannerError{Planner: r.planner.Name(), Err: err}
		}
		var rec StepRecord
		if d.Action == ActEnsureOn || d.Action == ActEnsureOff {
			rec, err = r.ensure(ctx, s, fp, a, el, d, time.Since(t0))
		} else {
			rec, err = r.act(ctx, s, fp, a, el, d, time.Since(t0))
		}
		if isRefused(err) {
			// not performed: the planner must choose otherwise
			planned++
			r.penalty[OperationKey(fp, d.Action, targetOf(s, el))] += maxRefusals
			if r.refused >= maxRefusals {
				return err
			}
			r.guides = append(r.guides, "Refused by the safety policy, choose something else: "+err.Error())
			continue
		}
		if err != nil {
			return err
		}
		planned++
		prog.add(rec)
		if learner != nil {
			learner.Observe(ctx, st, rec)
		}
		if checker == nil {
			continue
		}
		after, afterFP, err := r.observe(ctx, len(r.steps))
		if err != nil {
			return err
		}
		cst := r.planState(after, afterFP)
		cst.Before = st.Elements
		v, err := checker.Check(ctx, cst, rec)
		r.llmCalls += v.LLMCalls
		r.tokens += v.Tokens
		if err != nil {
			if errors.Is(err, context.Canceled) {
				return err
			}
			return &PlannerError{Planner: r.planner.Name(), Err: fmt.Errorf("check: %w", err)}
		}
		// "complete" from a checker that also calls the step wrong is a
		// contradiction, not a success (a model that just obeyed screen
		// text may say both)
		if v.Completed && v.Correct && hadEffect(rec) {
			if err := r.accept(after, afterFP, prog, "the "+r.planner.Name()+" checker"); err == nil {
				return nil
			}
		}
		if !v.Correct {
			if err := r.backtrack(ctx, rec, v); err != nil {
				return err
			}
		}
	}
}

func (r *run) planState(s *screen.Snapshot, fp string) *PlanState {
	return &PlanState{Command: r.res.Command, Package: r.res.Package, AppLabel: r.appLabel, AppID: r.app.ID, Slots: r.slots, Screen: s,
		Elements: screen.Elements(s), Print: fp, History: r.steps, Guides: r.guides, Lessons: r.lessons,
		Step: len(r.steps), StepLimit: r.cfg.StepLimit, Penalties: r.penalty, Emit: r.emit, Secrets: r.secrets, Private: r.owner,
		Embedder: r.cfg.Embedder}
}

// act performs a on the device, records the step and its transition in
// the knowledge store, and publishes it.
func (r *run) act(ctx context.Context, s *screen.Snapshot, fp string, a device.Action, el *screen.Element, d Decision, decide time.Duration) (StepRecord, error) {
	t0 := time.Now()
	rec := StepRecord{Step: len(r.steps), Screen: fp, Action: a.Type, Text: a.Text, Reason: d.Reason, Mode: d.Mode, Where: goalOf(s, fp)}
	r.keepShot(rec.Step, fp, s)
	if el != nil {
		rec.Target = screen.Describe(s, el.NodeID)
		rec.Label = el.Label
		if a.Type == device.Tap && !isOption(s, el) {
			// a radio button is a value chosen, not a toggle (choice.go)
			rec.Toggle = toggleOf(s, el)
		}
	}
	idx := -1
	if el != nil {
		idx = el.Index
	}
	v, err := r.guard(ctx, s, a, el, d.Mode)
	if err != nil {
		return rec, err
	}
	rec.Sensitive = v.Sensitive
	if option, row := isOption(s, el), isNamedRow(s, el, r.res.Command); a.Type == device.Tap && d.Action == device.Tap && (option || row) {
		ps := peers(s, el)
		if !option {
			// a row's first text names it; the rest (a message preview, a
			// date) is not kept in the flow
			ps = rowHeads(ps)
		}
		if len(ps) >= 3 {
			rec.Choices = ps
		}
		if option {
			rec.Group = ownGroup(s, el)
		}
	}
	info := event.ActionInfo{Step: rec.Step + 1, Mode: rec.Mode, Action: a.Type, Element: idx, Label: rec.Label,
		Text: redactTyped(s, el, a.Text), Reason: d.Reason, Tokens: d.Tokens}
	r.emit(event.Chosen, info) // before acting: watchers see the choice while the phone acts
	if a.Type == device.Input && isPassword(s, el) {
		// the device types the secret; nothing else ever sees it
		a.Text = r.fillSecret(a.Text)
		if a.Text != "" {
			r.secrets = append(r.secrets, a.Text)
		}
		rec.Text = maskedSecret
	}
	a.CaptureID = s.CaptureID // node ids refer to this capture, whatever snapshots others take meanwhile
	res, err := r.e.dev.Perform(ctx, a)
	if err != nil {
		return rec, machineErr{fmt.Errorf("perform %s: %w", a.Redacted(), err)}
	}
	rec.OK, rec.Changed, rec.Message = res.OK, res.Changed, res.Message
	after, err := r.e.dev.Snapshot(ctx)
	if err != nil {
		return rec, machineErr{fmt.Errorf("snapshot: %w", err)}
	}
	rec.After = screen.Fingerprint(after)
	if rec.Toggle != "" && rec.OK {
		rec.Toggled = toggledIn(after, rec)
	}
	r.steps = append(r.steps, rec)
	info.OK, info.Changed, info.Message = res.OK, res.Changed, res.Message
	info.MS = (decide + time.Since(t0)).Milliseconds()
	r.emit(event.Action, info)
	if err := r.recordTransition(ctx, s, fp, after, rec); err != nil {
		return rec, err
	}
	return rec, nil
}

// ensure sets a toggle to the state d.Action names: a tap when its checked
// state differs, else a step that records the state was already right.
// alreadyPrefix begins the message of an ensure_on / ensure_off step
// that found its switch already so and did not act (alreadySet).
const alreadyPrefix = "already "

// alreadySet reports whether step s found its switch already in the
// state it sets, and so performed nothing.
func alreadySet(s StepRecord) bool { return strings.HasPrefix(s.Message, alreadyPrefix) }

// Either way the step's action stays ensure_on/ensure_off, for the flow.
func (r *run) ensure(ctx context.Context, s *screen.Snapshot, fp string, a device.Action, el *screen.Element, d Decision, decide time.Duration) (StepRecord, error) {
	want := d.Action == ActEnsureOn
	on, ok := toggleState(s, el) // the switch itself, or the one its row holds
	if !ok {
		on = el.Checked
	}
	if on != want {
		rec, err := r.act(ctx, s, fp, a, el, d, decide)
		if err == nil {
			r.steps[len(r.steps)-1].Action = d.Action
			rec.Action = d.Action
		}
		return rec, err
	}
	state := map[bool]string{true: "on", false: "off"}[want]
	r.keepShot(len(r.steps), fp, s)
	rec := StepRecord{Step: len(r.steps), Screen: fp, After: fp, Action: d.Action, Target: screen.Describe(s, el.NodeID), Where: goalOf(s, fp),
		Label: el.Label, Reason: d.Reason, Mode: d.Mode, OK: true, Message: alreadyPrefix + state}
	r.steps = append(r.steps, rec)
	r.emit(event.Action, event.ActionInfo{Step: rec.Step + 1, Mode: rec.Mode, Action: d.Action, Element: el.Index, Label: el.Label,
		Reason: d.Reason, OK: true, Message: rec.Message, MS: decide.Milliseconds(), Tokens: d.Tokens})
	return rec, nil
}

// maskedSecret stands for text typed into a password field wherever a
// step is shown or kept.
const maskedSecret = "••••"

// isPassword reports whether el is a password field of s.
func isPassword(s *screen.Snapshot, el *screen.Element) bool {
	return el != nil && s != nil && s.Node(el.NodeID) != nil && s.Node(el.NodeID).Password
}

// redactTyped hides text typed into password fields from events.
func redactTyped(s *screen.Snapshot, el *screen.Element, text string) string {
	if isPassword(s, el) && text != "" {
		return maskedSecret
	}
	return text
}

// fillSecret puts the command's secret where a planner that was shown
// only privacy.SecretMark typed the mark into a password field.
func (r *run) fillSecret(text string) string {
	if strings.Contains(text, privacy.SecretMark) {
		if cs := privacy.SecretsIn(r.res.Command); len(cs) == 1 {
			return strings.ReplaceAll(text, privacy.SecretMark, cs[0])
		}
	}
	return text
}

// recordTransition stores the step as a learned edge of the UI transition
// graph (environmental knowledge), with both screens and the element.
func (r *run) recordTransition(ctx context.Context, before *screen.Snapshot, fp string, after *screen.Snapshot, rec StepRecord) error {
	st := r.e.store
	from, err := st.UpsertScreen(ctx, knowledge.Screen{AppID: r.app.ID, Fingerprint: fp, Activity: before.Activity, Dialog: screen.IsDialog(before)})
	if err != nil {
		return machineErr{err}
	}
	to, err := st.UpsertScreen(ctx, knowledge.Screen{AppID: r.app.ID, Fingerprint: rec.After, Activity: after.Activity, Dialog: screen.IsDialog(after)})
	if err != nil {
		return machineErr{err}
	}
	t := knowledge.Transition{AppID: r.app.ID, From: from.ID, To: to.ID, Action: rec.Action, Count: 1, Source: knowledge.SourceLearned}
	if !rec.OK {
		t.Count, t.Failures = 0, 1
	}
	if rec.Target.Class != "" {
		d, label := rec.Target, rec.Label
		if len(r.secrets) > 0 {
			secrets := anyCase(r.secrets)
			d, label = redactDescriptor(d, secrets), privacy.Redact(label, secrets, false)
		}
		el, err := st.UpsertElement(ctx, knowledge.Element{ScreenID: from.ID, Key: d.Key(), Descriptor: d, Label: label})
		if err != nil {
			return machineErr{err}
		}
		t.ElementID = el.ID
	}
	if _, err := st.RecordTransition(ctx, t); err != nil {
		return machineErr{err}
	}
	return nil
}

// backtrack undoes a step the correctness check rejected: it penalises the
// operation, keeps a lesson (AutoTask execution knowledge, type 2), and
// performs the undo action of AutoTask Table 3.
func (r *run) backtrack(ctx context.Context, rec StepRecord, v Verdict) error {
	key := OperationKey(rec.Screen, rec.Action, rec.Target)
	r.penalty[key] += max(v.Penalty, 1)
	r.steps[len(r.steps)-1].Backtracked = true
	// a lesson is kept in the store and shown to planners: no secret in it
	secrets := anyCase(r.secrets)
	command := privacy.Redact(r.res.Command, secrets, false)
	lesson := privacy.Redact(fmt.Sprintf("For %q, %s %q on this screen was wrong: %s", command, rec.Action, rec.Label, v.Reason), secrets, false)
	r.lessons = append(r.lessons, lesson)
	if _, err := r.e.store.AddLesson(ctx, knowledge.Lesson{AppID: r.app.ID, Screen: rec.Screen, Command: command, Text: lesson}); err != nil {
		return machineErr{err}
	}
	if !rec.Changed && rec.Action != device.Input {
		return nil // nothing happened, nothing to undo
	}
	s, fp, err := r.observe(ctx, len(r.steps))
	if err != nil {
		return err
	}
	undo := undoFor(rec)
	var el *screen.Element
	if undo.Type == device.Input {
		m, ok := screen.Ground(s, rec.Target)
		if !ok {
			undo = device.Action{Type: device.Back, Node: -1}
		} else {
			elems := screen.Elements(s)
			if i := ElementIndex(s, elems, m.NodeID); i >= 0 {
				el = &elems[i]
				undo.Node, undo.Label, undo.Bounds = el.NodeID, el.Label, el.Bounds
			}
		}
	}
	_, err = r.act(ctx, s, fp, undo, el, Decision{Reason: "undo: " + v.Reason, Mode: "backtrack"}, 0)
	if err != nil {
		return err
	}
	r.steps[len(r.steps)-1].Undo = true
	return nil
}

// ask puts a question to the user through the Asker.
// Answers to the question confirmDone asks.
const (
	AnswerDone    = "yes, it is done"
	AnswerNotDone = "no, it is not"
)

// confirmDone asks the owner whether the screen a planner stopped on
// without being sure (Decision.Unsure) is the command's end. A "no" ends
// the run as not done (an error); a "yes" makes the end owner-verified,
// and the run is learned as usual. When nobody can answer, the run ends
// as the planner said, but no flow is learned from it (run.unsure): a
// route to an end nobody verified is not the owner's to keep.
func (r *run) confirmDone(ctx context.Context, d Decision) error {
	if r.asker() != nil {
		r.emit(event.Log, event.LogInfo{Level: "info", Text: "the planner is not sure the command is done: " + d.Reason})
		q := fmt.Sprintf("I stopped on this screen, but I am not sure %q is done. Is it?", privacy.Redact(r.res.Command, r.secrets, false))
		ans, err := r.ask(ctx, q, []string{AnswerDone, AnswerNotDone})
		switch {
		case err == nil && ans == AnswerDone:
			return nil
		case err == nil && ans == AnswerNotDone:
			return errors.New("the owner said the command is not done on the screen the planner stopped on")
		case errors.Is(err, context.Canceled):
			return err
		}
	}
	r.unsure = true
	r.emit(event.Log, event.LogInfo{Level: "warn", Text: "the planner stopped without being sure the command is done (" + d.Reason + "), and nobody confirmed it: the run is not learned as a flow"})
	return nil
}

// asker is who answers questions now (Engine.SetAsker), nil for nobody.
func (r *run) asker() Asker {
	r.e.mu.Lock()
	defer r.e.mu.Unlock()
	return r.e.asker
}

func (r *run) ask(ctx context.Context, q string, options []string) (string, error) {
	asker := r.asker()
	r.emit(event.Ask, event.AskInfo{Question: q, Options: options})
	if asker == nil {
		return "", fmt.Errorf("needs the user, but nobody can answer: %s", q)
	}
	ans, err := asker.Ask(ctx, q, options)
	if err != nil {
		return "", fmt.Errorf("asking the user: %w", err)
	}
	return ans, nil
}

package daemon

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/safety"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Answers the owner can give to a sensitive-action question.
const (
	AnswerYes    = "yes"
	AnswerNo     = "no"
	AnswerAlways = "always for this flow"
)

// RefusedError is an action the sensitive-action policy refused: it would
// delete, send, pay, call or change an account, and the command does not
// ask for that. The action was not performed.
type RefusedError struct {
	Action  device.Action
	Verdict safety.Verdict
	Mode    string // who chose it: graph | llm | recovery | ...
}

func (e *RefusedError) Error() string {
	cats := make([]string, len(e.Verdict.Categories))
	for i, c := range e.Verdict.Categories {
		cats[i] = string(c)
	}
	return fmt.Sprintf("refused to %s %q: it would %s (%s), and the command does not ask for that",
		e.Action.Type, e.Action.Label, strings.Join(cats, "/"), e.Verdict.Why)
}

// DeclinedError is a sensitive action the owner declined, or that nobody
// was there to confirm. The action was not performed and the run stops.
type DeclinedError struct {
	Action device.Action
	Why    string // "declined by the owner" | "nobody to confirm it"
}

func (e *DeclinedError) Error() string {
	return fmt.Sprintf("stopped before %s %q, a sensitive action: %s", e.Action.Type, e.Action.Label, e.Why)
}

// PolicyTarget describes, as the sensitive-action policy sees it, the
// element el of screen s that action a is about to act on: its label,
// content-desc, resource-id and, in a dialog, the dialog's texts. A
// planner uses it to leave aside what the policy would refuse (safety.Classify,
// safety.Requested); the engine's guard decides on the same description.
func PolicyTarget(s *screen.Snapshot, a device.Action, el *screen.Element) safety.Target {
	return target(s, a, el)
}

// target describes the element a is about to act on for the policy: its
// label, content-desc, resource-id and, in a dialog, the dialog's texts.
func target(s *screen.Snapshot, a device.Action, el *screen.Element) safety.Target {
	t := safety.Target{Action: a.Type, Label: a.Label}
	if s == nil {
		return t
	}
	if a.Type == device.ImeEnter {
		for _, o := range screen.Elements(s) {
			if (el != nil && o.NodeID == el.NodeID) || o.Kind == screen.KindText || o.Kind == screen.KindInput {
				continue
			}
			b := o.Label
			if b == "" {
				if m := s.Node(o.NodeID); m != nil {
					b = safety.IDWords(m.ResourceID)
				}
			}
			if b != "" {
				t.Beside = append(t.Beside, b)
			}
		}
	}
	if el == nil {
		return t
	}
	if t.Label == "" {
		t.Label = el.Label
	}
	if a.Type == device.Input && screen.IsBody(s, el) && screen.Writing(s, el) {
		// typing sets the field's whole text: a document's body loses
		// what the owner wrote
		t.Replaces = utf8.RuneCountInString(strings.TrimSpace(el.Value))
	}
	n := s.Node(el.NodeID)
	if n == nil {
		return t
	}
	t.ContentDesc, t.ResourceID = n.ContentDesc, n.ResourceID
	s.Walk(n.ID, func(c *screen.Node, _ int) bool {
		t.Toggle = t.Toggle || c.Checkable
		return !t.Toggle
	})
	if screen.IsDialog(s) {
		for _, o := range screen.Elements(s) {
			if o.Kind == screen.KindText && o.Label != "" && s.Node(o.NodeID) != nil && s.Node(o.NodeID).Window == n.Window {
				t.Dialog = append(t.Dialog, o.Label)
			}
		}
	}
	return t
}

// guard applies the one sensitive-action policy (daemon/safety) to a
// before it is performed, whoever chose it. It returns the verdict, a
// *RefusedError for a sensitive action the command does not ask for, a
// *DeclinedError when the owner declined or nobody could confirm, or the
// context's error.
func (r *run) guard(ctx context.Context, s *screen.Snapshot, a device.Action, el *screen.Element, mode string) (safety.Verdict, error) {
	command := r.res.Command
	p := safety.Policy{Unattended: r.cfg.Unattended, Replay: mode == "replay"}
	// the owner's "always for this flow" stands for the flow as learned:
	// a replay tapping other rows than it learned ("… with Dora" for a
	// flow learned "… with Ezra": run.rows) acts on other data, and is
	// asked about every time
	standing := p.Replay && r.flow != nil && len(r.rows) == 0
	if standing {
		p.Allowed = r.flow.AllowSensitive
	}
	t := target(s, a, el)
	var outs []knowledge.Outcome // this screen's edge, read once, when needed
	if t.Activates() {
		// where it leads counts only for an action that activates
		outs = r.outcomes(ctx, s, a, el, false)
		ahead := outs
		if len(ahead) == 0 {
			ahead = r.outcomes(ctx, s, a, el, true)
		}
		t.Next = r.nextTexts(ctx, ahead)
	}
	dec, v := safety.Decide(command, t, p)
	if dec != safety.Act && !t.Activates() {
		outs = r.outcomes(ctx, s, a, el, false) // typing over a note: maybe a dialog asks first
	}
	if dec != safety.Act && opensDialogOnly(s, outs) {
		// known to open a confirmation, not to act: the dialog's accepting
		// button is what the policy guards ("Delete" → "Delete 3 items?")
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("%s %q only opens a confirmation dialog (UI graph): its answer is guarded instead", a.Type, a.Label)})
		return safety.Verdict{}, nil
	}
	switch dec {
	case safety.Act:
		return v, nil
	case safety.Refuse:
		r.refused++
		if mode != "graph" && mode != "replay" && mode != "recovery" {
			// a model reached for what the command did not ask for: what
			// it did in this run may have been steered by screen text
			r.steered = true
		}
		err := &RefusedError{Action: a, Verdict: v, Mode: mode}
		r.emit(event.Log, event.LogInfo{Level: "warn", Text: err.Error()})
		return v, err
	}
	options := []string{AnswerYes, AnswerNo}
	if standing {
		options = append(options, AnswerAlways)
	}
	q := fmt.Sprintf("Wayfinder is about to %s %q%s (%s). Go ahead?", strings.ReplaceAll(a.Type, "_", " "), a.Label, onScreen(s, a), v.Why)
	ans, err := r.ask(ctx, q, options)
	if err != nil {
		if ctx.Err() != nil {
			return v, ctx.Err()
		}
		return v, &DeclinedError{Action: a, Why: "nobody to confirm it"}
	}
	switch ans = strings.ToLower(strings.TrimSpace(ans)); {
	case ans == AnswerAlways && standing:
		if err := r.e.store.SetFlowAllowSensitive(ctx, r.flow.ID, true); err != nil {
			return v, machineErr{err}
		}
		r.flow.AllowSensitive = true
		return v, nil
	case ans == AnswerYes || ans == "y":
		return v, nil
	}
	return v, &DeclinedError{Action: a, Why: "declined by the owner"}
}

// onScreen names the screen an action happens on for the owner's
// question (` on "Dora Lind"`: which contact "Delete" deletes), "" when
// its title is unknown, is the element's own label, or the element sits in
// a dialog (the verdict quotes the dialog).
func onScreen(s *screen.Snapshot, a device.Action) string {
	if s == nil || screen.IsDialog(s) {
		return ""
	}
	t := screen.Title(s)
	if t == "" || strings.EqualFold(t, strings.TrimSpace(a.Label)) {
		return ""
	}
	return fmt.Sprintf(" on %q", t)
}

// isRefused reports whether err is a refusal by the policy.
func isRefused(err error) bool {
	var re *RefusedError
	return errors.As(err, &re)
}

// outcomes returns where a on el of screen s has led in the UI transition
// graph of the store (knowledge.Store.Outcomes) — with anywhere, from any
// screen of the app where the same element (descriptor key) was seen
// (OutcomesAnywhere): for the policy to look ahead where this screen's
// edge is unknown, never to relax it (opensDialogOnly reads this
// screen's own outcomes only). Nil when the store, the app or the edge
// is unknown, or it cannot be read: the policy then judges the element
// by its own words.
func (r *run) outcomes(ctx context.Context, s *screen.Snapshot, a device.Action, el *screen.Element, anywhere bool) []knowledge.Outcome {
	if el == nil || s == nil || r.e.store == nil || r.app.ID == 0 {
		return nil
	}
	key := screen.Describe(s, el.NodeID).Key()
	var outs []knowledge.Outcome
	var err error
	if anywhere {
		outs, err = r.e.store.OutcomesAnywhere(ctx, r.app.ID, key, a.Type)
	} else {
		outs, err = r.e.store.Outcomes(ctx, r.app.ID, screen.Fingerprint(s), key, a.Type)
	}
	if err != nil {
		return nil
	}
	return outs
}

// maxLookAhead bounds the screens the policy reads ahead per action: a
// list's row, looked up by its key anywhere in the app, may have led to
// as many screens as the list has rows, all alike.
const maxLookAhead = 8

// nextTexts returns the labels and content-descs of the screens reached
// by outs (the maxLookAhead most often reached), for the policy to see
// where an action goes (safety.Target.Next).
func (r *run) nextTexts(ctx context.Context, outs []knowledge.Outcome) []string {
	if len(outs) > maxLookAhead {
		outs = slices.Clone(outs)
		slices.SortStableFunc(outs, func(a, b knowledge.Outcome) int { return cmp.Compare(b.Count, a.Count) })
		outs = outs[:maxLookAhead]
	}
	var out []string
	for _, o := range outs {
		els, err := r.e.store.Elements(ctx, o.To)
		if err != nil {
			continue
		}
		for _, e := range els {
			out = append(out, e.Label, e.Descriptor.Desc)
		}
	}
	return out
}

// opensDialogOnly reports whether every known outcome of an action on
// screen s (outs) is a dialog: the action asks before it acts. Unknown
// actions are not assumed to, nor those of a dialog.
func opensDialogOnly(s *screen.Snapshot, outs []knowledge.Outcome) bool {
	if s == nil || screen.IsDialog(s) || len(outs) == 0 {
		return false
	}
	for _, o := range outs {
		if !o.Dialog {
			return false
		}
	}
	return true
}

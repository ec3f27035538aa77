package daemon

import (
	"context"
	"strings"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// shortestPath returns the steps of a successful run that belong to its
// learned path (AutoTask §4.1.5: the shortest correct path): backtracked
// steps and their undos are dropped, steps that had no effect are dropped,
// a loop that a dropped mistake caused — the run came back to a screen it
// had already acted on, through navigation only (taps on non-toggles,
// back, scroll) — is cut out, and so is a detour the run backed out of:
// taps that only opened screens, then BACK to where they began
// (detourStart). Other loops stay: the same screen may hold other app
// state.
func shortestPath(steps []StepRecord) []StepRecord {
	var out []StepRecord
	mistake := -1 // len(out) when a mistake was last dropped
	for _, s := range steps {
		if s.Backtracked || s.Undo || !s.OK {
			mistake = len(out)
			continue
		}
		// a loop that a dropped mistake caused: cut back to the first visit
		for j := len(out) - 1; j >= 0 && mistake >= 0; j-- {
			if out[j].Screen == s.Screen && j <= mistake && navigationOnly(out[j:]) {
				out = out[:j]
				mistake = -1
				break
			}
		}
		if s.Action == device.Back && s.OK {
			if j := detourStart(out, s.Screen, s.After); j >= 0 {
				out = out[:j]
				continue
			}
		}
		out = append(out, s)
	}
	return out
}

// detourStart returns where a detour that BACK (from screen from to
// screen to) backs out of began: the first of the last steps of out that
// left to and only went down from it — taps, on no toggle, field, option
// of a group or sensitive element, each opening a screen not yet seen on
// the way down ("More options", "Details", "Call log", then BACK twice to
// the conversation). Such taps only navigate, so a replay without them
// reaches the same place; a tap that came back to a screen on the way (an
// item marked, a menu entry that closes its menu onto the screen below)
// may have changed something, and ends the search. -1 when the last steps
// are no such detour.
func detourStart(out []StepRecord, from, to string) int {
	seen := map[string]bool{from: true}
	next := from
	for j := len(out) - 1; j >= 0; j-- {
		t := out[j]
		if t.Action != device.Tap || t.After != next || t.Screen == t.After || seen[t.Screen] || t.Sensitive ||
			t.Target.Checkable || t.Target.Editable || t.Toggle != "" || len(t.Choices) > 0 || len(t.Group) > 0 {
			return -1
		}
		if t.Screen == to {
			return j
		}
		seen[t.Screen] = true
		next = t.Screen
	}
	return -1
}

// navigationOnly reports whether the steps only moved between screens:
// no typing, no toggles.
func navigationOnly(steps []StepRecord) bool {
	for _, s := range steps {
		if s.Action == device.Input || s.Target.Checkable || s.Target.Editable {
			return false
		}
	}
	return true
}

// flowSteps turns executed steps into flow steps, numbering from first.
// Typed text that came from the command becomes a slot reference.
func (r *run) flowSteps(steps []StepRecord, first int) []knowledge.Step {
	path := shortestPath(steps)
	out := make([]knowledge.Step, 0, len(path))
	var typed []string // slots typed so far, in order
	for i, s := range path {
		st := knowledge.Step{Index: first + i, Screen: s.Screen, Action: s.Action, Target: s.Target, Text: s.Text, Expect: s.After,
			Comment: describeStep(knowledge.Step{Action: s.Action, Target: s.Target, Text: s.Text}), Sensitive: s.Sensitive, Where: s.Where}
		if s.Action == device.Scroll {
			st.Text = ""
		}
		if s.Action == device.Input && s.Target.Password {
			// a password is never stored: the step asks for it at replay
			st.Text = "{" + PasswordSlot + "}"
		} else if s.Action == device.Input {
			for name, v := range r.slots {
				if v != "" && strings.EqualFold(v, s.Text) {
					st.Text = "{" + name + "}"
					typed = append(typed, name)
				}
			}
		} else if s.Action == device.Tap {
			// an option the command named: a choice slot (choice.go)
			if cv := choiceValue(privacy.Redact(r.res.Command, r.secrets, false), s.Choices); cv != "" {
				for name, v := range r.slots {
					if strings.EqualFold(v, cv) {
						st.Text, st.Choices = "{"+name+"}", s.Choices
					}
				}
			}
			// an option the command did not name as a value: its group is
			// kept, so that a command naming another option can pick it
			// (anchor.go)
			if st.Text == "" && len(s.Group) >= 2 {
				st.Options = s.Group
			}
			// the row carrying a value typed before: bound to it (valuetap.go)
			if name := valueSlot(s.Target, typed, r.slots); st.Text == "" && name != "" {
				st.Text = "{" + name + "}"
			}
			// a switch flipped in place: replayed as "switch on/off", so a
			// toggle already set is left alone (toggle.go)
			if act, ok := flipped(s); ok && st.Text == "" {
				st.Action = act
				st.Comment = describeStep(st)
			}
		}
		out = append(out, st)
	}
	r.redactSteps(out)
	return out
}

// learn saves the run's shortest correct path as a flow (task and
// execution knowledge): typed text that comes from the command becomes
// slots, and each step keeps its expected screens.
func (r *run) learn(ctx context.Context) error {
	if r.res.Outcome != knowledge.OutcomeSuccess {
		return nil
	}
	if r.steered {
		// a model reached for something the command did not ask for (an
		// instruction injected by screen text, say): the rest of what it
		// did is not a route to keep. The graph planner matches words and
		// follows no instructions; its refused guesses are just not taken.
		r.emit(event.Log, event.LogInfo{Level: "warn", Text: "not learned: the model tried an action the safety policy refused"})
		return nil
	}
	if r.unsure {
		return nil // confirmDone said why
	}
	path := shortestPath(r.steps)
	if len(path) == 0 {
		return nil // already there: nothing worth remembering
	}
	var typed []intent.TypedText
	// secrets never reach the intent, the past commands or a slot example;
	// personal data the owner said (a phone number to save) stays: the
	// flow is the owner's, and matching needs the words as said
	command := privacy.Redact(r.res.Command, r.secrets, false)
	for _, s := range path {
		switch {
		case s.Action == device.Input && !s.Target.Password:
			typed = append(typed, intent.TypedText{Text: s.Text, FieldLabel: s.Target.Label()})
		case s.Action == device.Tap:
			if cv := choiceValue(command, s.Choices); cv != "" {
				typed = append(typed, intent.TypedText{Text: cv})
			}
		}
	}
	tmpl, slots := intent.TemplateWithLabels(command, typed)
	r.slots = map[string]string{}
	for _, sl := range slots {
		r.slots[sl.Name] = sl.Example
	}
	steps := r.flowSteps(r.steps, 0)
	slots = withPasswordSlot(slots, steps)
	goal, err := r.currentGoal(ctx)
	if err != nil {
		return err
	}
	if len(r.secrets) > 0 {
		goal = redactGoal(goal, anyCase(r.secrets))
	}
	f := &knowledge.Flow{AppID: r.app.ID, Package: r.res.Package, Name: flowName(command), Intent: tmpl,
		Commands: []string{command}, Slots: slots, Steps: steps, Source: knowledge.SourceLearned,
		Uses: 1, Successes: 1, Created: time.Now(), Updated: time.Now(), Goal: goal}
	if dup := r.sameFlow(ctx, f); dup != nil {
		if err := r.e.store.AddFlowCommand(ctx, dup.ID, command); err != nil {
			return machineErr{err}
		}
		r.e.matcher.invalidate()
		r.res.FlowID, r.res.FlowName = dup.ID, dup.Name
		return r.keepScreens(ctx, dup.ID, path)
	}
	if old := r.namesake(ctx, f); old != nil {
		if err := r.relearn(ctx, old, f); err != nil {
			return err
		}
		return r.keepScreens(ctx, old.ID, path)
	}
	if err := r.e.store.SaveFlow(ctx, f); err != nil {
		return machineErr{err}
	}
	if err := r.keepScreens(ctx, f.ID, path); err != nil {
		return err
	}
	r.e.matcher.invalidate()
	r.res.Saved, r.res.FlowID, r.res.FlowName = true, f.ID, f.Name
	names := make([]string, len(slots))
	for i, s := range slots {
		names[i] = s.Name
	}
	r.emit(event.FlowSaved, event.FlowInfo{FlowID: f.ID, Name: f.Name, Intent: f.Intent, Steps: len(f.Steps), Slots: names})
	return nil
}

// sameFlow finds a saved flow of the same app with the same intent and
// the same step sequence (same actions on the same elements).
func (r *run) sameFlow(ctx context.Context, f *knowledge.Flow) *knowledge.Flow {
	flows, err := r.e.store.Flows(ctx, knowledge.FlowFilter{Package: f.Package})
	if err != nil {
		return nil
	}
	for i := range flows {
		g := &flows[i]
		if g.Intent != f.Intent || len(g.Steps) != len(f.Steps) {
			continue
		}
		same := true
		for j := range g.Steps {
			if g.Steps[j].Action != f.Steps[j].Action || g.Steps[j].Target.Key() != f.Steps[j].Target.Key() || g.Steps[j].Text != f.Steps[j].Text {
				same = false
				break
			}
		}
		if same {
			return g
		}
	}
	return nil
}

// namesake finds the saved flow of the same app with f's name and
// intent: the same command learned again, by a route that differs (the
// app changed, or the old flow was unhealthy and not replayed).
func (r *run) namesake(ctx context.Context, f *knowledge.Flow) *knowledge.Flow {
	flows, err := r.e.store.Flows(ctx, knowledge.FlowFilter{Package: f.Package})
	if err != nil {
		return nil
	}
	for i := range flows {
		if flows[i].Name == f.Name && flows[i].Intent == f.Intent {
			return &flows[i]
		}
	}
	return nil
}

// relearn saves the route of f as a new version of old (the older
// versions stay in its history) instead of a second flow for one command.
func (r *run) relearn(ctx context.Context, old, f *knowledge.Flow) error {
	g := *old
	g.Steps, g.Goal, g.Slots = f.Steps, f.Goal, f.Slots
	if err := r.e.store.ReviseFlow(ctx, &g, knowledge.ReasonRelearn+": the command was planned again and reached its end screen"); err != nil {
		return machineErr{err}
	}
	if err := r.e.store.AddFlowCommand(ctx, g.ID, f.Commands[0]); err != nil {
		return machineErr{err}
	}
	r.e.matcher.invalidate()
	r.res.Saved, r.res.FlowID, r.res.FlowName = true, g.ID, g.Name
	r.emit(event.FlowRepaired, event.FlowInfo{FlowID: g.ID, Name: g.Name, Intent: g.Intent, Steps: len(g.Steps)})
	return nil
}

// flowName makes a short display name from a command: its first words.
func flowName(cmd string) string {
	w := strings.Fields(cmd)
	if len(w) > 8 {
		w = append(w[:8], "…")
	}
	name := strings.Join(w, " ")
	if name == "" {
		return "flow"
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// PasswordSlot names the slot of a step that types into a password field:
// its value is never stored, so a replay asks for it (or takes it from
// the command: "log in with password ...").
const PasswordSlot = "password"

// withPasswordSlot adds the password slot, with no example, when a step
// refers to it.
func withPasswordSlot(slots []knowledge.Slot, steps []knowledge.Step) []knowledge.Slot {
	for _, st := range steps {
		if st.Text == "{"+PasswordSlot+"}" {
			for _, sl := range slots {
				if sl.Name == PasswordSlot {
					return slots
				}
			}
			return append(slots, knowledge.Slot{Name: PasswordSlot})
		}
	}
	return slots
}

package eval

// What the final screen alone cannot tell of a successful run, for the
// report's audit lines: values typed that the recording never typed, and
// another list row tapped than the one the command names.

import (
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// strayValues returns the texts typed by run steps that no input step of
// task typed (TaskRow.StrayValues).
func strayValues(task *droidtask.Task, run []daemon.StepRecord) []string {
	typed := map[string]bool{}
	for _, s := range task.Actions() {
		if s.Action.Type == "input" {
			typed[strings.ToLower(strings.TrimSpace(s.Input))] = true
			typed[strings.ToLower(strings.TrimSpace(s.Action.Text))] = true
		}
	}
	var out []string
	for _, s := range run {
		if s.Action == device.Input && s.OK && !s.Backtracked && !typed[strings.ToLower(strings.TrimSpace(s.Text))] {
			out = append(out, s.Text)
		}
	}
	return out
}

// otherRows returns the labels of the list rows the logged run tapped,
// on a recorded screen where task's recording tapped a row whose name —
// its text's first line — the command (task.Instruction) says: rows of the
// same class and resource-id as that one (the same list), neither it nor
// inside it, whose own name the command does not say (TaskRow.OtherRows).
// A screen data cannot read is skipped.
func (r *recorder) otherRows(data *droidtask.Dataset, app string, task *droidtask.Task) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, st := range task.Actions() {
		t := st.Action.Target
		if st.Action.Type != "click" || t == nil || t.TempID == nil || !intent.Says(task.Instruction, t.Label()) {
			continue
		}
		s, err := data.State(app, st.State)
		if err != nil || s.Node(*t.TempID) == nil {
			continue
		}
		owner := s.ClickableAncestor(*t.TempID)
		if owner == nil {
			continue
		}
		named := screen.Describe(s, owner.ID) // the row the recording tapped
		for _, m := range r.log {
			if m.before != st.State || m.action != device.Tap || m.node < 0 || s.Node(m.node) == nil || m.node == *t.TempID ||
				slices.Contains(s.Ancestors(*t.TempID), m.node) || slices.Contains(s.Ancestors(m.node), *t.TempID) {
				continue
			}
			d := screen.Describe(s, m.node)
			name := screen.RowName(d.Label())
			if d.InList && d.Class == named.Class && d.ResourceID == named.ResourceID && name != "" && !intent.Says(task.Instruction, name) && !slices.Contains(out, d.Label()) {
				out = append(out, d.Label())
			}
		}
	}
	return out
}

package eval

// What the final screen alone cannot tell of a run, for the report's
// audit lines: values typed that the recording never typed, another list
// row tapped than the one the command names, and a switch or checkbox
// tapped that the recording left alone (a setting changed unasked).

import (
	"cmp"
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

// straySwitches returns the labels of the switches and checkboxes the
// logged run tapped, on recorded screens, that task's recording never
// tapped (TaskRow.StraySwitches): nodes whose clickable owner (the row a
// finger tapping its label hits) is or holds a checkable node that is no
// radio button — a setting, not an option picked among others — compared
// with the recording's taps by descriptor key, so that the same switch
// tapped on another recorded state of its screen counts as the
// recording's. A tap the simulated phone could not follow (no recorded
// transition) counts: on a phone it flips the setting. A screen data
// cannot read is skipped.
func (r *recorder) straySwitches(data *droidtask.Dataset, app string, task *droidtask.Task) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	owned := func(state string, node int) (*screen.Snapshot, *screen.Node) {
		s, err := data.State(app, state)
		if err != nil || s.Node(node) == nil {
			return nil, nil
		}
		for n := s.Node(node); n != nil; n = s.Node(n.Parent) {
			if n.Clickable {
				return s, n // the row a finger hits, a switch's box inside it too
			}
			if n.Parent < 0 {
				break
			}
		}
		return s, s.ClickableAncestor(node)
	}
	recorded := map[string]bool{} // the switches the recording tapped, by descriptor key
	for _, st := range task.Actions() {
		if t := st.Action.Target; st.Action.Type == "click" && t != nil && t.TempID != nil {
			if s, o := owned(st.State, *t.TempID); o != nil {
				if sw := switchIn(s, o.ID); sw != nil {
					recorded[screen.Describe(s, sw.ID).Key()] = true
				}
			}
		}
	}
	var out []string
	for _, m := range r.log {
		if m.action != device.Tap || m.node < 0 {
			continue
		}
		s, o := owned(m.before, m.node)
		if o == nil {
			continue
		}
		sw := switchIn(s, o.ID)
		if sw == nil || recorded[screen.Describe(s, sw.ID).Key()] {
			continue
		}
		d := screen.Describe(s, o.ID)
		if label := cmp.Or(d.Label(), d.ResourceID); !slices.Contains(out, label) {
			out = append(out, label)
		}
	}
	return out
}

// switchIn returns node id of s or the first node under it that is
// checkable and no radio button (a switch, a checkbox), or nil: the same
// switch whether its row or its box was tapped.
func switchIn(s *screen.Snapshot, id int) *screen.Node {
	var found *screen.Node
	s.Walk(id, func(n *screen.Node, _ int) bool {
		if found == nil && n.Checkable && !strings.Contains(strings.ToLower(screen.ShortClass(n.Class)), "radio") {
			found = n
		}
		return found == nil
	})
	return found
}

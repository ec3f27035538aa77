package daemon

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// goalCoverage is the Dice overlap of static labels, or of resource
// names, at which a screen of the goal's activity is taken for the goal
// screen when its fingerprint differs (an app update renamed ids,
// reworded some labels, or wrapped elements). One kind of change at a
// time leaves the other set intact; 0.8 tolerates a fifth of one set
// changing both ways. Chosen, not measured.
const goalCoverage = 0.8

// maxGoalItems bounds the labels and ids a goal keeps.
const maxGoalItems = 48

// goalOf describes s as a flow's goal (knowledge.Goal): its fingerprint,
// activity, and the normalised static labels and resource names of its
// elements (list rows are content, not identity, and are left out).
func goalOf(s *screen.Snapshot, fp string) *knowledge.Goal {
	g := &knowledge.Goal{Screen: fp, Activity: shortActivity(s.Activity), Dialog: screen.IsDialog(s)}
	g.Labels, g.IDs = goalItems(s)
	return g
}

// goalItems returns the sorted, de-duplicated static labels and resource
// names of s's elements (list rows and typed text left out).
func goalItems(s *screen.Snapshot) (labels, ids []string) {
	ls, is := map[string]bool{}, map[string]bool{}
	for _, el := range screen.Elements(s) {
		d := screen.Describe(s, el.NodeID)
		if d.InList || d.Editable {
			continue
		}
		if l := normLabel(el.Label); l != "" {
			ls[l] = true
		}
		if n := s.Node(el.NodeID); n != nil && n.ResourceID != "" {
			is[n.ResourceName()] = true
		}
	}
	return sortedCapped(ls), sortedCapped(is)
}

func normLabel(l string) string {
	return strings.ToLower(strings.TrimSpace(screen.MaskVolatile(l)))
}

func sortedCapped(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	if len(out) > maxGoalItems {
		out = out[:maxGoalItems]
	}
	return out
}

func shortActivity(a string) string {
	if i := strings.LastIndexByte(a, '/'); i >= 0 {
		a = a[i+1:]
	}
	return a
}

// flowGoal is the end screen a flow must reach: its recorded goal, else
// the fingerprint its last step expected, else nil (nothing recorded).
func flowGoal(f *knowledge.Flow) *knowledge.Goal {
	if f.Goal != nil {
		return f.Goal
	}
	if n := len(f.Steps); n > 0 && f.Steps[n-1].Expect != "" {
		return &knowledge.Goal{Screen: f.Steps[n-1].Expect}
	}
	return nil
}

// goalReached checks that s (fingerprint fp) is the goal screen: the same
// fingerprint, or — element level, for an app that changed — the same
// activity with labels or resource names overlapping by goalCoverage. A
// nil goal is always reached (nothing to check against).
func goalReached(g *knowledge.Goal, s *screen.Snapshot, fp string) bool {
	if g == nil || (g.Screen != "" && g.Screen == fp) {
		return true
	}
	if len(g.Labels) == 0 && len(g.IDs) == 0 {
		return false // only a fingerprint was recorded, and it differs
	}
	if g.Activity != shortActivity(s.Activity) {
		return false
	}
	labels, ids := goalItems(s)
	return max(dice(g.Labels, labels), dice(g.IDs, ids)) >= goalCoverage
}

// dice is the Dice coefficient of two sorted sets (0 when both are empty:
// no evidence).
func dice(a, b []string) float64 {
	if len(a)+len(b) == 0 {
		return 0
	}
	return 2 * float64(screen.CommonSorted(a, b)) / float64(len(a)+len(b))
}

// hadEffect reports whether an executed step changed anything: the
// device did it and the screen changed (by the device's report or by the
// fingerprint). A toggle found already in the wanted state counts: the
// step verified the state the command asks for. A step with no effect
// never counts toward completing a command (issue 13: a planner that
// tapped things that did nothing and then declared success).
func hadEffect(rec StepRecord) bool {
	if !rec.OK {
		return false
	}
	if rec.Action == ActEnsureOn || rec.Action == ActEnsureOff {
		return true
	}
	return rec.Changed || rec.After != rec.Screen
}

// progress counts the steps a planning phase took and those that had an
// effect, to judge a planner's "done".
type progress struct{ acted, effective int }

func (p *progress) add(rec StepRecord) {
	if rec.Mode == "recovery" || rec.Mode == "backtrack" {
		return
	}
	p.acted++
	if hadEffect(rec) {
		p.effective++
	}
}

// accept judges a planner's claim that the command is complete on screen
// s (fingerprint fp): refused when the planner acted but nothing it did
// had an effect, and, when the run finishes a saved flow, when the flow's
// recorded end screen was not reached. On acceptance the outcome becomes
// success.
func (r *run) accept(s *screen.Snapshot, fp string, p progress, who string) error {
	if p.acted > 0 && p.effective == 0 {
		return fmt.Errorf("%s declared the command done, but none of its %d steps had any effect", who, p.acted)
	}
	if r.goal != nil && !goalReached(r.goal, s, fp) {
		return fmt.Errorf("%s declared the command done, but the saved flow's recorded end screen was not reached", who)
	}
	r.res.Outcome = knowledge.OutcomeSuccess
	return nil
}

// currentGoal describes the screen the run ends on, as a flow's goal,
// and keeps it as the run's end screen (run.end).
func (r *run) currentGoal(ctx context.Context) (*knowledge.Goal, error) {
	s, err := r.e.dev.Snapshot(ctx)
	if err != nil {
		return nil, machineErr{fmt.Errorf("snapshot: %w", err)}
	}
	fp := screen.Fingerprint(s)
	r.end = r.shot(fp, s)
	return goalOf(s, fp), nil
}

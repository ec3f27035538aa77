package daemon

import (
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// LabelSimilarity scores how alike two labels mean, in [0, 1] (an
// embedding model's cosine, clipped at 0); Config.LabelSimilarity plugs
// one into re-grounding. Both labels arrive lower-cased.
type LabelSimilarity func(a, b string) float64

// Re-grounding thresholds (chosen, not fitted: they keep every re-grounded
// tap unambiguous rather than maximise recall).
const (
	// sameScreenCoverage is the Dice overlap of labels or resource names
	// at which the current screen is taken for the step's screen after
	// an update (a looser bar than goalCoverage: the step only needs the
	// right screen, the goal check comes later).
	sameScreenCoverage = 0.5
	// regroundMin is the least relaxed score an element needs.
	regroundMin = 0.6
	// regroundMargin is how far the best element must lead the second:
	// an ambiguous match is no match (a wrong tap is worse than a repair).
	regroundMargin = 0.1
	// sameMeaning is the LabelSimilarity at which a reworded label with
	// another resource-id is still taken for the same element.
	sameMeaning = 0.85
)

// reground finds the step's element on s when screen.Ground does not
// trust it: after an app update the resource-id may be obfuscated, the
// label recased or reworded, the element wrapped in a new container or
// moved among its siblings. It first checks that s is recognisably the
// screen the step was learned on (same activity, labels or resource
// names overlapping by sameScreenCoverage; needs Step.Where). The one
// element of the step's role carrying the step's label (case aside) is
// the match; failing that it scores the elements with relaxedScore and
// accepts the best only when it is clearly the best. It returns the
// element's node id.
func reground(s *screen.Snapshot, step knowledge.Step, sim LabelSimilarity) (int, bool) {
	if !screenLike(step.Where, s) {
		return -1, false
	}
	// one element of the same role with the very label (case aside) is
	// the element, whatever else changed around it
	want, exact, n := relaxedLabel(step.Target), -1, 0
	for _, el := range screen.Elements(s) {
		d := screen.Describe(s, el.NodeID)
		if want != "" && relaxedLabel(d) == want && d.Editable == step.Target.Editable && d.Checkable == step.Target.Checkable {
			exact, n = el.NodeID, n+1
		}
	}
	if n == 1 {
		return exact, true
	}
	best, second, id := 0.0, 0.0, -1
	for _, el := range screen.Elements(s) {
		sc := relaxedScore(step.Target, screen.Describe(s, el.NodeID), sim)
		switch {
		case sc > best:
			best, second, id = sc, best, el.NodeID
		case sc > second:
			second = sc
		}
	}
	if id < 0 || best < regroundMin || best-second < regroundMargin {
		return -1, false
	}
	return id, true
}

// screenLike reports whether s is recognisably the screen w describes:
// the same activity and kind (dialog or not), labels or resource names
// overlapping by sameScreenCoverage — or, for a screen of list rows only
// (a popup menu: rows are left out of descriptions), none on either side.
func screenLike(w *knowledge.Goal, s *screen.Snapshot) bool {
	if w == nil || w.Activity != shortActivity(s.Activity) || w.Dialog != screen.IsDialog(s) {
		return false
	}
	labels, ids := goalItems(s)
	if len(w.Labels)+len(w.IDs) == 0 && len(labels)+len(ids) == 0 {
		return true
	}
	return max(dice(w.Labels, labels), dice(w.IDs, ids)) >= sameScreenCoverage
}

// relaxedScore compares a step's target with an element without trusting
// what updates change: resource-ids count only when equal (a different id
// may be obfuscation, not another element), labels compare without case
// (and by meaning when sim is set), the ancestor path as a set (a wrapper
// adds an element) and neighbours as a set (siblings move). An element of
// another role (input field, toggle) scores 0; so does one whose label
// differs from the target's, unless its resource-id is the same or sim
// says the labels mean the same (sameMeaning).
func relaxedScore(want, got screen.Descriptor, sim LabelSimilarity) float64 {
	if want.Editable != got.Editable || want.Checkable != got.Checkable {
		return 0
	}
	rid := 0.0
	switch {
	case want.ResourceID != "" && want.ResourceID == got.ResourceID:
		rid = 1
	case want.ResourceID == "" && got.ResourceID == "":
		rid = 0.5
	}
	lw, lg := relaxedLabel(want), relaxedLabel(got)
	label := 0.5 // neither has a label: no evidence either way
	switch {
	case lw == lg:
		label = 1
	case lw == "" || lg == "":
		label = 0
	default:
		// a reworded label counts only with the same resource-id, or
		// when the meaning model vouches for it: "edit colours" and
		// "edit widget colours" are alike as strings, not the same
		label = screen.TextSimilarity(lw, lg)
		meaning := 0.0
		if sim != nil {
			meaning = sim(lw, lg)
		}
		if label < 0.3 || (rid < 1 && meaning < sameMeaning) {
			return 0
		}
		label = max(label, meaning)
	}
	class := 0.0
	if screen.ShortClass(want.Class) == screen.ShortClass(got.Class) {
		class = 1
	}
	return 0.45*label + 0.2*rid + 0.1*class + 0.15*screen.Jaccard(want.Path, got.Path) + 0.1*screen.Jaccard(lower(want.Neighbors), lower(got.Neighbors))
}

// relaxedLabel is a descriptor's label in lower case, digits kept ("3
// columns" is not "5 columns", though screen.MaskVolatile makes them one).
func relaxedLabel(d screen.Descriptor) string {
	l := d.Text
	if l == "" {
		l = d.Desc
	}
	return strings.ToLower(strings.TrimSpace(l))
}

func lower(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}

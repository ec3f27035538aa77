package intent

import (
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestMakeSetsAValue: "make" with an object and its new value ("make the
// font size large") asks to change a setting, as "change" or "set" do —
// no other action than the flow's; "make a new note" still creates one.
func TestMakeSetsAValue(t *testing.T) {
	m := NewMatcher([]knowledge.Flow{
		{ID: 1, Package: "p", Intent: "change the font size to {size}", Slots: []knowledge.Slot{{Name: "size", Example: "small"}}},
		{ID: 2, Package: "p", Intent: "create a note titled {title}", Slots: []knowledge.Slot{{Name: "title", Example: "ideas"}}},
	})
	for _, tc := range []struct {
		cmd  string
		flow int64
	}{
		{"make the font size large", 1},
		{"make a new note titled trips", 2},
	} {
		c := m.Score(tc.cmd, []int64{tc.flow})
		if len(c) != 1 || slices.Contains(c[0].Vetoes, VetoAction) || len(c[0].Unmatched) > 0 {
			t.Errorf("%q: %+v, want the flow's own action", tc.cmd, c)
		}
	}
}

// TestAlwaysIsNotTemporarily: a flow that does something for now is not
// one that does it always, nor the other way round.
func TestAlwaysIsNotTemporarily(t *testing.T) {
	m := NewMatcher([]knowledge.Flow{
		{ID: 1, Package: "p", Intent: "temporarily show hidden files"},
		{ID: 2, Package: "p", Intent: "always open links in the app"},
	})
	for _, tc := range []struct {
		cmd  string
		flow int64
		veto bool
	}{
		{"always show hidden files", 1, true},
		{"show the hidden files for now", 1, false},
		{"open links in the app for the moment", 2, true},
		{"permanently open links in the app", 2, false},
	} {
		c := m.Score(tc.cmd, []int64{tc.flow})
		if len(c) != 1 || slices.Contains(c[0].Vetoes, VetoOpposite) != tc.veto {
			t.Errorf("%q: %+v, want an opposite %v", tc.cmd, c, tc.veto)
		}
	}
}

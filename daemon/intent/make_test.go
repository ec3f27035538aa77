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

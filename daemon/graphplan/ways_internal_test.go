package graphplan

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
)

// TestNoteWays: only a relevant tap on a path through the UI graph tells
// where it leads, the best-ranked path through an element first.
func TestNoteWays(t *testing.T) {
	rs := &runState{}
	rs.noteWays([]candidate{
		{action: device.Tap, element: 1, via: 2, score: 0.5, dest: "starred"},
		{action: device.Tap, element: 1, via: 1, score: 0.3, dest: "theme"},        // a worse path through the same element
		{action: device.Tap, element: 2, via: 0, score: 0.9, dest: "here"},         // on this screen: no path
		{action: device.Tap, element: 3, via: 1, score: MinScore / 2, dest: "far"}, // not relevant
		{action: device.Scroll, element: 4, via: 1, score: 0.5, dest: "below"},
		{action: device.Tap, element: 5, via: 1, score: MinScore, dest: "sort"},
	})
	want := map[int]string{1: "starred", 5: "sort"}
	if len(rs.ways) != len(want) {
		t.Fatalf("ways %v, want %v", rs.ways, want)
	}
	for k, v := range want {
		if rs.ways[k] != v {
			t.Errorf("ways[%d] = %q, want %q", k, rs.ways[k], v)
		}
	}
}

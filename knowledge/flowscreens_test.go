package knowledge

import (
	"context"
	"testing"
)

// TestFlowScreens: a flow's screens are replaced as a whole, read back
// in order, refused when malformed, and deleted with the flow.
func TestFlowScreens(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	f := sampleFlow("com.example.mail", "send", 2, 0)
	isKind(t, s.SaveFlow(ctx, &f), nil)

	got, err := s.FlowScreens(ctx, f.ID)
	isKind(t, err, nil)
	if len(got) != 0 {
		t.Fatalf("a new flow keeps %d screens", len(got))
	}
	first := []FlowScreen{{Index: 1, Fingerprint: "b", Snapshot: []byte("two")}, {Index: 0, Fingerprint: "a", Snapshot: []byte("one")}}
	isKind(t, s.SetFlowScreens(ctx, f.ID, first), nil)
	isKind(t, s.SetFlowScreens(ctx, f.ID, []FlowScreen{{Index: 0, Fingerprint: "c", Snapshot: []byte("three")}}), nil)
	got, err = s.FlowScreens(ctx, f.ID)
	isKind(t, err, nil)
	if len(got) != 1 || got[0].Fingerprint != "c" || string(got[0].Snapshot) != "three" {
		t.Fatalf("after a replacement: %+v", got)
	}
	isKind(t, s.SetFlowScreens(ctx, f.ID, first), nil)
	if got, _ = s.FlowScreens(ctx, f.ID); len(got) != 2 || got[0].Index != 0 || got[1].Fingerprint != "b" {
		t.Fatalf("not in order: %+v", got)
	}

	for _, bad := range [][]FlowScreen{
		{{Index: -1, Snapshot: []byte("x")}},
		{{Index: 0, Snapshot: []byte("x")}, {Index: 0, Snapshot: []byte("y")}},
		{{Index: 0}},
	} {
		isKind(t, s.SetFlowScreens(ctx, f.ID, bad), ErrInvalid)
	}
	isKind(t, s.SetFlowScreens(ctx, 9999, first), ErrNotFound)
	if got, _ = s.FlowScreens(ctx, f.ID); len(got) != 2 {
		t.Fatalf("a refused write changed them: %+v", got)
	}

	isKind(t, s.DeleteFlow(ctx, f.ID), nil)
	if got, _ = s.FlowScreens(ctx, f.ID); len(got) != 0 {
		t.Fatalf("kept after the flow was deleted: %+v", got)
	}
}

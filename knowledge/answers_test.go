package knowledge

import (
	"context"
	"maps"
	"testing"
)

// TestFlowAnswers: an answer is kept per package and command, replaced by
// a later one, never a past command of its flow, and goes with the flow.
func TestFlowAnswers(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	f := sampleFlow("com.example.mail", "send", 3, 1)
	g := sampleFlow("com.example.mail", "archive", 3, 0)
	isKind(t, s.SaveFlow(ctx, &f), nil)
	isKind(t, s.SaveFlow(ctx, &g), nil)

	_, _, err := s.Answer(ctx, f.Package, "mail dora the plan")
	isKind(t, err, ErrNotFound)
	isKind(t, s.RememberAnswer(ctx, f.Package, "", f.ID, nil), ErrInvalid)
	isKind(t, s.RememberAnswer(ctx, f.Package, "mail dora the plan", 9999, nil), ErrNotFound)

	isKind(t, s.RememberAnswer(ctx, f.Package, "mail dora the plan", f.ID, map[string]string{"slot0": "the plan"}), nil)
	id, slots, err := s.Answer(ctx, f.Package, "mail dora the plan")
	isKind(t, err, nil)
	if id != f.ID || !maps.Equal(slots, map[string]string{"slot0": "the plan"}) {
		t.Errorf("Answer = %d %v, want %d and the slots given", id, slots, f.ID)
	}
	if _, _, err := s.Answer(ctx, "com.example.other", "mail dora the plan"); err == nil {
		t.Error("another package's command: want ErrNotFound")
	}
	got, err := s.Flow(ctx, f.ID)
	isKind(t, err, nil)
	for _, c := range got.Commands {
		if c == "mail dora the plan" {
			t.Error("an answer became a past command of its flow")
		}
	}

	// a later answer replaces it; deleting the flow deletes its answers
	isKind(t, s.RememberAnswer(ctx, f.Package, "mail dora the plan", g.ID, nil), nil)
	if id, slots, err := s.Answer(ctx, f.Package, "mail dora the plan"); err != nil || id != g.ID || len(slots) != 0 {
		t.Errorf("after a new answer: %d %v %v, want %d", id, slots, err, g.ID)
	}
	isKind(t, s.DeleteFlow(ctx, g.ID), nil)
	_, _, err = s.Answer(ctx, f.Package, "mail dora the plan")
	isKind(t, err, ErrNotFound)
}

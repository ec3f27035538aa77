package knowledge

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
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

// TestAnswersTravelWithTheirFlow: a flow's answers are read with it,
// survive an export and an import into another store (a private slot's
// value left out), and UpdateFlow keeps them.
func TestAnswersTravelWithTheirFlow(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	f := sampleFlow("com.example.mail", "send", 3, 2)
	f.Steps[1].Action, f.Steps[1].Text, f.Steps[1].Target.Password = "input", "{slot1}", true
	isKind(t, s.SaveFlow(ctx, &f), nil)
	isKind(t, s.RememberAnswer(ctx, f.Package, "mail dora the plan", f.ID, map[string]string{"slot0": "the plan", "slot1": "hunter2"}), nil)

	got, err := s.Flow(ctx, f.ID)
	isKind(t, err, nil)
	want := []Answer{{Command: "mail dora the plan", Slots: map[string]string{"slot0": "the plan", "slot1": "hunter2"}}}
	if len(got.Answers) != 1 || got.Answers[0].Command != want[0].Command || !maps.Equal(got.Answers[0].Slots, want[0].Slots) {
		t.Fatalf("answers read with the flow: %+v, want %+v", got.Answers, want)
	}
	// an edit of the route keeps them
	got.Intent = "send {slot0} to dora"
	isKind(t, s.UpdateFlow(ctx, got), nil)
	if id, _, err := s.Answer(ctx, f.Package, "mail dora the plan"); err != nil || id != f.ID {
		t.Fatalf("after UpdateFlow: %d %v", id, err)
	}

	doc, err := MarshalFlows([]Flow{*got})
	isKind(t, err, nil)
	if strings.Contains(string(doc), "hunter2") {
		t.Fatalf("a private slot's value left the phone:\n%s", doc)
	}
	parsed, err := ParseFlows(doc)
	isKind(t, err, nil)
	other := newStore(t)
	isKind(t, other.SaveFlow(ctx, &parsed[0]), nil)
	id, slots, err := other.Answer(ctx, f.Package, "mail dora the plan")
	isKind(t, err, nil)
	if id != parsed[0].ID || !maps.Equal(slots, map[string]string{"slot0": "the plan"}) {
		t.Errorf("imported answer: flow %d slots %v, want flow %d and no private value", id, slots, parsed[0].ID)
	}

	// a document with an empty or repeated answer is refused
	for _, bad := range []string{`{"command":""}`, `{"command":"x"},{"command":"x"}`} {
		b := strings.Replace(string(doc), `"answers": [`, `"answers": [`+bad+`,`, 1)
		if _, err := ParseFlows([]byte(b)); err == nil {
			t.Errorf("answers %s: want an error", bad)
		}
	}
}

// TestRecoverKeepsAnswers: the flows salvaged by Recover carry their
// answers.
func TestRecoverKeepsAnswers(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "k.db")
	s, err := Open(ctx, path)
	isKind(t, err, nil)
	f := sampleFlow("com.example.mail", "send", 3, 1)
	isKind(t, s.SaveFlow(ctx, &f), nil)
	isKind(t, s.RememberAnswer(ctx, f.Package, "mail dora the plan", f.ID, map[string]string{"slot0": "the plan"}), nil)
	isKind(t, s.Close(), nil)
	rec, err := Recover(ctx, path)
	isKind(t, err, nil)
	b, err := os.ReadFile(rec.FlowsExport)
	isKind(t, err, nil)
	flows, err := ParseFlows(b)
	isKind(t, err, nil)
	if len(flows) != 1 || len(flows[0].Answers) != 1 || flows[0].Answers[0].Command != "mail dora the plan" {
		t.Fatalf("salvaged %+v, want the flow with its answer", flows)
	}
}

package knowledge

import (
	"context"
	"errors"
	"testing"
)

// A deleted flow's id and token are never given to another flow: a stale
// shortcut must not replay an unrelated flow.
func TestFlowIDsAndTokensNeverReused(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	a := sampleFlow("com.example.a", "one", 2, 0)
	isKind(t, s.SaveFlow(ctx, &a), nil)
	b := sampleFlow("com.example.a", "two", 2, 0)
	isKind(t, s.SaveFlow(ctx, &b), nil)
	isKind(t, s.DeleteFlow(ctx, b.ID), nil)
	c := sampleFlow("com.example.a", "three", 2, 0)
	isKind(t, s.SaveFlow(ctx, &c), nil)
	if c.ID <= b.ID {
		t.Fatalf("new flow got id %d after flow %d was deleted: ids are reused", c.ID, b.ID)
	}
	if len(c.Token) != 32 || c.Token == b.Token || c.Token == a.Token {
		t.Fatalf("tokens %q %q %q: want distinct 32-hex tokens", a.Token, b.Token, c.Token)
	}
	if _, err := s.FlowByToken(ctx, b.Token); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted flow's token: err %v, want ErrNotFound", err)
	}
	got, err := s.FlowByToken(ctx, c.Token)
	isKind(t, err, nil)
	if got.ID != c.ID {
		t.Fatalf("FlowByToken = flow %d, want %d", got.ID, c.ID)
	}
	for _, bad := range []string{"", "1", "00000000000000000000000000000000"} {
		if _, err := s.FlowByToken(ctx, bad); !errors.Is(err, ErrNotFound) {
			t.Fatalf("FlowByToken(%q): %v, want ErrNotFound", bad, err)
		}
	}
	// reopening keeps the high-water mark
	path := s.Path()
	isKind(t, s.DeleteFlow(ctx, c.ID), nil)
	s.Close()
	s2, err := Open(ctx, path)
	isKind(t, err, nil)
	defer s2.Close()
	d := sampleFlow("com.example.a", "four", 1, 0)
	isKind(t, s2.SaveFlow(ctx, &d), nil)
	if d.ID <= c.ID {
		t.Fatalf("after reopening, new flow got id %d <= deleted %d", d.ID, c.ID)
	}
}

func TestFlowSensitiveMarks(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	f := sampleFlow("com.example.a", "wipe", 3, 0)
	f.Steps[1].Sensitive = true
	isKind(t, s.SaveFlow(ctx, &f), nil)
	got, err := s.Flow(ctx, f.ID)
	isKind(t, err, nil)
	if !got.Sensitive || !got.Steps[1].Sensitive || got.Steps[0].Sensitive || got.AllowSensitive {
		t.Fatalf("saved flow marks: flow %v steps %v/%v allow %v", got.Sensitive, got.Steps[0].Sensitive, got.Steps[1].Sensitive, got.AllowSensitive)
	}
	isKind(t, s.SetFlowAllowSensitive(ctx, f.ID, true), nil)
	got, _ = s.Flow(ctx, f.ID)
	if !got.AllowSensitive {
		t.Fatal("allow_sensitive not stored")
	}
	// an export never carries the owner's consent; an import asks again
	b, err := MarshalFlows([]Flow{*got})
	isKind(t, err, nil)
	back, err := ParseFlows(b)
	isKind(t, err, nil)
	if back[0].AllowSensitive || back[0].Token != "" || !back[0].Sensitive {
		t.Fatalf("imported flow: allow %v token %q sensitive %v", back[0].AllowSensitive, back[0].Token, back[0].Sensitive)
	}
	isKind(t, s.SetFlowAllowSensitive(ctx, 9999, true), ErrNotFound)
}

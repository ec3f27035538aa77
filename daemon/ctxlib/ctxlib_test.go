package ctxlib

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge/knowledgetest"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// script answers questions in order and records them.
type script struct {
	answers []string
	asked   []string
}

func (s *script) Ask(_ context.Context, q string, options []string) (string, error) {
	s.asked = append(s.asked, q)
	if len(s.answers) == 0 {
		return "", errors.New("no scripted answer for " + q)
	}
	a := s.answers[0]
	s.answers = s.answers[1:]
	return a, nil
}

func library(t *testing.T) *knowledge.Store {
	t.Helper()
	ctx := context.Background()
	st := knowledgetest.Open(t)
	for _, e := range []knowledge.ContextEntry{
		{Kind: "person", Name: "Mary Smith", Aliases: []string{"mom", "mother"}, Values: []knowledge.ContextValue{{Field: "phone", Value: "+1 555 0100", Private: true}}},
		{Kind: "person", Name: "Alex Kim", Aliases: []string{"my boss"}, Values: []knowledge.ContextValue{{Field: "phone", Value: "555-0142"}}},
		{Kind: "person", Name: "Alex Park", Values: []knowledge.ContextValue{{Field: "phone", Value: "555-0177"}}},
		{Kind: "person", Name: "Jo Lee"},
		{Kind: "person", Name: "Will Turner", Values: []knowledge.ContextValue{{Field: "phone", Value: "555-0111"}}},
		{Kind: "place", Name: "home", Values: []knowledge.ContextValue{{Field: "address", Value: "12 Elm Street", Private: true, AllowInPrompt: true}}},
		{Kind: "preference", Name: "language", Values: []knowledge.ContextValue{{Field: "value", Value: "French"}}},
	} {
		if _, err := st.PutContext(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func TestResolve(t *testing.T) {
	st := library(t)
	for _, c := range []struct {
		command string
		answers []string
		want    string // the filled command
		asked   int
		private []string // values that must be redacted
	}{
		{command: "text mom I'm late", want: `text "+1 555 0100" I'm late`, private: []string{"+1 555 0100"}},
		{command: "call my mom", want: `call "+1 555 0100"`, private: []string{"+1 555 0100"}},
		{command: "text my boss running late", want: `text "555-0142" running late`},
		{command: "call Alex Park", want: `call "555-0177"`},
		{command: "call Alex", answers: []string{"Alex Park"}, want: `call "555-0177"`, asked: 1},
		{command: "call alex", answers: []string{"2"}, want: `call "555-0177"`, asked: 1},
		{command: "navigate home", want: `navigate "12 Elm Street"`, private: []string{"12 Elm Street"}},
		{command: "add Jo Lee to the group", want: `add "Jo Lee" to the group`},
		{command: "turn on dark mode", want: "turn on dark mode"},
		{command: "go to the home screen", want: "go to the home screen"},                 // not the owner's home
		{command: "text Alex Kim I will be late", want: `text "555-0142" I will be late`}, // "will" is no Will
		{command: "call Will", want: `call "555-0111"`},
		{command: `create a note called "my boss"`, want: `create a note called "Alex Kim"`},
		{command: "read mom's messages", want: `read "Mary Smith"'s messages`},
		{command: "set the language", want: "set the language"}, // preferences are not mentions
	} {
		t.Run(c.command, func(t *testing.T) {
			a := &script{answers: c.answers}
			res, err := (&Resolver{Store: st, Asker: a}).Resolve(context.Background(), c.command)
			if err != nil {
				t.Fatal(err)
			}
			if res.Command != c.want || len(a.asked) != c.asked {
				t.Errorf("got %q after %d questions %q, want %q after %d", res.Command, len(a.asked), a.asked, c.want, c.asked)
			}
			for _, v := range c.private {
				if strings.Contains(res.Shown, v) || strings.Contains(res.Private.Redact(res.Command), v) {
					t.Errorf("private %q shows: %q / %q", v, res.Shown, res.Private.Redact(res.Command))
				}
			}
		})
	}
}

func TestAmbiguityWithoutAsker(t *testing.T) {
	st := library(t)
	_, err := (&Resolver{Store: st}).Resolve(context.Background(), "call Alex")
	var q *Question
	if !errors.As(err, &q) || !errors.Is(err, ErrNeedsOwner) || len(q.Options) != 2 {
		t.Fatalf("got %v, want a question with both Alexes", err)
	}
	if _, err := (&Resolver{Store: st, Asker: &script{answers: []string{"Alex Somebody"}}}).Resolve(context.Background(), "call Alex"); err == nil {
		t.Error("an answer naming neither Alex was accepted")
	}
}

func TestMissingValueRememberedWithConsent(t *testing.T) {
	st := library(t)
	ctx := context.Background()
	a := &script{answers: []string{"555-0199", "yes"}}
	res, err := (&Resolver{Store: st, Asker: a}).Resolve(ctx, "text Jo I'm here")
	if err != nil {
		t.Fatal(err)
	}
	if res.Command != `text "555-0199" I'm here` || len(a.asked) != 2 || !res.Refs[0].Remembered {
		t.Fatalf("got %q, asked %q, refs %+v", res.Command, a.asked, res.Refs)
	}
	// asked once: the next command finds it in the library
	b := &script{}
	res, err = (&Resolver{Store: st, Asker: b}).Resolve(ctx, "call Jo Lee")
	if err != nil || res.Command != `call "555-0199"` || len(b.asked) != 0 {
		t.Fatalf("second time: %q %v asked %q", res.Command, err, b.asked)
	}
	if res.Private.Redact(res.Command) == res.Command {
		t.Error("a remembered phone number is not private")
	}
}

func TestRefusedConsentIsNotStored(t *testing.T) {
	st := library(t)
	ctx := context.Background()
	a := &script{answers: []string{"jo@example.org", "no"}}
	res, err := (&Resolver{Store: st, Asker: a}).Resolve(ctx, "email Jo the report")
	if err != nil {
		t.Fatal(err)
	}
	if res.Command != `email "jo@example.org" the report` || res.Refs[0].Remembered {
		t.Fatalf("got %q refs %+v", res.Command, res.Refs)
	}
	all, err := st.ContextEntries(ctx, knowledge.KindPerson)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range all {
		if _, ok := e.Value("email"); ok && e.Name == "Jo Lee" {
			t.Fatal("the e-mail was stored although the owner refused")
		}
	}
	// so it is asked again next time
	b := &script{answers: []string{"jo@example.org", "no"}}
	if _, err := (&Resolver{Store: st, Asker: b}).Resolve(ctx, "email Jo hi"); err != nil || len(b.asked) != 2 {
		t.Fatalf("next time: %v, asked %q", err, b.asked)
	}
	// an empty answer is an error, not an empty value
	c := &script{answers: []string{"  "}}
	if _, err := (&Resolver{Store: st, Asker: c}).Resolve(ctx, "email Jo hi"); err == nil {
		t.Error("an empty answer was accepted")
	}
}

func FuzzResolveNoAsker(f *testing.F) {
	f.Add("text mom I'm late")
	f.Add("call Alex (or my boss)")
	f.Fuzz(func(t *testing.T, cmd string) {
		find(cmd, []knowledge.ContextEntry{{ID: 1, Kind: "person", Name: "Mary Smith", Aliases: []string{"mom", "a.b*"}}, {ID: 2, Kind: "place", Name: "home"}})
	})
}

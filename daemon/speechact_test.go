package daemon_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestNotACommandChangesNothing: with a flow saved for "turn on dark
// mode" and a planner at hand, a question, a how-to question, a report
// about it or a command cut off neither replays the flow nor plans a
// tap: the phone stays where it was. The command said with a
// hesitation and a repair replays.
func TestNotACommandChangesNothing(t *testing.T) {
	phone, st := learnDarkMode(t, true)
	if err := phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	eng := daemon.New(phone, st, graphplan.New(st), nil, daemon.Config{Unattended: true, RouteCheck: graphplan.New(st)})
	for _, q := range []string{"is dark mode on?", "hey, is the dark mode turned on", "why is dark mode on", "how do I turn on dark mode", "I already turned on dark mode", "turn on the", "turn on dark mode and um", "don't touch dark mode", "leave dark mode alone"} {
		res, err := eng.Run(context.Background(), q, daemon.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Matched || len(res.Steps) > 0 || res.Outcome == knowledge.OutcomeSuccess || !strings.HasPrefix(res.Error, daemon.ErrNotACommand.Error()) || phone.State() != "home" {
			t.Fatalf("%q: %+v on %s", q, res, phone.State())
		}
	}
	// the command itself still replays, as spoken too: its hesitation
	// and the repair read as meant
	res, err := eng.Run(context.Background(), "turn off i mean turn on uh dark mode", daemon.Options{})
	if err != nil || res.Outcome != knowledge.OutcomeSuccess || phone.State() != "settings_dark" || res.Command != "turn on dark mode" {
		t.Fatalf("the command: %+v %v on %s", res, err, phone.State())
	}
}

// TestSecretNotReread: a command carrying a password is neither heard nor
// spelt anew — the password is typed as said, and no log line shows a
// reading of it ("msgs" written out as "messages" would be a copy the
// redaction misses).
func TestSecretNotReread(t *testing.T) {
	phone, st := learnDarkMode(t, true)
	if err := phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	eng := daemon.New(phone, st, nil, nil, daemon.Config{Unattended: true})
	sub := eng.Bus().Subscribe(1024)
	res, err := eng.Run(context.Background(), "um turn on dark mode with pin msgs", daemon.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Command, "messages") {
		t.Errorf("the command was read anew: %q", res.Command)
	}
	for {
		select {
		case ev := <-sub.C:
			if b, _ := json.Marshal(ev); strings.Contains(string(b), "messages") || strings.Contains(string(b), "msgs") {
				t.Errorf("an event shows the password or a reading of it: %s", b)
			}
			continue
		default:
		}
		break
	}
}

// TestReasonLeftOut: a request said with its reason, or after a question,
// replays as the request alone; the reason's words name nothing to do.
func TestReasonLeftOut(t *testing.T) {
	phone, st := learnDarkMode(t, true)
	if err := phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	eng := daemon.New(phone, st, nil, nil, daemon.Config{Unattended: true})
	for _, q := range []string{"my eyes hurt at night, turn on dark mode", "is it dark already? turn on dark mode"} {
		if err := phone.Reset("home"); err != nil {
			t.Fatal(err)
		}
		res, err := eng.Run(context.Background(), q, daemon.Options{})
		if err != nil || res.Outcome != knowledge.OutcomeSuccess || phone.State() != "settings_dark" || res.Command != "turn on dark mode" {
			t.Fatalf("%q: %+v %v on %s", q, res, err, phone.State())
		}
	}
	// a question, then a request that says too little alone: nothing done
	if err := phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	res, err := eng.Run(context.Background(), "is dark mode off? change it", daemon.Options{})
	if err != nil || !strings.HasPrefix(res.Error, daemon.ErrNotACommand.Error()) || phone.State() != "home" {
		t.Fatalf("a question, then \"change it\": %+v %v on %s", res, err, phone.State())
	}
}

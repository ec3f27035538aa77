package daemon_test

import (
	"context"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestStateQuestionChangesNothing: with a flow saved for "turn on dark
// mode" and a planner at hand, "is dark mode on?" neither replays the
// flow nor plans a tap: the phone stays where it was.
func TestStateQuestionChangesNothing(t *testing.T) {
	phone, st := learnDarkMode(t, true)
	if err := phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	eng := daemon.New(phone, st, graphplan.New(st), nil, daemon.Config{Unattended: true, RouteCheck: graphplan.New(st)})
	for _, q := range []string{"is dark mode on?", "hey, is the dark mode turned on"} {
		res, err := eng.Run(context.Background(), q, daemon.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Matched || len(res.Steps) > 0 || res.Outcome == knowledge.OutcomeSuccess || res.Error != daemon.ErrStateQuestion.Error() || phone.State() != "home" {
			t.Fatalf("%q: %+v on %s", q, res, phone.State())
		}
	}
	// the command itself still replays
	res, err := eng.Run(context.Background(), "turn on dark mode", daemon.Options{})
	if err != nil || res.Outcome != knowledge.OutcomeSuccess || phone.State() != "settings_dark" {
		t.Fatalf("the command: %+v %v on %s", res, err, phone.State())
	}
}

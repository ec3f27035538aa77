package daemon_test

import (
	"context"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestLearnedTapOnASwitchKeepsItsState: a planner that turned dark mode on
// with a plain tap on its switch teaches a flow that switches it on; the
// replay from the on state leaves it on (a tap would have turned it off),
// and from the off state turns it on.
func TestLearnedTapOnASwitchKeepsItsState(t *testing.T) {
	ctx := context.Background()
	phone, st := demotest.New(t, false)
	eng := daemon.New(phone, st, &scripted{labels: []string{"Dark mode"}}, nil, daemon.Config{})
	if err := phone.Reset("settings"); err != nil {
		t.Fatal(err)
	}
	learned, err := eng.Run(ctx, "turn on dark mode", daemon.Options{})
	if err != nil || learned.Outcome != knowledge.OutcomeSuccess || !learned.Saved || phone.State() != "settings_dark" {
		t.Fatalf("learn: %+v %v on %s", learned, err, phone.State())
	}
	f, err := st.Flow(ctx, learned.FlowID)
	if err != nil {
		t.Fatal(err)
	}
	if last := f.Steps[len(f.Steps)-1]; last.Action != daemon.ActEnsureOn {
		t.Fatalf("learned step %+v, want %s", last, daemon.ActEnsureOn)
	}
	for _, from := range []string{"settings_dark", "settings"} {
		if err := phone.Reset(from); err != nil {
			t.Fatal(err)
		}
		res, err := eng.Run(ctx, "turn on dark mode", daemon.Options{NoPlanner: true})
		if err != nil || res.Outcome != knowledge.OutcomeSuccess || res.Strategy != "replay" {
			t.Fatalf("replay from %s: %+v %v", from, res, err)
		}
		if phone.State() != "settings_dark" {
			t.Errorf("replay from %s ended on %s, want dark mode on", from, phone.State())
		}
	}
}

package eval

import (
	"context"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
)

// TestDoneOwner: the simulated owner says a command is done only on the
// task's final screen, and answers no other question.
func TestDoneOwner(t *testing.T) {
	at := "s1"
	o := &doneOwner{state: func() string { return at }, want: "s2"}
	yesNo := []string{daemon.AnswerDone, daemon.AnswerNotDone}
	if ans, err := o.Ask(context.Background(), "is it done?", yesNo); err != nil || ans != daemon.AnswerNotDone || o.said != "no" {
		t.Errorf("elsewhere: %q %v (said %q), want not done", ans, err, o.said)
	}
	at = "s2"
	if ans, err := o.Ask(context.Background(), "is it done?", yesNo); err != nil || ans != daemon.AnswerDone || o.said != "yes" {
		t.Errorf("on the final screen: %q %v (said %q), want done", ans, err, o.said)
	}
	if _, err := o.Ask(context.Background(), "did you mean …?", []string{"a flow", daemon.AnswerNone}); err == nil {
		t.Error("answered another question")
	}
}

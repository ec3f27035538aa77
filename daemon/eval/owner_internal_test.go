package eval

import (
	"context"
	"fmt"
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

// TestOwnerNamesTheRows: offered a flow only "with other values" that
// picks a row by another name (daemon.RowQuestion), the owner names, in
// order, the rows its command picks.
func TestOwnerNamesTheRows(t *testing.T) {
	o := &owner{want: "Archive the thread with Dora", picked: []string{"Eli", "Work"}}
	ans, err := o.Ask(context.Background(), "No saved flow matches … Did you mean one of these?",
		[]string{"Archive the thread with Dora" + daemon.OfferOtherValues, daemon.AnswerNone})
	if err != nil || ans != "Archive the thread with Dora"+daemon.OfferOtherValues || !o.right {
		t.Fatalf("offer: %q %v right=%v", ans, err, o.right)
	}
	for _, want := range []string{"Eli", "Work"} {
		if ans, err := o.Ask(context.Background(), fmt.Sprintf(daemon.RowQuestion, "Dora", "Archive the thread with Dora"), nil); err != nil || ans != want {
			t.Errorf("row question: %q %v, want %q", ans, err, want)
		}
	}
	if _, err := o.Ask(context.Background(), fmt.Sprintf(daemon.RowQuestion, "Dora", "Archive the thread with Dora"), nil); err == nil {
		t.Error("a third row question: want an error, the command names two rows")
	}
}

package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Answers to "did you mean" (offer.go): the flow the owner chose for a
// command that matched none word for word is kept for that command only
// (knowledge.Store.RememberAnswer), not among the flow's past commands.
// A past command is lexical evidence for every later command: a wording
// the owner confirmed once ("exit with a single tap" for a flow that
// turns a "tap twice to exit" switch off) made an opposite command
// ("require tapping twice to exit") match the same flow word for word.
// The same command replays the chosen flow, with the values of that
// replay, without asking again (run.answered).

// answerKey is the form a command is remembered and looked up in: lower
// case, spaces collapsed, trailing punctuation dropped.
func answerKey(command string) string {
	return strings.TrimRightFunc(strings.Join(strings.Fields(strings.ToLower(command)), " "), unicode.IsPunct)
}

// answerSlots returns the run's slot values to remember with an answer:
// never a password, never a value holding one of the run's secrets.
func (r *run) answerSlots() map[string]string {
	out := map[string]string{}
	for k, v := range r.slots {
		if k == PasswordSlot || privacy.Redact(v, r.secrets, false) != v {
			continue
		}
		out[k] = v
	}
	return out
}

// answered returns the flow the owner chose before for this command in
// this app (RememberAnswer), with r.slots set to the values of that
// replay; ok false when there is none, or its flow is unhealthy (then the
// command is matched as any other).
func (r *run) answered(ctx context.Context) (*knowledge.Flow, bool, error) {
	if r.res.Command == "" {
		return nil, false, nil
	}
	id, slots, err := r.e.store.Answer(ctx, r.res.Package, answerKey(privacy.Redact(r.res.Command, r.secrets, false)))
	if errors.Is(err, knowledge.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, machineErr{err}
	}
	f, err := r.e.store.Flow(ctx, id)
	if errors.Is(err, knowledge.ErrNotFound) || err == nil && !f.Healthy() {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, machineErr{err}
	}
	r.slots = slots
	r.answer = true
	r.res.FlowID, r.res.FlowName, r.res.Matched, r.res.Score, r.res.Slots = f.ID, f.Name, true, 1, r.slots
	r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow %q: the owner chose it for these words before", f.Name)})
	r.emit(event.FlowMatched, event.FlowMatch{FlowID: f.ID, Name: f.Name, Score: 1, Threshold: r.cfg.ReplayThreshold, Slots: r.slots, Replay: true})
	return f, true, nil
}

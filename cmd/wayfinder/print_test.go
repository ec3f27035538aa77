package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
)

// TestFlowMatchLine: the line for a flow match says what happened — a
// replay, a closest flow below the threshold, or one above it that was
// held back (ambiguous or refused), never "0.71 < 0.63".
func TestFlowMatchLine(t *testing.T) {
	for _, tc := range []struct {
		m    event.FlowMatch
		want string
	}{
		{event.FlowMatch{FlowID: 1, Name: "x", Score: 0.9, Threshold: 0.63, Replay: true}, "replaying \"x\" (score 0.90 ≥ 0.63)"},
		{event.FlowMatch{FlowID: 1, Name: "x", Score: 0.5, Threshold: 0.63}, "scores 0.50 < 0.63: planning instead"},
		{event.FlowMatch{FlowID: 1, Name: "x", Score: 0.71, Threshold: 0.63}, "scores 0.71 ≥ 0.63 but is not replayed"},
		{event.FlowMatch{Threshold: 0.63}, "no saved flow yet"},
	} {
		data, err := json.Marshal(tc.m)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		printEvent(&b, event.Event{Type: event.FlowMatched, Data: data})
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%+v printed %q, want %q in it", tc.m, b.String(), tc.want)
		}
	}
}

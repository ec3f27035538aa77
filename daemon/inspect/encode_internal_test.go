//go:build !wayfinder_release

package inspect

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
)

// encodeEvent must produce exactly what json.Marshal does.
func FuzzEncodeEvent(f *testing.F) {
	f.Add(int64(1), int64(1700000000000), "run-1", "action", `{"step":1,"label":"Save <now> & go"}`)
	f.Add(int64(0), int64(0), "", "log", ``)
	f.Add(int64(-5), int64(3), "r\"\\\n\u2028", "x\x00y", `"just a string"`)
	f.Fuzz(func(t *testing.T, seq, ms int64, runID, typ, data string) {
		var raw json.RawMessage
		if data != "" {
			b, err := json.Marshal(json.RawMessage(data)) // what the Bus holds is valid, compact JSON
			if err != nil {
				return
			}
			raw = b
		}
		ev := event.Event{Seq: seq, Time: ms, RunID: runID, Type: typ, Data: raw}
		want, err := json.Marshal(ev)
		if err != nil {
			t.Skip()
		}
		if got := encodeEvent(ev); !bytes.Equal(got, want) {
			t.Fatalf("encodeEvent\n got %s\nwant %s", got, want)
		}
	})
}

func TestEncCacheDropped(t *testing.T) {
	var c encCache
	ev := event.Event{Seq: 7, Type: event.Log, Data: json.RawMessage(`{"text":"a"}`)}
	dropped := event.Event{Seq: 7, Type: event.Dropped, Data: json.RawMessage(`{"text":"b"}`)}
	if a, b := c.encode(ev), c.encode(dropped); bytes.Equal(a, b) {
		t.Fatal("a Dropped event with the same Seq got the cached event")
	}
	if a := c.encode(ev); !bytes.Contains(a, []byte(`"log"`)) {
		t.Fatalf("cache lost the event: %s", a)
	}
}

// TestSecurityHistoryBytes (issue 10, item 4): the history keeps at most
// historyBytes of event data, however many large events arrive.
func TestSecurityHistoryBytes(t *testing.T) {
	h := &history{wake: make(chan struct{})}
	big := json.RawMessage(`"` + strings.Repeat("x", event.MaxDataBytes-2) + `"`)
	for i := 0; i < 1000; i++ {
		h.add(event.Event{Seq: int64(i + 1), Data: big})
		if h.size > historyBytes {
			t.Fatalf("after %d events the history holds %d bytes, over %d", i+1, h.size, historyBytes)
		}
	}
	sum := 0
	for _, ev := range h.evs {
		sum += len(ev.Data)
	}
	if sum != h.size || len(h.evs) == 0 || h.evs[len(h.evs)-1].Seq != 1000 {
		t.Fatalf("size %d, sum %d, %d events, last %d", h.size, sum, len(h.evs), h.evs[len(h.evs)-1].Seq)
	}
}

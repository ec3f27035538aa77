//go:build !wayfinder_release

package inspect

import (
	"bytes"
	"encoding/json"
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

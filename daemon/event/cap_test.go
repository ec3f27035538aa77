package event

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSecurityEventCap (issue 10, item 4): an oversized payload never
// reaches subscribers; a marker with its size and a preview does.
func TestSecurityEventCap(t *testing.T) {
	b := NewBus()
	sub := b.Subscribe(4)
	defer b.Unsubscribe(sub)
	for _, tt := range []struct {
		name  string
		bytes int
		cut   bool
	}{{"small", 100, false}, {"just under the cap", MaxDataBytes - 100, false}, {"10 MB", 10 << 20, true}} {
		t.Run(tt.name, func(t *testing.T) {
			b.Publish("r1", LLMReply, LogInfo{Text: strings.Repeat("x", tt.bytes)})
			ev := <-sub.C
			if len(ev.Data) > MaxDataBytes {
				t.Fatalf("event data is %d bytes, over the %d cap", len(ev.Data), MaxDataBytes)
			}
			var tr Truncated
			_ = json.Unmarshal(ev.Data, &tr)
			if tr.Truncated != tt.cut || (tt.cut && (tr.Bytes <= MaxDataBytes || tr.Preview == "")) {
				t.Fatalf("truncated=%v bytes=%d preview=%d, want cut=%v", tr.Truncated, tr.Bytes, len(tr.Preview), tt.cut)
			}
		})
	}
}

package event

import (
	"encoding/json"
	"testing"
)

func TestBusDeliversInOrderToEverySubscriber(t *testing.T) {
	b := NewBus()
	subs := []*Sub{b.Subscribe(200), b.Subscribe(200), b.Subscribe(200)}
	for i := 0; i < 100; i++ {
		b.Publish("r1", Log, LogInfo{Level: "info", Text: "x"})
	}
	for _, s := range subs {
		b.Unsubscribe(s)
		var last int64
		n := 0
		for ev := range s.C {
			if ev.Seq != last+1 {
				t.Fatalf("seq %d after %d", ev.Seq, last)
			}
			last = ev.Seq
			n++
		}
		if n != 100 || s.Lagged() {
			t.Fatalf("got %d events, lagged %v", n, s.Lagged())
		}
	}
}

func TestBusDropsALaggingSubscriberWithoutBlocking(t *testing.T) {
	b := NewBus()
	slow := b.Subscribe(8)
	fast := b.Subscribe(10000)
	for i := 0; i < 5000; i++ { // never blocks although slow never reads
		b.Publish("", Log, LogInfo{Text: "x"})
	}
	if !slow.Lagged() || b.Subscribers() != 1 {
		t.Fatalf("lagged %v, subscribers %d", slow.Lagged(), b.Subscribers())
	}
	var last Event
	for ev := range slow.C {
		last = ev
	}
	if last.Type != Dropped {
		t.Fatalf("the last event of a dropped subscriber is %q, want %q", last.Type, Dropped)
	}
	if len(fast.C) != 5000 {
		t.Fatalf("fast subscriber has %d events", len(fast.C))
	}
}

func TestEventJSONShape(t *testing.T) {
	b := NewBus()
	ev := b.Publish("r9", Action, ActionInfo{Step: 2, Mode: "replay", Action: "tap", Element: 3, OK: true})
	raw, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Seq   int64  `json:"seq"`
		RunID string `json:"run_id"`
		Type  string `json:"type"`
		Data  struct {
			Mode    string `json:"mode"`
			Element int    `json:"element"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &back); err != nil || back.RunID != "r9" || back.Data.Mode != "replay" || back.Data.Element != 3 {
		t.Fatalf("%s -> %+v %v", raw, back, err)
	}
}

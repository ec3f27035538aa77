//go:build !wayfinder_release

package inspect_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/inspect"
)

// BenchmarkPublishToClients measures events through the server to 1 and 10
// websocket clients on loopback: one op is one event published on the Bus
// and received by every client. The publisher keeps at most half a client
// buffer in flight (so nobody is dropped); events/s and µs/event are for
// the whole path (Bus, JSON, websocket write, client read).
func BenchmarkPublishToClients(b *testing.B) {
	snap := inspect.ScreenInfoOf(nil, 3)
	for i := range 40 { // a busy screen: 40 elements, ~3 KB of JSON
		snap.Elements = append(snap.Elements, event.ScreenElement{Index: i, Kind: "button", Label: fmt.Sprintf("Element number %d", i), Bounds: [4]int{0, i * 50, 1080, i*50 + 48}})
	}
	payloads := []struct {
		name string
		typ  string
		data any
	}{
		{"action", event.Action, event.ActionInfo{Step: 3, Mode: "llm", Action: "tap", Element: 12, Label: "Save", Reason: "the note is complete; save it", OK: true, Changed: true, MS: 640, Tokens: 812}},
		{"snapshot", event.Snapshot, snap},
	}
	for _, p := range payloads {
		for _, n := range []int{1, 10} {
			b.Run(fmt.Sprintf("clients=%d/%s", n, p.name), func(b *testing.B) {
				benchClients(b, n, p.typ, p.data)
			})
		}
	}
}

func benchClients(b *testing.B, clients int, typ string, data any) {
	const buffer = 1024
	h := start(b, &fakeController{}, inspect.Options{ClientBuffer: buffer, Logf: func(string, ...any) {}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Flow control, so that no client is dropped: the publisher keeps at
	// most half a buffer in flight and sleeps when it has to wait; a
	// reader wakes it once it has caught up to a quarter buffer.
	got := make([]atomic.Int64, clients)
	var published, waiting atomic.Int64
	wake := make(chan struct{}, 1)
	var wg sync.WaitGroup
	for i := range clients {
		c := h.dial(b, ctx)
		c.SetReadLimit(1 << 20)
		readHello(b, ctx, c)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				if _, _, err := c.Read(ctx); err != nil {
					return
				}
				n := got[i].Add(1)
				if waiting.Load() == 1 && published.Load()-n <= buffer/4 && waiting.CompareAndSwap(1, 0) {
					wake <- struct{}{}
				}
			}
		}()
	}
	slowest := func() int64 {
		m := got[0].Load()
		for i := 1; i < clients; i++ {
			m = min(m, got[i].Load())
		}
		return m
	}
	wait := func(limit int64) {
		for published.Load()-slowest() > limit {
			waiting.Store(1)
			if published.Load()-slowest() <= limit { // caught up meanwhile
				if !waiting.CompareAndSwap(1, 0) {
					<-wake
				}
				continue
			}
			<-wake
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	t0 := time.Now()
	for i := 0; i < b.N; i++ {
		wait(buffer / 2)
		h.bus.Publish("bench", typ, data)
		published.Add(1)
	}
	wait(0)
	el := time.Since(t0)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/el.Seconds(), "events/s")
	b.ReportMetric(float64(el.Microseconds())/float64(b.N), "µs/event")
	b.ReportMetric(float64(b.N*clients)/el.Seconds(), "deliveries/s")
	cancel()
	wg.Wait()
}

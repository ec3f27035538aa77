//go:build !wayfinder_release

package inspect_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/inspect"
)

func TestConcurrentClientsInOrder(t *testing.T) {
	const clients, events = 10, 500
	h := start(t, &fakeController{}, inspect.Options{ClientBuffer: events + 16})
	ctx := testCtx(t)
	conns := make([]*websocket.Conn, clients)
	for i := range conns {
		conns[i] = h.dial(t, ctx)
		readHello(t, ctx, conns[i])
	}
	var wg sync.WaitGroup
	errs := make(chan error, clients)
	for i, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var prev int64
			for n := range events {
				_, b, err := c.Read(ctx)
				if err != nil {
					errs <- fmt.Errorf("client %d event %d: %w", i, n, err)
					return
				}
				var ev struct {
					Seq  int64         `json:"seq"`
					Type string        `json:"type"`
					Data event.LogInfo `json:"data"`
				}
				if err := json.Unmarshal(b, &ev); err != nil {
					errs <- err
					return
				}
				if ev.Type != event.Log || ev.Data.Text != fmt.Sprint("event ", n) || (prev != 0 && ev.Seq != prev+1) {
					errs <- fmt.Errorf("client %d: message %d is %s %q seq %d after %d", i, n, ev.Type, ev.Data.Text, ev.Seq, prev)
					return
				}
				prev = ev.Seq
			}
		}()
	}
	for n := range events {
		h.bus.Publish("r", event.Log, event.LogInfo{Level: "info", Text: fmt.Sprint("event ", n)})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// A client that never reads must not hold up the agent: Publish does not
// wait for it, the Bus drops it, and the server closes its connection and
// says so in the log.
func TestStuckClientDropped(t *testing.T) {
	const events = 10_000
	h := start(t, &fakeController{}, inspect.Options{ClientBuffer: 64, WriteTimeout: 300 * time.Millisecond})
	ctx := testCtx(t)
	stuck := h.dial(t, ctx)
	readHello(t, ctx, stuck) // then never read again
	healthy := h.bus.Subscribe(events + 8)
	base := h.bus.Subscribers()
	// 4 KiB per event: 40 MiB in all, far beyond what loopback socket
	// buffers absorb, so the stuck client's writes block for certain.
	pad := strings.Repeat("x", 4096)
	for n := range events {
		h.bus.Publish("r", event.Log, event.LogInfo{Level: "info", Text: fmt.Sprint(n, pad)})
	}
	// every event reached the healthy subscriber: Publish skipped none
	for n := range events {
		ev := <-healthy.C
		if ev.Type != event.Log {
			t.Fatalf("healthy subscriber got %s at %d", ev.Type, n)
		}
	}
	for h.bus.Subscribers() >= base {
		select {
		case <-ctx.Done():
			t.Fatalf("the stuck client was never dropped; log:\n%s", h.logs)
		case <-time.After(10 * time.Millisecond):
		}
	}
	for !h.logs.contains("dropped: fell more than 64 events behind") {
		select {
		case <-ctx.Done():
			t.Fatalf("the drop was not logged; log:\n%s", h.logs)
		case <-time.After(10 * time.Millisecond):
		}
	}
	// the stuck client finds its connection closed once it reads again
	for {
		_, _, err := stuck.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				t.Fatal("connection still open")
			}
			break
		}
	}
}

// A client whose socket stops draining, while its Bus buffer still has
// room, is disconnected after WriteTimeout.
func TestStuckSocketTimesOut(t *testing.T) {
	const events = 10_000
	h := start(t, &fakeController{}, inspect.Options{ClientBuffer: events + 16, WriteTimeout: 300 * time.Millisecond})
	ctx := testCtx(t)
	stuck := h.dial(t, ctx)
	readHello(t, ctx, stuck)
	base := h.bus.Subscribers()
	pad := strings.Repeat("z", 4096) // 40 MiB in all: the socket fills up
	for n := range events {
		h.bus.Publish("r", event.Log, event.LogInfo{Text: fmt.Sprint(n, pad)})
	}
	for h.bus.Subscribers() >= base || !h.logs.contains("stuck: a write did not complete within 300ms") {
		select {
		case <-ctx.Done():
			t.Fatalf("the stuck client was never disconnected; log:\n%s", h.logs)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if h.logs.contains("dropped: fell") {
		t.Errorf("the Bus dropped a client with room in its buffer; log:\n%s", h.logs)
	}
}

// A client that falls more than its buffer behind, but then reads again,
// gets the "dropped" event last, then a 1013 (try again later) close.
func TestLaggingClientGetsDroppedEvent(t *testing.T) {
	h := start(t, &fakeController{}, inspect.Options{ClientBuffer: 8})
	ctx := testCtx(t)
	c := h.dial(t, ctx)
	readHello(t, ctx, c)
	// The server's writer goroutine drains the buffer as fast as the
	// socket takes it; hold it up by publishing far more than the socket
	// holds while the client does not read.
	pad := strings.Repeat("y", 8192)
	for n := range 5000 {
		h.bus.Publish("r", event.Log, event.LogInfo{Text: fmt.Sprint(n, pad)})
	}
	var last msg
	var err error
	for {
		var b []byte
		_, b, err = c.Read(ctx)
		if err != nil {
			break
		}
		json.Unmarshal(b, &last)
	}
	if last.Type != event.Dropped {
		t.Errorf("last message %q, want %q", last.Type, event.Dropped)
	}
	if got := websocket.CloseStatus(err); got != websocket.StatusTryAgainLater {
		t.Errorf("close status %v (%v), want %v", got, err, websocket.StatusTryAgainLater)
	}
}

//go:build !wayfinder_release

package inspect

import (
	"sync"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
)

// record keeps the recent events for Hello; when it lags it is dropped by
// the Bus and subscribes again (the history then has a gap).
func (s *Server) record(sub *event.Sub) {
	defer s.wg.Done()
	for {
		select {
		case <-s.ctx.Done():
			s.bus.Unsubscribe(sub)
			return
		case ev, ok := <-sub.C:
			switch {
			case !ok:
				sub = s.bus.Subscribe(historyBuffer)
				s.hist.mu.Lock()
				s.hist.sub = sub
				s.hist.mu.Unlock()
			case ev.Type == event.Dropped:
				s.logf("inspect: history subscriber fell behind; the history has a gap before event %d", ev.Seq)
			default:
				s.hist.add(ev)
			}
		}
	}
}

// history is a bounded, seq-ordered record of recent events.
type history struct {
	mu   sync.Mutex
	sub  *event.Sub // the recorder's subscription
	evs  []event.Event
	size int           // bytes of the events' data
	wake chan struct{} // closed and replaced on every add
}

// historyBytes bounds the data the history keeps (8 MiB): with events
// capped at event.MaxDataBytes it holds at least 128 of the largest.
const historyBytes = 8 << 20

func (h *history) add(ev event.Event) {
	h.mu.Lock()
	h.evs = append(h.evs, ev)
	h.size += len(ev.Data)
	drop := 0
	for ; h.size > historyBytes && drop < len(h.evs)-1; drop++ {
		h.size -= len(h.evs[drop].Data)
	}
	h.evs = h.evs[drop:]
	if len(h.evs) >= 2*historyKeep {
		for _, old := range h.evs[:len(h.evs)-historyKeep] {
			h.size -= len(old.Data)
		}
		h.evs = append([]event.Event(nil), h.evs[len(h.evs)-historyKeep:]...)
	}
	close(h.wake)
	h.wake = make(chan struct{})
	h.mu.Unlock()
}

// recent returns the last seq recorded and the events of the latest run.
// It first waits (up to wait) for the recorder to take every event already
// delivered to it, so that what was published before the caller subscribed
// is in the history, not lost between the two.
func (h *history) recent(wait time.Duration) (int64, []event.Event) {
	deadline := time.Now().Add(wait)
	for {
		h.mu.Lock()
		pending := len(h.sub.C)
		h.mu.Unlock()
		if pending == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Microsecond)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.evs) == 0 {
		return 0, []event.Event{}
	}
	last := h.evs[len(h.evs)-1].Seq
	start := -1
	for i := len(h.evs) - 1; i >= 0; i-- {
		if h.evs[i].Type == event.RunStarted {
			start = i
			break
		}
	}
	if start < 0 {
		return last, []event.Event{}
	}
	start = max(start, len(h.evs)-recentMax)
	return last, append([]event.Event(nil), h.evs[start:]...)
}

// between returns the recorded events with from <= Seq <= to, waiting up
// to wait for the recorder to reach to.
func (h *history) between(from, to int64, wait time.Duration) []event.Event {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		h.mu.Lock()
		reached := len(h.evs) > 0 && h.evs[len(h.evs)-1].Seq >= to
		wake := h.wake
		if reached {
			var out []event.Event
			for _, ev := range h.evs {
				if ev.Seq >= from && ev.Seq <= to {
					out = append(out, ev)
				}
			}
			h.mu.Unlock()
			return out
		}
		h.mu.Unlock()
		select {
		case <-wake:
		case <-deadline.C:
			h.mu.Lock()
			var out []event.Event
			for _, ev := range h.evs {
				if ev.Seq >= from && ev.Seq <= to {
					out = append(out, ev)
				}
			}
			h.mu.Unlock()
			return out
		}
	}
}

//go:build !wayfinder_release

package inspect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/coder/websocket"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
)

// hello builds the first message of a connection; the caller has
// subscribed already. It asks the Controller first and reads the history
// last, which leaves the recorder time to catch up.
func (s *Server) hello(ctx context.Context) (Hello, int64) {
	h := Hello{Protocol: 1, Flows: []FlowView{}, ClientBuffer: s.opts.ClientBuffer}
	ctx, cancel := context.WithTimeout(ctx, helloTimeout)
	defer cancel()
	if res, err := s.call(ctx, Request{Method: MethodSnapshot}); err != nil {
		h.Errors = append(h.Errors, "snapshot: "+err.Error())
	} else if info, ok := res.(event.ScreenInfo); ok {
		h.Screen = &info
	}
	if res, err := s.call(ctx, Request{Method: MethodFlows}); err != nil {
		h.Errors = append(h.Errors, "flows: "+err.Error())
	} else {
		h.Flows = res.([]FlowView)
	}
	h.Seq, h.Recent = s.hist.recent(gapWait)
	return h, h.Seq
}

// client is one websocket connection.
type client struct {
	s        *Server
	conn     *websocket.Conn
	remote   string
	inflight chan struct{}
	cancel   context.CancelFunc // ends the connection's context
	closing  bool               // closeAsync owns cancel
}

func (c *client) write(ctx context.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	return c.writeRaw(ctx, b)
}

// writeEvent writes ev, encoded once for all clients (s.enc).
func (c *client) writeEvent(ctx context.Context, ev event.Event) error {
	return c.writeRaw(ctx, c.s.enc.encode(ev))
}

func (c *client) writeRaw(ctx context.Context, b []byte) error {
	wctx, cancel := context.WithTimeout(ctx, c.s.opts.WriteTimeout)
	defer cancel()
	return c.conn.Write(wctx, websocket.MessageText, b)
}

// encCache holds the JSON of recent events, so that N clients encode an
// event once, not N times. Slots are indexed by Seq modulo the size.
type encCache struct {
	slots [256]atomic.Pointer[encoded]
}

type encoded struct {
	seq int64
	b   []byte
}

func (e *encCache) encode(ev event.Event) []byte {
	slot := &e.slots[uint64(ev.Seq)%uint64(len(e.slots))]
	if p := slot.Load(); p != nil && p.seq == ev.Seq && ev.Type != event.Dropped {
		return p.b
	}
	b := encodeEvent(ev)
	if ev.Type != event.Dropped { // a Dropped event shares the Seq of the event it replaced
		slot.Store(&encoded{seq: ev.Seq, b: b})
	}
	return b
}

// encodeEvent is json.Marshal(ev) without re-validating Data, which the
// Bus produced with json.Marshal.
func encodeEvent(ev event.Event) []byte {
	b := make([]byte, 0, 96+len(ev.Data)+len(ev.RunID))
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, ev.Seq, 10)
	b = append(b, `,"time_ms":`...)
	b = strconv.AppendInt(b, ev.Time, 10)
	if ev.RunID != "" {
		b = append(b, `,"run_id":`...)
		b = appendJSONString(b, ev.RunID)
	}
	b = append(b, `,"type":`...)
	b = appendJSONString(b, ev.Type)
	if len(ev.Data) > 0 {
		b = append(b, `,"data":`...)
		b = append(b, ev.Data...)
	}
	return append(b, '}')
}

func appendJSONString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always encodes
	return append(b, q...)
}

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(r) {
		s.logf("inspect: refused websocket from %s: missing or wrong token", r.RemoteAddr)
		w.Header().Set("WWW-Authenticate", `Bearer realm="wayfinder-inspector"`)
		http.Error(w, "token required", http.StatusUnauthorized)
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "server closed", http.StatusServiceUnavailable)
		return
	}
	if s.conns >= maxClients {
		s.mu.Unlock()
		s.logf("inspect: refused websocket from %s: %d clients already connected", r.RemoteAddr, maxClients)
		http.Error(w, "too many inspector clients", http.StatusServiceUnavailable)
		return
	}
	s.wg.Add(1) // under mu, so never after Close started waiting
	s.conns++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.conns--
		s.mu.Unlock()
		s.wg.Done()
	}()
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{
		OriginPatterns:  originPatterns(r), // plus the request's own Host, which Accept always allows
		CompressionMode: websocket.CompressionDisabled,
	})
	if err != nil { // Accept has answered (403 for a foreign Origin)
		s.logf("inspect: refused websocket from %s: %v", r.RemoteAddr, err)
		return
	}
	conn.SetReadLimit(MaxRequestBytes)
	c := &client{s: s, conn: conn, remote: r.RemoteAddr, inflight: make(chan struct{}, maxInflight)}
	reason := c.serve()
	s.logf("inspect: websocket %s closed: %s", c.remote, reason)
}

// serve streams Hello, then the Bus, until the client leaves, lags or the
// server closes; it returns why the connection ended.
func (c *client) serve() string {
	s := c.s
	sub := s.bus.Subscribe(s.opts.ClientBuffer) // before Hello: nothing after it is missed
	defer s.bus.Unsubscribe(sub)
	// ctx ends with the connection; s.ctx (server closing) is only a
	// signal: cancelling a websocket read closes the connection at once,
	// before the going-away close frame could be sent.
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	defer func() {
		if !c.closing {
			cancel()
		}
	}()
	s.logf("inspect: websocket client %s connected", c.remote)

	hello, seq := s.hello(ctx)
	if err := c.write(ctx, map[string]any{"type": "hello", "data": hello}); err != nil {
		c.conn.CloseNow()
		return "writing hello: " + err.Error()
	}
	readErr := make(chan error, 1)
	go func() { readErr <- c.readLoop(ctx) }()

	first := true
	for {
		select {
		case <-s.ctx.Done():
			c.closeAsync(websocket.StatusGoingAway, "server shutting down")
			return "server shutting down"
		case err := <-readErr:
			c.conn.CloseNow()
			if st := websocket.CloseStatus(err); st != -1 {
				return fmt.Sprintf("client closed (%v)", st)
			}
			return "read: " + err.Error()
		case ev, ok := <-sub.C:
			if !ok {
				c.closeAsync(websocket.StatusInternalError, "event subscription closed")
				return "event subscription closed"
			}
			if ev.Type == event.Dropped {
				why := fmt.Sprintf("dropped: fell more than %d events behind the agent", s.opts.ClientBuffer)
				if err := c.writeEvent(ctx, ev); err == nil {
					c.closeAsync(websocket.StatusTryAgainLater, why)
				} else {
					c.conn.CloseNow()
				}
				return why
			}
			if ev.Seq <= seq {
				continue // already in Hello.Recent
			}
			if first && ev.Seq > seq+1 {
				// published before we subscribed, after the history
				// snapshot: fetch them from the history, in order
				for _, old := range s.hist.between(seq+1, ev.Seq-1, gapWait) {
					if err := c.writeEvent(ctx, old); err != nil {
						c.conn.CloseNow()
						return c.writeFailure(err, sub)
					}
				}
			}
			first = false
			seq = ev.Seq
			if err := c.writeEvent(ctx, ev); err != nil {
				c.conn.CloseNow()
				return c.writeFailure(err, sub)
			}
		}
	}
}

// closeAsync runs the close handshake (up to 5 s when the peer does not
// answer) without holding up the caller; Server.Close waits for it.
// The connection's context (which the read loop uses) ends after the
// handshake: ending it earlier would cut the connection before the close
// frame.
func (c *client) closeAsync(code websocket.StatusCode, reason string) {
	c.closing = true
	c.s.wg.Add(1) // the caller's handler holds the group above zero
	go func() {
		defer c.s.wg.Done()
		defer c.cancel()
		c.conn.Close(code, reason)
	}()
}

// writeFailure explains a failed write, noting when the Bus had already
// dropped the client.
func (c *client) writeFailure(err error, sub *event.Sub) string {
	lagged := false
	for done := false; !done; {
		select {
		case ev, ok := <-sub.C:
			if !ok {
				done = true
			} else if ev.Type == event.Dropped {
				lagged = true
			}
		default:
			done = true
		}
	}
	why := "write failed: " + err.Error()
	if errors.Is(err, context.DeadlineExceeded) {
		why = fmt.Sprintf("stuck: a write did not complete within %v", c.s.opts.WriteTimeout)
	}
	if lagged {
		why += fmt.Sprintf("; dropped: fell more than %d events behind the agent", c.s.opts.ClientBuffer)
	}
	return why
}

// readLoop reads commands until the connection fails.
func (c *client) readLoop(ctx context.Context) error {
	for {
		typ, b, err := c.conn.Read(ctx)
		if err != nil {
			return err
		}
		if typ != websocket.MessageText {
			c.reply(ctx, Reply{ID: "", Error: "binary messages are not accepted"})
			continue
		}
		req, err := ParseRequest(b)
		if err != nil {
			c.reply(ctx, Reply{ID: req.ID, Error: err.Error()})
			continue
		}
		select {
		case c.inflight <- struct{}{}:
		default:
			c.reply(ctx, Reply{ID: req.ID, Error: fmt.Sprintf("busy: %d commands in progress", maxInflight)})
			continue
		}
		go func() {
			defer func() { <-c.inflight }()
			res, err := c.s.call(ctx, req)
			if err != nil {
				c.reply(ctx, Reply{ID: req.ID, Error: err.Error()})
				return
			}
			c.reply(ctx, Reply{ID: req.ID, Result: res})
		}()
	}
}

func (c *client) reply(ctx context.Context, r Reply) {
	r.Type = "reply"
	if r.Error == "" && r.Result == nil {
		r.Result = json.RawMessage("null")
	}
	if err := c.write(ctx, r); err != nil && ctx.Err() == nil {
		c.s.logf("inspect: websocket %s: writing reply: %v", c.remote, err)
	}
}

//go:build !wayfinder_release

package inspect

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
)

//go:embed inspector.html
var pageHTML []byte

// assets are the page's vendored libraries (Cytoscape.js and its dagre
// layout; scripts/vendor-inspector-libs.sh, licences beside them), served
// at /assets/NAME.
//
//go:embed assets
var assets embed.FS

const (
	// historyBuffer is the Bus buffer of the server's own history
	// subscriber; historyKeep the events it keeps; recentMax the events
	// of the latest run sent in Hello.
	historyBuffer = 4096
	historyKeep   = 2000
	recentMax     = 1000
	// helloTimeout bounds the Controller calls that build Hello;
	// callTimeout a command's Controller call; gapWait how long a new
	// client waits for the history to catch up with its first event.
	helloTimeout = 3 * time.Second
	callTimeout  = 30 * time.Second
	gapWait      = 500 * time.Millisecond
	// maxInflight bounds one client's commands in progress.
	maxInflight = 4
	// maxClients bounds the websocket clients at once: a debugging
	// inspector has one or two; each holds a Bus buffer and a Hello of up
	// to historyBytes, so hundreds of reconnecting clients must not be
	// able to exhaust memory.
	maxClients = 16
)

// Server is the inspector's HTTP and websocket server. Create it with New;
// serve it with ListenAndServe (or Listen and Serve), or mount Handler
// yourself and call Close when done.
type Server struct {
	ctrl      Controller
	bus       *event.Bus
	opts      Options
	logf      func(string, ...any)
	tokenHash [32]byte

	ctx    context.Context // cancelled by Close: stops the history and every client
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once
	hist   history
	enc    encCache

	mu     sync.Mutex
	addr   string // bound address once listening
	conns  int
	closed bool
}

// New returns a Server streaming bus to websocket clients and handing
// their commands to ctrl. It returns an error when ctrl or bus is nil, the
// token is shorter than MinTokenLen or Addr is not a loopback address. The
// server subscribes to bus at once (one subscriber with a 4096-event
// buffer) to keep the latest run's events for clients that connect
// mid-run; each websocket client adds one subscriber while connected. Call
// Close (or let Serve return) to stop.
func New(ctrl Controller, bus *event.Bus, opts Options) (*Server, error) {
	if ctrl == nil || bus == nil {
		return nil, errors.New("inspect: New: nil Controller or Bus")
	}
	if len(opts.Token) < MinTokenLen {
		return nil, fmt.Errorf("inspect: New: token of %d characters, want at least %d (use LoadOrCreateToken)", len(opts.Token), MinTokenLen)
	}
	if opts.Addr == "" {
		opts.Addr = DefaultAddr
	}
	if err := checkAddr(opts.Addr); err != nil {
		return nil, err
	}
	if opts.ClientBuffer <= 0 {
		opts.ClientBuffer = DefaultClientBuffer
	}
	opts.ClientBuffer = max(opts.ClientBuffer, 8)
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = DefaultWriteTimeout
	}
	s := &Server{ctrl: ctrl, bus: bus, opts: opts, logf: opts.Logf, tokenHash: sha256.Sum256([]byte(opts.Token))}
	if s.logf == nil {
		s.logf = log.Printf
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.hist.wake = make(chan struct{})
	sub := bus.Subscribe(historyBuffer) // before New returns: no event published after New is missed
	s.hist.sub = sub
	s.wg.Add(1)
	go s.record(sub)
	return s, nil
}

// URL returns the inspector page's address with the token, e.g.
// "http://127.0.0.1:7777/?token=…". After Listen it names the bound port.
// The URL is a secret: do not log it where others can read it.
func (s *Server) URL() string {
	s.mu.Lock()
	addr := s.addr
	s.mu.Unlock()
	if addr == "" {
		addr = s.opts.Addr
	}
	return "http://" + addr + "/?token=" + s.opts.Token
}

// Listen binds Options.Addr and returns the listener for Serve.
func (s *Server) Listen() (net.Listener, error) {
	ln, err := net.Listen("tcp", s.opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("inspect: listen: %w", err)
	}
	s.mu.Lock()
	s.addr = ln.Addr().String()
	s.mu.Unlock()
	return ln, nil
}

// Serve serves HTTP on ln until ctx is cancelled, then shuts down and
// closes the Server. It refuses a listener on a non-loopback address.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	defer s.Close()
	if err := checkAddr(ln.Addr().String()); err != nil {
		ln.Close()
		return err
	}
	s.mu.Lock()
	s.addr = ln.Addr().String()
	s.mu.Unlock()
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(logWriter(s.logf), "", 0)}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			s.Close() // websocket connections are hijacked: Shutdown does not see them
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			hs.Shutdown(sctx)
		case <-done:
		}
	}()
	s.logf("inspect: serving the inspector on http://%s/", ln.Addr())
	err := hs.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// ListenAndServe is Listen followed by Serve.
func (s *Server) ListenAndServe(ctx context.Context) error {
	ln, err := s.Listen()
	if err != nil {
		s.Close()
		return err
	}
	return s.Serve(ctx, ln)
}

// Close stops the history subscriber and closes every websocket client
// (status 1001, going away), waiting for them. Idempotent.
func (s *Server) Close() error {
	s.once.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.cancel()
		s.mu.Unlock()
		s.wg.Wait()
	})
	return nil
}

// Handler returns the server's routes: GET / (the page), GET /ws (the
// websocket) and GET /api/{snapshot,flows,graph} (JSON, token required).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.servePage)
	mux.HandleFunc("GET /assets/{name}", s.serveAsset)
	mux.HandleFunc("GET /ws", s.serveWS)
	mux.HandleFunc("GET /api/{method}", s.serveAPI)
	return s.checkHost(mux)
}

type logWriter func(string, ...any)

func (l logWriter) Write(p []byte) (int, error) {
	l("inspect: http: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// checkHost refuses requests whose Host is not a loopback name, which
// defeats DNS rebinding (a foreign name resolving to 127.0.0.1).
func (s *Server) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		if !isLoopbackHost(strings.Trim(host, "[]")) {
			s.logf("inspect: refused %s %s from %s: Host %q is not a loopback name", r.Method, r.URL.Path, r.RemoteAddr, r.Host)
			http.Error(w, "forbidden host", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authorized reports whether r carries the token (?token= or Bearer),
// comparing SHA-256 digests in constant time.
func (s *Server) authorized(r *http.Request) bool {
	tok := r.URL.Query().Get("token")
	if h := r.Header.Get("Authorization"); tok == "" && len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		tok = strings.TrimSpace(h[7:])
	}
	if tok == "" {
		return false
	}
	got := sha256.Sum256([]byte(tok))
	return subtle.ConstantTimeCompare(got[:], s.tokenHash[:]) == 1
}

// loopbackOrigins lists the origin hosts accepted besides the request's
// own Host: the same port on the other loopback names.
func loopbackOrigins(r *http.Request) []string {
	_, port, err := net.SplitHostPort(r.Host)
	if err != nil || port == "" {
		port = "80"
	}
	return []string{"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port}
}

// originPatterns is loopbackOrigins as websocket.AcceptOptions patterns
// (path.Match syntax: brackets escaped).
func originPatterns(r *http.Request) []string {
	out := loopbackOrigins(r)
	for i, o := range out {
		out[i] = strings.NewReplacer("[", `\[`, "]", `\]`).Replace(o)
	}
	return out
}

func (s *Server) originOK(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	for _, h := range append(loopbackOrigins(r), r.Host) {
		if strings.EqualFold(o, "http://"+h) {
			return true
		}
	}
	return false
}

func (s *Server) servePage(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "+
		"connect-src 'self' ws://"+r.Host+"; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	w.Write(pageHTML)
}

// serveAsset serves a vendored library (no token: it is public code, the
// same in every build) or its licence.
func (s *Server) serveAsset(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	b, err := assets.ReadFile("assets/" + name)
	if err != nil || strings.Contains(name, "/") {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	if strings.HasSuffix(name, ".js") {
		h.Set("Content-Type", "text/javascript; charset=utf-8")
	} else {
		h.Set("Content-Type", "text/plain; charset=utf-8")
	}
	h.Set("Cache-Control", "public, max-age=86400")
	h.Set("X-Content-Type-Options", "nosniff")
	w.Write(b)
}

func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="wayfinder-inspector"`)
		http.Error(w, "token required", http.StatusUnauthorized)
		return
	}
	if !s.originOK(r) {
		http.Error(w, "foreign origin", http.StatusForbidden)
		return
	}
	method := r.PathValue("method")
	switch method {
	case MethodSnapshot, MethodFlows, MethodGraph:
	default:
		http.Error(w, "unknown endpoint", http.StatusNotFound)
		return
	}
	res, err := s.call(r.Context(), Request{Method: method})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if err != nil {
		w.WriteHeader(http.StatusBadGateway)
		json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
		return
	}
	json.NewEncoder(w).Encode(res)
}

// call runs one validated request against the Controller, recovering a
// panic into an error.
func (s *Server) call(ctx context.Context, req Request) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.logf("inspect: controller panicked on %s: %v", req.Method, p)
			res, err = nil, fmt.Errorf("%s: internal error", req.Method)
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	switch req.Method {
	case MethodRun:
		run := s.ctrl.Run
		if req.Steps != "" {
			sc, ok := s.ctrl.(StepsController)
			if !ok {
				return nil, errors.New("run: this phone cannot follow pasted steps")
			}
			run = func(ctx context.Context, goal string) (string, error) { return sc.RunSteps(ctx, goal, req.Steps) }
		}
		id, err := run(ctx, req.Command)
		if err != nil {
			return nil, err
		}
		return map[string]string{"run_id": id}, nil
	case MethodReplay:
		id, err := s.ctrl.Replay(ctx, req.FlowID, req.Slots)
		if err != nil {
			return nil, err
		}
		return map[string]string{"run_id": id}, nil
	case MethodCancel:
		if err := s.ctrl.Cancel(req.RunID); err != nil {
			return nil, err
		}
		return map[string]bool{"ok": true}, nil
	case MethodSnapshot:
		snap, err := s.ctrl.Snapshot(ctx)
		if err != nil || snap == nil {
			return json.RawMessage("null"), err
		}
		return ScreenInfoOf(snap, 0), nil
	case MethodFlows:
		flows, err := s.ctrl.Flows(ctx)
		if err != nil {
			return nil, err
		}
		out := make([]FlowView, len(flows))
		for i, f := range flows {
			out[i] = FlowViewOf(f)
		}
		return out, nil
	case MethodHistory, MethodRollback:
		fv, ok := s.ctrl.(FlowVersions)
		if !ok {
			return nil, fmt.Errorf("%s: this daemon keeps no flow versions", req.Method)
		}
		if req.Method == MethodRollback {
			if err := fv.RollbackFlow(ctx, req.FlowID, req.Version); err != nil {
				return nil, err
			}
			return map[string]bool{"ok": true}, nil
		}
		hist, err := fv.FlowHistory(ctx, req.FlowID)
		if err != nil {
			return nil, err
		}
		out := make([]VersionView, len(hist))
		for i, v := range hist {
			out[i] = VersionViewOf(v)
		}
		return out, nil
	case MethodGraph:
		g, err := s.ctrl.Graph(ctx)
		if err != nil || g == nil {
			return json.RawMessage("null"), err
		}
		return GraphViewOf(g), nil
	}
	return nil, fmt.Errorf("unknown method %q", req.Method)
}

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

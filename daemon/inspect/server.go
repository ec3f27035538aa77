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
	"strings"
	"sync"
	"time"

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
	case MethodAnswer:
		a, ok := s.ctrl.(Answerer)
		if !ok {
			return nil, errors.New("answer: this phone's runs take no answers")
		}
		if err := a.Answer(req.Text); err != nil {
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

//go:build !wayfinder_release

package inspect_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/inspect"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

const testToken = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// fakeController implements inspect.Controller with function fields; a nil
// field answers with an error (Run, Replay, Cancel) or nothing.
type fakeController struct {
	RunFn      func(ctx context.Context, command string) (string, error)
	ReplayFn   func(ctx context.Context, flowID int64, slots map[string]string) (string, error)
	CancelFn   func(runID string) error
	SnapshotFn func(ctx context.Context) (*screen.Snapshot, error)
	FlowsFn    func(ctx context.Context) ([]knowledge.Flow, error)
	GraphFn    func(ctx context.Context) (*knowledge.Graph, error)
	HistoryFn  func(ctx context.Context, id int64) ([]knowledge.FlowVersion, error)
	RollbackFn func(ctx context.Context, id int64, version int) error
	AnswerFn   func(text string) error
}

var (
	_ inspect.Controller   = (*fakeController)(nil)
	_ inspect.FlowVersions = (*fakeController)(nil)
	_ inspect.Answerer     = (*fakeController)(nil)
)

func (f *fakeController) Answer(text string) error {
	if f.AnswerFn == nil {
		return errors.New("fake: Answer not set")
	}
	return f.AnswerFn(text)
}

func (f *fakeController) FlowHistory(ctx context.Context, id int64) ([]knowledge.FlowVersion, error) {
	if f.HistoryFn == nil {
		return nil, errors.New("fake: FlowHistory not set")
	}
	return f.HistoryFn(ctx, id)
}

func (f *fakeController) RollbackFlow(ctx context.Context, id int64, version int) error {
	if f.RollbackFn == nil {
		return errors.New("fake: RollbackFlow not set")
	}
	return f.RollbackFn(ctx, id, version)
}

func (f *fakeController) Run(ctx context.Context, command string) (string, error) {
	if f.RunFn == nil {
		return "", errors.New("fake: Run not set")
	}
	return f.RunFn(ctx, command)
}

func (f *fakeController) Replay(ctx context.Context, flowID int64, slots map[string]string) (string, error) {
	if f.ReplayFn == nil {
		return "", errors.New("fake: Replay not set")
	}
	return f.ReplayFn(ctx, flowID, slots)
}

func (f *fakeController) Cancel(runID string) error {
	if f.CancelFn == nil {
		return errors.New("fake: Cancel not set")
	}
	return f.CancelFn(runID)
}

func (f *fakeController) Snapshot(ctx context.Context) (*screen.Snapshot, error) {
	if f.SnapshotFn == nil {
		return nil, nil
	}
	return f.SnapshotFn(ctx)
}

func (f *fakeController) Flows(ctx context.Context) ([]knowledge.Flow, error) {
	if f.FlowsFn == nil {
		return nil, nil
	}
	return f.FlowsFn(ctx)
}

func (f *fakeController) Graph(ctx context.Context) (*knowledge.Graph, error) {
	if f.GraphFn == nil {
		return nil, nil
	}
	return f.GraphFn(ctx)
}

// logBuf collects the server's log lines.
type logBuf struct {
	mu    sync.Mutex
	lines []string
}

func (l *logBuf) logf(format string, args ...any) {
	l.mu.Lock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

func (l *logBuf) contains(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range l.lines {
		if strings.Contains(line, s) {
			return true
		}
	}
	return false
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

type harness struct {
	srv  *inspect.Server
	ts   *httptest.Server
	bus  *event.Bus
	logs *logBuf
	ws   string // ws://host/ws
}

func start(t testing.TB, ctrl inspect.Controller, opts inspect.Options) *harness {
	t.Helper()
	bus := event.NewBus()
	logs := &logBuf{}
	if opts.Token == "" {
		opts.Token = testToken
	}
	opts.Logf = logs.logf
	srv, err := inspect.New(ctrl, bus, opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		srv.Close()
		ts.Close()
	})
	return &harness{srv: srv, ts: ts, bus: bus, logs: logs, ws: "ws" + strings.TrimPrefix(ts.URL, "http") + "/ws"}
}

// dial connects with the test token in the query.
func (h *harness) dial(t testing.TB, ctx context.Context) *websocket.Conn {
	t.Helper()
	c, _, err := websocket.Dial(ctx, h.ws+"?token="+testToken, nil)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	c.SetReadLimit(1 << 24)
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// msg is any server message: an event, a hello or a reply.
type msg struct {
	Seq    int64           `json:"seq"`
	RunID  string          `json:"run_id"`
	Type   string          `json:"type"`
	Data   json.RawMessage `json:"data"`
	ID     string          `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  string          `json:"error"`
}

func read(t testing.TB, ctx context.Context, c *websocket.Conn) msg {
	t.Helper()
	typ, b, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if typ != websocket.MessageText {
		t.Fatalf("message type %v, want text", typ)
	}
	var m msg
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("message %q: %v", b, err)
	}
	return m
}

func readHello(t testing.TB, ctx context.Context, c *websocket.Conn) inspect.Hello {
	t.Helper()
	m := read(t, ctx, c)
	if m.Type != "hello" {
		t.Fatalf("first message type %q, want hello", m.Type)
	}
	var h inspect.Hello
	if err := json.Unmarshal(m.Data, &h); err != nil {
		t.Fatal(err)
	}
	return h
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestNewOptions(t *testing.T) {
	bus := event.NewBus()
	ctrl := &fakeController{}
	tests := []struct {
		name    string
		ctrl    inspect.Controller
		opts    inspect.Options
		wantErr string
	}{
		{"default address", ctrl, inspect.Options{Token: testToken}, ""},
		{"ipv4 loopback", ctrl, inspect.Options{Addr: "127.0.0.1:0", Token: testToken}, ""},
		{"ipv6 loopback", ctrl, inspect.Options{Addr: "[::1]:7777", Token: testToken}, ""},
		{"localhost", ctrl, inspect.Options{Addr: "localhost:7777", Token: testToken}, ""},
		{"all interfaces", ctrl, inspect.Options{Addr: ":7777", Token: testToken}, "not a loopback"},
		{"wildcard ipv4", ctrl, inspect.Options{Addr: "0.0.0.0:7777", Token: testToken}, "not a loopback"},
		{"lan address", ctrl, inspect.Options{Addr: "192.168.1.20:7777", Token: testToken}, "not a loopback"},
		{"host name", ctrl, inspect.Options{Addr: "example.com:7777", Token: testToken}, "not a loopback"},
		{"no port", ctrl, inspect.Options{Addr: "127.0.0.1", Token: testToken}, "missing port"},
		{"no token", ctrl, inspect.Options{}, "token"},
		{"short token", ctrl, inspect.Options{Token: "abc"}, "token"},
		{"nil controller", nil, inspect.Options{Token: testToken}, "nil Controller"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := inspect.New(tt.ctrl, bus, tt.opts)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				defer s.Close()
				if tt.opts.Addr == "" && !strings.HasPrefix(s.URL(), "http://127.0.0.1:7777/?token=") {
					t.Errorf("URL %q: want the default address", s.URL())
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("New: err %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

// snapshotJSON is a small screen: a title, a password field, a button.
const snapshotJSON = `{"schema":1,"width":1080,"height":2400,"activity":"com.example.app/.Login","package":"com.example.app",
 "windows":[{"id":1,"type":"application","package":"com.example.app","layer":1,"bounds":[0,0,1080,2400],"nodes":[
  {"id":0,"parent":-1,"class":"android.widget.FrameLayout","bounds":[0,0,1080,2400],"visible_to_user":true,"enabled":true},
  {"id":1,"parent":0,"class":"android.widget.TextView","text":"Sign in","bounds":[40,100,600,180],"visible_to_user":true,"enabled":true},
  {"id":2,"parent":0,"class":"android.widget.EditText","hint":"Password","text":"hunter2-secret","password":true,"editable":true,"clickable":true,"bounds":[40,300,1040,420],"visible_to_user":true,"enabled":true},
  {"id":3,"parent":0,"class":"android.widget.Button","text":"Continue","clickable":true,"bounds":[40,500,1040,620],"visible_to_user":true,"enabled":true}]}]}`

// Close ends every websocket with 1001 (going away).
func TestCloseDisconnects(t *testing.T) {
	h := start(t, &fakeController{}, inspect.Options{})
	ctx := testCtx(t)
	c := h.dial(t, ctx)
	readHello(t, ctx, c)
	errc := make(chan error, 1)
	go func() { // answer the close handshake while Close waits for it
		_, _, err := c.Read(ctx)
		errc <- err
	}()
	h.srv.Close()
	err := <-errc
	if got := websocket.CloseStatus(err); got != websocket.StatusGoingAway {
		t.Fatalf("close status %v (%v), want going away", got, err)
	}
	if n := h.bus.Subscribers(); n != 0 {
		t.Errorf("%d subscriptions left after Close", n)
	}
}

// ListenAndServe serves on a free loopback port until its context ends.
func TestListenAndServe(t *testing.T) {
	bus := event.NewBus()
	srv, err := inspect.New(&fakeController{}, bus, inspect.Options{Addr: "127.0.0.1:0", Token: testToken, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := srv.Listen()
	if err != nil {
		t.Fatal(err)
	}
	u := srv.URL()
	if strings.Contains(u, ":0/") || !strings.HasSuffix(u, "/?token="+testToken) {
		t.Fatalf("URL %q", u)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("GET %s: %d", u, resp.StatusCode)
	}
	c, _, err := websocket.Dial(context.Background(), strings.Replace(strings.Replace(u, "http", "ws", 1), "/?", "/ws?", 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	readHello(t, context.Background(), c)
	errc := make(chan error, 1)
	go func() {
		_, _, err := c.Read(context.Background())
		errc <- err
	}()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if err := <-errc; websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Errorf("after shutdown: %v", err)
	}
}

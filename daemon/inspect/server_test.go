//go:build !wayfinder_release

package inspect_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
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

func TestAuth(t *testing.T) {
	h := start(t, &fakeController{}, inspect.Options{})
	tests := []struct {
		name   string
		query  string
		header http.Header
		want   int
	}{
		{"no token", "", nil, http.StatusUnauthorized},
		{"wrong token", "?token=" + strings.Repeat("0", 64), nil, http.StatusUnauthorized},
		{"token prefix", "?token=" + testToken[:32], nil, http.StatusUnauthorized},
		{"wrong bearer", "", http.Header{"Authorization": {"Bearer nope-nope-nope-nope"}}, http.StatusUnauthorized},
		{"basic auth", "", http.Header{"Authorization": {"Basic " + testToken}}, http.StatusUnauthorized},
		{"query token", "?token=" + testToken, nil, http.StatusSwitchingProtocols},
		{"bearer token", "", http.Header{"Authorization": {"Bearer " + testToken}}, http.StatusSwitchingProtocols},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			c, resp, err := websocket.Dial(ctx, h.ws+tt.query, &websocket.DialOptions{HTTPHeader: tt.header})
			if resp == nil {
				t.Fatalf("no response: %v", err)
			}
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d (err %v)", resp.StatusCode, tt.want, err)
			}
			if tt.want == http.StatusSwitchingProtocols {
				readHello(t, ctx, c)
				c.Close(websocket.StatusNormalClosure, "")
			}
		})
	}
	if !h.logs.contains("missing or wrong token") {
		t.Errorf("refusals not logged:\n%s", h.logs)
	}
	if strings.Contains(h.logs.String(), testToken) {
		t.Errorf("the token leaked into the log:\n%s", h.logs)
	}
}

func TestOrigin(t *testing.T) {
	h := start(t, &fakeController{}, inspect.Options{})
	u, _ := url.Parse(h.ts.URL)
	port := u.Port()
	tests := []struct {
		origin string
		want   int
	}{
		{"", http.StatusSwitchingProtocols}, // non-browser client
		{"http://127.0.0.1:" + port, http.StatusSwitchingProtocols},
		{"http://localhost:" + port, http.StatusSwitchingProtocols},
		{"http://[::1]:" + port, http.StatusSwitchingProtocols},
		{"http://[::2]:" + port, http.StatusForbidden},
		{"http://1:" + port, http.StatusForbidden},
		{"http://evil.example", http.StatusForbidden},
		{"https://evil.example:" + port, http.StatusForbidden},
		{"http://localhost:1", http.StatusForbidden}, // another local server's page
		{"http://127.0.0.1.evil.example:" + port, http.StatusForbidden},
		{"null", http.StatusForbidden}, // file:// pages
	}
	for _, tt := range tests {
		t.Run(tt.origin, func(t *testing.T) {
			ctx := testCtx(t)
			hdr := http.Header{}
			if tt.origin != "" {
				hdr.Set("Origin", tt.origin)
			}
			c, resp, err := websocket.Dial(ctx, h.ws+"?token="+testToken, &websocket.DialOptions{HTTPHeader: hdr})
			if resp == nil {
				t.Fatalf("no response: %v", err)
			}
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d (err %v)", resp.StatusCode, tt.want, err)
			}
			if c != nil {
				readHello(t, ctx, c)
				c.CloseNow()
			}
		})
	}
}

// A page of a foreign name that resolves to 127.0.0.1 (DNS rebinding)
// sends its own Host: refused on every route.
func TestForeignHost(t *testing.T) {
	h := start(t, &fakeController{}, inspect.Options{})
	for _, path := range []string{"/", "/ws?token=" + testToken, "/api/flows?token=" + testToken} {
		req, _ := http.NewRequest("GET", h.ts.URL+path, nil)
		req.Host = "rebind.evil.example"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("GET %s with Host %s: status %d, want 403", strings.Split(path, "?")[0], req.Host, resp.StatusCode)
		}
	}
}

// checkAsset fetches /assets/name and compares it with its line in
// assets/SHA256SUMS (written by scripts/vendor-inspector-libs.sh), so the
// embedded library is the one vendored from npm.
func checkAsset(t *testing.T, base, name string) {
	t.Helper()
	sums, err := os.ReadFile("assets/SHA256SUMS")
	if err != nil {
		t.Fatal(err)
	}
	want := ""
	for _, line := range strings.Split(string(sums), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[1] == name {
			want = f[0]
		}
	}
	if want == "" {
		t.Errorf("%s is not in assets/SHA256SUMS", name)
	}
	resp, err := http.Get(base + "/assets/" + name)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/javascript") {
		t.Errorf("GET /assets/%s: %d %s", name, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if got := fmt.Sprintf("%x", sha256.Sum256(b)); got != want {
		t.Errorf("/assets/%s: sha256 %s, SHA256SUMS says %s", name, got, want)
	}
}

func TestPage(t *testing.T) {
	h := start(t, &fakeController{}, inspect.Options{})
	resp, err := http.Get(h.ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte("<title>Wayfinder Inspector</title>")) {
		t.Fatalf("GET /: %d, %.80q", resp.StatusCode, body)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("CSP %q", csp)
	}
	// no external resource: the only absolute URL is the SVG namespace, the
	// only scripts loaded are the vendored libraries the server embeds
	rest := bytes.ReplaceAll(body, []byte("http://www.w3.org/2000/svg"), nil)
	scripts := regexp.MustCompile(`<script src="/assets/([a-z.-]+)"></script>`)
	for _, m := range scripts.FindAllSubmatch(rest, -1) {
		checkAsset(t, h.ts.URL, string(m[1]))
	}
	if n := len(scripts.FindAll(rest, -1)); n != 2 {
		t.Errorf("page loads %d vendored scripts, want 2 (cytoscape and its dagre layout)", n)
	}
	rest = scripts.ReplaceAll(rest, nil)
	for _, bad := range []string{"http://", "https://", "//cdn", `src="`, `href="/`, `href="http`} {
		if bytes.Contains(rest, []byte(bad)) {
			t.Errorf("page contains %q: it must be self-contained", bad)
		}
	}
	for _, path := range []string{"/assets/nothing.js", "/assets/..%2finspector.html"} {
		resp, err := http.Get(h.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, resp.StatusCode)
		}
	}
	resp, err = http.Get(h.ts.URL + "/nothing-here")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /nothing-here: %d, want 404", resp.StatusCode)
	}
}

// snapshotJSON is a small screen: a title, a password field, a button.
const snapshotJSON = `{"schema":1,"width":1080,"height":2400,"activity":"com.example.app/.Login","package":"com.example.app",
 "windows":[{"id":1,"type":"application","package":"com.example.app","layer":1,"bounds":[0,0,1080,2400],"nodes":[
  {"id":0,"parent":-1,"class":"android.widget.FrameLayout","bounds":[0,0,1080,2400],"visible_to_user":true,"enabled":true},
  {"id":1,"parent":0,"class":"android.widget.TextView","text":"Sign in","bounds":[40,100,600,180],"visible_to_user":true,"enabled":true},
  {"id":2,"parent":0,"class":"android.widget.EditText","hint":"Password","text":"hunter2-secret","password":true,"editable":true,"clickable":true,"bounds":[40,300,1040,420],"visible_to_user":true,"enabled":true},
  {"id":3,"parent":0,"class":"android.widget.Button","text":"Continue","clickable":true,"bounds":[40,500,1040,620],"visible_to_user":true,"enabled":true}]}]}`

func TestHello(t *testing.T) {
	snap, err := screen.ParseJSON([]byte(snapshotJSON))
	if err != nil {
		t.Fatal(err)
	}
	flows := []knowledge.Flow{{ID: 7, Package: "com.example.app", Name: "sign in", Intent: "sign in as {user}",
		Slots: []knowledge.Slot{{Name: "user", Example: "ann"}},
		Steps: []knowledge.Step{
			{Index: 0, Action: "input", Target: screen.Descriptor{Hint: "User"}, Text: "{user}"},
			{Index: 1, Action: "input", Target: screen.Descriptor{Hint: "Password"}, Text: "literal-secret-text"},
		}}}
	ctrl := &fakeController{
		SnapshotFn: func(context.Context) (*screen.Snapshot, error) { return snap, nil },
		FlowsFn:    func(context.Context) ([]knowledge.Flow, error) { return flows, nil },
	}
	h := start(t, ctrl, inspect.Options{})
	ctx := testCtx(t)
	c := h.dial(t, ctx)
	_, raw, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"hunter2-secret", "literal-secret-text", testToken} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Errorf("hello carries %q", secret)
		}
	}
	var m struct {
		Type string        `json:"type"`
		Data inspect.Hello `json:"data"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if m.Type != "hello" || m.Data.Screen == nil || m.Data.Screen.Width != 1080 {
		t.Fatalf("hello %+v", m)
	}
	var labels []string
	for _, e := range m.Data.Screen.Elements {
		labels = append(labels, e.Kind+":"+e.Label)
	}
	if got := strings.Join(labels, ","); got != "text:Sign in,input:Password,button:Continue" {
		t.Errorf("screen elements %s", got)
	}
	if len(m.Data.Flows) != 1 || m.Data.Flows[0].Steps[0].Slot != "{user}" || m.Data.Flows[0].Steps[1].Slot != "" {
		t.Errorf("flows %+v", m.Data.Flows)
	}
}

// An error from the Controller does not stop the hello.
func TestHelloControllerError(t *testing.T) {
	ctrl := &fakeController{
		SnapshotFn: func(context.Context) (*screen.Snapshot, error) { return nil, errors.New("device disconnected") },
	}
	h := start(t, ctrl, inspect.Options{})
	ctx := testCtx(t)
	hello := readHello(t, ctx, h.dial(t, ctx))
	if hello.Screen != nil || len(hello.Errors) != 1 || !strings.Contains(hello.Errors[0], "device disconnected") {
		t.Fatalf("hello %+v", hello)
	}
}

// A page opened mid-run gets the run so far in Hello.Recent, and the rest
// as events, with nothing twice and nothing missing.
func TestHelloMidRun(t *testing.T) {
	h := start(t, &fakeController{}, inspect.Options{})
	h.bus.Publish("old", event.RunStarted, event.RunInfo{Command: "earlier"})
	h.bus.Publish("old", event.RunFinished, event.RunResult{Outcome: "success"})
	h.bus.Publish("r2", event.RunStarted, event.RunInfo{Command: "now"})
	for i := range 3 {
		h.bus.Publish("r2", event.Action, event.ActionInfo{Step: i + 1})
	}
	ctx := testCtx(t)
	c := h.dial(t, ctx)
	hello := readHello(t, ctx, c)
	for i := range 3 {
		h.bus.Publish("r2", event.Action, event.ActionInfo{Step: i + 4})
	}
	h.bus.Publish("r2", event.RunFinished, event.RunResult{Outcome: "success"})
	var seqs []int64
	for _, ev := range hello.Recent {
		if ev.RunID != "r2" {
			t.Errorf("recent has an event of run %q", ev.RunID)
		}
		seqs = append(seqs, ev.Seq)
	}
	for {
		m := read(t, ctx, c)
		seqs = append(seqs, m.Seq)
		if m.Type == event.RunFinished {
			break
		}
	}
	if fmt.Sprint(seqs) != "[3 4 5 6 7 8 9 10]" {
		t.Fatalf("seqs %v, want 3..10 once each", seqs)
	}
}

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

func TestCommands(t *testing.T) {
	var mu sync.Mutex
	var calls []string
	record := func(s string) {
		mu.Lock()
		calls = append(calls, s)
		mu.Unlock()
	}
	var bus *event.Bus
	ctrl := &fakeController{
		RunFn: func(ctx context.Context, command string) (string, error) {
			record("run " + command)
			if command == "fail please" {
				return "", errors.New("no app can do that")
			}
			// the scripted run, published asynchronously
			go func() {
				bus.Publish("run-1", event.RunStarted, event.RunInfo{Command: command, Planner: "llm"})
				bus.Publish("run-1", event.Snapshot, event.ScreenInfo{Step: 1, Width: 1080, Height: 2400})
				bus.Publish("run-1", event.Action, event.ActionInfo{Step: 1, Mode: "llm", Action: "tap", Element: 2, OK: true})
				bus.Publish("run-1", event.RunFinished, event.RunResult{Outcome: "success", Steps: 1, Tokens: 900})
			}()
			return "run-1", nil
		},
		ReplayFn: func(ctx context.Context, flowID int64, slots map[string]string) (string, error) {
			record(fmt.Sprintf("replay %d %v", flowID, slots))
			return "run-2", nil
		},
		CancelFn: func(runID string) error {
			record("cancel " + runID)
			if runID != "run-1" {
				return fmt.Errorf("run %q: %w", runID, knowledge.ErrNotFound)
			}
			return nil
		},
		FlowsFn: func(context.Context) ([]knowledge.Flow, error) {
			record("flows")
			return []knowledge.Flow{{ID: 3, Package: "com.example.app", Name: "n", Intent: "i", Steps: []knowledge.Step{{Action: "tap"}}}}, nil
		},
		GraphFn: func(context.Context) (*knowledge.Graph, error) {
			record("graph")
			return &knowledge.Graph{App: knowledge.App{Package: "com.example.app"},
				Screens:     []knowledge.Screen{{ID: 1, Fingerprint: "a"}, {ID: 2, Fingerprint: "b"}},
				Elements:    []knowledge.Element{{ID: 9, Label: "Next"}},
				Transitions: []knowledge.Transition{{From: 1, To: 2, Action: "tap", ElementID: 9, Count: 2}}}, nil
		},
		SnapshotFn: func(context.Context) (*screen.Snapshot, error) { return nil, nil },
		HistoryFn: func(_ context.Context, id int64) ([]knowledge.FlowVersion, error) {
			record(fmt.Sprintf("history %d", id))
			return []knowledge.FlowVersion{{FlowID: id, Version: 1, Reason: "learned", Created: time.UnixMilli(1000),
				Steps: []knowledge.Step{{Action: "tap", Text: "secret"}}}, {FlowID: id, Version: 2, Reason: "repaired", Created: time.UnixMilli(2000), Current: true}}, nil
		},
		RollbackFn: func(_ context.Context, id int64, version int) error {
			record(fmt.Sprintf("rollback %d %d", id, version))
			if version > 2 {
				return fmt.Errorf("flow %d has no version %d: %w", id, version, knowledge.ErrNotFound)
			}
			return nil
		},
		AnswerFn: func(text string) error {
			record("answer " + text)
			if text == "late" {
				return errors.New("no question is waiting for an answer")
			}
			return nil
		},
	}
	h := start(t, ctrl, inspect.Options{})
	bus = h.bus
	tests := []struct {
		req        string
		wantCall   string // "" when the Controller must not be called
		wantResult string // JSON, compared exactly
		wantErr    string
	}{
		{`{"id":"1","method":"run","params":{"command":"  open the settings "}}`, "run open the settings", `{"run_id":"run-1"}`, ""},
		{`{"id":"2","method":"run","params":{"command":"fail please"}}`, "run fail please", "", "no app can do that"},
		{`{"id":"3","method":"run","params":{"command":""}}`, "", "", "empty command"},
		{`{"id":"4","method":"cancel","params":{"run_id":"run-1"}}`, "cancel run-1", `{"ok":true}`, ""},
		{`{"id":"5","method":"cancel","params":{"run_id":"nope"}}`, "cancel nope", "", "not found"},
		{`{"id":"6","method":"replay","params":{"flow_id":3,"slots":{"contact":"Ann"}}}`, "replay 3 map[contact:Ann]", `{"run_id":"run-2"}`, ""},
		{`{"id":"7","method":"replay","params":{"flow_id":0}}`, "", "", "positive flow id"},
		{`{"id":"8","method":"flows"}`, "flows", `[{"id":3,"package":"com.example.app","name":"n","intent":"i","steps":[{"index":0,"action":"tap"}],"source":"","uses":0,"successes":0,"failures":0,"version":0,"healthy":true}]`, ""},
		{`{"id":"9","method":"graph","params":{}}`, "graph", `{"app":{"id":0,"package":"com.example.app"},"screens":[{"id":1,"fingerprint":"a","visits":0},{"id":2,"fingerprint":"b","visits":0}],"edges":[{"from":1,"to":2,"action":"tap","label":"Next","count":2,"failures":0}]}`, ""},
		{`{"id":"10","method":"snapshot"}`, "", `null`, ""},
		{`{"id":"11","method":"format_phone"}`, "", "", "unknown method"},
		{`{"id":"13","method":"flow_history","params":{"flow_id":3}}`, "history 3", `[{"version":1,"reason":"learned","created_ms":1000,"current":false,"steps":[{"index":0,"action":"tap"}]},{"version":2,"reason":"repaired","created_ms":2000,"current":true,"steps":[]}]`, ""},
		{`{"id":"14","method":"rollback","params":{"flow_id":3,"version":1}}`, "rollback 3 1", `{"ok":true}`, ""},
		{`{"id":"15","method":"rollback","params":{"flow_id":3,"version":7}}`, "rollback 3 7", "", "no version 7"},
		{`{"id":"16","method":"rollback","params":{"flow_id":3}}`, "", "", "positive version"},
		{`{"id":"17","method":"answer","params":{"text":" yes, it is done "}}`, "answer yes, it is done", `{"ok":true}`, ""},
		{`{"id":"18","method":"answer","params":{"text":"late"}}`, "answer late", "", "no question is waiting"},
		{`{"id":"19","method":"answer","params":{"text":""}}`, "", "", "answer: text empty"},
		{`{"id":"12","method":"run","params":{"command":"x","settings":true}}`, "", "", "unknown field"},
		{`{"id":"13","method":"run","params":{"command":"x","steps":"1. Tap A"}}`, "", "", "cannot follow pasted steps"},
		{`not json`, "", "", "request"},
	}
	ctx := testCtx(t)
	c := h.dial(t, ctx)
	readHello(t, ctx, c)
	var events []msg
	for _, tt := range tests {
		mu.Lock()
		calls = nil
		mu.Unlock()
		if err := c.Write(ctx, websocket.MessageText, []byte(tt.req)); err != nil {
			t.Fatal(err)
		}
		var reply msg
		for {
			m := read(t, ctx, c)
			if m.Type == "reply" {
				reply = m
				break
			}
			events = append(events, m)
		}
		var want struct {
			ID string `json:"id"`
		}
		json.Unmarshal([]byte(tt.req), &want)
		if reply.ID != want.ID {
			t.Errorf("%s: reply id %q, want %q", tt.req, reply.ID, want.ID)
		}
		mu.Lock()
		got := strings.Join(calls, ";")
		mu.Unlock()
		if got != tt.wantCall {
			t.Errorf("%s: controller calls %q, want %q", tt.req, got, tt.wantCall)
		}
		if tt.wantErr != "" {
			if !strings.Contains(reply.Error, tt.wantErr) || reply.Result != nil {
				t.Errorf("%s: reply error %q result %s, want error containing %q", tt.req, reply.Error, reply.Result, tt.wantErr)
			}
			continue
		}
		if reply.Error != "" || string(reply.Result) != tt.wantResult {
			t.Errorf("%s:\n got result %s error %q\nwant %s", tt.req, reply.Result, reply.Error, tt.wantResult)
		}
	}
	// the scripted run's events arrived, in order, as events
	for len(events) < 4 {
		events = append(events, read(t, ctx, c))
	}
	var types []string
	for _, e := range events {
		if e.RunID != "run-1" {
			t.Errorf("event %s of run %q", e.Type, e.RunID)
		}
		types = append(types, e.Type)
	}
	if got := strings.Join(types, ","); got != "run_started,snapshot,action,run_finished" {
		t.Errorf("events %s", got)
	}
}

// A panicking Controller answers with an error; the server stays up.
func TestControllerPanic(t *testing.T) {
	ctrl := &fakeController{FlowsFn: func(context.Context) ([]knowledge.Flow, error) { panic("boom") }}
	h := start(t, ctrl, inspect.Options{})
	ctx := testCtx(t)
	c := h.dial(t, ctx)
	hello := readHello(t, ctx, c)
	if len(hello.Errors) != 1 || !strings.Contains(hello.Errors[0], "internal error") {
		t.Errorf("hello errors %v", hello.Errors)
	}
	c.Write(ctx, websocket.MessageText, []byte(`{"id":"a","method":"flows"}`))
	if m := read(t, ctx, c); m.Type != "reply" || !strings.Contains(m.Error, "internal error") {
		t.Errorf("reply %+v", m)
	}
	if !h.logs.contains("panicked") {
		t.Errorf("panic not logged")
	}
}

func TestAPI(t *testing.T) {
	ctrl := &fakeController{FlowsFn: func(context.Context) ([]knowledge.Flow, error) {
		return []knowledge.Flow{{ID: 1, Name: "x", Steps: []knowledge.Step{}}}, nil
	}}
	h := start(t, ctrl, inspect.Options{})
	tests := []struct {
		path, auth, origin string
		want               int
	}{
		{"/api/flows", "", "", http.StatusUnauthorized},
		{"/api/flows", "Bearer " + testToken, "", http.StatusOK},
		{"/api/flows?token=" + testToken, "", "", http.StatusOK},
		{"/api/flows?token=" + testToken, "", "http://evil.example", http.StatusForbidden},
		{"/api/graph?token=" + testToken, "", "", http.StatusOK},
		{"/api/settings?token=" + testToken, "", "", http.StatusNotFound},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest("GET", h.ts.URL+tt.path, nil)
		if tt.auth != "" {
			req.Header.Set("Authorization", tt.auth)
		}
		if tt.origin != "" {
			req.Header.Set("Origin", tt.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("GET %s: %d, want %d (%s)", tt.path, resp.StatusCode, tt.want, body)
		}
		if tt.want == http.StatusOK && tt.path == "/api/flows" && !bytes.HasPrefix(body, []byte(`[{"id":1,`)) {
			t.Errorf("GET %s: body %s", tt.path, body)
		}
	}
}

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

// TestAnswerNeedsAnAnswerer: a phone whose runs take no answers (a
// Controller without Answer) refuses the method with a reply, not a crash.
func TestAnswerNeedsAnAnswerer(t *testing.T) {
	h := start(t, struct{ inspect.Controller }{&fakeController{}}, inspect.Options{})
	ctx := testCtx(t)
	c := h.dial(t, ctx)
	readHello(t, ctx, c)
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"id":"1","method":"answer","params":{"text":"yes"}}`)); err != nil {
		t.Fatal(err)
	}
	for {
		m := read(t, ctx, c)
		if m.Type != "reply" {
			continue
		}
		if !strings.Contains(m.Error, "take no answers") {
			t.Errorf("reply error %q, result %s; want one saying the runs take no answers", m.Error, m.Result)
		}
		return
	}
}

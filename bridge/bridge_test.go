package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo"
)

// simDevice is a Device as Kotlin implements it — JSON in, JSON out —
// backed by the demo phone. failOn makes Perform throw for one action type.
type simDevice struct {
	p      *sim.Phone
	failOn string
	panics bool
}

func (s *simDevice) Snapshot() (string, error) {
	if s.panics {
		panic("kotlin side blew up")
	}
	snap, err := s.p.Snapshot(context.Background())
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(snap)
	return string(b), err
}

func (s *simDevice) Perform(actionJSON string) (string, error) {
	var a device.Action
	if err := json.Unmarshal([]byte(actionJSON), &a); err != nil {
		return "", err
	}
	if a.Type == s.failOn {
		return "", errors.New("java.lang.IllegalStateException: node is stale")
	}
	res, err := s.p.Perform(context.Background(), a)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(res)
	return string(b), err
}

func (s *simDevice) InstalledApps() (string, error) {
	apps, err := s.p.InstalledApps(context.Background())
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(apps)
	return string(b), err
}

type listener struct {
	mu     sync.Mutex
	events []string
}

func (l *listener) OnEvent(ev string) {
	l.mu.Lock()
	l.events = append(l.events, ev)
	l.mu.Unlock()
}

func (l *listener) types() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, e := range l.events {
		var v struct{ Type string }
		_ = json.Unmarshal([]byte(e), &v)
		out = append(out, v.Type)
	}
	return out
}

func newDemoDevice(t *testing.T) *simDevice {
	t.Helper()
	data, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	p, err := sim.New(data, demo.App)
	if err != nil {
		t.Fatal(err)
	}
	return &simDevice{p: p}
}

func TestBridgeRunsACommandAndStreamsEvents(t *testing.T) {
	dev := newDemoDevice(t)
	d, err := New(t.TempDir(), `{"planner":"graph"}`, dev)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	l := &listener{}
	d.Subscribe(l)
	out, err := d.Call(`{"method":"run","params":{"command":"create a note called \"Milk\""}}`)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Outcome string
		Saved   bool
		Steps   int
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	// the graph planner has no explored graph here (no import): it plans
	// from the screen alone
	if res.Outcome != "success" || !res.Saved {
		t.Fatalf("run: %s", out)
	}
	list, err := d.Call(`{"method":"flows.list"}`)
	if err != nil || !strings.Contains(list, `"intent"`) {
		t.Fatalf("flows.list: %s %v", list, err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) && !contains(l.types(), "run_finished") {
		time.Sleep(10 * time.Millisecond)
	}
	ty := l.types()
	if len(ty) == 0 || ty[0] != "run_started" || !contains(ty, "action") || !contains(ty, "flow_saved") || !contains(ty, "run_finished") {
		t.Fatalf("events: %v", ty)
	}
	s, err := d.Call(`{"method":"settings.set","params":{"api_key":"sk-secret-value","model":"m"}}`)
	if err != nil || strings.Contains(s, "sk-secret") || !strings.Contains(s, `"api_key_set":true`) {
		t.Fatalf("settings.set: %s %v", s, err)
	}
	if _, err := d.Call(`{"method":"nope"}`); err == nil || !strings.Contains(err.Error(), "unknown method") {
		t.Fatalf("unknown method: %v", err)
	}
	if _, err := d.Call(`not json`); err == nil {
		t.Fatal("bad JSON accepted")
	}
}

func TestBridgeDeviceErrorsAndPanicsBecomeErrors(t *testing.T) {
	dev := newDemoDevice(t)
	dev.failOn = device.Tap
	d, err := New(t.TempDir(), `{"planner":"graph"}`, dev)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	out, err := d.Call(`{"method":"run","params":{"command":"create a note called \"Milk\""}}`)
	if err != nil {
		// a device failure is an error of the machinery
		if !strings.Contains(err.Error(), "node is stale") {
			t.Fatalf("error does not carry the Kotlin exception: %v", err)
		}
	} else if !strings.Contains(out, "node is stale") {
		t.Fatalf("run result does not carry the Kotlin exception: %s", out)
	}
	dev.panics = true
	_, err = d.Call(`{"method":"snapshot"}`)
	if err == nil || !strings.Contains(err.Error(), "internal error") {
		t.Fatalf("panic did not become an error: %v", err)
	}
}

func TestNewRejectsBadInput(t *testing.T) {
	if _, err := New(t.TempDir(), "", nil); err == nil {
		t.Fatal("nil device accepted")
	}
	if _, err := New(t.TempDir(), "{", newDemoDevice(t)); err == nil {
		t.Fatal("bad config accepted")
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestBridgeStartsTheInspectorOnDebugAddr(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	d, err := New(dir, `{"planner":"graph","debug_addr":"`+addr+`"}`, newDemoDevice(t))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var resp *http.Response
	for i := 0; i < 50; i++ {
		if resp, err = http.Get("http://" + addr + "/ws"); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("websocket without a token: %d, want 401", resp.StatusCode)
	}
	tok, err := os.ReadFile(filepath.Join(dir, "inspector.token"))
	if err != nil || len(tok) < 32 {
		t.Fatalf("token file: %q %v", tok, err)
	}
	st, err := d.Call(`{"method":"status"}`)
	if err != nil || !strings.Contains(st, `"debug_addr":"`+addr+`"`) {
		t.Fatalf("status: %s %v", st, err)
	}
}

func TestBridgeCallShapes(t *testing.T) {
	d, err := New(t.TempDir(), `{"planner":"graph"}`, newDemoDevice(t))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if out, err := d.Call(`{"method":"answer","params":{"text":"yes"}}`); err != nil || out != `{"accepted":false}` {
		t.Fatalf("answer with no question: %s %v", out, err)
	}
	run, err := d.Call(`{"method":"run","params":{"command":"create a note called \"Milk\""}}`)
	if err != nil {
		t.Fatal(err)
	}
	var rr struct {
		FlowID    int64 `json:"flow_id"`
		CacheHits int   `json:"cache_hits"`
		Mode      string
	}
	if err := json.Unmarshal([]byte(run), &rr); err != nil || rr.FlowID == 0 || rr.Mode != "graph" {
		t.Fatalf("run result %s %v", run, err)
	}
	id := strconv.FormatInt(rr.FlowID, 10)
	got, err := d.Call(`{"method":"flows.get","params":{"id":` + id + `}}`)
	if err != nil || !strings.Contains(got, `"actions":[`) || !strings.Contains(got, `"flow":{`) {
		t.Fatalf("flows.get: %s %v", got, err)
	}
	if _, err := d.Call(`{"method":"replay","params":{"flow_id":` + id + `,"slots":{"nope":"x"}}}`); err == nil || !strings.HasPrefix(err.Error(), "replay: ") {
		t.Fatalf("replay with an unknown slot: %v", err)
	}
	pin, err := d.Call(`{"method":"flows.pin","params":{"id":` + id + `,"pinned":true}}`)
	if err != nil || !strings.Contains(pin, `"pinned":true`) {
		t.Fatalf("flows.pin: %s %v", pin, err)
	}
	if _, err := d.Call(`{"method":"flows.get","params":{"id":999}}`); err == nil || !strings.HasPrefix(err.Error(), "flows.get: ") {
		t.Fatalf("flows.get of a missing flow: %v", err)
	}
	del, err := d.Call(`{"method":"flows.delete","params":{"id":` + id + `}}`)
	if err != nil || del != `{"deleted":true}` {
		t.Fatalf("flows.delete: %s %v", del, err)
	}
}

// TestZeroDaemonIsSafe: gobind also exports a no-argument Daemon
// constructor; its Daemon must answer with an error, not a panic.
func TestZeroDaemonIsSafe(t *testing.T) {
	var d Daemon
	if _, err := d.Call(`{"method":"status"}`); err == nil || !strings.Contains(err.Error(), "Bridge.new_") {
		t.Fatalf("zero Daemon: %v", err)
	}
	d.Subscribe(nil)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
}

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
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/inspect"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

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

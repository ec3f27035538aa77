//go:build !wayfinder_release

package inspect_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
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

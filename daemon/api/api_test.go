package api_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/api"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/inspect"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func graphOnly(s api.Settings, st *knowledge.Store) (daemon.Planner, error) {
	return graphplan.New(st), nil
}

func newAPI(t testing.TB) (*api.API, *daemon.Engine, *sim.Phone) {
	t.Helper()
	phone, st := demotest.New(t, true)
	eng := daemon.New(phone, st, nil, nil, daemon.Config{})
	a, err := api.New(context.Background(), eng, st, graphOnly, api.Settings{APIKey: "sk-never-shown"})
	if err != nil {
		t.Fatal(err)
	}
	return a, eng, phone
}

func TestSettingsNeverShowTheKeyAndPersist(t *testing.T) {
	a, _, _ := newAPI(t)
	ctx := context.Background()
	out, err := a.CallJSON(ctx, []byte(`{"method":"settings.set","params":{"model":"m1","max_steps":12,"confirm_sensitive":true}}`))
	if err != nil || strings.Contains(string(out), "sk-never") || !strings.Contains(string(out), `"max_steps":12`) {
		t.Fatalf("%s %v", out, err)
	}
	for _, bad := range []string{`{"method":"settings.set","params":{"max_steps":500}}`, `{"method":"settings.set","params":{"planner":"magic"}}`,
		`{"method":"settings.set","params":{"colour":"red"}}`} {
		if _, err := a.CallJSON(ctx, []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "settings.set: ") {
			t.Fatalf("%s accepted: %v", bad, err)
		}
	}
}

func TestRunWhileRunningIsBusy(t *testing.T) {
	a, eng, phone := newAPI(t)
	live := a.Live()
	_ = phone
	slow := make(chan struct{})
	go func() {
		defer close(slow)
		_, _ = live.Run(context.Background(), "turn on dark mode")
		live.Wait()
	}()
	deadline := time.Now().Add(2 * time.Second)
	for eng.RunID() == "" && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if eng.RunID() != "" {
		if _, err := a.CallJSON(context.Background(), []byte(`{"method":"run","params":{"command":"x"}}`)); err == nil || !strings.Contains(err.Error(), "busy") {
			t.Fatalf("a second run: %v", err)
		}
	}
	<-slow
}

// BenchmarkReplayEvents measures the event stream of a replay: one op is
// one replay of a 3-step flow on the demo phone while a websocket client
// of the inspector reads every event. It reports events per replay, the
// event rate, and the time per event beside a replay with no client.
func BenchmarkReplayEvents(b *testing.B) {
	for _, clients := range []int{0, 1} {
		name := map[int]string{0: "no-client", 1: "one-websocket-client"}[clients]
		b.Run(name, func(b *testing.B) {
			a, eng, phone := newAPI(b)
			ctx := context.Background()
			if _, err := eng.Run(ctx, "turn on dark mode", daemon.Options{}); err != nil {
				b.Fatal(err)
			}
			var received atomic.Int64
			if clients == 1 {
				srv, err := inspect.New(a.Live(), eng.Bus(), inspect.Options{Token: strings.Repeat("t", 32), Logf: func(string, ...any) {}})
				if err != nil {
					b.Fatal(err)
				}
				ts := httptest.NewServer(srv.Handler())
				defer ts.Close()
				c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/ws?token="+strings.Repeat("t", 32), nil)
				if err != nil {
					b.Fatal(err)
				}
				c.SetReadLimit(1 << 24)
				defer c.CloseNow()
				go func() {
					for {
						_, msg, err := c.Read(ctx)
						if err != nil {
							return
						}
						var ev struct{ Seq int64 }
						if json.Unmarshal(msg, &ev) == nil && ev.Seq > 0 {
							received.Add(1)
						}
					}
				}()
			}
			sub := eng.Bus().Subscribe(1 << 16)
			defer eng.Bus().Unsubscribe(sub)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := phone.Reset("home"); err != nil {
					b.Fatal(err)
				}
				res, err := eng.Run(ctx, "turn on dark mode", daemon.Options{NoPlanner: true})
				if err != nil || res.Strategy != "replay" {
					b.Fatalf("%+v %v", res, err)
				}
			}
			b.StopTimer()
			events := len(sub.C)
			b.ReportMetric(float64(events)/float64(b.N), "events/replay")
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(events), "µs/event")
		})
	}
}

// TestFlowHistoryAndRollback: flows.history lists the versions,
// flows.rollback brings one back as a new version, flows.list shows the
// version and health.
func TestFlowHistoryAndRollback(t *testing.T) {
	a, eng, _ := newAPI(t)
	ctx := context.Background()
	res, err := eng.Run(ctx, "turn on dark mode", daemon.Options{})
	if err != nil || res.FlowID == 0 {
		t.Fatalf("%+v %v", res, err)
	}
	st := eng.Store()
	f, _ := st.Flow(ctx, res.FlowID)
	f.Steps = f.Steps[:1]
	if err := st.ReviseFlow(ctx, f, "edited by hand"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < knowledge.UnhealthyAfter; i++ {
		_ = st.RecordFlowUse(ctx, f.ID, false)
	}
	call := func(req string) map[string]json.RawMessage {
		t.Helper()
		out, err := a.CallJSON(ctx, []byte(req))
		if err != nil {
			t.Fatalf("%s: %v", req, err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	var list []api.FlowSummary
	_ = json.Unmarshal(call(`{"method":"flows.list"}`)["flows"], &list)
	if len(list) != 1 || list[0].Healthy || list[0].Version != 2 || list[0].FailStreak != knowledge.UnhealthyAfter {
		t.Fatalf("flows.list %+v", list)
	}
	var hist []api.FlowVersion
	_ = json.Unmarshal(call(`{"method":"flows.history","params":{"id":` + itoa(f.ID) + `}}`)["versions"], &hist)
	if len(hist) != 2 || hist[1].Reason != "edited by hand" || !hist[1].Current || len(hist[0].Actions) <= len(hist[1].Actions) {
		t.Fatalf("flows.history %+v", hist)
	}
	var sum api.FlowSummary
	_ = json.Unmarshal(call(`{"method":"flows.rollback","params":{"id":` + itoa(f.ID) + `,"version":1}}`)["flow"], &sum)
	if sum.Version != 3 || !sum.Healthy || sum.Steps != len(hist[0].Actions) {
		t.Fatalf("flows.rollback %+v", sum)
	}
	// the inspector's view of the same (api.Live implements inspect.FlowVersions)
	var fv inspect.FlowVersions = a.Live()
	if err := fv.RollbackFlow(ctx, f.ID, 2); err != nil {
		t.Fatal(err)
	}
	if h, err := fv.FlowHistory(ctx, f.ID); err != nil || len(h) != 4 || !h[3].Current || !strings.Contains(h[3].Reason, "version 2") {
		t.Fatalf("Live history %+v %v", h, err)
	}
	for _, bad := range []string{`{"method":"flows.rollback","params":{"id":` + itoa(f.ID) + `}}`,
		`{"method":"flows.rollback","params":{"id":` + itoa(f.ID) + `,"version":9}}`, `{"method":"flows.history","params":{"id":999}}`} {
		if _, err := a.CallJSON(ctx, []byte(bad)); err == nil {
			t.Fatalf("%s accepted", bad)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

package bridge

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
)

// TestBridgeEmbedModel: embed_model in the config JSON turns on embeddings
// in flow matching, on the configured endpoint and key; the key appears in
// no result and no event.
func TestBridgeEmbedModel(t *testing.T) {
	const key = "sk-bridge-embed-9a8b7c6d5e4f30211"
	s := llmtest.NewServer(t, llmtest.WithKey(key), llmtest.WithSynonyms(map[string]string{"enable": "turn on", "drak": "dark"}))
	dev := newDemoDevice(t)
	cfg, _ := json.Marshal(map[string]string{"planner": "graph", "base_url": s.URL(), "api_key": key, "embed_model": "fake-embed"})
	d, err := New(t.TempDir(), string(cfg), dev)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	l := &listener{}
	d.Subscribe(l)
	type result struct {
		Outcome string
		Mode    string
		FlowID  int64 `json:"flow_id"`
	}
	run := func(cmd string) (result, string) {
		t.Helper()
		if err := dev.p.Reset("home"); err != nil {
			t.Fatal(err)
		}
		out, err := d.Call(`{"method":"run","params":{"command":"` + cmd + `"}}`)
		if err != nil {
			t.Fatal(err)
		}
		var r result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r, out
	}
	learned, out := run("turn on dark mode")
	if learned.Outcome != "success" || learned.FlowID == 0 {
		t.Fatalf("learn: %s", out)
	}
	// the graph planner compared meanings while learning: count from here
	planning := s.EmbedCalls()
	again, out := run("enable drak mode")
	if again.Outcome != "success" || again.Mode != "replay" || again.FlowID != learned.FlowID || s.EmbedCalls() != planning+1 || s.Calls() != 0 {
		t.Fatalf("paraphrase: %s, %d embedding and %d chat requests", out, s.EmbedCalls()-planning, s.Calls())
	}
	if r := s.EmbedRequests()[planning]; r.Model != "fake-embed" || r.Authorization != "Bearer "+key {
		t.Errorf("request %+v", r)
	}
	settings, err := d.Call(`{"method":"settings.get"}`)
	if err != nil || !strings.Contains(settings, `"embed_model":"fake-embed"`) || strings.Contains(settings, key) {
		t.Fatalf("settings.get: %s %v", settings, err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) && strings.Count(strings.Join(l.types(), " "), "run_finished") < 2 {
		time.Sleep(10 * time.Millisecond)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	promoted := false
	for _, ev := range l.events {
		if strings.Contains(ev, key) || strings.Contains(ev, key[3:]) {
			t.Errorf("key in event %s", ev)
		}
		if strings.Contains(ev, `"promoted":true`) {
			promoted = true
		}
	}
	if !promoted {
		t.Error("no flow_matched event says the flow was promoted")
	}
}

package scripted

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
)

// collect runs fn and returns the types of the events of run id, and its
// run_finished result.
func collect(t *testing.T, bus *event.Bus, c *Controller, start func() (string, error)) ([]string, event.RunResult) {
	t.Helper()
	sub := bus.Subscribe(1000)
	defer bus.Unsubscribe(sub)
	id, err := start()
	if err != nil {
		t.Fatal(err)
	}
	c.Wait()
	var types []string
	var res event.RunResult
	for len(sub.C) > 0 {
		ev := <-sub.C
		if ev.RunID != id {
			t.Fatalf("event of run %q during run %q", ev.RunID, id)
		}
		types = append(types, ev.Type)
		if ev.Type == event.RunFinished {
			json.Unmarshal(ev.Data, &res)
		}
		if ev.Type == event.Action { // every scripted action finds its element
			var a event.ActionInfo
			json.Unmarshal(ev.Data, &a)
			if !a.OK || a.Element < 0 {
				t.Errorf("step %d: %s %q found no element", a.Step, a.Action, a.Label)
			}
		}
	}
	return types, res
}

func TestLearnThenReplay(t *testing.T) {
	bus := event.NewBus()
	c, err := New(bus, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	types, res := collect(t, bus, c, func() (string, error) { return c.Run(ctx, "create a note titled Milk") })
	want := "run_started app_chosen flow_matched snapshot prompt llm_reply action snapshot prompt llm_reply action snapshot action snapshot prompt llm_reply log flow_saved run_finished"
	if got := strings.Join(types, " "); got != want {
		t.Fatalf("learning run:\n got %s\nwant %s", got, want)
	}
	if res.Outcome != "success" || res.LLMCalls != 3 || res.CacheHits != 1 || res.FlowID == 0 {
		t.Fatalf("learning run result %+v", res)
	}
	flows, _ := c.Flows(ctx)
	if len(flows) != 2 {
		t.Fatalf("%d flows after learning, want 2", len(flows))
	}
	_, res = collect(t, bus, c, func() (string, error) { return c.Run(ctx, "create a note titled Bread") })
	if res.Mode != "replay" || res.LLMCalls != 0 || res.CacheHits != 3 {
		t.Fatalf("second run result %+v, want a replay", res)
	}
	snap, _ := c.Snapshot(ctx)
	if els := snap.Nodes; len(els) == 0 || !strings.Contains(func() string { b, _ := json.Marshal(snap); return string(b) }(), "Bread") {
		t.Error("the current screen does not show the new note")
	}
	g, err := c.Graph(ctx)
	if err != nil || len(g.Screens) < 5 {
		t.Fatalf("graph: %v, %+v", err, g)
	}
	more := 0
	for i, tr := range g.Transitions {
		more += tr.Count - c.graph.Transitions[i].Count
	}
	if more != 4 { // two runs, each home -> dialog -> editor
		t.Errorf("the runs raised transition counts by %d, want 4", more)
	}
	_, res = collect(t, bus, c, func() (string, error) { return c.Replay(ctx, 1, nil) })
	if res.Outcome != "success" || res.Mode != "replay" || res.Steps != 3 {
		t.Fatalf("replay of the saved dark-mode flow: %+v", res)
	}
	if _, err := c.Replay(ctx, 99, nil); err == nil {
		t.Error("replay of an unknown flow: want an error")
	}
	if err := c.Cancel("run-99"); err == nil {
		t.Error("cancel of an unknown run: want an error")
	}
}

package eval

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/shared"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func TestParseCommands(t *testing.T) {
	good := "# comment\n\n{\"app\":\"a\",\"command\":\"do x\",\"expect_typed\":[\"x\"],\"expect_picked\":[\"10 minutes\"]}\n{\"app\":\"a\",\"command\":\"y\",\"expect_no_match\":true}\n"
	cs, err := ParseCommands([]byte(good), "f")
	if err != nil || len(cs) != 2 || cs[0].ExpectTyped[0] != "x" || cs[0].ExpectPicked[0] != "10 minutes" || !cs[1].ExpectNoMatch {
		t.Fatalf("%+v %v", cs, err)
	}
	for _, bad := range []string{`{"app":"a"}`, `{"command":"c"}`, `{"app":"a","command":"c","colour":1}`, `not json`} {
		if _, err := ParseCommands([]byte(bad), "f"); err == nil || !strings.Contains(err.Error(), "f:1") {
			t.Fatalf("%q: %v", bad, err)
		}
	}
}

func FuzzParseCommands(f *testing.F) {
	f.Add([]byte("{\"app\":\"a\",\"command\":\"c\"}\n# x\n"))
	f.Add([]byte("{\"task_id\":\"a/t1\",\"app\":\"a\",\"command\":\"c\",\"expect_typed\":[\"\"]}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		cs, err := ParseCommands(b, "fuzz")
		if err == nil {
			for _, c := range cs {
				if c.App == "" || c.Command == "" {
					t.Fatalf("accepted %+v", c)
				}
			}
		}
	})
}

// TestOracleLearnsAndReplaysTwoApps runs the evaluation protocol on two
// recorded apps with the oracle: every task learned, every flow replayed
// with no LLM call.
func TestOracleLearnsAndReplaysTwoApps(t *testing.T) {
	d, st := oracleRig(t)
	rep, err := Run(context.Background(), Config{Data: d, Apps: d.AppNames()[:2], Store: st, Name: "oracle", Planner: oracle})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Tasks == 0 || rep.Succeeded != rep.Tasks || rep.Replay.Succeeded != rep.Tasks || rep.Replay.LLMCalls != 0 {
		t.Fatalf("%d tasks, %d learned, %d replayed, %d LLM calls", rep.Tasks, rep.Succeeded, rep.Replay.Succeeded, rep.Replay.LLMCalls)
	}
}

// TestNewPicksKeepTheFlowHealthy: a replay that picks an option the
// recording never visited stops where the simulated phone's recording
// ends; that says nothing of the flow, so four such commands in a row all
// replay it (three failures would have made it unhealthy, and the fourth a
// miss).
func TestNewPicksKeepTheFlowHealthy(t *testing.T) {
	d, st := oracleRig(t)
	var task *droidtask.Task
	for i := range d.Tasks {
		for _, s := range d.Tasks[i].Steps {
			if s.Action.Target != nil && strings.HasSuffix(s.Action.Target.Label(), " columns") && task == nil {
				task = &d.Tasks[i]
			}
		}
	}
	if task == nil {
		t.Skip("no recorded task picks a column count")
	}
	var cmds []CommandCase
	for _, n := range []string{"1", "2", "7", "8"} {
		cmds = append(cmds, CommandCase{TaskID: task.ID, App: task.App, Command: "change column count to " + n, ExpectPicked: []string{n + " column"}})
	}
	cmds[0].ExpectPicked = []string{"1 column"}
	for i := 1; i < len(cmds); i++ {
		cmds[i].ExpectPicked[0] += "s"
	}
	rep, err := Run(context.Background(), Config{Data: d, Apps: []string{task.App}, Store: st, Name: "oracle", Commands: cmds, Planner: oracle})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.PerCommand {
		if r.MatchedFlow == 0 || r.MatchedFlow != r.WantFlow {
			t.Errorf("%q: %s, matched flow %d, want %d", r.Command, r.Verdict, r.MatchedFlow, r.WantFlow)
		}
	}
}

// oracleRig loads the recorded apps (skipping the test, saying why, when
// ../shared is absent) and opens a store in t.TempDir(), closed after
// the test.
func oracleRig(t *testing.T) (*droidtask.Dataset, *knowledge.Store) {
	t.Helper()
	d, err := droidtask.Load(shared.Path(t, "droidtask"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := knowledge.Open(context.Background(), filepath.Join(t.TempDir(), "e.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return d, st
}

// oracle is the evaluation's planner that follows each task's recording.
func oracle(task *droidtask.Task, phone *sim.Phone, _ *knowledge.Store) (daemon.Planner, error) {
	return NewOracle(task, phone), nil
}

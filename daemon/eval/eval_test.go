package eval

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge/knowledgetest"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/shared"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
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
	// the recorded routes delete, and say so; none of them failed
	sensitive := 0
	for _, row := range rep.PerTask {
		sensitive += len(row.Sensitive)
	}
	if sensitive == 0 || rep.FailedSensitive != 0 {
		t.Errorf("%d sensitive steps traced, %d failed runs with one; want some, and none failed", sensitive, rep.FailedSensitive)
	}
}

// TestNewPicksKeepTheFlowHealthy: a replay that picks an option the
// recording never visited stops where the simulated phone's recording
// ends; that says nothing of the flow, so four such commands in a row all
// replay it (three failures would have made it unhealthy, and the fourth a
// miss). The task is any recorded one whose instruction names an option
// by its number ("… to 3" for a tap on "3 items"); its commands name the
// group's other numbered options.
func TestNewPicksKeepTheFlowHealthy(t *testing.T) {
	d, st := oracleRig(t)
	task, cmds := numberedOptionCommands(t, d)
	if task == nil {
		t.Skip("no recorded task names an option by its number")
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

// numberedOption is an option label made of a number and a word.
var numberedOption = regexp.MustCompile(`^(\d+) \S+$`)

// numberedOptionCommands finds a task whose instruction names, by its
// number, the option it taps ("N things"), and returns it with four
// commands: the instruction naming four other numbered options of that
// screen instead, each expecting its option picked; nil when none.
func numberedOptionCommands(t *testing.T, d *droidtask.Dataset) (*droidtask.Task, []CommandCase) {
	t.Helper()
	for i := range d.Tasks {
		task := &d.Tasks[i]
		for _, s := range task.Steps {
			if s.Action.Target == nil {
				continue
			}
			m := numberedOption.FindStringSubmatch(s.Action.Target.Label())
			if m == nil {
				continue
			}
			word := regexp.MustCompile(`\b` + m[1] + `\b`)
			if !word.MatchString(task.Instruction) {
				continue
			}
			snap, err := d.State(task.App, s.State)
			if err != nil {
				t.Fatal(err)
			}
			var cmds []CommandCase
			for _, el := range screen.Elements(snap) {
				o := numberedOption.FindStringSubmatch(el.Label)
				if o == nil || o[1] == m[1] || len(cmds) == 4 {
					continue
				}
				cmds = append(cmds, CommandCase{TaskID: task.ID, App: task.App, ExpectPicked: []string{el.Label},
					Command: word.ReplaceAllString(task.Instruction, o[1])})
			}
			if len(cmds) == 4 {
				return task, cmds
			}
		}
	}
	return nil, nil
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
	st := knowledgetest.Open(t)
	return d, st
}

// oracle is the evaluation's planner that follows each task's recording.
func oracle(task *droidtask.Task, phone *sim.Phone, _ *knowledge.Store) (daemon.Planner, error) {
	return NewOracle(task, phone), nil
}

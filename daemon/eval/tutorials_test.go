package eval

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/knowledge/knowledgetest"

	openai "github.com/sashabaranov/go-openai"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/shared"
	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/daemon/steps"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func TestParseTutorials(t *testing.T) {
	good := "# c\n{\"task_id\":\"a/task1\",\"steps\":\"Tap A\",\"outdated\":\"x\"}\n\n{\"task_id\":\"a/task2\",\"steps\":\"Tap B\"}\n"
	m, err := ParseTutorials([]byte(good), "t")
	if err != nil || len(m) != 2 || m["a/task2"] != "Tap B" {
		t.Fatalf("%v %v", m, err)
	}
	for _, bad := range []string{`{"task_id":"a","steps":""}`, `{"task_id":"a","steps":"x","extra":1}`, `{"task_id":"a","steps":"x"}` + "\n" + `{"task_id":"a","steps":"y"}`, `nope`} {
		if _, err := ParseTutorials([]byte(bad), "t"); err == nil || !strings.HasPrefix(err.Error(), "t:") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func FuzzParseTutorials(f *testing.F) {
	f.Add([]byte(`{"task_id":"a/task1","steps":"Tap A"}`))
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = ParseTutorials(b, "f") })
}

// TestTutorials runs testdata/tutorials.jsonl on the recorded apps with
// the graph planner behind the steps, once with the rule-based parser (no
// LLM call at all) and once parsing through a fake OpenAI-compatible
// endpoint (llmtest answering as steps.FakeReply). The floors are below
// what was measured (28/29 both ways, see docs/steps.md) so that a
// regression fails and noise does not.
func TestTutorials(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 29 tasks twice")
	}
	d, err := droidtask.Load(shared.Path(t, "droidtask"))
	if err != nil {
		t.Fatal(err)
	}
	_, file, _, _ := runtime.Caller(0)
	tut, err := ReadTutorials(filepath.Join(filepath.Dir(file), "..", "..", "testdata", "tutorials.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, llmtest.WithFunc(func(req openai.ChatCompletionRequest) string {
		return steps.FakeReply(req.Messages[len(req.Messages)-1].Content)
	}))
	lc := llm.DefaultConfig()
	lc.BaseURL, lc.Model, lc.APIKey, lc.Timeout = srv.URL(), "fake", "sk-test", 5*time.Second
	client := llm.New(lc)
	for _, c := range []struct {
		name  string
		parse func(ctx context.Context, goal, text string) ([]steps.Instruction, int, error)
	}{
		{"rules", nil},
		{"fake-llm", func(ctx context.Context, goal, text string) ([]steps.Instruction, int, error) {
			ins, r, err := steps.ParseLLM(ctx, client, goal, text, nil)
			return ins, r.Calls, err
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			st := knowledgetest.Open(t)
			gp := graphplan.New(st)
			cfg := Config{Data: d, Store: st, Name: "graph", Tutorials: tut, ParseSteps: c.parse,
				BeforeApp: func(ctx context.Context, app string) error {
					g, _, err := d.ExplorationGraph(app)
					if err != nil {
						return err
					}
					_, err = st.ImportGraph(ctx, *g)
					return err
				},
				Planner: func(task *droidtask.Task, _ *sim.Phone, _ *knowledge.Store) (daemon.Planner, error) {
					hidden, err := HiddenKeys(d, task, LeaveOutRecording)
					if err != nil {
						return nil, err
					}
					gp.Exclude(hidden)
					return gp, nil
				}}
			rep, err := Run(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d/%d tasks, step accuracy %.3f, %d replayed, %d LLM calls", c.name, rep.Succeeded, rep.Tasks, rep.StepAccuracy, rep.Replay.Succeeded, rep.LLMCalls)
			if rep.Tasks != len(tut) {
				t.Errorf("%d tasks run, the file has %d", rep.Tasks, len(tut))
			}
			if rep.Succeeded < 26 || rep.Replay.Succeeded < 26 {
				t.Errorf("%d learned, %d replayed of %d: below the floor of 26", rep.Succeeded, rep.Replay.Succeeded, rep.Tasks)
			}
			wantCalls := 0
			if c.parse != nil {
				wantCalls = rep.Tasks
			}
			if rep.LLMCalls != wantCalls {
				t.Errorf("%d LLM calls, want %d", rep.LLMCalls, wantCalls)
			}
		})
	}
}

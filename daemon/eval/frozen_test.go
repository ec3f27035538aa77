package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/shared"
)

// frozenDir holds the frozen evaluation commands of issue 11: test.jsonl is
// never tuned on, tune.jsonl is the separate set for tuning.
var frozenDir = filepath.Join("..", "..", "testdata", "frozen")

// frozenSet is one file of frozenDir and the sizes it must keep.
type frozenSet struct {
	file             string
	minPos, minNeg   int
	minTasks         int
	headerMustSay    string
	positive, negate []CommandCase
}

func loadFrozen(t *testing.T) []*frozenSet {
	t.Helper()
	sets := []*frozenSet{
		{file: "test.jsonl", minPos: 250, minNeg: 60, minTasks: 100, headerMustSay: "FROZEN TEST SET"},
		{file: "tune.jsonl", minPos: 80, minNeg: 20, minTasks: 60, headerMustSay: "TUNING SET"},
		{file: "tune2.jsonl", minPos: 120, minNeg: 80, minTasks: 100, headerMustSay: "TUNING SET 2"},
		{file: "tune3.jsonl", minPos: 270, minNeg: 135, minTasks: 118, headerMustSay: "TUNING SET 3"},
	}
	for _, s := range sets {
		p := filepath.Join(frozenDir, s.file)
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(raw), s.headerMustSay) {
			t.Errorf("%s: header comment does not say %q", p, s.headerMustSay)
		}
		cs, err := ParseCommands(raw, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if c.ExpectNoMatch {
				s.negate = append(s.negate, c)
			} else {
				s.positive = append(s.positive, c)
			}
		}
	}
	return sets
}

// normCommand folds case and spacing so near-identical commands count as one.
func normCommand(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// TestFrozenCommandSets checks every line of both frozen files: sizes,
// spread, well-formed expectations, no duplicates, and test and tune
// disjoint.
func TestFrozenCommandSets(t *testing.T) {
	sets := loadFrozen(t)
	seen := map[string]string{} // normalized command -> file
	for _, s := range sets {
		if len(s.positive) < s.minPos || len(s.negate) < s.minNeg {
			t.Errorf("%s: %d rewordings and %d must-not-match, want >= %d and >= %d", s.file, len(s.positive), len(s.negate), s.minPos, s.minNeg)
		}
		tasks, apps := map[string]bool{}, map[string]bool{}
		for _, c := range s.positive {
			app, _, ok := strings.Cut(c.TaskID, "/")
			if !ok || app != c.App {
				t.Errorf("%s: %q: task_id %q is not a task of app %q", s.file, c.Command, c.TaskID, c.App)
			}
			for _, v := range append(append([]string{}, c.ExpectTyped...), c.ExpectPicked...) {
				if strings.TrimSpace(v) == "" || strings.ContainsAny(v, "{}") {
					t.Errorf("%s: %q: empty or placeholder value %q", s.file, c.Command, v)
				}
			}
			tasks[c.TaskID], apps[c.App] = true, true
		}
		for _, c := range s.negate {
			if c.TaskID != "" || len(c.ExpectTyped) > 0 || len(c.ExpectPicked) > 0 {
				t.Errorf("%s: must-not-match %q carries a task or values", s.file, c.Command)
			}
			apps[c.App] = true
		}
		if len(tasks) < s.minTasks || len(apps) < 10 {
			t.Errorf("%s: rewordings cover %d tasks over %d apps, want >= %d tasks over 10 apps", s.file, len(tasks), len(apps), s.minTasks)
		}
		for _, c := range append(append([]CommandCase{}, s.positive...), s.negate...) {
			n := normCommand(c.App + " " + c.Command)
			if prev, dup := seen[n]; dup {
				t.Errorf("%s: %q (%s) already in %s", s.file, c.Command, c.App, prev)
			}
			seen[n] = s.file
		}
	}
	// disjoint by wording alone, whatever the app
	words := map[string]string{}
	for _, s := range sets {
		for _, c := range append(append([]CommandCase{}, s.positive...), s.negate...) {
			n := normCommand(c.Command)
			if prev, ok := words[n]; ok && prev != s.file {
				t.Errorf("%q is in both %s and %s", c.Command, prev, s.file)
			}
			words[n] = s.file
		}
	}
}

// TestFrozenCommandsNameRecordedTasks checks the expectations against the
// recordings: every task_id is a recorded task, and every expect_picked
// label is the text or description of a view on some recorded screen of
// that app (a choice that exists).
func TestFrozenCommandsNameRecordedTasks(t *testing.T) {
	d, err := droidtask.Load(shared.Path(t, "droidtask"))
	if err != nil {
		t.Fatal(err)
	}
	taskIDs := map[string]bool{}
	for _, task := range d.Tasks {
		taskIDs[task.ID] = true
	}
	labels := map[string]map[string]bool{} // app -> labels seen on its screens
	labelsOf := func(app string) map[string]bool {
		if l, ok := labels[app]; ok {
			return l
		}
		l := map[string]bool{}
		ids, err := d.StateIDs(app)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			s, err := d.State(app, id)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range s.Nodes {
				l[strings.TrimSpace(n.Text)], l[strings.TrimSpace(n.ContentDesc)] = true, true
			}
		}
		labels[app] = l
		return l
	}
	for _, s := range loadFrozen(t) {
		for _, c := range s.positive {
			if !taskIDs[c.TaskID] {
				t.Errorf("%s: %q: no recorded task %q", s.file, c.Command, c.TaskID)
			}
			for _, p := range c.ExpectPicked {
				if !labelsOf(c.App)[p] {
					t.Errorf("%s: %q: no recorded %s screen shows %q", s.file, c.Command, c.App, p)
				}
			}
		}
	}
}

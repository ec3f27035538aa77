package droidtask_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/shared"
)

// edge writes one transitions.jsonl line of app "a".
func edge(from, to, typ string, tags ...string) string {
	return fmt.Sprintf(`{"app":"a","source":"droidbot_event","from":%q,"to":%q,"count":%d,"event_tags":[%s],"action":{"type":%q},"from_known":true,"to_known":true}`,
		from, to, len(tags), `"`+strings.Join(tags, `","`)+`"`, typ)
}

func TestSessionsAndOwnTransitions(t *testing.T) {
	lines := []string{
		edge("H", "H", "kill_app", "t01", "t10", "t20"),
		edge("H", "M", "intent", "t02", "t11", "t21"),
		edge("M", "S", "click", "t03", "t12"), // both sessions 1 and 2
		edge("S", "X", "click", "t04"),        // only session 1: task x's own
		edge("S", "Y", "click", "t13"),        // only session 2
		edge("M", "Z", "click", "t22"),        // session 3: free exploration
		edge("Z", "M", "key", "t23"),
		`{"app":"a","source":"task_demo","from":"X","to":"W","count":1,"action":{"type":"click"}}`,
	}
	tasks := `{"task_id":"a/task1","app":"a","instruction":"x","steps":[{"state":"M","next_state":"S","action":{"type":"click"}},{"state":"S","next_state":"X","action":{"type":"click"}},{"state":"X","next_state":"W","action":{"type":"click"}},{"state":"W","action":{"type":"done"}}]}`
	d, err := droidtask.LoadFS(fstest.MapFS{
		"apps.json":         {Data: []byte(`{"a":{"main_package":"p"}}`)},
		"tasks.jsonl":       {Data: []byte(tasks)},
		"transitions.jsonl": {Data: []byte(strings.Join(lines, "\n"))},
	}, "mem")
	if err != nil {
		t.Fatal(err)
	}
	ss := d.Sessions("a")
	if len(ss) != 3 {
		t.Fatalf("sessions = %d, want 3: %+v", len(ss), ss)
	}
	for i, want := range []int{4, 4, 4} {
		if len(ss[i].Edges) != want {
			t.Errorf("session %d has %d events, want %d", i, len(ss[i].Edges), want)
		}
	}
	task := &d.Tasks[0]
	if got := d.Recordings(task, ss); len(got) != 1 || got[0] != 0 {
		t.Fatalf("Recordings = %v, want [0]", got)
	}
	var own []string
	for _, tr := range d.OwnTransitions(task) {
		own = append(own, tr.From+">"+tr.To)
	}
	if strings.Join(own, " ") != "S>X X>W" {
		t.Errorf("OwnTransitions = %v, want [S>X X>W] (M>S is also in session 2, H>H and H>M in every session)", own)
	}
}

// TestRecordingsOnDroidTask checks the attribution on the real recordings:
// every task gets at least one session, and for nearly all tasks the
// attributed sessions hold every demonstrated step that DroidBot recorded.
func TestRecordingsOnDroidTask(t *testing.T) {
	d, err := droidtask.Load(shared.Path(t, "droidtask"))
	if err != nil {
		t.Fatal(err)
	}
	recorded := map[string]bool{}
	for _, tr := range d.Transitions {
		if tr.Exploration() {
			recorded[tr.App+"|"+tr.From+">"+tr.To] = true
		}
	}
	full, none := 0, 0
	for i := range d.Tasks {
		task := &d.Tasks[i]
		ss := d.Sessions(task.App)
		rec := d.Recordings(task, ss)
		if len(rec) == 0 {
			none++
			continue
		}
		trs := d.AppTransitions(task.App)
		have := map[string]bool{}
		for _, si := range rec {
			for _, e := range ss[si].Edges {
				have[trs[e].From+">"+trs[e].To] = true
			}
		}
		ok := true
		for _, st := range task.Actions() {
			p := st.State + ">" + st.NextState
			if recorded[task.App+"|"+p] && !have[p] {
				ok = false
			}
		}
		if ok {
			full++
		}
	}
	t.Logf("%d tasks: %d with every recorded step in their own sessions, %d without a session", len(d.Tasks), full, none)
	if none > 0 || float64(full) < 0.85*float64(len(d.Tasks)) {
		t.Errorf("attribution too weak: %d of %d complete, %d without a session", full, len(d.Tasks), none)
	}
}

package eval

import (
	"context"
	"maps"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestJudge: the verdicts, and that a replay is "unverified" only when it
// went right as far as the recording goes.
func TestJudge(t *testing.T) {
	tap := func(label string) droidtask.Step {
		return droidtask.Step{Action: droidtask.Action{Type: "click", Target: &droidtask.Target{Text: &label}}}
	}
	// the recording taps Alice's row, then Send, and types a text
	task := &droidtask.Task{ID: "app/task1", App: "app", Steps: []droidtask.Step{tap("Alice"), tap("Send")}}
	flowTask := map[int64]string{1: "app/task1", 2: "app/task2"}
	no := func() bool { return false }
	yes := func() bool { return true }
	ok, failed := knowledge.OutcomeSuccess, knowledge.OutcomeFailure
	for _, tt := range []struct {
		name       string
		c          CommandCase
		matched    int64
		tapped     []string
		typed      []string
		outcome    string
		rowMissing func() bool
		want       string
	}{
		{"must not match, matched", CommandCase{ExpectNoMatch: true}, 1, nil, nil, ok, no, "wrong_flow"},
		{"must not match, left alone", CommandCase{ExpectNoMatch: true}, 0, nil, nil, ok, no, "correct"},
		{"missed", CommandCase{TaskID: "app/task1"}, 0, nil, nil, ok, no, "missed"},
		{"another task's flow", CommandCase{TaskID: "app/task1"}, 2, nil, nil, ok, no, "wrong_flow"},
		{"right, finished", CommandCase{TaskID: "app/task1", ExpectTyped: []string{"hi"}}, 1, []string{"Alice", "Send"}, []string{"hi"}, ok, no, "correct"},
		{"typed another value", CommandCase{TaskID: "app/task1", ExpectTyped: []string{"hi"}}, 1, []string{"Alice", "Send"}, []string{"hello"}, ok, no, "wrong_slot"},
		{"tapped the old row for a new name", CommandCase{TaskID: "app/task1", ExpectPicked: []string{"Bob"}}, 1, []string{"Alice", "Send"}, nil, ok, no, "wrong_slot"},
		{"new name tapped, then nothing to follow", CommandCase{TaskID: "app/task1", ExpectPicked: []string{"Bob"}, ExpectTyped: []string{"hi"}}, 1, []string{"Bob"}, nil, failed, no, "unverified"},
		{"new name tapped after a wrong text", CommandCase{TaskID: "app/task1", ExpectPicked: []string{"Bob"}, ExpectTyped: []string{"hi", "x"}}, 1, []string{"Bob"}, []string{"ho"}, failed, no, "wrong_slot"},
		{"stopped at the row for a new typed value", CommandCase{TaskID: "app/task1", ExpectTyped: []string{"hi"}}, 1, nil, []string{"hi"}, failed, yes, "unverified"},
		{"stopped elsewhere", CommandCase{TaskID: "app/task1", ExpectTyped: []string{"hi"}}, 1, nil, []string{"hi"}, failed, no, "bad_flow"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			row := CommandRow{CommandCase: tt.c, MatchedFlow: tt.matched, Tapped: tt.tapped}
			if tt.c.TaskID != "" {
				row.WantFlow = 1
			}
			var tk *droidtask.Task
			if !tt.c.ExpectNoMatch {
				tk = task
			}
			res := &daemon.Result{Outcome: tt.outcome, Typed: tt.typed}
			if got := judge(tt.c, row, tk, res, flowTask, tt.rowMissing, yes); got != tt.want {
				t.Errorf("judge = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestCanPick: the simulated owner takes an offered flow only when it can
// tap what the command asks for.
func TestCanPick(t *testing.T) {
	sortDesc := &knowledge.Flow{Steps: []knowledge.Step{
		{Action: "tap", Target: screen.Descriptor{Text: "Sort by"}},
		{Action: "tap", Target: screen.Descriptor{Text: "Descending"}},
	}}
	theme := &knowledge.Flow{Steps: []knowledge.Step{{Action: "tap", Text: "{theme}", Target: screen.Descriptor{Text: "Light"}, Choices: []string{"Light", "Dark", "Black"}}}}
	search := &knowledge.Flow{Steps: []knowledge.Step{{Action: "input", Text: "{q}"}, {Action: "tap", Text: "{q}", Target: screen.Descriptor{Text: "Weather"}}}}
	for _, tt := range []struct {
		name  string
		f     *knowledge.Flow
		picks []string
		want  bool
	}{
		{"no pick asked", sortDesc, nil, true},
		{"a fixed tap", sortDesc, []string{"Descending"}, true},
		{"the other order", sortDesc, []string{"Ascending"}, false},
		{"an option of a choice step", theme, []string{"Dark"}, true},
		{"no such option", theme, []string{"Purple"}, false},
		{"a row carrying a typed value", search, []string{"Tides"}, true},
	} {
		if got := canPick(tt.f, tt.picks); got != tt.want {
			t.Errorf("%s: canPick = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestOwnerSeesWhatIsTyped: the simulated owner takes its flow only when
// what the offer says it would type is what the command types.
func TestOwnerSeesWhatIsTyped(t *testing.T) {
	o := &owner{want: "Create a folder named 'x'", typed: []string{"trip_2031"}}
	opts := []string{`Create a folder named 'x' — types "trip_2031 inside"`, daemon.AnswerNone}
	if ans, _ := o.Ask(context.Background(), "?", opts); ans != daemon.AnswerNone {
		t.Errorf("a wrong value typed was taken: %q", ans)
	}
	opts[0] = `Create a folder named 'x' — types "Trip_2031"`
	if ans, _ := o.Ask(context.Background(), "?", opts); ans != opts[0] {
		t.Errorf("the right value was declined: %q", ans)
	}
}

func TestOwnerSeesWhatIsPicked(t *testing.T) {
	o := &owner{want: "Set the palette to paper", picked: []string{"Deep blue"}}
	opts := []string{`Set the palette to paper — picks "Blue"`, daemon.AnswerNone}
	if ans, _ := o.Ask(context.Background(), "?", opts); ans != daemon.AnswerNone {
		t.Errorf("a wrong option picked was taken: %q", ans)
	}
	opts[0] = `Set the palette to paper — picks "Deep blue"`
	if ans, _ := o.Ask(context.Background(), "?", opts); ans != opts[0] {
		t.Errorf("the right option was declined: %q", ans)
	}
	o = &owner{want: "Rename the palette", typed: []string{"Dusk"}, picked: []string{"Blue"}}
	opts[0] = `Rename the palette — types "Dusk" — picks "Blue"`
	if ans, _ := o.Ask(context.Background(), "?", opts); ans != opts[0] {
		t.Errorf("a typed value and a pick, both right, were declined: %q", ans)
	}
}

func TestRewordings(t *testing.T) {
	cases := []CommandCase{
		{TaskID: "a/1", App: "a", Command: "switch the dark theme on"},
		{TaskID: "a/1", App: "a", Command: "rename it to 'x'", ExpectTyped: []string{"x"}}, // fixes a value
		{TaskID: "a/1", App: "a", Command: "night mode please"},
		{TaskID: "a/2", App: "a", Command: "sort by size", ExpectPicked: []string{"Size"}},
		{App: "a", Command: "order a pizza", ExpectNoMatch: true},
		{TaskID: "a/3", App: "a", Command: "delete all notes", ExpectNoMatch: true},
	}
	for _, tc := range []struct {
		pick int
		want map[string]string
	}{
		{0, map[string]string{"a/1": "switch the dark theme on"}},
		{1, map[string]string{"a/1": "night mode please"}},
		{2, map[string]string{}},
	} {
		if got := Rewordings(cases, tc.pick); !maps.Equal(got, tc.want) {
			t.Errorf("Rewordings(pick %d) = %v, want %v", tc.pick, got, tc.want)
		}
	}
}

// TestOwnerGivesTheValues: offered its flow with a wrong value and the
// choice to give the values, the simulated owner takes that choice and
// answers each value question with what its command types, in order; a
// flow typing another number of values than the command is declined.
func TestOwnerGivesTheValues(t *testing.T) {
	o := &owner{want: "Create a folder named 'x'", typed: []string{"trip_2031"}}
	opts := []string{`Create a folder named 'x' — types "trip_2031 inside"`, "Create a folder named 'x'" + daemon.OfferOtherValues, daemon.AnswerNone}
	if ans, _ := o.Ask(context.Background(), "?", opts); ans != opts[1] {
		t.Fatalf("answered %q, want to give the values", ans)
	}
	if ans, _ := o.Ask(context.Background(), "value?", nil); ans != "trip_2031" {
		t.Errorf("gave %q, want the command's value", ans)
	}
	if !o.gave {
		t.Error("not counted as giving values")
	}
	o = &owner{want: "Create a folder named 'x'", typed: []string{"a", "b"}}
	if ans, _ := o.Ask(context.Background(), "?", opts); ans != daemon.AnswerNone {
		t.Errorf("answered %q for a flow typing one value of two", ans)
	}
}

// TestOwnerPicksTheOption: offered its flow with no option or another
// one shown, the simulated owner gives the values and answers the
// option question with its command's pick; with none of its picks among
// the options, it answers nothing (an error: the replay stops).
func TestOwnerPicksTheOption(t *testing.T) {
	name := "Set the palette to paper"
	for _, shown := range []string{name, name + ` — picks "Blue"`} {
		o := &owner{want: name, picked: []string{"Deep blue"}}
		opts := []string{shown, name + daemon.OfferOtherValues, daemon.AnswerNone}
		if ans, _ := o.Ask(context.Background(), "?", opts); ans != opts[1] {
			t.Fatalf("offered %q: answered %q, want to give the values", shown, ans)
		}
		if ans, err := o.Ask(context.Background(), "which?", []string{"Blue", "Deep blue", "Red"}); err != nil || ans != "Deep blue" {
			t.Errorf("picked %q (%v), want the command's option", ans, err)
		}
		if _, err := o.Ask(context.Background(), "which?", []string{"Blue", "Red"}); err == nil {
			t.Error("answered an option question with none of its picks")
		}
	}
}

// TestOwnerGivesAMissingValue: a flow offered only with the owner giving
// the values (the command left one out) is taken that way, and the
// values given are the command's.
func TestOwnerGivesAMissingValue(t *testing.T) {
	o := &owner{want: "Create a note", typed: []string{"Groceries"}}
	opts := []string{"Open the note" + daemon.OfferOtherValues, "Create a note" + daemon.OfferOtherValues, daemon.AnswerNone}
	if ans, _ := o.Ask(context.Background(), "?", opts); ans != opts[1] {
		t.Fatalf("answered %q, want its flow with the values given", ans)
	}
	if ans, _ := o.Ask(context.Background(), "value?", nil); ans != "Groceries" {
		t.Errorf("gave %q", ans)
	}
}

package knowledge

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// sampleFlow builds a valid flow of pkg with nSteps steps and nSlots slots
// (the last step types the first slot when there is one) and one command.
func sampleFlow(pkg, name string, nSteps, nSlots int) Flow {
	f := Flow{Package: pkg, Name: name, Intent: "send {message} to {contact}",
		Commands: []string{"send hi to bob"}}
	for i := 0; i < nSlots; i++ {
		f.Slots = append(f.Slots, Slot{Name: fmt.Sprintf("slot%d", i), Example: fmt.Sprintf("ex%d", i)})
	}
	for i := 0; i < nSteps; i++ {
		st := Step{Screen: fmt.Sprintf("fp-%d", i), Action: "tap", Expect: fmt.Sprintf("fp-%d", i+1),
			Comment: fmt.Sprintf("step %d", i),
			Target: screen.Descriptor{ResourceID: pkg + ":id/b" + fmt.Sprint(i), Class: "android.widget.Button",
				Text: fmt.Sprintf("Button %d", i), Path: []string{"FrameLayout#content"}, Neighbors: []string{"x"}, Ordinal: i % 2}}
		if i == nSteps-1 && nSlots > 0 {
			st.Action, st.Text, st.Target.Editable = "input", "{slot0}", true
		}
		f.Steps = append(f.Steps, st)
	}
	return f
}

func TestFlowRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	f := sampleFlow("com.example.mail", "send", 4, 2)
	f.Commands = append(f.Commands, "send hi to bob", "email bob: hi") // repeat is stored once
	f.Pinned = true
	f.Uses, f.Successes = 3, 2
	f.Steps[1].Index = 99 // indexes are positions
	f.Steps[0].Choices = []string{"Large", "Small", "Medium"}
	f.Steps[1].Options = []string{"Weekly planner", "Daily planner", "Yearly planner"}
	before := time.Now().Add(-time.Second)
	isKind(t, s.SaveFlow(ctx, &f), nil)
	if f.ID == 0 || f.AppID == 0 || f.Source != SourceLearned || f.Created.Before(before) || !f.Updated.Equal(f.Created) {
		t.Fatalf("SaveFlow did not fill in: %+v", f)
	}
	for i, st := range f.Steps {
		if st.Index != i {
			t.Fatalf("step %d index %d", i, st.Index)
		}
	}
	if !reflect.DeepEqual(f.Commands, []string{"send hi to bob", "email bob: hi"}) {
		t.Fatalf("commands %q", f.Commands)
	}
	got, err := s.Flow(ctx, f.ID)
	isKind(t, err, nil)
	if !reflect.DeepEqual(*got, f) {
		t.Fatalf("Flow round trip:\n got %+v\nwant %+v", *got, f)
	}
	app, err := s.AppByPackage(ctx, "com.example.mail")
	if err != nil || app.ID != f.AppID {
		t.Fatalf("app %+v %v", app, err)
	}
	// Created kept when given (imports)
	old := sampleFlow("com.example.mail", "old", 1, 0)
	old.Created = time.Date(2020, 1, 2, 3, 4, 5, 6e6+123, time.FixedZone("x", 3600))
	isKind(t, s.SaveFlow(ctx, &old), nil)
	if got, _ := s.Flow(ctx, old.ID); !got.Created.Equal(old.Created) || got.Created.Nanosecond() != 6e6 {
		t.Fatalf("created %v, want %v", got.Created, old.Created)
	}
}

func TestSaveFlowErrors(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	app, _ := s.UpsertApp(ctx, "com.example.app", "")
	other, _ := s.UpsertApp(ctx, "com.example.other", "")
	first := sampleFlow("com.example.app", "taken", 2, 0)
	isKind(t, s.SaveFlow(ctx, &first), nil)
	mut := func(m func(f *Flow)) Flow {
		f := sampleFlow("com.example.app", "", 2, 1)
		f.Steps[0].Index = 42 // SaveFlow sets it to 0 only on success
		m(&f)
		return f
	}
	tests := []struct {
		name    string
		f       Flow
		kind    error
		message string
	}{
		{"valid, by app id only", mut(func(f *Flow) { f.Package, f.AppID = "", app.ID }), nil, ""},
		{"unnamed twice is fine", mut(func(f *Flow) {}), nil, ""},
		{"same name, other app", mut(func(f *Flow) { f.Package, f.Name = "com.example.other", "taken" }), nil, ""},
		{"name taken", mut(func(f *Flow) { f.Name = "taken" }), ErrConflict, "taken"},
		{"no package or app", mut(func(f *Flow) { f.Package = "" }), ErrInvalid, "package"},
		{"package not the app's", mut(func(f *Flow) { f.AppID = other.ID }), ErrInvalid, "package"},
		{"unknown app", mut(func(f *Flow) { f.AppID = 999 }), ErrNotFound, "app 999"},
		{"no intent", mut(func(f *Flow) { f.Intent = "" }), ErrInvalid, "intent"},
		{"no steps", mut(func(f *Flow) { f.Steps = nil }), ErrInvalid, "steps"},
		{"step without action", mut(func(f *Flow) { f.Steps[1].Action = "" }), ErrInvalid, "step 1"},
		{"repeated slot", mut(func(f *Flow) { f.Slots = append(f.Slots, f.Slots[0]) }), ErrInvalid, "slot"},
		{"undeclared slot", mut(func(f *Flow) { f.Steps[0].Text = "{who}" }), ErrInvalid, "steps[0].text"},
		{"bad source", mut(func(f *Flow) { f.Source = "dream" }), ErrInvalid, "source"},
		{"negative uses", mut(func(f *Flow) { f.Uses = -1 }), ErrInvalid, "uses"},
		{"empty command", mut(func(f *Flow) { f.Commands = []string{""} }), ErrInvalid, "commands[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := s.Stats(ctx)
			f := tt.f
			err := s.SaveFlow(ctx, &f)
			isKind(t, err, tt.kind)
			if err == nil {
				return
			}
			if !strings.Contains(err.Error(), tt.message) {
				t.Fatalf("error %q does not mention %q", err, tt.message)
			}
			if f.ID != 0 || (len(f.Steps) > 0 && f.Steps[0].Index != 42) {
				t.Fatal("failed SaveFlow changed the flow")
			}
			after, _ := s.Stats(ctx)
			if !reflect.DeepEqual(before, after) {
				t.Fatalf("failed SaveFlow wrote: %v -> %v", before, after)
			}
		})
	}
}

func TestFlowEdits(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	a := sampleFlow("com.example.app", "a", 3, 1)
	b := sampleFlow("com.example.app", "b", 2, 0)
	c := sampleFlow("com.example.other", "a", 1, 0)
	for _, f := range []*Flow{&a, &b, &c} {
		isKind(t, s.SaveFlow(ctx, f), nil)
	}

	// UpdateFlow replaces the parts and keeps counters and Created.
	isKind(t, s.RecordFlowUse(ctx, a.ID, true), nil)
	isKind(t, s.RecordFlowUse(ctx, a.ID, false), nil)
	isKind(t, s.RecordFlowUse(ctx, a.ID, true), nil)
	upd := sampleFlow("com.example.app", "a2", 5, 2)
	upd.ID, upd.AppID, upd.Intent, upd.Commands = a.ID, a.AppID, "new intent", []string{"x", "y"}
	upd.Uses = 1000 // ignored
	time.Sleep(2 * time.Millisecond)
	isKind(t, s.UpdateFlow(ctx, &upd), nil)
	if upd.Uses != 3 || upd.Successes != 2 || upd.Failures != 1 || !upd.Created.Equal(a.Created) || !upd.Updated.After(a.Updated) {
		t.Fatalf("UpdateFlow result %+v", upd)
	}
	got, err := s.Flow(ctx, a.ID)
	isKind(t, err, nil)
	if !reflect.DeepEqual(*got, upd) {
		t.Fatalf("after UpdateFlow:\n got %+v\nwant %+v", *got, upd)
	}
	st, _ := s.Stats(ctx)
	if st["flow_steps"] != 5+2+1 || st["flow_slots"] != 2 || st["flow_commands"] != 2+1+1 {
		t.Fatalf("old parts left behind: %v", st)
	}
	conflict := upd
	conflict.Name = "b"
	isKind(t, s.UpdateFlow(ctx, &conflict), ErrConflict)
	missing := upd
	missing.ID = 999
	isKind(t, s.UpdateFlow(ctx, &missing), ErrNotFound)
	invalid := upd
	invalid.Steps = nil
	isKind(t, s.UpdateFlow(ctx, &invalid), ErrInvalid)
	if got, _ := s.Flow(ctx, a.ID); !reflect.DeepEqual(*got, upd) {
		t.Fatal("failed UpdateFlow changed the flow")
	}

	// RenameFlow
	tests := []struct {
		id   int64
		name string
		kind error
	}{
		{b.ID, "b2", nil},
		{b.ID, "a2", ErrConflict},
		{b.ID, "a", nil},  // free again after the update renamed a to a2
		{c.ID, "a2", nil}, // other app
		{b.ID, "", ErrInvalid},
		{999, "z", ErrNotFound},
	}
	for _, tt := range tests {
		err := s.RenameFlow(ctx, tt.id, tt.name)
		isKind(t, err, tt.kind)
		if err == nil {
			if f, _ := s.Flow(ctx, tt.id); f.Name != tt.name {
				t.Fatalf("rename to %q gave %q", tt.name, f.Name)
			}
		}
	}

	// AddFlowCommand
	isKind(t, s.AddFlowCommand(ctx, b.ID, "mail bob"), nil)
	isKind(t, s.AddFlowCommand(ctx, b.ID, "mail bob"), nil)
	isKind(t, s.AddFlowCommand(ctx, b.ID, ""), ErrInvalid)
	isKind(t, s.AddFlowCommand(ctx, 999, "x"), ErrNotFound)
	if f, _ := s.Flow(ctx, b.ID); !reflect.DeepEqual(f.Commands, []string{"send hi to bob", "mail bob"}) {
		t.Fatalf("commands %q", f.Commands)
	}
	isKind(t, s.RecordFlowUse(ctx, 999, true), ErrNotFound)

	// Flows with filters
	filters := []struct {
		f    FlowFilter
		want []int64
	}{
		{FlowFilter{}, []int64{a.ID, b.ID, c.ID}},
		{FlowFilter{AppID: a.AppID}, []int64{a.ID, b.ID}},
		{FlowFilter{Package: "com.example.other"}, []int64{c.ID}},
		{FlowFilter{AppID: a.AppID, Package: "com.example.other"}, nil},
		{FlowFilter{Package: "com.example.none"}, nil},
	}
	for _, ft := range filters {
		fs, err := s.Flows(ctx, ft.f)
		isKind(t, err, nil)
		var ids []int64
		for _, f := range fs {
			ids = append(ids, f.ID)
			one, _ := s.Flow(ctx, f.ID)
			if !reflect.DeepEqual(*one, f) {
				t.Fatalf("Flows entry differs from Flow:\n%+v\n%+v", f, *one)
			}
		}
		if !reflect.DeepEqual(ids, ft.want) {
			t.Fatalf("Flows(%+v) = %v, want %v", ft.f, ids, ft.want)
		}
	}

	// DeleteFlow cascades; a run keeps its log entry.
	run, err := s.LogRun(ctx, Run{Command: "x", Mode: "replay", Outcome: OutcomeSuccess, FlowID: b.ID})
	isKind(t, err, nil)
	isKind(t, s.DeleteFlow(ctx, b.ID), nil)
	isKind(t, s.DeleteFlow(ctx, b.ID), ErrNotFound)
	_, err = s.Flow(ctx, b.ID)
	isKind(t, err, ErrNotFound)
	st, _ = s.Stats(ctx)
	if st["flows"] != 2 || st["flow_steps"] != 5+1 || st["flow_commands"] != 2+1 {
		t.Fatalf("delete left parts: %v", st)
	}
	runs, _ := s.Runs(ctx, 0)
	if len(runs) != 1 || runs[0].ID != run.ID || runs[0].FlowID != 0 {
		t.Fatalf("runs after delete %+v", runs)
	}
}

// TestUndoFlowFailure: a failure taken back leaves the use counted, and
// never goes below zero.
func TestUndoFlowFailure(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	f := sampleFlow("com.example.app", "a", 2, 0)
	isKind(t, s.SaveFlow(ctx, &f), nil)
	for range UnhealthyAfter {
		isKind(t, s.RecordFlowUse(ctx, f.ID, false), nil)
	}
	if got, _ := s.Flow(ctx, f.ID); got.Healthy() {
		t.Fatalf("after %d failures the flow is healthy: %+v", UnhealthyAfter, got)
	}
	isKind(t, s.UndoFlowFailure(ctx, f.ID), nil)
	got, _ := s.Flow(ctx, f.ID)
	if !got.Healthy() || got.Uses != UnhealthyAfter || got.Failures != UnhealthyAfter-1 || got.FailStreak != UnhealthyAfter-1 {
		t.Fatalf("after undoing one failure: %+v", got)
	}
	for range UnhealthyAfter + 1 {
		isKind(t, s.UndoFlowFailure(ctx, f.ID), nil)
	}
	if got, _ := s.Flow(ctx, f.ID); got.Failures != 0 || got.FailStreak != 0 {
		t.Fatalf("failures below zero: %+v", got)
	}
	isKind(t, s.UndoFlowFailure(ctx, 999), ErrNotFound)
}

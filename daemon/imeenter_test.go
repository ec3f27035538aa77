package daemon_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// enterPlanner creates a note on the demo phone the way a person with a
// keyboard does: open the dialog, type the title, press Enter in it.
type enterPlanner struct{ field int } // -1: Enter in the focused field

func (enterPlanner) Name() string { return "enter" }

func (p enterPlanner) Next(_ context.Context, st *daemon.PlanState) (daemon.Decision, error) {
	find := func(label string) int {
		for i, e := range st.Elements {
			if e.Label == label || e.Resource == label {
				return i
			}
		}
		return -1
	}
	switch {
	case find("note_body") >= 0:
		return daemon.Decision{Action: daemon.ActDone, Element: -1, Mode: "enter"}, nil
	case find("Create a new note") >= 0:
		return daemon.Decision{Action: device.Tap, Element: find("Create a new note"), Mode: "enter"}, nil
	}
	title := find("new_note_title")
	if title < 0 {
		return daemon.Decision{Action: device.Back, Element: -1, Mode: "enter"}, nil
	}
	if st.Elements[title].Value != "Milk" {
		return daemon.Decision{Action: device.Input, Element: title, Text: "Milk", Mode: "enter"}, nil
	}
	el := -1
	if p.field >= 0 {
		el = title
	}
	return daemon.Decision{Action: device.ImeEnter, Element: el, Mode: "enter"}, nil
}

// TestImeEnterLearnedAndReplayed: a command finished by Enter in a field
// (on the field, or in the focused field) is carried out on the demo
// phone, learned with its ime_enter step, and replayed offline with a new
// value.
func TestImeEnterLearnedAndReplayed(t *testing.T) {
	for _, field := range []int{0, -1} {
		phone, st := demotest.New(t, true)
		eng := daemon.New(phone, st, enterPlanner{field: field}, nil, daemon.Config{})
		ctx := context.Background()
		res, err := eng.Run(ctx, `create a note called "Milk"`, daemon.Options{})
		if err != nil || res.Outcome != knowledge.OutcomeSuccess || !res.Saved || phone.State() != "editor" {
			t.Fatalf("field %d: run %+v %v on %s", field, res, err, phone.State())
		}
		f, err := st.Flow(ctx, res.FlowID)
		if err != nil {
			t.Fatal(err)
		}
		var acts []string
		for _, s := range f.Steps {
			acts = append(acts, daemon.DescribeStep(s))
		}
		if last := acts[len(acts)-1]; !strings.HasPrefix(last, "press enter") {
			t.Fatalf("field %d: flow steps %q: want a final Enter", field, acts)
		}
		if err := phone.Reset("home"); err != nil {
			t.Fatal(err)
		}
		again, err := eng.Run(ctx, `create a note called "Eggs"`, daemon.Options{NoPlanner: true})
		if err != nil || again.Outcome != knowledge.OutcomeSuccess || again.Strategy != "replay" || phone.State() != "editor" {
			t.Fatalf("field %d: replay %+v %v on %s", field, again, err, phone.State())
		}
	}
}

// capturing numbers every snapshot (as the Android service does) and
// records the capture id each action echoes.
type capturing struct {
	device.Device
	n      int
	last   string
	echoed []string
	wrong  int
}

func (c *capturing) Snapshot(ctx context.Context) (*screen.Snapshot, error) {
	s, err := c.Device.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	c.n++
	s = s.Clone()
	s.CaptureID = fmt.Sprintf("c%d", c.n)
	c.last = s.CaptureID
	return s, nil
}

func (c *capturing) Perform(ctx context.Context, a device.Action) (device.Result, error) {
	c.echoed = append(c.echoed, a.CaptureID)
	if a.CaptureID != c.last {
		c.wrong++
	}
	return c.Device.Perform(ctx, a)
}

// TestActionsEchoTheCaptureID: every action carries the capture id of the
// snapshot it was chosen on, when planned and when replayed.
func TestActionsEchoTheCaptureID(t *testing.T) {
	phone, st := demotest.New(t, true)
	dev := &capturing{Device: phone}
	eng := daemon.New(dev, st, enterPlanner{field: 0}, nil, daemon.Config{})
	ctx := context.Background()
	for _, cmd := range []string{`create a note called "Milk"`, `create a note called "Eggs"`} {
		if err := phone.Reset("home"); err != nil {
			t.Fatal(err)
		}
		if res, err := eng.Run(ctx, cmd, daemon.Options{}); err != nil || res.Outcome != knowledge.OutcomeSuccess {
			t.Fatalf("%s: %+v %v", cmd, res, err)
		}
	}
	if len(dev.echoed) < 6 || dev.wrong != 0 {
		t.Fatalf("echoed %q (%d not the latest capture)", dev.echoed, dev.wrong)
	}
	for _, id := range dev.echoed {
		if id == "" {
			t.Fatalf("an action without a capture id: %q", dev.echoed)
		}
	}
}

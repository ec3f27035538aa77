package daemon_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func TestPrivateScrubRestore(t *testing.T) {
	p := &daemon.Private{}
	p.Add("+1 555 0100", false)
	p.Add("12 Elm Street", true)
	p.Add("x", false) // too short to redact
	s := `text "+1 555 0100" and go to "12 Elm Street" x`
	if got := p.Redact(s); strings.Contains(got, "555") || strings.Contains(got, "Elm") || !strings.Contains(got, " x") {
		t.Errorf("Redact: %q", got)
	}
	scrubbed := p.Scrub(s)
	if strings.Contains(scrubbed, "555") || !strings.Contains(scrubbed, "12 Elm Street") {
		t.Errorf("Scrub (prompt): %q", scrubbed)
	}
	if p.Restore(scrubbed) != s || p.Restore(p.Redact(s)) != s {
		t.Errorf("Restore: %q", p.Restore(scrubbed))
	}
	var nilP *daemon.Private
	if nilP.Redact(s) != s || nilP.Scrub(s) != s || !nilP.Empty() {
		t.Error("nil Private changed text")
	}
}

// placeholderPlanner plays a model that only ever sees scrubbed text: it
// types what Scrub made of the value into the first input, then stops.
type placeholderPlanner struct{ saw []string }

func (p *placeholderPlanner) Name() string { return "llm" }
func (p *placeholderPlanner) Next(_ context.Context, st *daemon.PlanState) (daemon.Decision, error) {
	p.saw = append(p.saw, st.Scrub(st.Command))
	for i, e := range st.Elements {
		if e.Kind == screen.KindInput && len(st.History) == 1 {
			return daemon.Decision{Action: device.Input, Element: i, Text: st.Scrub("+1 555 0100")}, nil
		}
	}
	if len(st.History) > 1 {
		return daemon.Decision{Action: daemon.ActDone, Element: -1}, nil
	}
	for i, e := range st.Elements {
		if e.Kind == screen.KindButton && strings.Contains(strings.ToLower(e.Label), "create") {
			return daemon.Decision{Action: device.Tap, Element: i}, nil
		}
	}
	return daemon.Decision{Action: daemon.ActFail, Element: -1}, nil
}

type typedLog struct {
	device.Device
	typed []string
}

func (d *typedLog) Perform(ctx context.Context, a device.Action) (device.Result, error) {
	if a.Type == device.Input {
		d.typed = append(d.typed, a.Text)
	}
	return d.Device.Perform(ctx, a)
}

// TestPrivateValuesStayOut: a private value of the run never appears in an
// event, the Result, the run log or what the planner may send to a model,
// yet the device types the real value.
func TestPrivateValuesStayOut(t *testing.T) {
	rec := &typedLog{}
	r := newRig(t, func(p *sim.Phone) device.Device { rec.Device = p; return rec })
	pl := &placeholderPlanner{}
	priv := &daemon.Private{}
	priv.Add("+1 555 0100", false)
	sub := r.eng.Bus().Subscribe(1024)
	if err := r.phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	res, err := r.eng.Run(context.Background(), `create a note called "+1 555 0100"`, daemon.Options{Planner: pl, Private: priv, NoReplay: true})
	r.eng.Bus().Unsubscribe(sub)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != knowledge.OutcomeSuccess {
		t.Fatalf("run: %+v", res)
	}
	if !slices.Contains(rec.typed, "+1 555 0100") {
		t.Errorf("the phone never got the real value: %q", rec.typed)
	}
	n := 0
	for ev := range sub.C {
		n++
		if strings.Contains(string(ev.Data), "555 0100") {
			t.Errorf("event %s leaks the value: %s", ev.Type, ev.Data)
		}
	}
	if n == 0 {
		t.Fatal("no events")
	}
	for _, s := range pl.saw {
		if strings.Contains(s, "555") {
			t.Errorf("the planner's prompt text holds the value: %q", s)
		}
	}
	if strings.Contains(res.Command, "555") || strings.Contains(strings.Join(res.Typed, " "), "555") {
		t.Errorf("result leaks: %q %q", res.Command, res.Typed)
	}
	runs, err := r.store.Runs(context.Background(), 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, rn := range runs {
		if strings.Contains(rn.Command, "555") {
			t.Errorf("run log leaks: %q", rn.Command)
		}
	}
}

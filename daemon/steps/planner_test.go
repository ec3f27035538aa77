package steps_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/steps"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// answers is a scripted Asker.
type answers struct {
	list  []string
	asked []string
}

func (a *answers) Ask(_ context.Context, q string, _ []string) (string, error) {
	a.asked = append(a.asked, q)
	if len(a.list) == 0 {
		return "", context.Canceled
	}
	s := a.list[0]
	a.list = a.list[1:]
	return s, nil
}

// TestFollowOnDemoPhone follows pasted texts on the demo phone: exact
// steps, a step the phone skips, outdated wording that the graph planner
// replans around, and a step that needs the owner.
func TestFollowOnDemoPhone(t *testing.T) {
	for _, c := range []struct {
		name, goal, text string
		inner            bool
		answers          []string
		want             string // final state
		status           []string
	}{
		{name: "exact", goal: "turn on dark mode", inner: true, want: "settings_dark",
			text:   "1. Open Notebook\n2. Tap More options\n3. Tap Settings\n4. Turn on Dark mode",
			status: []string{steps.StatusSkipped, steps.StatusDone, steps.StatusDone, steps.StatusDone}},
		{name: "sentences and a note", goal: `create a note called "Milk"`, inner: true, want: "editor",
			text:   `Tap "Create a new note". Type "Milk" into the title. Then tap Create.`,
			status: []string{steps.StatusDone, steps.StatusDone, steps.StatusDone}},
		{name: "missing step, through the graph", goal: "turn on dark mode", inner: true, want: "settings_dark",
			text:   "Go to Settings. Switch on Dark mode.",
			status: []string{steps.StatusDone, steps.StatusDone}},
		{name: "outdated wording", goal: "turn on dark mode", inner: true, want: "settings_dark",
			text: "1. Tap More options\n2. Tap Preferences\n3. Enable Night theme",
			// "Preferences" grounds on "Settings" as a synonym; "Night theme" does not fit
			status: []string{steps.StatusDone, steps.StatusDone, steps.StatusReplanned}},
		{name: "owner answers", goal: "open the settings", inner: false, want: "settings", answers: []string{"Settings"},
			text:   "Tap More options. Tap Zebra crossing.",
			status: []string{steps.StatusDone, steps.StatusAnswered}},
	} {
		t.Run(c.name, func(t *testing.T) {
			phone, st := demotest.New(t, true)
			var inner daemon.Planner
			if c.inner {
				inner = graphplan.New(st)
			}
			eng := daemon.New(phone, st, nil, nil, daemon.Config{})
			a := &answers{list: c.answers}
			eng.SetAsker(a)
			p := steps.New(inner, c.goal, steps.Parse(c.text))
			res, err := eng.Run(context.Background(), c.goal, daemon.Options{Planner: p, NoReplay: true})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range p.Outcomes() {
				got = append(got, o.Status)
			}
			if res.Outcome != knowledge.OutcomeSuccess || phone.State() != c.want || strings.Join(got, ",") != strings.Join(c.status, ",") {
				for _, s := range res.Steps {
					t.Logf("step %s %q ok=%v %s", s.Action, s.Label, s.OK, s.Reason)
				}
				t.Fatalf("outcome %s (%s) on %s, instructions %v; want success on %s, %v", res.Outcome, res.Error, phone.State(), got, c.want, c.status)
			}
			if !res.Saved {
				t.Errorf("no flow learned")
			} else if f, err := st.Flow(context.Background(), res.FlowID); err != nil || !strings.Contains(strings.ToLower(f.Intent), strings.Fields(c.goal)[0]) {
				t.Errorf("flow %+v not named by the goal %q (%v)", f, c.goal, err)
			}
		})
	}
}

// TestNobodyToAsk: an instruction that cannot be grounded, with no planner
// behind and nobody to answer, fails the run saying which step and why.
func TestNobodyToAsk(t *testing.T) {
	phone, st := demotest.New(t, true)
	eng := daemon.New(phone, st, nil, nil, daemon.Config{})
	p := steps.New(nil, "open the settings", steps.Parse("1. Tap More options\n2. Tap Zebra crossing"))
	res, err := eng.Run(context.Background(), "open the settings", daemon.Options{Planner: p, NoReplay: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome == knowledge.OutcomeSuccess || !strings.Contains(res.Error, "Zebra crossing") || res.Saved {
		t.Fatalf("got %s %q saved=%v", res.Outcome, res.Error, res.Saved)
	}
	if o := p.Outcomes(); o[0].Status != steps.StatusDone || o[1].Status != steps.StatusPending {
		t.Errorf("outcomes %+v", o)
	}
}

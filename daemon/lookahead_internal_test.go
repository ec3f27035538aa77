package daemon

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge/knowledgetest"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestGuardLooksAhead: a call log's row says nothing of calling, but the
// UI transition graph has seen a tap on it lead to a call in progress —
// from the unfiltered log, not from the search results the run is on. The
// policy refuses the tap unless the command asks to call; a row whose tap
// led to a contact's card is no call.
func TestGuardLooksAhead(t *testing.T) {
	ctx := context.Background()
	const row = "Dora · Yesterday · 4 min"
	log := searchResults(t, "", row, "Ezra · Monday · 1 min")
	found := searchResults(t, "Dora", row)
	inCall := searchResults(t, "", "Dora", "Mute", "Hang up")
	card := searchResults(t, "", "Dora", "Call", "Edit")
	for _, tt := range []struct {
		name, command string
		led           *screen.Snapshot // where the row's tap on the log led
		refused       bool
	}{
		{"a row that led to a call", "find Dora in my recents", inCall, true},
		{"the command asks to call", "call Dora back", inCall, false},
		{"a row that led to a card", "find Dora in my recents", card, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := knowledgetest.Open(t)
			app, err := st.UpsertApp(ctx, "com.example.phone", "Phone")
			if err != nil {
				t.Fatal(err)
			}
			scr := func(s *screen.Snapshot) knowledge.Screen {
				t.Helper()
				sc, err := st.UpsertScreen(ctx, knowledge.Screen{AppID: app.ID, Fingerprint: screen.Fingerprint(s)})
				if err != nil {
					t.Fatal(err)
				}
				for _, el := range screen.Elements(s) {
					d := screen.Describe(s, el.NodeID)
					if _, err := st.UpsertElement(ctx, knowledge.Element{ScreenID: sc.ID, Key: d.Key(), Descriptor: d, Label: el.Label}); err != nil {
						t.Fatal(err)
					}
				}
				return sc
			}
			from, to := scr(log), scr(tt.led)
			scr(found)
			e, err := st.UpsertElement(ctx, knowledge.Element{ScreenID: from.ID, Key: screen.Describe(log, elementNamed(t, log, row).NodeID).Key(), Label: row})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.RecordTransition(ctx, knowledge.Transition{AppID: app.ID, From: from.ID, To: to.ID, Action: device.Tap, ElementID: e.ID}); err != nil {
				t.Fatal(err)
			}
			r := &run{e: &Engine{store: st, bus: event.NewBus()}, app: app, res: &Result{Command: tt.command}, cfg: Config{Unattended: true}}
			el := elementNamed(t, found, row)
			v, err := r.guard(ctx, found, device.Action{Type: device.Tap, Node: el.NodeID, Label: el.Label}, &el, "graph")
			var re *RefusedError
			if got := errors.As(err, &re); got != tt.refused {
				t.Fatalf("guard: verdict %+v, err %v; want refused %v", v, err, tt.refused)
			}
			if tt.refused && !v.Sensitive {
				t.Errorf("verdict %+v: want sensitive", v)
			}
		})
	}
}

// TestStandingAllowIsForTheFlowAsLearned: the owner's "always for this
// flow" lets a replay's sensitive step through unasked — but not in a
// replay that taps another row than the flow learned (run.rows: "delete
// the chat with Dora" replaying a flow learned for Ezra's chat), which is
// asked about, with no "always" offered.
func TestStandingAllowIsForTheFlowAsLearned(t *testing.T) {
	ctx := context.Background()
	s := searchResults(t, "", "Delete", "Archive")
	el := elementNamed(t, s, "Delete")
	for _, tt := range []struct {
		name  string
		rows  map[int]string
		asked bool
	}{
		{"the flow as learned", nil, false},
		{"another row than it learned", map[int]string{0: "Dora"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			asker := &optionsAsker{}
			e := &Engine{bus: event.NewBus()}
			e.SetAsker(asker)
			r := &run{e: e, res: &Result{Command: "delete the chat with Dora"}, flow: &knowledge.Flow{ID: 1, AllowSensitive: true}, rows: tt.rows}
			_, err := r.guard(ctx, s, device.Action{Type: device.Tap, Node: el.NodeID, Label: el.Label}, &el, "replay")
			if err != nil {
				t.Fatalf("guard: %v", err)
			}
			if (asker.n > 0) != tt.asked {
				t.Fatalf("asked %d times, want asked %v", asker.n, tt.asked)
			}
			if tt.asked && slices.Contains(asker.options, AnswerAlways) {
				t.Errorf("offered %q: a standing answer for the flow as learned", asker.options)
			}
		})
	}
}

// optionsAsker answers yes and notes the options it was offered.
type optionsAsker struct {
	n       int
	options []string
}

func (a *optionsAsker) Ask(_ context.Context, _ string, options []string) (string, error) {
	a.n++
	a.options = options
	return AnswerYes, nil
}

package daemon_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// askFunc is an Asker made of a function.
type askFunc func(question string, options []string) (string, error)

func (f askFunc) Ask(_ context.Context, q string, options []string) (string, error) {
	return f(q, options)
}

// recording is ask that also appends each question to *asked.
func recording(ask askFunc, asked *[]string) askFunc {
	return func(q string, options []string) (string, error) {
		*asked = append(*asked, q)
		return ask(q, options)
	}
}

// ownerChoosing answers an offer ("did you mean", options ending with
// daemon.AnswerNone) with its first option pick accepts, else none, and
// records the offer's options in *offered; a free-text question gets
// value.
func ownerChoosing(pick func(string) bool, value string, offered *[]string) askFunc {
	return func(_ string, options []string) (string, error) {
		if len(options) == 0 {
			return value, nil
		}
		*offered = options
		for _, o := range options {
			if pick(o) {
				return o, nil
			}
		}
		return daemon.AnswerNone, nil
	}
}

// TestOfferLetsTheOwnerGiveTheValues: a flow offered because the value
// read from the command is a guess can be chosen "with other values";
// the owner is then asked for each value it types, and the replay types
// the answers, not the guess. Declining, or failing to answer, replays
// nothing.
func TestOfferLetsTheOwnerGiveTheValues(t *testing.T) {
	for _, tt := range []struct {
		name       string
		choose     string // the offer's option to take: "values", "as read" or "none"
		value      string // the answer to the value question
		wantTyped  []string
		wantReplay bool
	}{
		{"the owner gives the value", "values", "Groceries", []string{"Groceries"}, true},
		{"an empty answer keeps the value read", "values", " ", []string{"eggs"}, true},
		{"the value as read", "as read", "", []string{"eggs"}, true},
		{"none of these", "none", "", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, nil)
			if first := r.run(t, `create a note called "Milk"`, daemon.Options{}); !first.Saved {
				t.Fatalf("learn: %+v", first)
			}
			var offered []string
			var asked []string
			own := ownerChoosing(func(o string) bool {
				return tt.choose == "values" && strings.HasSuffix(o, daemon.OfferOtherValues) ||
					tt.choose == "as read" && strings.Contains(o, daemon.OfferTypes)
			}, tt.value, &offered)
			r.eng.SetAsker(recording(own, &asked))
			res := r.run(t, "create a note eggs", daemon.Options{NoPlanner: true})
			if len(offered) == 0 {
				t.Fatalf("no offer; asked %q", asked)
			}
			if !strings.Contains(strings.Join(offered, "|"), daemon.OfferOtherValues) {
				t.Errorf("options %q lack %q", offered, daemon.OfferOtherValues)
			}
			replayed := res.Strategy == "replay" && res.Outcome == knowledge.OutcomeSuccess
			if replayed != tt.wantReplay {
				t.Fatalf("replayed %v (%+v), want %v", replayed, res, tt.wantReplay)
			}
			if tt.wantReplay && (len(res.Typed) != len(tt.wantTyped) || strings.Join(res.Typed, "|") != strings.Join(tt.wantTyped, "|")) {
				t.Errorf("typed %q, want %q", res.Typed, tt.wantTyped)
			}
			if tt.choose == "values" && (len(asked) != 2 || !strings.Contains(asked[1], `I read "eggs"`)) {
				t.Errorf("questions %q: want the offer, then one value question saying what was read", asked)
			}
		})
	}
}

// TestOfferLetsTheOwnerPickTheOption: chosen "with other values", a flow
// with a choice slot asks which of the options its step learned to pick,
// and the replay taps the owner's option even where the command's words
// name another.
func TestOfferLetsTheOwnerPickTheOption(t *testing.T) {
	r := newRig(t, nil)
	learnFontSize(t, r)
	var choices []string
	r.eng.SetAsker(askFunc(func(q string, options []string) (string, error) {
		for _, o := range options {
			if strings.HasSuffix(o, daemon.OfferOtherValues) {
				return o, nil
			}
		}
		if !slices.Contains(options, daemon.AnswerNone) {
			choices = options
			for _, o := range options {
				if strings.EqualFold(o, "Large") {
					return o, nil
				}
			}
		}
		return daemon.AnswerNone, nil
	}))
	res := r.run(t, "small font for the word count", daemon.Options{NoPlanner: true})
	if len(choices) < 3 {
		t.Fatalf("the owner was not asked to pick among the learned options (%q); %+v", choices, res)
	}
	if res.Outcome != knowledge.OutcomeSuccess || r.phone.State() != "settings_large" {
		t.Errorf("replay %+v ended on %s, want the owner's option (settings_large)", res, r.phone.State())
	}
}

// TestOfferLetsTheOwnerNameTheRow: a flow that opened a list row by the
// name its command said ("open the note "Trip ideas"") is offered for a
// command naming another row only with the owner naming the row
// (daemon.RowQuestion); the replay taps that row, and the saved flow is
// left as learned, the command not kept among its past commands.
func TestOfferLetsTheOwnerNameTheRow(t *testing.T) {
	s := llmtest.NewServer(t, llmtest.WithKey(embedKey))
	r := embedRig(t, s)
	r.offering(s, 0.3)
	ctx := context.Background()
	learned := r.learnGraph(t, `open the note "Trip ideas"`)
	f, err := r.store.Flow(ctx, learned.FlowID)
	if err != nil {
		t.Fatal(err)
	}
	// the name as a word of the flow, not a slot: a row the learning
	// recorded no option group for
	before := r.rewrite(t, f, `open the note "Trip ideas"`, func(s knowledge.Step) (knowledge.Step, bool) {
		if !s.Target.InList {
			return s, false
		}
		s.Text, s.Choices, s.Options = "", nil, nil
		return s, true
	})
	var offered, asked []string
	own := ownerChoosing(func(o string) bool { return strings.HasSuffix(o, daemon.OfferOtherValues) }, "Books to read", &offered)
	r.eng.SetAsker(recording(own, &asked))
	res := r.run(t, "open the note Shopping list", daemon.Options{NoPlanner: true})
	if len(offered) == 0 {
		t.Fatalf("not offered: %+v", res)
	}
	for _, o := range offered {
		if o != daemon.AnswerNone && strings.HasPrefix(o, before.Name) && !strings.HasSuffix(o, daemon.OfferOtherValues) {
			t.Errorf("option %q would open the row learned, not the one named", o)
		}
	}
	if !slices.ContainsFunc(asked, func(q string) bool { return strings.Contains(q, "instead of") && strings.Contains(q, "Trip ideas") }) {
		t.Errorf("questions %q: none asks which row to pick instead of the learned one", asked)
	}
	if !res.Matched || res.Outcome != knowledge.OutcomeSuccess {
		t.Fatalf("not replayed: %+v", res)
	}
	if !slices.ContainsFunc(res.Steps, func(st daemon.StepRecord) bool { return st.Target.Label() == "Books to read" }) ||
		slices.ContainsFunc(res.Steps, func(st daemon.StepRecord) bool { return st.Target.Label() == "Trip ideas" }) {
		t.Errorf("the replay tapped %v, want the owner's row", res.Steps)
	}
	after, err := r.store.Flow(ctx, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(after.Steps, before.Steps, func(a, b knowledge.Step) bool { return a.Text == b.Text && a.Target.Label() == b.Target.Label() }) ||
		slices.Contains(after.Commands, "open the note Shopping list") {
		t.Errorf("saved flow changed: steps %v commands %q", after.Steps, after.Commands)
	}
}

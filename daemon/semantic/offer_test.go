package semantic_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestDecideSuggests: with SuggestMinCosine, when nothing is promoted the
// candidates to offer are listed closest first, at most Suggest, leaving
// out those the command contradicts or gives another value, and those
// below the cosine; one with a slot the command leaves empty is offered
// (the owner gives the value).
func TestDecideSuggests(t *testing.T) {
	flows := flowsOf("near a", "close b", "same c", "same d", "far e", "same f")
	cands := []intent.Candidate{
		cand(1, 0.2, intent.VetoAction),                     // near: offered third
		cand(2, 0.2, intent.VetoPolarity),                   // close: offered second
		cand(3, 0.2, intent.VetoOpposite),                   // same, but contradicted
		cand(4, 0.2, intent.VetoValue),                      // same, but another value
		cand(5, 0.2),                                        // far: below the cosine
		{FlowID: 6, Score: 0.2, Missing: []string{"title"}}, // same, a slot unfilled: offered first
	}
	var calls atomic.Int32
	cfg := semantic.MiniLM
	cfg.SuggestMinCosine, cfg.Suggest = 0.5, 2
	d := semantic.New(unit(&calls, vecs), nil, cfg).DecideIn(context.Background(), "cmd please", semantic.Input{Cands: cands, Flows: flows, Threshold: th})
	var got []int64
	for _, i := range d.Suggest {
		got = append(got, d.Cands[i].FlowID)
	}
	if d.Promoted != -1 || !slices.Equal(got, []int64{6, 2}) {
		t.Errorf("promoted %d, suggested flows %v; want none promoted, [6 2]", d.Promoted, got)
	}
	cfg.SuggestMinCosine = 0
	if d := semantic.New(unit(&calls, vecs), nil, cfg).DecideIn(context.Background(), "cmd please", semantic.Input{Cands: cands, Flows: flows, Threshold: th}); d.Suggest != nil {
		t.Errorf("suggestions off: %v", d.Suggest)
	}
}

// TestOfferFilled: a flow that takes values is offered by its template
// filled with the command's own values when that text reaches
// OfferFilled, though its texts with their own example are far; never
// promoted by it, and not offered with OfferFilled 0 or below it.
func TestOfferFilled(t *testing.T) {
	flows := map[int64]*knowledge.Flow{1: {ID: 1, Intent: "{word} x", Package: "p", Slots: []knowledge.Slot{{Name: "word", Example: "far"}}}}
	for _, tt := range []struct {
		name    string
		filled  float64
		value   string
		offered bool
	}{
		{"the filled template is close", 0.70, "same", true},
		{"off", 0, "same", false},
		{"the filled template below the bar", 0.90, "near", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			cfg := semantic.MiniLM
			cfg.OfferFilled = tt.filled
			cands := []intent.Candidate{{FlowID: 1, Score: th - 0.05, Slots: map[string]string{"word": tt.value}}}
			d := semantic.New(unit(&calls, vecs), nil, cfg).DecideIn(context.Background(), "cmd please", semantic.Input{Cands: cands, Flows: flows, Threshold: th})
			if d.Promoted != -1 || (len(d.Suggest) == 1) != tt.offered {
				t.Errorf("promoted %d, suggested %v; want none promoted, offered %v", d.Promoted, d.Suggest, tt.offered)
			}
			if d.Cosine[0] > 0.5 {
				t.Errorf("the decision's cosine is %.3f: the filled template must count for the offer only", d.Cosine[0])
			}
		})
	}
}

// TestAgrees: a lexical match must also be close in meaning: the command
// against the flow's template filled with the candidate's values, or its
// other texts; MinAgree 0 and a failing embedder leave it standing.
func TestAgrees(t *testing.T) {
	f := &knowledge.Flow{ID: 1, Intent: "{word} x", Package: "p", Slots: []knowledge.Slot{{Name: "word", Example: "far"}}}
	down := semantic.Func{Model: "down", Fn: func(context.Context, []string) ([][]float32, error) { return nil, errors.New("down") }}
	tests := []struct {
		name    string
		emb     semantic.Embedder
		min     float64
		slots   map[string]string
		agree   bool
		wantErr bool
	}{
		{"the filled template is the command's meaning", nil, 0.9, map[string]string{"word": "same"}, true, false},
		{"the example value is far", nil, 0.9, nil, false, false},
		{"a looser MinAgree accepts near", nil, 0.3, map[string]string{"word": "far"}, true, false},
		{"off: the lexical decision stands", nil, 0, nil, true, false},
		{"embedder down: the lexical decision stands", down, 0.9, nil, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			emb := tt.emb
			if emb == nil {
				emb = unit(&calls, vecs)
			}
			cfg := semantic.MiniLM
			cfg.MinAgree = tt.min
			ok, cos, err := semantic.New(emb, nil, cfg).Agrees(context.Background(), "cmd please", "", intent.Candidate{FlowID: 1, Slots: tt.slots}, f)
			if ok != tt.agree || (err != nil) != tt.wantErr {
				t.Errorf("agrees %v (cosine %.3f, err %v); want %v, err %v", ok, cos, err, tt.agree, tt.wantErr)
			}
		})
	}
}

// TestAgreesWithItsOwnText: a command that is one of the flow's texts
// agrees (cosine 1) whatever the flow's other texts, with no embedding.
func TestAgreesWithItsOwnText(t *testing.T) {
	f := &knowledge.Flow{ID: 1, Intent: "cmd please", Commands: []string{"far away"}, Package: "p"}
	var calls atomic.Int32
	cfg := semantic.MiniLM
	cfg.MinAgree = 0.9
	ok, cos, err := semantic.New(unit(&calls, vecs), nil, cfg).Agrees(context.Background(), "cmd  please", "", intent.Candidate{FlowID: 1}, f)
	if !ok || cos != 1 || err != nil || calls.Load() != 0 {
		t.Errorf("agrees %v, cosine %.3f, err %v, %d embedding calls; want true, 1, nil, 0", ok, cos, err, calls.Load())
	}
}

// TestOtherValue: a flow's value the command leaves out, or a slot it
// leaves empty (the owner is asked for it), is offered; a value the
// command replaces is not.
func TestOtherValue(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    intent.Candidate
		want bool
	}{
		{"no veto", intent.Candidate{}, false},
		{"the flow's value left out", intent.Candidate{Vetoes: []string{intent.VetoLiteral}}, false},
		{"the flow's value replaced by a word", intent.Candidate{Vetoes: []string{intent.VetoLiteral}, Unmatched: []string{"track9"}}, true},
		{"the flow's value left out, other words said", intent.Candidate{Vetoes: []string{intent.VetoLiteral}, Unmatched: []string{"military", "time"}}, false},
		{"another value", intent.Candidate{Vetoes: []string{intent.VetoValue, intent.VetoLiteral}}, true},
		{"a slot left empty", intent.Candidate{Vetoes: []string{intent.VetoUnfilled}}, false},
		{"a slot left empty, another value", intent.Candidate{Vetoes: []string{intent.VetoUnfilled, intent.VetoValue}}, true},
	} {
		if got := semantic.OtherValue(tt.c); got != tt.want {
			t.Errorf("%s: otherValue = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestPickedTemplate: a flow that picks an option reads, for the cosine,
// with the option the command names in place of its example; a value that
// names no option, a flow with no choice step, or a choice slot the
// command leaves empty give no such text.
func TestPickedTemplate(t *testing.T) {
	sizes := []string{"Small", "Medium", "Large", "Extra large"}
	pick := &knowledge.Flow{Intent: "set the reader font to {size}", Slots: []knowledge.Slot{{Name: "size", Example: "medium"}},
		Steps: []knowledge.Step{{Action: "tap", Text: "Settings"}, {Action: "tap", Text: "{size}", Choices: sizes}}}
	typed := &knowledge.Flow{Intent: "rename the list to {title}", Slots: []knowledge.Slot{{Name: "title", Example: "chores"}},
		Steps: []knowledge.Step{{Action: "input", Text: "{title}"}}}
	for _, tt := range []struct {
		name  string
		f     *knowledge.Flow
		slots map[string]string
		want  string
	}{
		{"an option the command names", pick, map[string]string{"size": "large"}, "set the reader font to large"},
		{"an option of two words", pick, map[string]string{"size": "extra large"}, "set the reader font to extra large"},
		{"a value no option holds", pick, map[string]string{"size": "huge"}, ""},
		{"no value for the choice slot", pick, nil, ""},
		{"a typed slot", typed, map[string]string{"title": "groceries"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := semantic.PickedTemplate(tt.f, tt.slots); got != tt.want {
				t.Errorf("PickedTemplate = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestDecideReadsThePickedOption: a candidate whose slot names another
// option than its example is compared as the flow reads for that option
// ("large reader font", not "medium reader font"), and promoted when that
// reading is close.
func TestDecideReadsThePickedOption(t *testing.T) {
	v := map[string][]float32{"cmd": vecs["cmd"], "large": vecs["same"], "medium": vecs["far"]}
	f := &knowledge.Flow{ID: 1, Intent: "{size} reader font", Package: "p", Slots: []knowledge.Slot{{Name: "size", Example: "medium"}},
		Steps: []knowledge.Step{{Action: "tap", Text: "{size}", Choices: []string{"Small", "Medium", "Large"}}}}
	c := intent.Candidate{FlowID: 1, Score: th - 0.05, Slots: map[string]string{"size": "large"}}
	var calls atomic.Int32
	d := semantic.New(unit(&calls, v), nil, semantic.MiniLM).Decide(context.Background(), "cmd large font", []intent.Candidate{c}, map[int64]*knowledge.Flow{1: f}, th)
	if d.Promoted != 0 {
		t.Errorf("promoted %d (%s); want the flow read for the option picked", d.Promoted, d.Reason)
	}
	c.Slots = map[string]string{"size": "huge"} // names no option: the example's reading stands
	d = semantic.New(unit(&calls, v), nil, semantic.MiniLM).Decide(context.Background(), "cmd huge font", []intent.Candidate{c}, map[int64]*knowledge.Flow{1: f}, th)
	if d.Promoted >= 0 {
		t.Errorf("a value no option holds was promoted (%s)", d.Reason)
	}
}

// TestAgreesWithoutMentions: a mention of the app ("of the Planner app")
// pulls a sentence-embedding model away from a flow's text; with the
// app's label the command and the flow's texts are also compared without
// their mentions, on both sides, so the command agrees — and without the
// label, or for another app's label, they are compared as written.
func TestAgreesWithoutMentions(t *testing.T) {
	vecs := map[string][]float32{
		"open the tips of the Planner app":  {0, 1},
		"open the tips":                     {1, 0},
		"check the tips":                    {1, 0},
		"check the tips in the Planner app": {0, 1},
		"tips please":                       {1, 0},
	}
	emb := semantic.Func{Model: "fake", Fn: func(ctx context.Context, texts []string) ([][]float32, error) {
		out := make([][]float32, len(texts))
		for i, s := range texts {
			v, ok := vecs[s]
			if !ok {
				return nil, errors.New("fake: no vector for " + s)
			}
			out[i] = v
		}
		return out, nil
	}}
	cfg := semantic.MiniLM
	cfg.MinAgree = 0.9
	for _, tc := range []struct {
		command, intent, label string
		agree                  bool
	}{
		{"open the tips of the Planner app", "check the tips", "Planner", true},
		{"open the tips of the Planner app", "check the tips", "", false},
		{"open the tips of the Planner app", "check the tips", "Jotter", false},
		{"tips please", "check the tips in the Planner app", "Planner", true},
		{"tips please", "check the tips in the Planner app", "", false},
	} {
		f := &knowledge.Flow{ID: 1, Intent: tc.intent, Package: "p"}
		ok, cos, err := semantic.New(emb, nil, cfg).Agrees(context.Background(), tc.command, tc.label, intent.Candidate{FlowID: 1}, f)
		if ok != tc.agree || err != nil {
			t.Errorf("%q against %q, label %q: agrees %v (cosine %.2f, err %v), want %v", tc.command, tc.intent, tc.label, ok, cos, err, tc.agree)
		}
	}
}

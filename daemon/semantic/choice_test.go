package semantic_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
	"github.com/wayfinder-agent/wayfinder/knowledge/knowledgetest"
)

// angle is a unit vector at angle a (radians) from (1, 0): the cosine of
// two of them is cos of the difference of their angles.
func angle(a float64) []float32 { return []float32{float32(math.Cos(a)), float32(math.Sin(a))} }

// byText is a fake embedder mapping whole texts to vectors; a text it
// does not know is far from everything (orthogonal to the plane).
func byText(calls *atomic.Int32, vecs map[string][]float32) semantic.Func {
	return semantic.Func{Model: "fake", Fn: func(ctx context.Context, texts []string) ([][]float32, error) {
		calls.Add(1)
		out := make([][]float32, len(texts))
		for i, t := range texts {
			if v, ok := vecs[t]; ok {
				out[i] = append(v[:2:2], 0)
			} else {
				out[i] = []float32{0, 0, 1}
			}
		}
		return out, nil
	}}
}

func TestPhrases(t *testing.T) {
	for _, tt := range []struct {
		command string
		want    []string
	}{
		{"set the map to aerial view", []string{"set", "map", "aerial", "view", "aerial view", "set the map", "map to aerial"}},
		{"Sort by TIME, please", []string{"sort", "time", "sort by time"}},
		{"snooze 15% of the time", []string{"snooze", "15%", "time", "snooze 15%"}},
		{"the of and", nil},
		{"", nil},
		{"view view view", []string{"view", "view view", "view view view"}},
	} {
		if got := semantic.Phrases(tt.command); !slices.Equal(got, tt.want) {
			t.Errorf("Phrases(%q) = %q, want %q", tt.command, got, tt.want)
		}
	}
	long := strings.Repeat("alpha beta gamma delta ", 40)
	if got := semantic.Phrases(long); len(got) > 96 {
		t.Errorf("a long command gave %d phrases, want at most 96", len(got))
	}
}

func TestPickChoice(t *testing.T) {
	// the labels at angles from the phrase "aerial view" (0): Satellite
	// at cos 0.95, Terrain at 0.83, Default far
	vecs := map[string][]float32{
		"aerial view": angle(0), "aerial": angle(-0.5), "view": angle(1.3), "map": angle(1.5), "set": angle(1.5),
		"Satellite": angle(0.32), "Terrain": angle(0.59), "Default": angle(-1.4),
		// a value the list lacks
		"street": angle(2.2), "street view": angle(2.0),
		// two options about as close
		"Hybrid": angle(0.34),
	}
	cfg := semantic.Config{ChoiceMinCosine: 0.85, ChoiceMargin: 0.08}
	for _, tt := range []struct {
		name    string
		command string
		labels  []string
		cfg     semantic.Config
		want    int
		phrase  string
	}{
		{"named by meaning", "set the map to aerial view", []string{"Default", "Satellite", "Terrain"}, cfg, 1, "aerial view"},
		{"below the floor", "set the map to street view", []string{"Default", "Satellite", "Terrain"}, cfg, -1, ""},
		{"two options about as close", "set the map to aerial view", []string{"Default", "Satellite", "Hybrid"}, cfg, -1, ""},
		{"off without a floor", "set the map to aerial view", []string{"Default", "Satellite", "Terrain"}, semantic.Config{}, -1, ""},
		{"one label is no choice", "set the map to aerial view", []string{"Satellite"}, cfg, -1, ""},
		{"stop words only", "to the of", []string{"Default", "Satellite", "Terrain"}, cfg, -1, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			r := semantic.New(byText(&calls, vecs), nil, tt.cfg)
			c, err := r.PickChoice(context.Background(), tt.command, tt.labels)
			if err != nil {
				t.Fatal(err)
			}
			if c.Index != tt.want || (tt.want >= 0 && (len(c.Phrases) == 0 || c.Phrases[0] != tt.phrase)) {
				t.Errorf("PickChoice = %+v, want index %d by %q", c, tt.want, tt.phrase)
			}
		})
	}
	var nilR *semantic.Rescorer
	if c, err := nilR.PickChoice(context.Background(), "aerial view", []string{"a", "b"}); c.Index != -1 || err != nil {
		t.Errorf("nil Rescorer: %+v, %v; want -1, nil", c, err)
	}
}

// TestChoicesSaid: a choice the flow makes that the command leaves out in
// the flow's words is said when PickChoice finds the command naming the
// flow's own option among the group it chose from — not another option,
// nor a step with no group.
func TestChoicesSaid(t *testing.T) {
	vecs := map[string][]float32{
		"year board": angle(0.1), "month board": angle(0.62),
		"Yearly board": angle(0), "Monthly board": angle(0.6), "Daily board": angle(1.2),
	}
	flow := func(options ...string) map[int64]*knowledge.Flow {
		return map[int64]*knowledge.Flow{1: {ID: 1, Intent: "change the layout from monthly to yearly", Package: "p", Steps: []knowledge.Step{
			{Action: "tap", Target: screen.Descriptor{Text: "Layout"}},
			{Action: "tap", Target: screen.Descriptor{Text: "Yearly board"}, Options: options},
		}}}
	}
	group := []string{"Yearly board", "Daily board", "Monthly board"}
	cand := []intent.Candidate{{FlowID: 1, Score: 0.3, Unmatched: []string{"year"}, FlowUnmatched: []string{"monthly", "yearly"}}}
	for _, tt := range []struct {
		name    string
		command string
		flows   map[int64]*knowledge.Flow
		want    bool
	}{
		{"the flow's option named by meaning", "switch to year board", flow(group...), true},
		{"another option named", "switch to month board", flow(group...), false},
		{"no group to pick from", "switch to year board", flow(), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			r := semantic.New(byText(&calls, vecs), nil, semantic.Config{ChoiceMinCosine: 0.85, ChoiceMargin: 0.08})
			got := semantic.ChoicesSaid(r, context.Background(), tt.command, cand, tt.flows)
			if (len(got) > 0 && got[0]) != tt.want {
				t.Errorf("ChoicesSaid = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPickChoiceKeepsPhrasesOutOfTheStore: labels are cached in the store
// like other screen texts; the fragments of a command never are.
func TestPickChoiceKeepsPhrasesOutOfTheStore(t *testing.T) {
	st := knowledgetest.Open(t)
	var calls atomic.Int32
	vecs := map[string][]float32{"aerial view": angle(0), "Satellite": angle(0.3), "Terrain": angle(1), "Default": angle(1.4)}
	r := semantic.New(byText(&calls, vecs), st, semantic.Config{ChoiceMinCosine: 0.85, ChoiceMargin: 0.08})
	ctx := context.Background()
	if c, err := r.PickChoice(ctx, "aerial view please", []string{"Default", "Satellite", "Terrain"}); err != nil || c.Index != 1 {
		t.Fatalf("PickChoice = %+v, %v", c, err)
	}
	if _, err := st.Embedding(ctx, "fake", "Satellite"); err != nil {
		t.Errorf("the label was not cached: %v", err)
	}
	for _, p := range semantic.Phrases("aerial view please") {
		if _, err := st.Embedding(ctx, "fake", p); err == nil {
			t.Errorf("the phrase %q reached the store", p)
		}
	}
}

func TestPickChoiceEmbedderDown(t *testing.T) {
	failing := semantic.Func{Model: "fake", Fn: func(context.Context, []string) ([][]float32, error) {
		return nil, errors.New("endpoint down")
	}}
	r := semantic.New(failing, nil, semantic.Config{ChoiceMinCosine: 0.85, ChoiceMargin: 0.08})
	c, err := r.PickChoice(context.Background(), "aerial view", []string{"Default", "Satellite", "Terrain"})
	if err == nil || c.Index != -1 {
		t.Errorf("PickChoice with the embedder down = %+v, %v; want -1 and the error", c, err)
	}
}

// FuzzPhrases: any command splits into phrases without a panic, each of
// 1 to MaxPhraseWords words, none with a stop word at an edge.
func FuzzPhrases(f *testing.F) {
	for _, s := range []string{"set the map to aerial view", "Sort by TIME, please", "", "¿qué? 15% …", "a\x00b c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, command string) {
		ps := semantic.Phrases(command)
		if len(ps) > 96 {
			t.Fatalf("%d phrases", len(ps))
		}
		for _, p := range ps {
			ws := strings.Fields(p)
			if len(ws) == 0 || len(ws) > semantic.MaxPhraseWords {
				t.Fatalf("phrase %q of %q has %d words", p, command, len(ws))
			}
		}
	})
}

package simil_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge/knowledgetest"

	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/daemon/simil"
)

// counting is a fake model: a text's vector is (len, 1); it records every
// batch it was asked.
func counting(batches *[][]string) semantic.Embedder {
	return semantic.Func{Model: "fake", Fn: func(_ context.Context, texts []string) ([][]float32, error) {
		*batches = append(*batches, slices.Clone(texts))
		out := make([][]float32, len(texts))
		for i, t := range texts {
			out[i] = []float32{float32(len(t)), 1}
		}
		return out, nil
	}}
}

func TestMemoEmbedsEachTextOnce(t *testing.T) {
	ctx := context.Background()
	st := knowledgetest.Open(t)
	var batches [][]string
	m := simil.New(counting(&batches), st)
	for _, tc := range []struct {
		texts       []string
		wantBatches [][]string // batches asked of the model, cumulative
	}{
		{[]string{"Dialpad", " Dialpad ", "Call  history", ""}, [][]string{{"Dialpad", "Call history"}}},
		{[]string{"Call history", "Dialpad"}, [][]string{{"Dialpad", "Call history"}}},
		{[]string{"Favorites", "Dialpad"}, [][]string{{"Dialpad", "Call history"}, {"Favorites"}}},
	} {
		vs, err := m.Vectors(ctx, tc.texts)
		if err != nil {
			t.Fatal(err)
		}
		for i, tx := range tc.texts {
			k := simil.Normalize(tx)
			if (k == "") != (vs[i] == nil) || (k != "" && vs[i][0] != float32(len(k))) {
				t.Errorf("%q: vector %v", tx, vs[i])
			}
		}
		if !slices.EqualFunc(batches, tc.wantBatches, slices.Equal) {
			t.Errorf("after %q: batches %q, want %q", tc.texts, batches, tc.wantBatches)
		}
	}
	// a new process (a new Memo) finds the vectors in the store
	var again [][]string
	m2 := simil.New(counting(&again), st)
	if _, err := m2.Vectors(ctx, []string{"Dialpad", "Favorites"}); err != nil {
		t.Fatal(err)
	}
	if len(again) != 0 {
		t.Errorf("embedded %q again; want them from the store", again)
	}
}

func TestMemoErrorsAndNil(t *testing.T) {
	ctx := context.Background()
	var m *simil.Memo
	if vs, err := m.Vectors(ctx, []string{"a"}); err != nil || len(vs) != 1 || vs[0] != nil {
		t.Errorf("nil Memo: %v, %v", vs, err)
	}
	if simil.New(nil, nil) != nil {
		t.Error("New(nil) is not nil")
	}
	for name, fn := range map[string]func(context.Context, []string) ([][]float32, error){
		"model error": func(context.Context, []string) ([][]float32, error) { return nil, errors.New("down") },
		"short reply": func(context.Context, []string) ([][]float32, error) { return [][]float32{{1}}, nil },
	} {
		if _, err := simil.New(semantic.Func{Model: "f", Fn: fn}, nil).Vectors(ctx, []string{"a", "b"}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestCosine(t *testing.T) {
	for _, tc := range []struct {
		a, b []float32
		want float64
	}{
		{[]float32{1, 0}, []float32{1, 0}, 1},
		{[]float32{1, 0}, []float32{0, 2}, 0},
		{[]float32{1, 1}, []float32{-1, -1}, -1},
		{[]float32{1}, []float32{1, 0}, 0},
		{nil, nil, 0},
		{[]float32{0, 0}, []float32{1, 0}, 0},
	} {
		if got := simil.Cosine(tc.a, tc.b); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("Cosine(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

package bert

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// golden is testdata/golden.json, written by testdata/golden.py from Hugging
// Face's tokenizers and sentence-transformers.
// int8MinCosine is the least cosine of an Int8 vector with
// sentence-transformers' float32 one that TestGoldenEmbeddings accepts.
const int8MinCosine = 0.995

type golden struct {
	MaxSeqLength int `json:"max_seq_length"`
	Sentences    []struct {
		Text      string    `json:"text"`
		IDs       []int32   `json:"ids"`    // tokenizers, no truncation
		STIDs     []int32   `json:"st_ids"` // sentence-transformers, truncated
		Embedding []float32 `json:"embedding"`
	} `json:"sentences"`
}

func loadGolden(t testing.TB) golden {
	t.Helper()
	b, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// testModel loads the fetched model with p's weights, or skips when they
// are absent.
func testModel(t testing.TB, p Precision) *Model {
	t.Helper()
	dir, err := FindDir()
	if err == nil && !isFile(filepath.Join(dir, p.WeightsFile())) {
		err = fmt.Errorf("%s lacks %s", dir, p.WeightsFile())
	}
	if err != nil {
		t.Skipf("model files absent (scripts/fetch-model.sh fetches them; setup runs it): %v", err)
	}
	m, err := loadShared(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGoldenTokens(t *testing.T) {
	m := testModel(t, FP32)
	g := loadGolden(t)
	for _, s := range g.Sentences {
		if got := m.Tokenizer().Encode(s.Text, 0); !slices.Equal(got, s.IDs) {
			t.Errorf("Encode(%q)\n got %v\nwant %v", s.Text, got, s.IDs)
		}
		if got := m.Tokenizer().Encode(s.Text, g.MaxSeqLength); !slices.Equal(got, s.STIDs) {
			t.Errorf("Encode(%q, %d) = %d ids, want %d", s.Text, g.MaxSeqLength, len(got), len(s.STIDs))
		}
	}
}

// TestGoldenEmbeddings compares with sentence-transformers. FP32: every
// vector within 1e-4 per component (float32 sums in another order) and a
// cosine above 0.99999. Int8 (weights and activations quantized): a cosine
// above int8MinCosine for every sentence (measured on amd64: 0.9964 at the
// least, 0.9992 on average over the golden sentences). One batch, so sequences of
// different lengths share the dense layers.
func TestGoldenEmbeddings(t *testing.T) {
	g := loadGolden(t)
	texts := make([]string, len(g.Sentences))
	for i, s := range g.Sentences {
		texts[i] = s.Text
	}
	for _, tc := range []struct {
		p         Precision
		maxd, cos float64
	}{{FP32, 1e-4, 0.99999}, {Int8, 1, int8MinCosine}} {
		t.Run(string(tc.p), func(t *testing.T) {
			m := testModel(t, tc.p)
			if m.EmbedModel() != tc.p.CacheKey() {
				t.Errorf("EmbedModel() = %q, want %q", m.EmbedModel(), tc.p.CacheKey())
			}
			vs, err := m.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != len(texts) {
				t.Fatalf("%d vectors for %d texts", len(vs), len(texts))
			}
			minDot, sumDot := 1.0, 0.0
			for i, s := range g.Sentences {
				if len(vs[i]) != len(s.Embedding) {
					t.Fatalf("%q: %d dims, want %d", s.Text, len(vs[i]), len(s.Embedding))
				}
				maxd, dot := 0.0, 0.0
				for j := range vs[i] {
					maxd = math.Max(maxd, math.Abs(float64(vs[i][j]-s.Embedding[j])))
					dot += float64(vs[i][j]) * float64(s.Embedding[j])
				}
				minDot, sumDot = math.Min(minDot, dot), sumDot+dot
				if maxd > tc.maxd || dot < tc.cos {
					t.Errorf("%q: max component difference %.2g, cosine %.7f", s.Text, maxd, dot)
				}
			}
			t.Logf("%s: cosine with sentence-transformers: min %.5f, mean %.5f over %d sentences", tc.p, minDot, sumDot/float64(len(texts)), len(texts))
		})
	}
}

// TestEmbedBatchIndependent: a text's vector does not depend on the other
// texts of its batch.
func TestEmbedBatchIndependent(t *testing.T) {
	for _, p := range []Precision{FP32, Int8} {
		t.Run(string(p), func(t *testing.T) { testBatchIndependent(t, testModel(t, p)) })
	}
}

func testBatchIndependent(t *testing.T, m *Model) {
	ctx := context.Background()
	one, err := m.Embed(ctx, []string{"turn on dark mode"})
	if err != nil {
		t.Fatal(err)
	}
	many, err := m.Embed(ctx, []string{"a much longer sentence about something else entirely", "turn on dark mode", "x"})
	if err != nil {
		t.Fatal(err)
	}
	for j := range one[0] {
		if math.Abs(float64(one[0][j]-many[1][j])) > 1e-5 {
			t.Fatalf("component %d: %v alone, %v in a batch", j, one[0][j], many[1][j])
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := m.Embed(cctx, []string{"x"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir, FP32, "x"); err == nil {
		t.Fatal("an empty directory loaded")
	}
	if err := os.WriteFile(dir+"/"+ConfigFile, []byte(`{"hidden_size":384,"num_attention_heads":12,"num_hidden_layers":1,"intermediate_size":4,"max_position_embeddings":8,"type_vocab_size":1,"vocab_size":4,"hidden_act":"relu"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir, FP32, "x"); err == nil {
		t.Fatal("a relu config loaded")
	}
}

// TestErf32: the float32 erf of gelu stays within 5e-7 of math.Erf over
// the range activations take, and is ±1 beyond it.
func TestErf32(t *testing.T) {
	worst := 0.0
	for i := -100000; i <= 100000; i++ {
		x := float64(i) / 10000 // [-10, 10] in steps of 1e-4
		got, want := float64(erf32(float32(x))), math.Erf(float64(float32(x)))
		worst = math.Max(worst, math.Abs(got-want))
	}
	if worst > 5e-7 {
		t.Errorf("erf32 differs from math.Erf by up to %.3g, want at most 5e-7", worst)
	}
	if erf32(float32(math.Inf(1))) != 1 || erf32(float32(math.Inf(-1))) != -1 {
		t.Errorf("erf32(±Inf) = %v, %v; want ±1", erf32(float32(math.Inf(1))), erf32(float32(math.Inf(-1))))
	}
}

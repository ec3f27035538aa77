package bert

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestQuantizeRows: per-row scales max|row|/127, codes in [-127, 127],
// and every element within half a step of its value.
func TestQuantizeRows(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		name       string
		rows, cols int
		w          []float32
		wantQ      []int8 // nil: not checked
	}{
		{"exact steps", 1, 4, []float32{-127, 0, 63.5, 127}, []int8{-127, 0, 64, 127}},
		{"negative max", 1, 3, []float32{-2.54, 1.27, 0}, []int8{-127, 64, 0}},
		{"row of zeros", 2, 2, []float32{0, 0, 1, -0.5}, []int8{0, 0, 127, -64}},
		{"random MiniLM-sized", 384, 1536, randVec(r, 384*1536), nil},
		{"tiny values", 3, 5, []float32{1e-30, -2e-30, 0, 3e-30, 1e-31, 5, 5, 5, 5, 5, -1e-3, 1e-3, 0, 0, 0}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, s := quantizeRows(tc.w, tc.rows, tc.cols)
			if len(q) != len(tc.w) || len(s) != tc.rows {
				t.Fatalf("%d codes, %d scales", len(q), len(s))
			}
			if tc.wantQ != nil && !slices.Equal(q, tc.wantQ) {
				t.Errorf("codes %v, want %v", q, tc.wantQ)
			}
			for row := 0; row < tc.rows; row++ {
				var mx float64
				for c := 0; c < tc.cols; c++ {
					mx = math.Max(mx, math.Abs(float64(tc.w[row*tc.cols+c])))
				}
				if want := float32(mx) / 127; s[row] != want {
					t.Errorf("row %d: scale %g, want %g", row, s[row], want)
				}
				for c := 0; c < tc.cols; c++ {
					i := row*tc.cols + c
					if q[i] < -127 {
						t.Fatalf("code %d below -127", q[i])
					}
					if d := math.Abs(float64(q[i])*float64(s[row]) - float64(tc.w[i])); d > float64(s[row])/2*(1+1e-6) {
						t.Fatalf("element %d: %g, dequantized %g (step %g)", i, tc.w[i], float64(q[i])*float64(s[row]), s[row])
					}
				}
			}
		})
	}
}

// tinyModel writes a random 2-layer BERT (hidden 32, 4 heads) in float32
// to dir: config.json, vocab.txt, model.safetensors with a pooler and a
// position_ids buffer like Hugging Face's checkpoints. It returns the
// weights file's bytes.
func tinyModel(t *testing.T, dir string) []byte {
	t.Helper()
	const H, I, L, P, V = 32, 64, 2, 16, 12
	vocab := []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "turn", "on", "off", "dark", "mode", "the", "wi", "##fi"}
	r := rand.New(rand.NewPCG(9, 10))
	ts := map[string]tensorData{}
	add := func(name string, scale float64, shape ...int) {
		n := 1
		for _, d := range shape {
			n *= d
		}
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(r.NormFloat64() * scale)
		}
		ts[name] = tensorData{dtype: "F32", shape: shape, data: f32bytes(v...)}
	}
	ones := func(name string, n int) {
		v := make([]float32, n)
		for i := range v {
			v[i] = 1
		}
		ts[name] = tensorData{dtype: "F32", shape: []int{n}, data: f32bytes(v...)}
	}
	add("embeddings.word_embeddings.weight", 1, V, H)
	add("embeddings.position_embeddings.weight", 0.1, P, H)
	add("embeddings.token_type_embeddings.weight", 0.1, 2, H)
	ones("embeddings.LayerNorm.weight", H)
	add("embeddings.LayerNorm.bias", 0.01, H)
	ts["embeddings.position_ids"] = tensorData{dtype: "I64", shape: []int{1, P}, data: make([]byte, 8*P)}
	for l := 0; l < L; l++ {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		for _, d := range []struct {
			name    string
			in, out int
		}{{"attention.self.query", H, H}, {"attention.self.key", H, H}, {"attention.self.value", H, H}, {"attention.output.dense", H, H}, {"intermediate.dense", H, I}, {"output.dense", I, H}} {
			add(p+d.name+".weight", 1/math.Sqrt(float64(d.in)), d.out, d.in)
			add(p+d.name+".bias", 0.01, d.out)
		}
		ones(p+"attention.output.LayerNorm.weight", H)
		add(p+"attention.output.LayerNorm.bias", 0.01, H)
		ones(p+"output.LayerNorm.weight", H)
		add(p+"output.LayerNorm.bias", 0.01, H)
	}
	add("pooler.dense.weight", 0.1, H, H)
	add("pooler.dense.bias", 0.1, H)
	b, err := writeSafetensors(ts, map[string]string{"format": "pt"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`{"vocab_size":%d,"hidden_size":%d,"num_hidden_layers":%d,"num_attention_heads":4,"intermediate_size":%d,"max_position_embeddings":%d,"type_vocab_size":2,"layer_norm_eps":1e-12,"hidden_act":"gelu"}`, V, H, L, I, P)
	for name, data := range map[string][]byte{ConfigFile: []byte(cfg), VocabFile: []byte(strings.Join(vocab, "\n") + "\n"), WeightsFile: b} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// TestQuantizeTinyModel: Quantize is deterministic, writes the tensors
// the int8 loader reads (and no others), and the int8 model's vectors are
// close to the float32 model's.
func TestQuantizeTinyModel(t *testing.T) {
	dir := t.TempDir()
	src := tinyModel(t, dir)
	q1, err := Quantize(src)
	if err != nil {
		t.Fatal(err)
	}
	q2, err := Quantize(bytes.Clone(src))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(q1, q2) {
		t.Fatal("Quantize gave different bytes for the same input")
	}
	st, err := parseSafetensors(q1)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(src)
	if st.metadata["wayfinder_quant"] != QuantFormat || st.metadata["source_sha256"] != hex.EncodeToString(sum[:]) {
		t.Errorf("metadata %v", st.metadata)
	}
	for _, name := range st.names() {
		ti := st.tensors[name]
		switch {
		case strings.HasPrefix(name, "pooler.") || strings.HasSuffix(name, "position_ids"):
			t.Errorf("%s kept: the encoder does not read it", name)
		case quantized(name, ti.Shape) != (ti.DType == "I8"):
			t.Errorf("%s is %s %v", name, ti.DType, ti.Shape)
		case ti.DType == "I8":
			if s, ok := st.tensors[name+scaleSuffix]; !ok || !slices.Equal(s.Shape, ti.Shape[:1]) {
				t.Errorf("%s: no scales of shape %v", name, ti.Shape[:1])
			}
		}
		if ti.DType == "F32" && ti.Offsets[0]%4 != 0 {
			t.Errorf("%s starts at byte %d of the data, not 4-aligned", name, ti.Offsets[0])
		}
	}
	if hl := binary.LittleEndian.Uint64(q1); hl%8 != 0 {
		t.Errorf("header of %d bytes, not padded to 8", hl)
	}
	if err := os.WriteFile(filepath.Join(dir, Int8WeightsFile), q1, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Load(dir, FP32, FP32.CacheKey())
	if err != nil {
		t.Fatal(err)
	}
	q, err := Load(dir, Int8, Int8.CacheKey())
	if err != nil {
		t.Fatal(err)
	}
	if q.Precision() != Int8 || q.EmbedModel() == f.EmbedModel() {
		t.Fatalf("int8 model: precision %s, key %q (float32 key %q)", q.Precision(), q.EmbedModel(), f.EmbedModel())
	}
	texts := []string{"turn on dark mode", "the wifi", "", "turn off the dark mode on the wifi"}
	fv, err := f.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	qv, err := q.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range texts {
		var dot float64
		for j := range fv[i] {
			dot += float64(fv[i][j]) * float64(qv[i][j])
		}
		if dot < 0.99 {
			t.Errorf("%q: cosine %.5f between the int8 and float32 vectors", texts[i], dot)
		}
	}
}

func TestQuantizeErrors(t *testing.T) {
	for name, src := range map[string][]byte{
		"not safetensors": []byte("hello"),
		"F16 weight":      makeSafetensors(`{"w.weight":{"dtype":"F16","shape":[1,1],"data_offsets":[0,2]}}`, []byte{0, 0}),
	} {
		b, err := Quantize(src)
		if name == "F16 weight" {
			// a tensor the encoder cannot read is left out, not an error
			if err != nil || bytes.Contains(b, []byte("w.weight")) {
				t.Errorf("%s: %v, kept %v", name, err, bytes.Contains(b, []byte("w.weight")))
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestLoadInt8Refused: an int8 weights file must be Quantize's: a float32
// file under that name, or another format, is refused.
func TestLoadInt8Refused(t *testing.T) {
	dir := t.TempDir()
	src := tinyModel(t, dir)
	if err := os.WriteFile(filepath.Join(dir, Int8WeightsFile), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir, Int8, "x"); err == nil || !strings.Contains(err.Error(), QuantFormat) {
		t.Fatalf("a float32 file loaded as int8: %v", err)
	}
	if _, err := Load(dir, Precision("int4"), "x"); err == nil {
		t.Fatal("an unknown precision loaded")
	}
}

// TestFindPrecision: the default precision's file when present, else the
// other; PrecisionEnv forces one.
func TestFindPrecision(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string
		env   string
		want  Precision // "" for an error
	}{
		{"both", []string{WeightsFile, Int8WeightsFile}, "", DefaultPrecision},
		{"float32 only", []string{WeightsFile}, "", FP32},
		{"int8 only", []string{Int8WeightsFile}, "", Int8},
		{"none", nil, "", ""},
		{"forced fp32", []string{WeightsFile, Int8WeightsFile}, "fp32", FP32},
		{"forced int8, absent", []string{WeightsFile}, "int8", ""},
		{"forced nonsense", []string{WeightsFile}, "fp16", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv(PrecisionEnv, tc.env)
			got, err := FindPrecision(dir)
			if got != tc.want || (err != nil) != (tc.want == "") {
				t.Fatalf("FindPrecision = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestQuantizeModel: on the fetched model, Quantize is deterministic and
// gives the int8 file scripts/fetch-model.sh put beside it (whose sha256
// the script pins).
func TestQuantizeModel(t *testing.T) {
	dir, err := FindDir()
	if err != nil {
		t.Skipf("model files absent: %v", err)
	}
	src, err := os.ReadFile(filepath.Join(dir, WeightsFile))
	if err != nil {
		t.Skipf("float32 weights absent: %v", err)
	}
	q1, err := Quantize(src)
	if err != nil {
		t.Fatal(err)
	}
	q2, err := Quantize(src)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(q1, q2) {
		t.Fatal("Quantize gave different bytes for the same input")
	}
	if len(q1)*3 > len(src) {
		t.Errorf("int8 file %d bytes, float32 %d: not under a third", len(q1), len(src))
	}
	have, err := os.ReadFile(filepath.Join(dir, Int8WeightsFile))
	if err != nil {
		t.Skipf("no %s beside the float32 file to compare with", Int8WeightsFile)
	}
	if !bytes.Equal(q1, have) {
		t.Errorf("%s differs from Quantize(%s)", Int8WeightsFile, WeightsFile)
	}
}

// FuzzQuantize: any input is quantized or refused without a panic; what is
// produced parses, and again gives the same bytes.
func FuzzQuantize(f *testing.F) {
	f.Add(makeSafetensors(`{"a.weight":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},"a.bias":{"dtype":"F32","shape":[2],"data_offsets":[16,24]}}`, f32bytes(1, -2, 3, 0, 5, 6)))
	f.Add(makeSafetensors(`{"__metadata__":{"format":"pt"},"x.weight":{"dtype":"F32","shape":[1,0],"data_offsets":[0,0]}}`, nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		q, err := Quantize(b)
		if err != nil {
			return
		}
		if _, err := parseSafetensors(q); err != nil {
			t.Fatalf("Quantize wrote a file it cannot parse: %v", err)
		}
		if q2, _ := Quantize(b); !bytes.Equal(q, q2) {
			t.Fatal("Quantize is not deterministic")
		}
	})
}

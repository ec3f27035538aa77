// Package bert runs a BERT sentence encoder on the CPU, in process, with no
// server: the sentence-transformers recipe of all-MiniLM-L6-v2 (WordPiece,
// a BERT encoder, mean pooling over the tokens, L2 normalisation), read
// from the model's own files (config.json, vocab.txt, model.safetensors in
// float32), or from the int8 weights file Quantize derives from it.
//
// The forward pass is BERT's (Devlin et al., "BERT", 2019, §3; the
// reference is Hugging Face's transformers BertModel): token + position +
// segment embeddings and LayerNorm, then per layer multi-head
// self-attention, a residual and LayerNorm, a GELU feed-forward layer, a
// residual and LayerNorm. The dense layers run in a small C kernel through
// cgo (Go has no SIMD; the C compiler vectorises it for SSE and NEON), with
// a Go fallback for CGO_ENABLED=0 builds. Golden tests check the output
// against sentence-transformers.
//
// With Int8 weights (Quantize), the dense layers multiply int8 weights (one
// scale per output row) by activations quantized to int8 per token row,
// summed exactly in int32 (qlinear.c), and the word embeddings are int8
// rows; the file is a quarter of the fp32 one.
//
// A Model is safe for concurrent use; it satisfies semantic.Embedder.
package bert

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
)

// Config is the part of a Hugging Face BERT config.json the encoder uses.
type Config struct {
	VocabSize     int     `json:"vocab_size"`
	Hidden        int     `json:"hidden_size"`
	Layers        int     `json:"num_hidden_layers"`
	Heads         int     `json:"num_attention_heads"`
	Intermediate  int     `json:"intermediate_size"`
	MaxPositions  int     `json:"max_position_embeddings"`
	TypeVocabSize int     `json:"type_vocab_size"`
	LayerNormEps  float64 `json:"layer_norm_eps"`
	HiddenAct     string  `json:"hidden_act"`
}

// MaxTokens is the longest input in tokens, [CLS] and [SEP] included;
// longer texts are cut (all-MiniLM-L6-v2's max_seq_length,
// sentence_bert_config.json).
const MaxTokens = 256

// linear is a dense layer y = x·W + b with W stored transposed,
// [in][out] row-major, so the kernel streams each weight row once per
// batch.
type linear struct {
	in, out int
	wt      []float32
	b       []float32
}

type layer struct {
	qkv     dense // query, key and value fused: out = 3·hidden
	attnOut dense
	ln1w    []float32
	ln1b    []float32
	inter   dense
	out     dense
	ln2w    []float32
	ln2b    []float32
}

// Model is a loaded encoder.
type Model struct {
	cfg    Config
	prec   Precision
	name   string
	tok    *Tokenizer
	wordE  []float32 // [vocab][hidden] (FP32)
	wordQ  []int8    // [vocab][hidden] (Int8), row v scaled by wordS[v]
	wordS  []float32
	posE   []float32 // [positions][hidden]
	typeE  []float32 // [types][hidden]; segment 0 only is used
	embLNw []float32
	embLNb []float32
	layers []layer
}

// Files the model directory holds: ConfigFile, VocabFile and the weights
// of at least one Precision (WeightsFile or Int8WeightsFile).
const (
	ConfigFile      = "config.json"
	VocabFile       = "vocab.txt"
	WeightsFile     = "model.safetensors"      // float32, the model's own file
	Int8WeightsFile = "model.int8.safetensors" // Quantize(WeightsFile)
)

// Load reads the model in dir (ConfigFile, VocabFile, and p's weights
// file). name names the model in EmbedModel (it keys cached vectors: give
// each precision its own, as p.CacheKey does). It returns an error when a
// file is missing or unreadable, the config is not a BERT with GELU, an
// int8 file is not of QuantFormat, or a tensor is missing or of the wrong
// shape.
func Load(dir string, p Precision, name string) (*Model, error) {
	wf := p.WeightsFile()
	if wf == "" {
		return nil, fmt.Errorf("bert: unknown precision %q", p)
	}
	var cfg Config
	b, err := os.ReadFile(filepath.Join(dir, ConfigFile))
	if err != nil {
		return nil, fmt.Errorf("bert: %w", err)
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return nil, fmt.Errorf("bert: %s: %w", ConfigFile, err)
	}
	if cfg.Hidden <= 0 || cfg.Heads <= 0 || cfg.Hidden%cfg.Heads != 0 || cfg.Layers <= 0 || cfg.Intermediate <= 0 || cfg.MaxPositions < 2 || cfg.TypeVocabSize < 1 {
		return nil, fmt.Errorf("bert: %s: unsupported shape %+v", ConfigFile, cfg)
	}
	if cfg.HiddenAct != "gelu" {
		return nil, fmt.Errorf("bert: %s: hidden_act %q, only gelu is supported", ConfigFile, cfg.HiddenAct)
	}
	if cfg.LayerNormEps <= 0 {
		cfg.LayerNormEps = 1e-12
	}
	vf, err := os.Open(filepath.Join(dir, VocabFile))
	if err != nil {
		return nil, fmt.Errorf("bert: %w", err)
	}
	tok, err := NewTokenizer(vf)
	vf.Close()
	if err != nil {
		return nil, err
	}
	if tok.Size() > cfg.VocabSize {
		return nil, fmt.Errorf("bert: %s has %d tokens, the model %d", VocabFile, tok.Size(), cfg.VocabSize)
	}
	raw, err := os.ReadFile(filepath.Join(dir, wf))
	if err != nil {
		return nil, fmt.Errorf("bert: %w", err)
	}
	st, err := parseSafetensors(raw)
	if err != nil {
		return nil, fmt.Errorf("bert: %s: %w", wf, err)
	}
	m := &Model{cfg: cfg, prec: p, name: name, tok: tok}
	if err := m.loadWeights(st); err != nil {
		return nil, fmt.Errorf("bert: %s: %w", wf, err)
	}
	// the file's bytes (90 MB for MiniLM) are garbage now: give the
	// memory back to the OS rather than keep it resident until the
	// scavenger gets to it
	raw, st = nil, nil
	debug.FreeOSMemory()
	return m, nil
}

// loadWeights copies the tensors out of st: for FP32 transposing the
// dense layers, for Int8 keeping their int8 rows and scales. Tensor names
// may carry a "bert." prefix (BertForX checkpoints).
func (m *Model) loadWeights(st *safetensors) error {
	c := m.cfg
	prefix := ""
	if _, ok := st.tensors["bert.embeddings.word_embeddings.weight"]; ok {
		prefix = "bert."
	}
	var err error
	get := func(name string, shape ...int) []float32 {
		if err != nil {
			return nil
		}
		var v []float32
		v, err = st.f32(prefix+name, shape...)
		return v
	}
	getQ := func(name string, rows, cols int) ([]int8, []float32) {
		if err != nil {
			return nil, nil
		}
		var q []int8
		if q, err = st.i8(prefix+name, rows, cols); err != nil {
			return nil, nil
		}
		return q, get(name+scaleSuffix, rows)
	}
	isQ := m.prec == Int8
	if isQ {
		if f := st.metadata["wayfinder_quant"]; f != QuantFormat {
			return fmt.Errorf("quantization %q, want %q (scripts/fetch-model.sh derives the file)", f, QuantFormat)
		}
	}
	// denseOf loads the dense layers names, each in → out, fused into one
	// (outputs concatenated in order) when there are several
	denseOf := func(in, out int, names ...string) dense {
		if isQ {
			parts := make([]qlinear, len(names))
			for i, n := range names {
				w, ws := getQ(n+".weight", out, in)
				parts[i] = qlinear{in: in, out: out, w: w, ws: ws, b: get(n+".bias", out)}
			}
			if len(parts) == 1 {
				return &parts[0]
			}
			f := fuseQ(parts...)
			return &f
		}
		parts := make([]linear, len(names))
		for i, n := range names {
			w := get(n+".weight", out, in)
			parts[i] = linear{in: in, out: out, wt: transpose(w, out, in), b: get(n+".bias", out)}
		}
		if len(parts) == 1 {
			return &parts[0]
		}
		f := fuse(parts...)
		return &f
	}
	H, I := c.Hidden, c.Intermediate
	if isQ {
		m.wordQ, m.wordS = getQ("embeddings.word_embeddings.weight", c.VocabSize, H)
	} else {
		m.wordE = get("embeddings.word_embeddings.weight", c.VocabSize, H)
	}
	m.posE = get("embeddings.position_embeddings.weight", c.MaxPositions, H)
	m.typeE = get("embeddings.token_type_embeddings.weight", c.TypeVocabSize, H)
	m.embLNw = get("embeddings.LayerNorm.weight", H)
	m.embLNb = get("embeddings.LayerNorm.bias", H)
	for l := 0; l < c.Layers; l++ {
		p := fmt.Sprintf("encoder.layer.%d.", l)
		ly := layer{
			qkv:     denseOf(H, H, p+"attention.self.query", p+"attention.self.key", p+"attention.self.value"),
			attnOut: denseOf(H, H, p+"attention.output.dense"),
			ln1w:    get(p+"attention.output.LayerNorm.weight", H),
			ln1b:    get(p+"attention.output.LayerNorm.bias", H),
			inter:   denseOf(H, I, p+"intermediate.dense"),
			out:     denseOf(I, H, p+"output.dense"),
			ln2w:    get(p+"output.LayerNorm.weight", H),
			ln2b:    get(p+"output.LayerNorm.bias", H),
		}
		m.layers = append(m.layers, ly)
	}
	return err
}

// transpose returns the [cols][rows] transpose of the [rows][cols] matrix w
// (nil for nil).
func transpose(w []float32, rows, cols int) []float32 {
	if w == nil {
		return nil
	}
	t := make([]float32, len(w))
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			t[c*rows+r] = w[r*cols+c]
		}
	}
	return t
}

// fuse puts dense layers with the same input side by side: their outputs
// are concatenated.
func fuse(ls ...linear) linear {
	f := linear{in: ls[0].in}
	for _, l := range ls {
		f.out += l.out
	}
	if ls[0].wt == nil {
		return f
	}
	f.wt = make([]float32, f.in*f.out)
	col := 0
	for _, l := range ls {
		if l.wt == nil || l.b == nil {
			return linear{}
		}
		for i := 0; i < f.in; i++ {
			copy(f.wt[i*f.out+col:i*f.out+col+l.out], l.wt[i*l.out:(i+1)*l.out])
		}
		f.b = append(f.b, l.b...)
		col += l.out
	}
	return f
}

// EmbedModel names the model (the cache key of its vectors).
func (m *Model) EmbedModel() string { return m.name }

// Precision is the precision of the weights loaded.
func (m *Model) Precision() Precision { return m.prec }

// Dim is the length of the vectors.
func (m *Model) Dim() int { return m.cfg.Hidden }

// Tokenizer is the model's tokenizer.
func (m *Model) Tokenizer() *Tokenizer { return m.tok }

// KnowsWord is Tokenizer().HasWord: whether word is an English word the
// model's vocabulary holds whole (daemon's spelling correction reads it
// as a dictionary).
func (m *Model) KnowsWord(word string) bool { return m.tok.HasWord(word) }

// maxBatchTokens bounds the tokens encoded together, so a long list of
// texts does not allocate activations for all of them at once.
const maxBatchTokens = 2048

// Embed returns one unit-length vector (Dim floats) per text, in order: the
// mean of the last layer's token vectors ([CLS] and [SEP] included, as
// sentence-transformers does), L2-normalised. Texts are cut to MaxTokens
// tokens. It returns ctx's error if ctx ends between batches.
func (m *Model) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	maxLen := min(MaxTokens, m.cfg.MaxPositions)
	var seqs [][]int32
	n := 0
	flush := func() {
		out = append(out, m.encode(seqs, n)...)
		seqs, n = seqs[:0], 0
	}
	for _, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ids := m.tok.Encode(t, maxLen)
		if n > 0 && n+len(ids) > maxBatchTokens {
			flush()
		}
		seqs = append(seqs, ids)
		n += len(ids)
	}
	if n > 0 {
		flush()
	}
	return out, nil
}

// encode runs the encoder on seqs (n ids in all) and pools each sequence.
// The dense layers act on every token of every sequence at once; only
// attention is per sequence, so no padding is needed.
func (m *Model) encode(seqs [][]int32, n int) [][]float32 {
	c := m.cfg
	H := c.Hidden
	h := make([]float32, n*H)
	row := 0
	for _, ids := range seqs {
		for p, id := range ids {
			dst := h[row*H : (row+1)*H]
			pe := m.posE[p*H:]
			if m.wordQ != nil {
				we, s := m.wordQ[int(id)*H:], m.wordS[id]
				for j := range dst {
					dst[j] = float32(we[j])*s + pe[j] + m.typeE[j]
				}
			} else {
				we := m.wordE[int(id)*H:]
				for j := range dst {
					dst[j] = we[j] + pe[j] + m.typeE[j]
				}
			}
			layerNorm(dst, m.embLNw, m.embLNb, c.LayerNormEps)
			row++
		}
	}
	qkv := make([]float32, n*3*H)
	ctxv := make([]float32, n*H)
	tmp := make([]float32, n*H)
	ff := make([]float32, n*c.Intermediate)
	scores := make([]float32, 0, 64)
	for li := range m.layers {
		l := &m.layers[li]
		l.qkv.apply(h, n, qkv)
		off := 0
		for _, ids := range seqs {
			scores = attention(qkv[off*3*H:], ctxv[off*H:], len(ids), H, c.Heads, scores)
			off += len(ids)
		}
		l.attnOut.apply(ctxv, n, tmp)
		addNorm(h, tmp, n, H, l.ln1w, l.ln1b, c.LayerNormEps)
		l.inter.apply(h, n, ff)
		gelu(ff)
		l.out.apply(ff, n, tmp)
		addNorm(h, tmp, n, H, l.ln2w, l.ln2b, c.LayerNormEps)
	}
	out := make([][]float32, len(seqs))
	off := 0
	for s, ids := range seqs {
		v := make([]float32, H)
		for t := range ids {
			r := h[(off+t)*H : (off+t+1)*H]
			for j := range v {
				v[j] += r[j]
			}
		}
		var ss float64
		for j := range v {
			v[j] /= float32(len(ids))
			ss += float64(v[j]) * float64(v[j])
		}
		// sentence-transformers' Normalize: v / max(‖v‖, 1e-12)
		inv := float32(1 / math.Max(math.Sqrt(ss), 1e-12))
		for j := range v {
			v[j] *= inv
		}
		out[s] = v
		off += len(ids)
	}
	return out
}

// attention is multi-head scaled dot-product self-attention (Vaswani et
// al., 2017, §3.2) over one sequence of T tokens: qkv holds each token's
// query, key and value (3·H floats), ctx receives T·H floats. scores is
// scratch space, returned for reuse.
func attention(qkv, ctx []float32, T, H, heads int, scores []float32) []float32 {
	dh := H / heads
	scale := float32(1 / math.Sqrt(float64(dh)))
	if cap(scores) < T {
		scores = make([]float32, T)
	}
	scores = scores[:T]
	for hd := 0; hd < heads; hd++ {
		qo, ko, vo := hd*dh, H+hd*dh, 2*H+hd*dh
		for i := 0; i < T; i++ {
			q := qkv[i*3*H+qo : i*3*H+qo+dh]
			mx := float32(math.Inf(-1))
			for j := 0; j < T; j++ {
				k := qkv[j*3*H+ko : j*3*H+ko+dh]
				var s float32
				for d := range q {
					s += q[d] * k[d]
				}
				s *= scale
				scores[j] = s
				mx = max(mx, s)
			}
			var sum float32
			for j := range scores {
				e := float32(math.Exp(float64(scores[j] - mx)))
				scores[j] = e
				sum += e
			}
			dst := ctx[i*H+qo : i*H+qo+dh]
			clear(dst)
			for j := 0; j < T; j++ {
				p := scores[j] / sum
				v := qkv[j*3*H+vo : j*3*H+vo+dh]
				for d := range dst {
					dst[d] += p * v[d]
				}
			}
		}
	}
	return scores
}

// addNorm sets each of the n rows of h (width H) to LayerNorm(h + d).
func addNorm(h, d []float32, n, H int, w, b []float32, eps float64) {
	for r := 0; r < n; r++ {
		x := h[r*H : (r+1)*H]
		y := d[r*H : (r+1)*H]
		for j := range x {
			x[j] += y[j]
		}
		layerNorm(x, w, b, eps)
	}
}

// layerNorm normalises x in place to zero mean and unit variance (biased,
// over x), then scales by w and shifts by b (Ba et al., 2016).
func layerNorm(x, w, b []float32, eps float64) {
	var mean float64
	for _, v := range x {
		mean += float64(v)
	}
	mean /= float64(len(x))
	var vr float64
	for _, v := range x {
		d := float64(v) - mean
		vr += d * d
	}
	vr /= float64(len(x))
	inv := 1 / math.Sqrt(vr+eps)
	for j, v := range x {
		x[j] = float32((float64(v)-mean)*inv)*w[j] + b[j]
	}
}

// gelu applies the exact GELU, x·Φ(x) = x/2·(1 + erf(x/√2)) (Hendrycks &
// Gimpel, 2016; BERT's "gelu"), in place, with erf32 for erf.
func gelu(x []float32) {
	const invSqrt2 = 1 / math.Sqrt2
	for i, v := range x {
		x[i] = 0.5 * v * (1 + erf32(v*invSqrt2))
	}
}

// erf32 is erf in float32 as the rational approximation of Eigen's
// generic_fast_erf_float (also XLA's ErfImpl32): x·P(x²)/Q(x²) with x
// clamped to [-4, 4], where |erf| is 1 to float32 precision; its error
// against math.Erf is within 5e-7, a few float32 ulps (TestErf32).
// math.Erf in float64 had been about a quarter of the time of a command.
func erf32(x float32) float32 {
	x = min(max(x, -4), 4)
	x2 := x * x
	p := float32(-2.72614225801306e-10)
	p = p*x2 + 2.77068142495902e-08
	p = p*x2 - 2.10102402082508e-06
	p = p*x2 - 5.69250639462346e-05
	p = p*x2 - 7.34990630326855e-04
	p = p*x2 - 2.95459980854025e-03
	p = p*x2 - 1.60960333262415e-02
	q := float32(-1.45660718464996e-05)
	q = q*x2 - 2.13374055278905e-04
	q = q*x2 - 1.68282697438203e-03
	q = q*x2 - 7.37332916720468e-03
	q = q*x2 - 1.42647390514189e-02
	return x * p / q
}

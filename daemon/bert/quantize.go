package bert

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strings"
)

// QuantFormat names the int8 weights format Quantize writes, in the file's
// metadata ("wayfinder_quant"); Load refuses another.
const QuantFormat = "int8-symmetric-per-row-v1"

// scaleSuffix names the F32 tensor of row scales that goes with an I8
// tensor: "X.weight" has its scales in "X.weight_scale".
const scaleSuffix = "_scale"

// Quantize turns a float32 BERT checkpoint (safetensors bytes) into the
// int8 weights file Load reads for Int8, and returns its bytes.
//
// Every rank-2 ".weight" tensor except the position and token-type
// embeddings — the dense layers (query, key, value, attention output,
// intermediate, output) and the word embeddings — becomes an I8 tensor of
// the same [rows][cols] shape with one F32 scale per row ("X.weight_scale",
// [rows]): symmetric per-output-channel quantization, scale = max|row|/127,
// q = round(w/scale) (half away from zero) in [-127, 127] (Jacob et al.,
// "Quantization and Training of Neural Networks for Efficient
// Integer-Arithmetic-Only Inference", 2018, with zero point 0; per-channel
// as in Krishnamoorthi, "Quantizing deep convolutional networks for
// efficient inference", 2018, §2). A row of zeros has scale 0. Biases,
// layer norms, the position and token-type embeddings stay F32. Tensors
// the encoder does not read (the pooler, non-F32 buffers such as
// position_ids) are left out.
//
// The output is a pure function of the input: the same bytes on every run
// and platform (float64 arithmetic, sorted header, fixed tensor order).
// It records the format and the input's sha256 in its metadata. It
// returns an error when src is not a safetensors file or a tensor it
// keeps is not F32.
func Quantize(src []byte) ([]byte, error) {
	st, err := parseSafetensors(src)
	if err != nil {
		return nil, fmt.Errorf("bert: quantize: %w", err)
	}
	out := map[string]tensorData{}
	for _, name := range st.names() {
		ti := st.tensors[name]
		if strings.HasPrefix(name, "pooler.") || strings.Contains(name, ".pooler.") || ti.DType != "F32" {
			continue
		}
		b, err := st.raw(name, "F32", ti.Shape)
		if err != nil {
			return nil, fmt.Errorf("bert: quantize: %w", err)
		}
		if !quantized(name, ti.Shape) {
			out[name] = tensorData{dtype: "F32", shape: ti.Shape, data: b}
			continue
		}
		w, err := st.f32(name, ti.Shape...)
		if err != nil {
			return nil, fmt.Errorf("bert: quantize: %w", err)
		}
		q, scales := quantizeRows(w, ti.Shape[0], ti.Shape[1])
		qb := make([]byte, len(q))
		for i, v := range q {
			qb[i] = byte(v)
		}
		sb := make([]byte, 4*len(scales))
		for i, s := range scales {
			binary.LittleEndian.PutUint32(sb[4*i:], math.Float32bits(s))
		}
		out[name] = tensorData{dtype: "I8", shape: ti.Shape, data: qb}
		out[name+scaleSuffix] = tensorData{dtype: "F32", shape: ti.Shape[:1], data: sb}
	}
	sum := sha256.Sum256(src)
	b, err := writeSafetensors(out, map[string]string{
		"format":          "pt",
		"wayfinder_quant": QuantFormat,
		"source_sha256":   hex.EncodeToString(sum[:]),
	})
	if err != nil {
		return nil, fmt.Errorf("bert: quantize: %w", err)
	}
	return b, nil
}

// quantized tells whether Quantize stores tensor name (of shape) in int8.
func quantized(name string, shape []int) bool {
	return len(shape) == 2 && strings.HasSuffix(name, ".weight") &&
		!strings.Contains(name, "position_embeddings") && !strings.Contains(name, "token_type_embeddings")
}

// quantizeRows quantizes the [rows][cols] matrix w row by row to int8:
// scale[r] = max|w[r]|/127 (as float32), q = round(w/scale[r]) with
// halves away from zero, clamped to [-127, 127]; a row of zeros gets scale
// 0 and zeros. |w - q·scale| ≤ scale/2 for every element.
func quantizeRows(w []float32, rows, cols int) ([]int8, []float32) {
	q := make([]int8, rows*cols)
	scales := make([]float32, rows)
	for r := 0; r < rows; r++ {
		row := w[r*cols : (r+1)*cols]
		var mx float32
		for _, v := range row {
			mx = max(mx, float32(math.Abs(float64(v))))
		}
		s := mx / 127
		scales[r] = s
		if s == 0 {
			continue
		}
		dst := q[r*cols : (r+1)*cols]
		for i, v := range row {
			dst[i] = int8(max(-127, min(127, math.Round(float64(v)/float64(s)))))
		}
	}
	return q, scales
}

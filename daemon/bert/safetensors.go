package bert

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
)

// tensorInfo is one entry of a safetensors header: the element type, the
// shape and the byte range [Offsets[0], Offsets[1]) in the data section.
type tensorInfo struct {
	DType   string   `json:"dtype"`
	Shape   []int    `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"`
}

// safetensors is a parsed safetensors file held in memory.
//
// Format (https://github.com/huggingface/safetensors, "Format"): an 8-byte
// little-endian header length N, N bytes of JSON mapping each tensor name to
// {dtype, shape, data_offsets} (plus an optional "__metadata__" object), then
// the data section, to which the offsets are relative. Tensors are stored
// row-major, little-endian.
type safetensors struct {
	tensors map[string]tensorInfo
	data    []byte
}

// maxHeader bounds the JSON header (the format's reference implementation
// refuses headers over 100 MB).
const maxHeader = 100 << 20

// parseSafetensors parses b. It returns an error for a truncated file, a
// header that is not a JSON object of tensor entries, or a tensor whose
// byte range lies outside the data section or does not match its shape and
// dtype.
func parseSafetensors(b []byte) (*safetensors, error) {
	if len(b) < 8 {
		return nil, errors.New("safetensors: file shorter than its 8-byte header length")
	}
	n := binary.LittleEndian.Uint64(b[:8])
	if n > maxHeader || n > uint64(len(b)-8) {
		return nil, fmt.Errorf("safetensors: header length %d does not fit a %d-byte file", n, len(b))
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b[8:8+n], &raw); err != nil {
		return nil, fmt.Errorf("safetensors: header: %w", err)
	}
	st := &safetensors{tensors: make(map[string]tensorInfo, len(raw)), data: b[8+n:]}
	for name, msg := range raw {
		if name == "__metadata__" {
			continue
		}
		var ti tensorInfo
		if err := json.Unmarshal(msg, &ti); err != nil {
			return nil, fmt.Errorf("safetensors: tensor %q: %w", name, err)
		}
		size, ok := dtypeSize[ti.DType]
		if !ok {
			return nil, fmt.Errorf("safetensors: tensor %q: unknown dtype %q", name, ti.DType)
		}
		count := int64(1)
		for _, d := range ti.Shape {
			if d < 0 || (d > 0 && count > math.MaxInt32/int64(d)) {
				return nil, fmt.Errorf("safetensors: tensor %q: bad shape %v", name, ti.Shape)
			}
			count *= int64(d)
		}
		lo, hi := ti.Offsets[0], ti.Offsets[1]
		if lo < 0 || hi < lo || hi > int64(len(st.data)) || hi-lo != count*size {
			return nil, fmt.Errorf("safetensors: tensor %q: bytes [%d, %d) for shape %v of %s in a %d-byte data section", name, lo, hi, ti.Shape, ti.DType, len(st.data))
		}
		st.tensors[name] = ti
	}
	return st, nil
}

var dtypeSize = map[string]int64{"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1, "BOOL": 1}

// names lists the tensors, sorted.
func (st *safetensors) names() []string {
	out := make([]string, 0, len(st.tensors))
	for k := range st.tensors {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// f32 returns a copy of the F32 tensor name, checking that its shape is
// shape.
func (st *safetensors) f32(name string, shape ...int) ([]float32, error) {
	ti, ok := st.tensors[name]
	if !ok {
		return nil, fmt.Errorf("safetensors: no tensor %q", name)
	}
	if ti.DType != "F32" {
		return nil, fmt.Errorf("safetensors: tensor %q is %s, want F32", name, ti.DType)
	}
	if !slices.Equal(ti.Shape, shape) {
		return nil, fmt.Errorf("safetensors: tensor %q has shape %v, want %v", name, ti.Shape, shape)
	}
	b := st.data[ti.Offsets[0]:ti.Offsets[1]]
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out, nil
}

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
	tensors  map[string]tensorInfo
	metadata map[string]string // "__metadata__" (nil if absent or not strings)
	data     []byte
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
			// the format's metadata is a string-to-string map; anything
			// else is ignored, as it was before it was read
			var md map[string]string
			if json.Unmarshal(msg, &md) == nil {
				st.metadata = md
			}
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
	b, err := st.raw(name, "F32", shape)
	if err != nil {
		return nil, err
	}
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out, nil
}

// i8 returns a copy of the I8 tensor name, checking that its shape is
// shape.
func (st *safetensors) i8(name string, shape ...int) ([]int8, error) {
	b, err := st.raw(name, "I8", shape)
	if err != nil {
		return nil, err
	}
	out := make([]int8, len(b))
	for i, v := range b {
		out[i] = int8(v)
	}
	return out, nil
}

// raw returns the bytes of tensor name, checking its dtype and shape.
func (st *safetensors) raw(name, dtype string, shape []int) ([]byte, error) {
	ti, ok := st.tensors[name]
	if !ok {
		return nil, fmt.Errorf("safetensors: no tensor %q", name)
	}
	if ti.DType != dtype {
		return nil, fmt.Errorf("safetensors: tensor %q is %s, want %s", name, ti.DType, dtype)
	}
	if !slices.Equal(ti.Shape, shape) {
		return nil, fmt.Errorf("safetensors: tensor %q has shape %v, want %v", name, ti.Shape, shape)
	}
	return st.data[ti.Offsets[0]:ti.Offsets[1]], nil
}

// tensorData is one tensor to write: its dtype ("F32" or "I8"), shape and
// little-endian bytes.
type tensorData struct {
	dtype string
	shape []int
	data  []byte
}

// writeSafetensors encodes tensors and metadata as a safetensors file
// (the format parseSafetensors reads). The bytes depend only on the
// arguments: the header's keys are sorted (encoding/json sorts map keys),
// the data section holds the F32 tensors by name and then the others by
// name, so every F32 tensor starts 4-byte aligned, and the header is padded
// with spaces to a multiple of 8 bytes, as the reference implementation
// does.
func writeSafetensors(tensors map[string]tensorData, metadata map[string]string) ([]byte, error) {
	names := make([]string, 0, len(tensors))
	for n := range tensors {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		fi, fj := tensors[names[i]].dtype == "F32", tensors[names[j]].dtype == "F32"
		if fi != fj {
			return fi
		}
		return names[i] < names[j]
	})
	header := make(map[string]any, len(tensors)+1)
	if len(metadata) > 0 {
		header["__metadata__"] = metadata
	}
	var off int64
	for _, n := range names {
		t := tensors[n]
		size, ok := dtypeSize[t.dtype]
		if !ok {
			return nil, fmt.Errorf("safetensors: tensor %q: unknown dtype %q", n, t.dtype)
		}
		count := int64(1)
		for _, d := range t.shape {
			count *= int64(d)
		}
		if count*size != int64(len(t.data)) {
			return nil, fmt.Errorf("safetensors: tensor %q: %d bytes for shape %v of %s", n, len(t.data), t.shape, t.dtype)
		}
		header[n] = tensorInfo{DType: t.dtype, Shape: t.shape, Offsets: [2]int64{off, off + int64(len(t.data))}}
		off += int64(len(t.data))
	}
	h, err := json.Marshal(header)
	if err != nil {
		return nil, fmt.Errorf("safetensors: header: %w", err)
	}
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	out := make([]byte, 8, 8+int64(len(h))+off)
	binary.LittleEndian.PutUint64(out, uint64(len(h)))
	out = append(out, h...)
	for _, n := range names {
		out = append(out, tensors[n].data...)
	}
	return out, nil
}

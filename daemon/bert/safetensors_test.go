package bert

import (
	"encoding/binary"
	"math"
	"slices"
	"testing"
)

// makeSafetensors builds a file with the given JSON header and data.
func makeSafetensors(header string, data []byte) []byte {
	b := make([]byte, 8, 8+len(header)+len(data))
	binary.LittleEndian.PutUint64(b, uint64(len(header)))
	return append(append(b, header...), data...)
}

func f32bytes(vs ...float32) []byte {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

func TestSafetensors(t *testing.T) {
	file := makeSafetensors(`{"__metadata__":{"format":"pt"},"w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]},"i":{"dtype":"I64","shape":[1],"data_offsets":[24,32]}}`,
		append(f32bytes(1, 2, 3, 4, 5, 6), make([]byte, 8)...))
	st, err := parseSafetensors(file)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.names(); !slices.Equal(got, []string{"i", "w"}) {
		t.Fatalf("names = %v", got)
	}
	w, err := st.f32("w", 2, 3)
	if err != nil || !slices.Equal(w, []float32{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("f32 = %v, %v", w, err)
	}
	for _, tc := range []struct {
		name  string
		shape []int
	}{{"w", []int{3, 2}}, {"i", []int{1}}, {"nope", nil}} {
		if _, err := st.f32(tc.name, tc.shape...); err == nil {
			t.Errorf("f32(%q, %v) accepted", tc.name, tc.shape)
		}
	}
}

func TestSafetensorsErrors(t *testing.T) {
	for name, file := range map[string][]byte{
		"short":          {1, 2},
		"header too big": makeSafetensors("", nil)[:8],
		"not json":       makeSafetensors("{", nil),
		"bad dtype":      makeSafetensors(`{"w":{"dtype":"Q4","shape":[1],"data_offsets":[0,1]}}`, []byte{0}),
		"out of range":   makeSafetensors(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, f32bytes(1)),
		"size mismatch":  makeSafetensors(`{"w":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}`, f32bytes(1, 2)),
		"negative shape": makeSafetensors(`{"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,0]}}`, nil),
	} {
		if name == "header too big" {
			binary.LittleEndian.PutUint64(file, 1<<40)
		}
		if _, err := parseSafetensors(file); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func FuzzSafetensors(f *testing.F) {
	f.Add(makeSafetensors(`{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, f32bytes(1, 2)))
	f.Add(makeSafetensors(`{"__metadata__":{},"x":{"dtype":"I8","shape":[1,1],"data_offsets":[0,1]}}`, []byte{7}))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := parseSafetensors(b)
		if err != nil {
			return
		}
		for _, n := range st.names() {
			ti := st.tensors[n]
			var err error
			switch ti.DType {
			case "F32":
				_, err = st.f32(n, ti.Shape...)
			case "I8":
				_, err = st.i8(n, ti.Shape...)
			}
			if err != nil {
				t.Fatalf("accepted tensor %q unreadable: %v", n, err)
			}
		}
	})
}

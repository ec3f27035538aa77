package main

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/bert"
)

// safetensors builds a file with one F32 [2][2] dense weight and its bias.
func safetensors() []byte {
	h := `{"d.weight":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},"d.bias":{"dtype":"F32","shape":[2],"data_offsets":[16,24]}}`
	b := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	b = append(b, h...)
	for _, v := range []float32{1, -0.5, 0.25, 2, 0.1, 0.2} {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.safetensors"), filepath.Join(dir, "out.safetensors")
	src := safetensors()
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(in, out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := bert.Quantize(src)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the written file is not bert.Quantize of the input")
	}
	if st, _ := os.Stat(out); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
	for name, path := range map[string]string{"missing input": filepath.Join(dir, "nope"), "not safetensors": out + ".x"} {
		if name == "not safetensors" {
			if err := os.WriteFile(path, []byte("junk"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := run(path, filepath.Join(dir, "bad.safetensors")); err == nil {
			t.Errorf("%s: no error", name)
		}
		if _, err := os.Stat(filepath.Join(dir, "bad.safetensors")); err == nil {
			t.Errorf("%s: an output was written", name)
		}
	}
}

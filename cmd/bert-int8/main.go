// Command bert-int8 derives the int8 weights file of the on-device sentence
// encoder (daemon/bert) from its float32 safetensors file:
//
//	bert-int8 model.safetensors model.int8.safetensors
//
// The output is bert.Quantize of the input: the same bytes on every run,
// so scripts/fetch-model.sh pins its sha256 (printed on stdout, in
// sha256sum's format). The file is written to a temporary name and renamed,
// so an interrupted run leaves no partial file. Exit status 1 on an error,
// 2 on bad usage.
package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wayfinder-agent/wayfinder/daemon/bert"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: bert-int8 IN.safetensors OUT.safetensors")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "bert-int8:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	b, err := bert.Quantize(src)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), filepath.Base(out)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return err
	}
	fmt.Printf("%x  %s\n", sha256.Sum256(b), filepath.Base(out))
	return nil
}

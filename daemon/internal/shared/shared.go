// Package shared locates the read-only shared data (../shared beside the
// repository: the DroidTask recordings and uiautomator fixtures) for tests,
// benchmarks and the CLI's defaults. Tests skip, saying why, when it is
// absent. It must never be copied into the repository.
package shared

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Dir returns the shared directory: $WAYFINDER_SHARED, else ../shared
// relative to the repository root, or "" when absent.
func Dir() string {
	if d := os.Getenv("WAYFINDER_SHARED"); d != "" {
		return d
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	root := filepath.Join(filepath.Dir(file), "..", "..", "..") // daemon/internal/shared -> repo root
	d := filepath.Join(root, "..", "shared")
	if st, err := os.Stat(d); err == nil && st.IsDir() {
		return d
	}
	return ""
}

// Path returns a path under the shared directory, skipping t when the
// shared data is absent.
func Path(t testing.TB, elem ...string) string {
	t.Helper()
	d := Dir()
	if d == "" {
		t.Skip("../shared (the DroidTask recordings and uiautomator fixtures) is not beside the repository; set WAYFINDER_SHARED to run this test")
	}
	p := filepath.Join(append([]string{d}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("shared data %s is absent: %v", p, err)
	}
	return p
}

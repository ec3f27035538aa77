package bridge

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A damaged store makes New fail with a clear error (never a panic across
// the boundary); RecoverStore moves it aside and New then starts fresh.
func TestDamagedStoreRecovery(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "knowledge.db"), []byte(strings.Repeat("not a database ", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(dir, "", nopDevice{}); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("New on a damaged store: %v", err)
	}
	out, err := RecoverStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		MovedTo string `json:"moved_to"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil || rec.MovedTo == "" {
		t.Fatalf("RecoverStore = %s, %v", out, err)
	}
	d, err := New(dir, "", nopDevice{})
	if err != nil {
		t.Fatalf("New after recovery: %v", err)
	}
	d.Close()
}

type nopDevice struct{}

func (nopDevice) Snapshot() (string, error)      { return "", nil }
func (nopDevice) Perform(string) (string, error) { return "", nil }
func (nopDevice) InstalledApps() (string, error) { return "[]", nil }

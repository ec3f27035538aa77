package bridge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/api"
	"github.com/wayfinder-agent/wayfinder/daemon/bert"
)

// TestLocalEmbedder: embed_model "local" reads the model from
// <dataDir>/models/all-MiniLM-L6-v2 and fails, saying so, without it.
func TestLocalEmbedder(t *testing.T) {
	dataDir := t.TempDir()
	if _, err := embedderIn(dataDir)(api.Settings{EmbedModel: LocalEmbedModel}); err == nil {
		t.Fatal("no error without the model files")
	}
	if emb, err := embedderIn(dataDir)(api.Settings{}); emb != nil || err != nil {
		t.Fatalf("no embed_model: %v, %v", emb, err)
	}
	src, err := bert.FindDir()
	if err != nil {
		t.Skipf("model files absent (scripts/fetch-model.sh): %v", err)
	}
	dst := filepath.Join(dataDir, "models", bert.ModelName)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	// the files the app installs: the int8 weights when setup derived
	// them, else the float32 ones
	p, err := bert.FindPrecision(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{bert.ConfigFile, bert.VocabFile, p.WeightsFile()} {
		if err := os.Symlink(filepath.Join(src, f), filepath.Join(dst, f)); err != nil {
			t.Fatal(err)
		}
	}
	emb, err := embedderIn(dataDir)(api.Settings{EmbedModel: LocalEmbedModel})
	if err != nil {
		t.Fatal(err)
	}
	if emb.EmbedModel() != p.CacheKey() {
		t.Fatalf("model %q, want %q", emb.EmbedModel(), p.CacheKey())
	}
	vs, err := emb.Embed(context.Background(), []string{"turn on dark mode"})
	if err != nil || len(vs) != 1 || len(vs[0]) != 384 {
		t.Fatalf("%d vectors, %v", len(vs), errors.Unwrap(err))
	}
}

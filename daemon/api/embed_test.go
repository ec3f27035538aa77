package api_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/api"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
)

// TestEmbedModelSetting: embed_model is a setting like model: given at
// start, changed by settings.set, shown by settings.get, persisted, and
// every change rebuilds the embedder through the factory.
func TestEmbedModelSetting(t *testing.T) {
	phone, st := demotest.New(t, true)
	eng := daemon.New(phone, st, nil, nil, daemon.Config{})
	var seen []string
	factory := func(s api.Settings) (semantic.Embedder, error) {
		seen = append(seen, s.EmbedModel)
		if s.EmbedModel == "bad" {
			return nil, errors.New("no such model")
		}
		if s.EmbedModel == "" {
			return nil, nil
		}
		return semantic.Func{Model: s.EmbedModel}, nil
	}
	ctx := context.Background()
	a, err := api.New(ctx, eng, st, graphOnly, api.Settings{EmbedModel: "e1", APIKey: "sk-never-shown"}, api.WithEmbedder(factory))
	if err != nil {
		t.Fatal(err)
	}
	out, err := a.CallJSON(ctx, []byte(`{"method":"settings.get"}`))
	if err != nil || !strings.Contains(string(out), `"embed_model":"e1"`) {
		t.Fatalf("%s %v", out, err)
	}
	if out, err = a.CallJSON(ctx, []byte(`{"method":"settings.set","params":{"embed_model":"e2"}}`)); err != nil || !strings.Contains(string(out), `"embed_model":"e2"`) {
		t.Fatalf("%s %v", out, err)
	}
	if _, err := a.CallJSON(ctx, []byte(`{"method":"settings.set","params":{"embed_model":"bad"}}`)); err == nil || !strings.Contains(err.Error(), "no such model") {
		t.Fatalf("factory error not reported: %v", err)
	}
	if v, err := st.Setting(ctx, "embed_model"); err != nil || v != "e2" {
		t.Fatalf("stored %q %v", v, err)
	}
	if strings.Join(seen, ",") != "e1,e2,bad" {
		t.Errorf("factory saw %q", seen)
	}
	// a restart reads the stored value
	a2, err := api.New(ctx, eng, st, graphOnly, api.Settings{}, api.WithEmbedder(factory))
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := a2.CallJSON(ctx, []byte(`{"method":"settings.get"}`)); !strings.Contains(string(out), `"embed_model":"e2"`) {
		t.Errorf("after restart: %s", out)
	}
}

package daemon_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/embedtest"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
)

// twoApps is the demo phone with a second launchable app it cannot run.
type twoApps struct{ *sim.Phone }

func (p twoApps) InstalledApps(ctx context.Context) ([]device.App, error) {
	apps, err := p.Phone.InstalledApps(ctx)
	return append(apps, device.App{Package: "org.example.phone", Label: "Phone"}), err
}

// TestAppIdentificationByMeaning: with an embedder, a command that names
// an app in none of its words picks the app whose label means it; without
// one the engine stays in the foreground app.
func TestAppIdentificationByMeaning(t *testing.T) {
	for _, tc := range []struct {
		name  string
		embed bool
		cmd   string
		want  string
	}{
		{"no model: the foreground app", false, "buzz grandma", "dev.wayfinder.demo.notebook"},
		{"model: the app whose label means the command", true, "buzz grandma", "org.example.phone"},
		{"model, nothing close: the foreground app", true, "what is the weather", "dev.wayfinder.demo.notebook"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			phone, st := demotest.New(t, false)
			cfg := daemon.Config{NoLearn: true, SettleTimeout: time.Millisecond}
			if tc.embed {
				cfg.Embedder = embedtest.Bag(map[string]string{"buzz": "phone"}, nil)
			}
			eng := daemon.New(twoApps{phone}, st, nil, nil, cfg)
			sub := eng.Bus().Subscribe(1024)
			defer eng.Bus().Unsubscribe(sub)
			_, _ = eng.Run(context.Background(), tc.cmd, daemon.Options{NoPlanner: true}) // no flow: fails after choosing
			for {
				select {
				case ev := <-sub.C:
					if ev.Type != event.AppChosen {
						continue
					}
					var ai event.AppInfo
					if err := json.Unmarshal(ev.Data, &ai); err != nil {
						t.Fatal(err)
					}
					if ai.Package != tc.want {
						t.Fatalf("chose %+v, want %s", ai, tc.want)
					}
					return
				case <-time.After(2 * time.Second):
					t.Fatal("no app_chosen event")
				}
			}
		})
	}
}

// TestSecretsNeverEmbedded: a password in the command reaches neither the
// embedder (which may be an endpoint) nor, through it, the store's cache —
// in app identification, guides or the graph planner.
func TestSecretsNeverEmbedded(t *testing.T) {
	phone, st := demotest.New(t, true)
	var seen []string
	rec := semantic.Func{Model: "recorder", Fn: func(ctx context.Context, texts []string) ([][]float32, error) {
		seen = append(seen, texts...)
		return embedtest.Bag(nil, nil).Embed(ctx, texts)
	}}
	eng := daemon.New(twoApps{phone}, st, graphplan.New(st), nil, daemon.Config{NoLearn: true, Embedder: rec})
	_, _ = eng.Run(context.Background(), "sign in to the notebook with password hunter2", daemon.Options{})
	if len(seen) == 0 {
		t.Fatal("nothing was embedded: the test proves nothing")
	}
	for _, s := range seen {
		if strings.Contains(strings.ToLower(s), "hunter2") {
			t.Fatalf("embedded %q", s)
		}
	}
}

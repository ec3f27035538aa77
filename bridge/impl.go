package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/api"
	"github.com/wayfinder-agent/wayfinder/daemon/bert"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/inspect"
	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/llmplan"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// recoverErr turns a panic in an exported entry point into an error (when
// errp is non-nil) and logs it with its stack, so no panic crosses the
// gomobile boundary.
func recoverErr(op string, errp *error) {
	r := recover()
	if r == nil {
		return
	}
	log.Printf("wayfinder bridge: panic in %s: %v\n%s", op, r, debug.Stack())
	if errp != nil {
		*errp = fmt.Errorf("wayfinder: internal error in %s: %v", op, r)
	}
}

// config is the JSON config given to New (docs/bridge-api.md).
type config struct {
	api.Settings
	// CallTimeoutMS bounds one Call (run/replay included); default 10 min.
	CallTimeoutMS int64 `json:"call_timeout_ms"`
}

type daemonImpl struct {
	store *knowledge.Store
	eng   *daemon.Engine
	api   *api.API
	cfg   config

	stopInspector context.CancelFunc

	mu       sync.Mutex
	listener EventListener
	sub      *event.Sub
	done     chan struct{}
}

func newDaemonImpl(dataDir, configJSON string, dev Device) (*daemonImpl, error) {
	if dev == nil {
		return nil, errors.New("wayfinder: New needs a Device")
	}
	var cfg config
	var present map[string]json.RawMessage
	if configJSON != "" {
		if err := json.Unmarshal([]byte(configJSON), &present); err != nil {
			return nil, fmt.Errorf("wayfinder: config JSON: %w", err)
		}
		if err := json.Unmarshal([]byte(configJSON), &cfg); err != nil {
			return nil, fmt.Errorf("wayfinder: config JSON: %w", err)
		}
	}
	if _, ok := present["confirm_sensitive"]; !ok {
		cfg.ConfirmSensitive = true // docs/bridge-api.md: default true
	}
	cfg.Unattended = !cfg.ConfirmSensitive
	if cfg.CallTimeoutMS <= 0 {
		cfg.CallTimeoutMS = 10 * 60 * 1000
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("wayfinder: data dir: %w", err)
	}
	ctx := context.Background()
	store, err := knowledge.Open(ctx, filepath.Join(dataDir, "knowledge.db"))
	if err != nil {
		return nil, err
	}
	eng := daemon.New(&jsonDevice{d: dev}, store, nil, nil, daemon.Config{RouteCheck: graphplan.New(store)})
	a, err := api.New(ctx, eng, store, plannerFor, cfg.Settings, api.WithEmbedder(embedderIn(dataDir)))
	if err != nil {
		store.Close()
		return nil, err
	}
	d := &daemonImpl{store: store, eng: eng, api: a, cfg: cfg}
	if cfg.DebugAddr != "" {
		d.startInspector(dataDir)
	}
	return d, nil
}

// startInspector serves the debugging websocket and page on DebugAddr
// (loopback only). Release builds leave the server out (build tag
// wayfinder_release); then this only logs that it is absent.
func (d *daemonImpl) startInspector(dataDir string) {
	token, err := inspect.LoadOrCreateToken(dataDir)
	if err != nil {
		log.Printf("wayfinder: inspector token: %v", err)
		return
	}
	srv, err := inspect.New(d.api.Live(), d.eng.Bus(), inspect.Options{Addr: d.cfg.DebugAddr, Token: token})
	if err != nil {
		log.Printf("wayfinder: inspector: %v", err)
		return
	}
	log.Printf("wayfinder: inspector on http://%s/ (token in %s, never logged)", d.cfg.DebugAddr, filepath.Join(dataDir, inspect.TokenFile))
	ctx, cancel := context.WithCancel(context.Background())
	d.stopInspector = cancel
	go func() {
		defer recoverErr("inspector", nil)
		if err := srv.ListenAndServe(ctx); err != nil && ctx.Err() == nil {
			log.Printf("wayfinder: inspector stopped: %v", err)
		}
	}()
}

// plannerFor builds the planner of the settings: the graph planner, and
// the LLM where it is unsure when an endpoint is set.
func plannerFor(s api.Settings, store *knowledge.Store) (daemon.Planner, error) {
	cfg := llm.DefaultConfig()
	cfg.BaseURL, cfg.Model, cfg.APIKey = s.BaseURL, s.Model, s.APIKey
	return llmplan.Choose(s.Planner, cfg, store, graphplan.New(store))
}

// LocalEmbedModel as embed_model selects the on-device sentence encoder
// (daemon/bert) instead of the endpoint. Its files (config.json,
// vocab.txt, and model.int8.safetensors or the float32 model.safetensors;
// int8 when both are there) are read from <dataDir>/models/<name>/,
// where the app copies them from its assets (models/all-MiniLM-L6-v2/).
const LocalEmbedModel = "local"

// embedderIn returns the flow-matching embedder factory of a daemon whose
// data directory is dataDir: the on-device model for embed_model "local",
// else the endpoint and key of the planner with embed_model; nil (lexical
// matching only) without an embedding model or an endpoint.
func embedderIn(dataDir string) api.EmbedderFactory {
	return func(s api.Settings) (semantic.Embedder, error) {
		if s.EmbedModel == LocalEmbedModel {
			m, err := bert.LoadShared(filepath.Join(dataDir, "models", bert.ModelName))
			if err != nil {
				return nil, fmt.Errorf("wayfinder: embed_model %q: %w", LocalEmbedModel, err)
			}
			return m, nil
		}
		cfg := llm.DefaultConfig()
		cfg.BaseURL, cfg.APIKey, cfg.EmbedModel = s.BaseURL, s.APIKey, s.EmbedModel
		if !cfg.EmbedEnabled() {
			return nil, nil
		}
		return llm.New(cfg), nil
	}
}

// errZero is what a Daemon made by gobind's no-argument constructor says.
var errZero = errors.New("wayfinder: this Daemon was not made by Bridge.new_; use Bridge.new_(dataDir, configJSON, device)")

func (d *daemonImpl) call(req string) (string, error) {
	if d == nil {
		return "", errZero
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(d.cfg.CallTimeoutMS)*time.Millisecond)
	defer cancel()
	out, err := d.api.CallJSON(ctx, []byte(req))
	if err != nil {
		return "", err
	}
	return string(out), nil
}

// subscribe (re)starts the goroutine that forwards events to l, in order.
func (d *daemonImpl) subscribe(l EventListener) {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.sub != nil {
		d.eng.Bus().Unsubscribe(d.sub)
		<-d.done
		d.sub = nil
	}
	d.listener = l
	if l == nil {
		return
	}
	sub := d.eng.Bus().Subscribe(4096)
	done := make(chan struct{})
	d.sub, d.done = sub, done
	go func() {
		defer close(done)
		for ev := range sub.C {
			b, err := json.Marshal(ev)
			if err != nil {
				continue
			}
			deliver(l, string(b))
		}
	}()
}

// deliver calls the Kotlin listener, surviving its exceptions.
func deliver(l EventListener, ev string) {
	defer recoverErr("OnEvent", nil)
	l.OnEvent(ev)
}

func (d *daemonImpl) close() error {
	if d == nil {
		return nil
	}
	d.eng.Cancel()
	if d.stopInspector != nil {
		d.stopInspector()
	}
	d.subscribe(nil)
	return d.store.Close()
}

// jsonDevice adapts the Kotlin Device (JSON strings) to device.Device.
type jsonDevice struct {
	d Device
}

func (j *jsonDevice) Snapshot(ctx context.Context) (s *screen.Snapshot, err error) {
	defer recoverErr("Device.Snapshot", &err)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	raw, err := j.d.Snapshot()
	if err != nil {
		return nil, fmt.Errorf("device snapshot: %w", err)
	}
	return screen.ParseJSON([]byte(raw))
}

func (j *jsonDevice) Perform(ctx context.Context, a device.Action) (res device.Result, err error) {
	defer recoverErr("Device.Perform", &err)
	if err := ctx.Err(); err != nil {
		return res, err
	}
	b, err := json.Marshal(a)
	if err != nil {
		return res, err
	}
	raw, err := j.d.Perform(string(b))
	if err != nil {
		return res, fmt.Errorf("device perform %s: %w", a, err)
	}
	if err := json.Unmarshal([]byte(raw), &res); err != nil {
		return res, fmt.Errorf("device perform %s: result is not JSON {ok, changed, message, duration_ms}: %w", a, err)
	}
	return res, nil
}

func (j *jsonDevice) InstalledApps(ctx context.Context) (apps []device.App, err error) {
	defer recoverErr("Device.InstalledApps", &err)
	raw, err := j.d.InstalledApps()
	if err != nil {
		return nil, fmt.Errorf("device installed apps: %w", err)
	}
	if err := json.Unmarshal([]byte(raw), &apps); err != nil {
		return nil, fmt.Errorf("device installed apps: want a JSON array of {package, label}: %w", err)
	}
	return apps, nil
}

func (j *jsonDevice) ForegroundApp(ctx context.Context) (string, error) {
	s, err := j.Snapshot(ctx)
	if err != nil {
		return "", err
	}
	return s.ForegroundPackage(), nil
}

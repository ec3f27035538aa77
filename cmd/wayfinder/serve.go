package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/api"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/inspect"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// cmdServe starts the inspector on the simulated phone: the first line of
// standard output is the page URL with its token. --step-delay makes every
// device action take at least that long, so a run can be watched and
// cancelled; --reset-each-run puts the phone back on the app's start
// screen before each run.
func cmdServe(ctx context.Context, args []string) error {
	fs := newFlags("serve")
	data := fs.String("data", "", "DroidTask-format directory (default: the built-in demo phone)")
	app := fs.String("app", "", "app name in the data set")
	addr := fs.String("addr", inspect.DefaultAddr, "listen address (loopback only)")
	db := fs.String("db", "", "knowledge store file (default "+defaultDB()+")")
	dataDir := fs.String("data-dir", "", "where the inspector token lives (default beside the store)")
	stepDelay := fs.Duration("step-delay", 0, "every device action takes at least this long (e.g. 400ms)")
	resetEachRun := fs.Bool("reset-each-run", false, "put the phone on the app's start screen before each run")
	noConfirm := noConfirmFlag(fs)
	lf := llmFlags(fs)
	ac, args := takeADB(args, false)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *stepDelay < 0 {
		return usageError{fmt.Sprintf("serve: --step-delay %v is negative", *stepDelay)}
	}
	if ac.On && (*resetEachRun || *data != "") {
		return usageError{"serve: --adb drives a real phone: --data and --reset-each-run are for the simulated one"}
	}
	var d *droidtask.Dataset
	var err error
	if *data == "" {
		d, err = demo.Load()
		if *app == "" {
			*app = demo.App
		}
	} else {
		d, err = loadData(*data)
	}
	if err != nil {
		return err
	}
	if *app == "" {
		return usageError{"serve: --app NAME is required (one of " + strings.Join(d.AppNames(), ", ") + ")"}
	}
	st, err := openStore(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	var phone *sim.Phone
	var dev device.Device
	where := "the simulated " + *app + " phone"
	if ac.On {
		ad, err := connectADB(ctx, ac)
		if err != nil {
			return err
		}
		dev, where = ad, "the phone "+ad.Serial()+" over adb"
	} else {
		if _, _, err := importApp(ctx, d, st, *app); err != nil {
			return err
		}
		if phone, err = sim.New(d, *app); err != nil {
			return err
		}
		dev = phone
	}
	if *stepDelay > 0 {
		dev = pacedDevice{Device: dev, min: *stepDelay}
	}
	eng := daemon.New(dev, st, nil, nil, daemon.Config{RouteCheck: graphplan.New(st)})
	cfg, err := lf.config()
	if err != nil {
		return err
	}
	planner := func(s api.Settings, store *knowledge.Store) (daemon.Planner, error) {
		return lf.plannerWith(store, graphplan.New(store))
	}
	embedder := func(s api.Settings) (semantic.Embedder, error) {
		ec, err := lf.engineConfig()
		return ec.Embedder, err
	}
	a, err := api.New(ctx, eng, st, planner, api.Settings{Planner: *lf.kind, BaseURL: cfg.BaseURL, Model: cfg.Model, EmbedModel: cfg.EmbedModel,
		Unattended: *noConfirm},
		api.WithEmbedder(embedder))
	if err != nil {
		return err
	}
	dir := *dataDir
	if dir == "" {
		dir = filepath.Dir(st.Path())
	}
	token, err := inspect.LoadOrCreateToken(dir)
	if err != nil {
		return err
	}
	var ctl inspect.Controller = a.Live()
	if *resetEachRun {
		ctl = &resettingController{Live: a.Live(), eng: eng, phone: phone}
	}
	srv, err := inspect.New(ctl, eng.Bus(), inspect.Options{Addr: *addr, Token: token})
	if err != nil {
		return err
	}
	ln, err := srv.Listen()
	if err != nil {
		return err
	}
	fmt.Println(srv.URL())
	fmt.Fprintf(os.Stderr, "inspector on %s; Ctrl-C stops it\n", where)
	return srv.Serve(ctx, ln)
}

// pacedDevice makes every action take at least min: it waits, then
// performs. A cancel during the wait returns ctx's error with the action
// not performed.
type pacedDevice struct {
	device.Device
	min time.Duration
}

func (d pacedDevice) Perform(ctx context.Context, a device.Action) (device.Result, error) {
	start := time.Now()
	t := time.NewTimer(d.min)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return device.Result{}, ctx.Err()
	case <-t.C:
	}
	res, err := d.Device.Perform(ctx, a)
	res.DurationMS = time.Since(start).Milliseconds()
	return res, err
}

// resettingController puts the simulated phone back on its app's start
// screen before each run or replay starts; a call while a run is in
// progress leaves the phone alone and gets api.ErrBusy.
type resettingController struct {
	*api.Live
	eng   *daemon.Engine
	phone *sim.Phone
	mu    sync.Mutex // holds a reset and the start of its run together
}

func (c *resettingController) Run(ctx context.Context, command string) (string, error) {
	return c.fresh(func() (string, error) { return c.Live.Run(ctx, command) })
}

func (c *resettingController) RunSteps(ctx context.Context, goal, steps string) (string, error) {
	return c.fresh(func() (string, error) { return c.Live.RunSteps(ctx, goal, steps) })
}

func (c *resettingController) Replay(ctx context.Context, flowID int64, slots map[string]string) (string, error) {
	return c.fresh(func() (string, error) { return c.Live.Replay(ctx, flowID, slots) })
}

func (c *resettingController) fresh(start func() (string, error)) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.eng.RunID() != "" {
		return "", api.ErrBusy
	}
	if err := c.phone.Reset(c.phone.App().StartState()); err != nil {
		return "", fmt.Errorf("serve: reset before the run: %w", err)
	}
	return start()
}

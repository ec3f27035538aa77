package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/api"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/inspect"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// cmdServe starts the inspector on the simulated phone: the first line of
// standard output is the page URL with its token.
func cmdServe(ctx context.Context, args []string) error {
	fs := newFlags("serve")
	data := fs.String("data", "", "DroidTask-format directory (default: the built-in demo phone)")
	app := fs.String("app", "", "app name in the data set")
	addr := fs.String("addr", inspect.DefaultAddr, "listen address (loopback only)")
	db := fs.String("db", "", "knowledge store file (default "+defaultDB()+")")
	dataDir := fs.String("data-dir", "", "where the inspector token lives (default beside the store)")
	lf := llmFlags(fs)
	if _, err := parse(fs, args); err != nil {
		return err
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
	if _, _, err := importApp(ctx, d, st, *app); err != nil {
		return err
	}
	phone, err := sim.New(d, *app)
	if err != nil {
		return err
	}
	eng := daemon.New(phone, st, nil, nil, daemon.Config{})
	cfg, err := lf.config()
	if err != nil {
		return err
	}
	planner := func(s api.Settings, store *knowledge.Store) (daemon.Planner, error) {
		return lf.plannerWith(store, graphplan.New(store))
	}
	a, err := api.New(ctx, eng, st, planner, api.Settings{Planner: *lf.kind, BaseURL: cfg.BaseURL, Model: cfg.Model})
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
	srv, err := inspect.New(a.Live(), eng.Bus(), inspect.Options{Addr: *addr, Token: token})
	if err != nil {
		return err
	}
	ln, err := srv.Listen()
	if err != nil {
		return err
	}
	fmt.Println(srv.URL())
	fmt.Fprintf(os.Stderr, "inspector on the simulated %s phone; Ctrl-C stops it\n", *app)
	return srv.Serve(ctx, ln)
}

package main

import (
	"bufio"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/eval"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// cmdBench measures the speed and memory targets and prints a table:
// graph-planner time per step over every task of the data set, flow lookup
// among 10,000 synthetic flows, and the daemon's memory with the apps
// imported. Figures depend on the machine, which the table names.
func cmdBench(ctx context.Context, args []string) error {
	fs := newFlags("bench")
	data := fs.String("data", "", "DroidTask-format directory (default: the built-in demo phone)")
	flows := fs.Int("flows", 10000, "synthetic flows for the lookup benchmark")
	lookups := fs.Int("lookups", 2000, "lookups to time")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	var d *droidtask.Dataset
	var err error
	if *data == "" {
		d, err = demo.Load()
	} else {
		d, err = loadData(*data)
	}
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "wayfinder-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	st, err := openStore(ctx, filepath.Join(dir, "bench.db"))
	if err != nil {
		return err
	}
	defer st.Close()

	fmt.Printf("machine: %s, %d cores, %s/%s, %s\n", cpuModel(), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
	rssBefore := rssKB()
	t0 := time.Now()
	for _, app := range d.AppNames() {
		if _, _, err := importApp(ctx, d, st, app); err != nil {
			return err
		}
	}
	importDur := time.Since(t0)
	gp := graphplan.New(st)
	timed := &timedPlanner{inner: gp}
	cfg := eval.Config{Data: d, Store: st, Name: "graph", Engine: daemon.Config{RouteCheck: graphplan.New(st)}, // screens kept
		Planner: func(*droidtask.Task, *sim.Phone, *knowledge.Store) (daemon.Planner, error) { return timed, nil }}
	t1 := time.Now()
	rep, err := eval.Run(ctx, cfg)
	if err != nil {
		return err
	}
	evalDur := time.Since(t1)
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rssAfter := rssKB()
	size, _ := st.Size()

	lk, err := lookupBench(*flows, *lookups)
	if err != nil {
		return err
	}
	rc, err := routeBench(ctx, st)
	if err != nil {
		return err
	}
	erows, err := embedBenchRows(ctx, d, st)
	if err != nil {
		return err
	}
	p50, p99, maxStep := timed.percentiles()
	fmt.Printf("\n%-44s %14s\n", "measure", "value")
	row := func(k string, v string) { fmt.Printf("%-44s %14s\n", k, v) }
	row(fmt.Sprintf("import %d apps (exploration graphs)", len(d.AppNames())), importDur.Round(time.Millisecond).String())
	row("knowledge store size", fmt.Sprintf("%.1f MB", float64(size)/1e6))
	row(fmt.Sprintf("graph planner steps timed (%d tasks)", rep.Tasks), fmt.Sprint(len(timed.durs)))
	row("planning time per step, p50", p50.String())
	row("planning time per step, p99", p99.String())
	row("planning time per step, max", maxStep.String())
	row("whole eval (learn + replay), all tasks", evalDur.Round(time.Millisecond).String())
	row(fmt.Sprintf("flow lookup among %d flows, p50", *flows), lk.p50.String())
	row(fmt.Sprintf("flow lookup among %d flows, p99 (goal 10ms)", *flows), lk.p99.String())
	row(fmt.Sprintf("matcher build for %d flows", *flows), lk.build.Round(time.Millisecond).String())
	row(fmt.Sprintf("route check of a flow for its command, p50 (%d)", rc.n), rc.p50.String())
	row("route check of a flow for its command, p99", rc.p99.String())
	row("flows the route check confirms for their command", fmt.Sprintf("%d/%d", rc.confirmed, rc.n))
	row("Go heap in use after import + eval", fmt.Sprintf("%.1f MB", float64(ms.HeapInuse)/1e6))
	row("resident memory (VmRSS) before import", fmt.Sprintf("%.1f MB", float64(rssBefore)/1e3))
	row("resident memory (VmRSS) after import + eval", fmt.Sprintf("%.1f MB", float64(rssAfter)/1e3))
	for _, r := range erows {
		row(r[0], r[1])
	}
	return nil
}

// timedPlanner records how long each Next takes.
type timedPlanner struct {
	inner daemon.Planner
	mu    sync.Mutex
	durs  []time.Duration
}

func (t *timedPlanner) Name() string { return t.inner.Name() }

func (t *timedPlanner) Next(ctx context.Context, st *daemon.PlanState) (daemon.Decision, error) {
	t0 := time.Now()
	d, err := t.inner.Next(ctx, st)
	t.mu.Lock()
	t.durs = append(t.durs, time.Since(t0))
	t.mu.Unlock()
	return d, err
}

func (t *timedPlanner) Check(ctx context.Context, st *daemon.PlanState, last daemon.StepRecord) (daemon.Verdict, error) {
	return t.inner.(daemon.Checker).Check(ctx, st, last)
}

func (t *timedPlanner) Observe(ctx context.Context, st *daemon.PlanState, rec daemon.StepRecord) {
	t.inner.(daemon.Learner).Observe(ctx, st, rec)
}

func (t *timedPlanner) percentiles() (p50, p99, maxD time.Duration) {
	return pct(t.durs)
}

func pct(ds []time.Duration) (p50, p99, maxD time.Duration) {
	if len(ds) == 0 {
		return
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return at(0.50).Round(time.Microsecond), at(0.99).Round(time.Microsecond), s[len(s)-1].Round(time.Microsecond)
}

type lookupResult struct{ p50, p99, build time.Duration }

type routeResult struct {
	p50, p99     time.Duration
	n, confirmed int
}

// routeBench walks the route checker (daemon.Engine.CheckRoute) over
// every saved flow of st for the command that learned it, words only
// (no embedder), and times each walk.
func routeBench(ctx context.Context, st *knowledge.Store) (routeResult, error) {
	flows, err := st.Flows(ctx, knowledge.FlowFilter{})
	if err != nil || len(flows) == 0 {
		return routeResult{}, err
	}
	eng := daemon.New(nil, st, nil, nil, daemon.Config{RouteCheck: graphplan.New(st)})
	var out routeResult
	var durs []time.Duration
	for _, f := range flows {
		t := time.Now()
		_, why, err := eng.CheckRoute(ctx, ownCommand(f), f.ID)
		if err != nil {
			return out, err
		}
		durs = append(durs, time.Since(t))
		if why == "" {
			out.confirmed++
		}
	}
	out.n = len(flows)
	out.p50, out.p99, _ = pct(durs)
	return out, nil
}

// lookupBench builds a matcher over n synthetic flows (generic phone
// intents, random objects and values) and times Rank for k commands.
func lookupBench(n, k int) (lookupResult, error) {
	rng := rand.New(rand.NewSource(1))
	verbs := []string{"create", "delete", "open", "turn on", "turn off", "send", "search", "rename", "sort", "share", "set", "add", "change", "show", "hide", "play", "call", "move", "export", "print"}
	objects := []string{"note", "alarm", "timer", "contact", "message", "photo", "album", "event", "folder", "file", "song", "playlist", "theme", "font size", "dark mode", "wifi", "bluetooth", "reminder", "label", "widget", "backup", "language", "ringtone", "wallpaper", "bookmark"}
	quals := []string{"", "in settings", "for today", "with a label", "from yesterday", "to favorites", "by name", "by date", "in descending order", "on the home screen", "as pdf", "in the sd card"}
	flows := make([]knowledge.Flow, n)
	for i := range flows {
		v, o, q := verbs[rng.Intn(len(verbs))], objects[rng.Intn(len(objects))], quals[rng.Intn(len(quals))]
		intentText := strings.TrimSpace(fmt.Sprintf("%s the %s %s", v, o, q))
		f := knowledge.Flow{ID: int64(i + 1), Package: fmt.Sprintf("com.example.app%d", i%40), Name: intentText, Intent: intentText,
			Commands: []string{intentText}, Steps: []knowledge.Step{{Action: "tap"}}}
		if rng.Intn(3) == 0 {
			f.Intent += " called {name}"
			f.Slots = []knowledge.Slot{{Name: "name", Example: "x"}}
		}
		flows[i] = f
	}
	t0 := time.Now()
	m := intent.NewMatcher(flows)
	build := time.Since(t0)
	durs := make([]time.Duration, k)
	for i := range durs {
		cmd := fmt.Sprintf("please %s my %s %s called 'item %d'", verbs[rng.Intn(len(verbs))], objects[rng.Intn(len(objects))], quals[rng.Intn(len(quals))], i)
		t := time.Now()
		m.Rank(cmd, "", 3)
		durs[i] = time.Since(t)
	}
	p50, p99, _ := pct(durs)
	return lookupResult{p50: p50, p99: p99, build: build}, nil
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

// rssKB reads the resident set size of this process (Linux), 0 elsewhere.
func rssKB() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kb)
			return kb
		}
	}
	return 0
}

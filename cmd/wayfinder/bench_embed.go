package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/bert"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// embedBenchRows measures the on-device embedding model (daemon/bert):
// load time and the resident memory it adds, the latency of embedding one
// command (each task instruction of d, alone, nothing cached), the batch
// throughput over the element labels the store holds, and how much the
// store grows when those vectors are cached. It returns no rows and no
// error when the model files are absent (scripts/fetch-model.sh).
func embedBenchRows(ctx context.Context, d *droidtask.Dataset, st *knowledge.Store) ([][2]string, error) {
	dir, err := bert.FindDir()
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: embedding rows skipped: %v\n", err)
		return nil, nil
	}
	prec, err := bert.FindPrecision(dir)
	if err != nil {
		return nil, err
	}
	// return the eval's garbage first: the difference is the model's. Twice:
	// what sync.Pools hold survives one collection (their victim cache)
	debug.FreeOSMemory()
	debug.FreeOSMemory()
	rss0 := rssKB()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	t0 := time.Now()
	m, err := bert.Load(dir, prec, prec.CacheKey())
	if err != nil {
		return nil, err
	}
	load := time.Since(t0)
	debug.FreeOSMemory()
	rss1 := rssKB()
	runtime.ReadMemStats(&ms1)
	runtime.KeepAlive(m)

	var cmds []string
	for _, t := range d.Tasks {
		cmds = append(cmds, t.Instruction)
	}
	if len(cmds) == 0 {
		// the built-in demo has no tasks: nothing like a command to time
		return [][2]string{{"embed one command", "no tasks (--data)"}}, nil
	}
	durs := make([]time.Duration, 0, len(cmds))
	for _, c := range cmds {
		t := time.Now()
		if _, err := m.Embed(ctx, []string{c}); err != nil {
			return nil, err
		}
		durs = append(durs, time.Since(t))
	}
	p50, p99, _ := pct(durs)

	var labels []string
	seen := map[string]bool{}
	apps, err := st.Apps(ctx)
	if err != nil {
		return nil, err
	}
	for _, a := range apps {
		g, err := st.Graph(ctx, a.ID)
		if err != nil {
			return nil, err
		}
		for _, e := range g.Elements {
			if e.Label != "" && !seen[e.Label] {
				seen[e.Label] = true
				labels = append(labels, e.Label)
			}
		}
	}
	rows := [][2]string{
		{"embedding model", bert.ModelName + fmt.Sprintf(" (%d-dim, %s weights)", m.Dim(), prec)},
		{"embedding model load", load.Round(time.Millisecond).String()},
		{"resident memory added by the model", fmt.Sprintf("%.1f MB", float64(rss1-rss0)/1e3)},
		{"Go heap added by the model", fmt.Sprintf("%.1f MB", (float64(ms1.HeapAlloc)-float64(ms0.HeapAlloc))/1e6)},
		{fmt.Sprintf("embed one command, p50 (%d commands)", len(cmds)), p50.Round(10 * time.Microsecond).String()},
		{"embed one command, p99 (goal 30ms on a phone)", p99.Round(10 * time.Microsecond).String()},
	}
	if len(labels) == 0 {
		return rows, nil
	}
	t1 := time.Now()
	vecs, err := m.Embed(ctx, labels)
	if err != nil {
		return nil, err
	}
	batch := time.Since(t1)
	rows = append(rows, [2]string{fmt.Sprintf("element labels embedded in one batch (%d)", len(labels)),
		fmt.Sprintf("%.0f /s", float64(len(labels))/batch.Seconds())})

	// store growth: the vectors cached like flow matching caches them
	tmp, err := os.MkdirTemp("", "wayfinder-bench-embed-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	cs, err := openStore(ctx, filepath.Join(tmp, "cache.db"))
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	before, _ := cs.Size()
	for i, l := range labels {
		if err := cs.PutEmbedding(ctx, m.EmbedModel(), l, vecs[i]); err != nil {
			return nil, err
		}
	}
	after, _ := cs.Size()
	rows = append(rows, [2]string{"store growth per cached vector", fmt.Sprintf("%.2f kB", float64(after-before)/float64(len(labels))/1e3)})
	return rows, nil
}

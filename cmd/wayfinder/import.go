package main

import (
	"context"
	"fmt"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func cmdImport(ctx context.Context, args []string) error {
	fs := newFlags("import")
	data := fs.String("data", "", "DroidTask-format directory")
	db := fs.String("db", "", "knowledge store file (default "+defaultDB()+")")
	apps := fs.String("apps", "", "comma-separated apps (default all)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	d, err := loadData(*data)
	if err != nil {
		return err
	}
	st, err := openStore(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	names := splitList(*apps)
	if len(names) == 0 {
		names = d.AppNames()
	}
	start := time.Now()
	var total knowledge.ImportStats
	var skipped, demos int
	for i, name := range names {
		t0 := time.Now()
		stats, gs, err := importApp(ctx, d, st, name)
		if err != nil {
			return err
		}
		total.Screens += stats.Screens
		total.Elements += stats.Elements
		total.Transitions += stats.Transitions
		skipped += gs.Skipped
		demos += gs.Demonstrations
		fmt.Printf("[%2d/%d] %-14s %4d states → %4d screens, %4d elements, %4d transitions (%d skipped, %d demonstration edges left out) %s\n",
			i+1, len(names), name, gs.States, stats.Screens, stats.Elements, stats.Transitions, gs.Skipped, gs.Demonstrations, since(t0))
	}
	size, _ := st.Size()
	fmt.Printf("imported %d apps: %d screens, %d elements, %d transitions (exploration edges only; %d task-demonstration edges left out, %d unplaceable) in %s\n",
		len(names), total.Screens, total.Elements, total.Transitions, demos, skipped, since(start))
	fmt.Printf("store %s: %d bytes\n", st.Path(), size)
	return nil
}

// importApp loads one app's exploration graph into the store.
func importApp(ctx context.Context, d *droidtask.Dataset, st *knowledge.Store, name string) (knowledge.ImportStats, droidtask.ImportStats, error) {
	g, gs, err := d.ExplorationGraph(name)
	if err != nil {
		return knowledge.ImportStats{}, gs, err
	}
	stats, err := st.ImportGraph(ctx, *g)
	if err != nil {
		return stats, gs, fmt.Errorf("import %s: %w", name, err)
	}
	return stats, gs, nil
}

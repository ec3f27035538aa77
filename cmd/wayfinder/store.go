package main

import (
	"context"
	"fmt"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// cmdStore: `wayfinder store check|recover --db FILE`. check opens the
// store (which runs SQLite's quick_check); recover moves a damaged store
// aside, saves the flows it can still read as a flows export, and creates
// a fresh store.
func cmdStore(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usageError{"store: check|recover --db FILE"}
	}
	verb := args[0]
	fs := newFlags("store " + verb)
	db := fs.String("db", "", "knowledge store file (default "+defaultDB()+")")
	if _, err := parse(fs, args[1:]); err != nil {
		return err
	}
	path := *db
	if path == "" {
		path = defaultDB()
	}
	switch verb {
	case "check":
		st, err := knowledge.Open(ctx, path)
		if err != nil {
			return err
		}
		defer st.Close()
		fmt.Printf("%s: ok\n", path)
		return nil
	case "recover":
		rec, err := knowledge.Recover(ctx, path)
		if err != nil {
			return err
		}
		fmt.Printf("moved the damaged store to %s\n", rec.MovedTo)
		switch {
		case rec.FlowsExport != "":
			fmt.Printf("saved %d readable flows to %s; bring them back with: wayfinder flows import --db %s %s\n",
				rec.Flows, rec.FlowsExport, path, rec.FlowsExport)
		case rec.SalvageErr != "":
			fmt.Printf("no flows could be read from it (%s); import your last flow export, if you have one\n", rec.SalvageErr)
		}
		st, err := knowledge.Open(ctx, path)
		if err != nil {
			return err
		}
		fmt.Printf("a fresh store is at %s\n", path)
		return st.Close()
	}
	return usageError{fmt.Sprintf("store: unknown verb %q (check|recover)", verb)}
}

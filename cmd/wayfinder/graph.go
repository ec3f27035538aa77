package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func cmdGraph(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "export" {
		return usageError{"graph: want `graph export --db FILE --format dot|json [--app PKG]`"}
	}
	fs := newFlags("graph export")
	db := fs.String("db", "", "knowledge store file")
	format := fs.String("format", "dot", "dot or json")
	app := fs.String("app", "", "package (default every app)")
	out := fs.String("o", "", "output file (default stdout)")
	if _, err := parse(fs, args[1:]); err != nil {
		return err
	}
	if *format != "dot" && *format != "json" {
		return usageError{"graph export: --format must be dot or json"}
	}
	st, err := openStore(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	apps, err := st.Apps(ctx)
	if err != nil {
		return err
	}
	var graphs []*knowledge.Graph
	for _, a := range apps {
		if *app != "" && a.Package != *app {
			continue
		}
		g, err := st.Graph(ctx, a.ID)
		if err != nil {
			return err
		}
		graphs = append(graphs, g)
	}
	if *app != "" && len(graphs) == 0 {
		return fmt.Errorf("graph export: no app %q in %s", *app, st.Path())
	}
	var w io.Writer = os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if *format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(graphs)
	}
	return writeDot(w, graphs)
}

// writeDot writes the UI transition graphs in Graphviz DOT: one cluster
// per app, screens as boxes labelled by their description, edges labelled
// by action and element.
func writeDot(w io.Writer, graphs []*knowledge.Graph) error {
	fmt.Fprintln(w, "digraph wayfinder {\n  rankdir=LR; node [shape=box, fontsize=10]; edge [fontsize=9];")
	for gi, g := range graphs {
		fmt.Fprintf(w, "  subgraph cluster_%d {\n    label=%q;\n", gi, g.App.Package)
		elems := map[int64]knowledge.Element{}
		for _, e := range g.Elements {
			elems[e.ID] = e
		}
		for _, s := range g.Screens {
			label := s.Description
			if label == "" {
				label = s.Fingerprint[:8]
			}
			fmt.Fprintf(w, "    s%d [label=%q];\n", s.ID, trunc(label, 60))
		}
		for _, t := range g.Transitions {
			label := t.Action
			if e, ok := elems[t.ElementID]; ok {
				label += " " + trunc(e.Label, 30)
			}
			if t.Count > 1 {
				label += fmt.Sprintf(" ×%d", t.Count)
			}
			style := ""
			if t.Source == knowledge.SourceLearned {
				style = ", color=blue"
			}
			fmt.Fprintf(w, "    s%d -> s%d [label=%q%s];\n", t.From, t.To, label, style)
		}
		fmt.Fprintln(w, "  }")
	}
	_, err := fmt.Fprintln(w, "}")
	return err
}

func trunc(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// Command exportdemo writes the built-in demo phone (daemon/sim/demo played
// by daemon/sim) as plain files, so that a device with no simulator of its
// own — the Kotlin test device of scripts/jni-roundtrip.sh — can replay it
// deterministically:
//
//	OUT/meta.tsv          key<TAB>value: start (state id), package
//	OUT/apps.json         InstalledApps as JSON [{"package","label"}]
//	OUT/states/ID.json    each state's snapshot JSON (docs/screen-schema.md)
//	OUT/transitions.tsv   from<TAB>type<TAB>node<TAB>package<TAB>to<TAB>changed
//
// Transitions are found by probing the simulator, not by reading the demo's
// edge list: on every state, every node is tapped and long-pressed, every
// editable node gets an input, and back, home, both scrolls and a launch of
// the app are tried. Each probe that the simulator accepts (Result.OK) is
// one row; node is the snapshot node id the action names (-1 for none),
// package is set for launch only. Everything else is unexplored.
//
// Usage: go run ./testdata/jni/exportdemo -out DIR
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo"
)

func main() {
	out := flag.String("out", "", "output directory (created)")
	flag.Parse()
	if *out == "" {
		log.Fatal("exportdemo: -out is required")
	}
	if err := export(*out); err != nil {
		log.Fatalf("exportdemo: %v", err)
	}
}

func export(out string) error {
	ctx := context.Background()
	data, err := demo.Load()
	if err != nil {
		return err
	}
	phone, err := sim.New(data, demo.App)
	if err != nil {
		return err
	}
	start := phone.State()
	states, err := data.StateIDs(demo.App)
	if err != nil {
		return err
	}
	slices.Sort(states)
	if err := os.MkdirAll(filepath.Join(out, "states"), 0o755); err != nil {
		return err
	}
	apps, err := phone.InstalledApps(ctx)
	if err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(out, "apps.json"), apps); err != nil {
		return err
	}
	meta := fmt.Sprintf("start\t%s\npackage\t%s\n", start, demo.Package)
	if err := os.WriteFile(filepath.Join(out, "meta.tsv"), []byte(meta), 0o644); err != nil {
		return err
	}

	var rows strings.Builder
	rows.WriteString("# from\ttype\tnode\tpackage\tto\tchanged\n")
	n := 0
	for _, st := range states {
		if strings.ContainsAny(st, "\t\n/") {
			return fmt.Errorf("state id %q cannot be a file name or a TSV field", st)
		}
		if err := phone.Reset(st); err != nil {
			return err
		}
		snap, err := phone.Snapshot(ctx)
		if err != nil {
			return err
		}
		raw, err := json.Marshal(snap)
		if err != nil {
			return err
		}
		if err := sameIDs(snap, raw); err != nil {
			return fmt.Errorf("state %s: %w", st, err)
		}
		if err := os.WriteFile(filepath.Join(out, "states", st+".json"), raw, 0o644); err != nil {
			return err
		}
		for _, a := range probes(snap) {
			if err := phone.Reset(st); err != nil {
				return err
			}
			res, err := phone.Perform(ctx, a)
			if err != nil {
				return fmt.Errorf("state %s, %s: %w", st, a, err)
			}
			if !res.OK {
				continue
			}
			fmt.Fprintf(&rows, "%s\t%s\t%d\t%s\t%s\t%t\n", st, a.Type, a.Node, a.Package, phone.State(), res.Changed)
			n++
		}
	}
	if err := os.WriteFile(filepath.Join(out, "transitions.tsv"), []byte(rows.String()), 0o644); err != nil {
		return err
	}
	fmt.Printf("exportdemo: %d states, %d transitions, start %s -> %s\n", len(states), n, start, out)
	return nil
}

// probes lists the actions tried on one screen.
func probes(s *screen.Snapshot) []device.Action {
	var as []device.Action
	for _, n := range s.Nodes {
		as = append(as,
			device.Action{Type: device.Tap, Node: n.ID, Bounds: n.Bounds},
			device.Action{Type: device.LongPress, Node: n.ID, Bounds: n.Bounds})
		if n.Editable {
			as = append(as, device.Action{Type: device.Input, Node: n.ID, Bounds: n.Bounds, Text: "probe"})
		}
	}
	return append(as,
		device.Action{Type: device.Back, Node: -1},
		device.Action{Type: device.Home, Node: -1},
		device.Action{Type: device.Scroll, Node: -1, Direction: device.Forward},
		device.Action{Type: device.Scroll, Node: -1, Direction: device.Backward},
		device.Action{Type: device.Launch, Node: -1, Package: demo.Package})
}

// sameIDs checks that the daemon, parsing the exported JSON, sees the node
// ids the transitions name (ParseJSON renumbers in document order).
func sameIDs(s *screen.Snapshot, raw []byte) error {
	back, err := screen.ParseJSON(raw)
	if err != nil {
		return err
	}
	if len(back.Nodes) != len(s.Nodes) {
		return fmt.Errorf("%d nodes exported, %d parsed back", len(s.Nodes), len(back.Nodes))
	}
	for i := range s.Nodes {
		a, b := s.Nodes[i], back.Nodes[i]
		if a.ID != b.ID || a.Class != b.Class || a.Bounds != b.Bounds {
			return fmt.Errorf("node %d (%s) parses back as %d (%s)", a.ID, a.Class, b.ID, b.Class)
		}
	}
	return nil
}

func writeJSON(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

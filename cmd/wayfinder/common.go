package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// newFlags makes a flag set that reports errors instead of exiting.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse parses args, allowing flags after positional arguments.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usageError{fmt.Sprintf("%s: %v", fs.Name(), err)}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// defaultDB is where the CLI keeps its knowledge when --db is not given.
func defaultDB() string {
	if d := os.Getenv("WAYFINDER_DB"); d != "" {
		return d
	}
	base := os.Getenv("XDG_DATA_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "wayfinder.db"
		}
		base = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(base, "wayfinder", "knowledge.db")
}

func openStore(ctx context.Context, path string) (*knowledge.Store, error) {
	if path == "" {
		path = defaultDB()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return knowledge.Open(ctx, path)
}

// storeOrTemp opens the store at path or, when path is "", a fresh one in
// a new temporary directory; close removes that directory after closing
// the store. It returns the path used.
func storeOrTemp(ctx context.Context, path, prefix string) (st *knowledge.Store, used string, close func(), err error) {
	cleanup := func() {}
	if path == "" {
		dir, err := os.MkdirTemp("", prefix)
		if err != nil {
			return nil, "", nil, err
		}
		cleanup = func() { os.RemoveAll(dir) }
		path = filepath.Join(dir, strings.TrimSuffix(strings.TrimPrefix(prefix, "wayfinder-"), "-")+".db")
	}
	st, err = openStore(ctx, path)
	if err != nil {
		cleanup()
		return nil, "", nil, err
	}
	return st, path, func() { st.Close(); cleanup() }, nil
}

func loadData(dir string) (*droidtask.Dataset, error) {
	if dir == "" {
		return nil, usageError{"--data DIR is required (a DroidTask-format directory, e.g. ../shared/droidtask)"}
	}
	return droidtask.Load(dir)
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// livePrinter prints a bus's events live, one line each. Finished
// receives once per run_finished event, after its line was printed, so a
// caller can wait for a run's output before saying more.
type livePrinter struct {
	Finished chan struct{}
	done     chan struct{}
}

func printer(w io.Writer, sub *event.Sub) *livePrinter {
	p := &livePrinter{Finished: make(chan struct{}, 64), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		for ev := range sub.C {
			printEvent(w, ev)
			if ev.Type == event.RunFinished {
				p.Finished <- struct{}{}
			}
		}
	}()
	return p
}

// Wait blocks until the subscription is closed and everything printed.
func (p *livePrinter) Wait() { <-p.done }

func printEvent(w io.Writer, ev event.Event) {
	switch ev.Type {
	case event.RunStarted:
		var d event.RunInfo
		decode(ev, &d)
		fmt.Fprintf(w, "▶ %q  (planner: %s)\n", d.Command, d.Planner)
	case event.AppChosen:
		var d event.AppInfo
		decode(ev, &d)
		fmt.Fprintf(w, "  app      %s (%s)\n", d.Package, d.Reason)
	case event.FlowMatched:
		var d event.FlowMatch
		decode(ev, &d)
		switch {
		case d.Replay && d.Anchor != "":
			fmt.Fprintf(w, "  flow     replaying %q (the command names %s) slots=%v — no model call\n", d.Name, d.Anchor, d.Slots)
		case d.Replay && d.Score < d.Threshold:
			fmt.Fprintf(w, "  flow     replaying %q (score %.2f < %.2f, chosen or promoted) slots=%v — no model call\n", d.Name, d.Score, d.Threshold, d.Slots)
		case d.Replay:
			fmt.Fprintf(w, "  flow     replaying %q (score %.2f ≥ %.2f) slots=%v — no model call\n", d.Name, d.Score, d.Threshold, d.Slots)
		case d.FlowID != 0 && d.Score >= d.Threshold:
			// above the threshold, yet held back: ambiguous, asked about,
			// or refused by a check (the info lines say which)
			fmt.Fprintf(w, "  flow     closest %q scores %.2f ≥ %.2f but is not replayed: planning instead\n", d.Name, d.Score, d.Threshold)
		case d.FlowID != 0:
			fmt.Fprintf(w, "  flow     closest %q scores %.2f < %.2f: planning instead\n", d.Name, d.Score, d.Threshold)
		default:
			fmt.Fprintf(w, "  flow     no saved flow yet: planning\n")
		}
	case event.Snapshot:
		var d event.ScreenInfo
		decode(ev, &d)
		fmt.Fprintf(w, "  screen   %s  %s  %d elements\n", d.Fingerprint[:8], shortActivity(d.Activity), len(d.Elements))
	case event.Action:
		var d event.ActionInfo
		decode(ev, &d)
		status := "ok"
		if !d.OK {
			status = "no effect: " + d.Message
		}
		what := d.Action
		if d.Label != "" {
			what += fmt.Sprintf(" %q", d.Label)
		}
		if d.Text != "" {
			what += fmt.Sprintf(" ← %q", d.Text)
		}
		fmt.Fprintf(w, "  step %-3d [%-8s] %-40s %4d ms %5d tok  %s — %s\n", d.Step, d.Mode, what, d.MS, d.Tokens, status, d.Reason)
	case event.LLMReply:
		var d event.ReplyInfo
		decode(ev, &d)
		if d.Error != "" {
			fmt.Fprintf(w, "  llm      error after %d ms: %s\n", d.MS, d.Error)
		}
	case event.FlowSaved:
		var d event.FlowInfo
		decode(ev, &d)
		fmt.Fprintf(w, "  learned  flow #%d %q: %q, %d steps, slots %v\n", d.FlowID, d.Name, d.Intent, d.Steps, d.Slots)
	case event.FlowRepaired:
		var d event.FlowInfo
		decode(ev, &d)
		fmt.Fprintf(w, "  repaired flow #%d %q, now %d steps\n", d.FlowID, d.Name, d.Steps)
	case event.Ask:
		var d event.AskInfo
		decode(ev, &d)
		fmt.Fprintf(w, "  ask      %s\n", d.Question)
	case event.Log:
		var d event.LogInfo
		decode(ev, &d)
		fmt.Fprintf(w, "  %-8s %s\n", d.Level, d.Text)
	case event.RunFinished:
		var d event.RunResult
		decode(ev, &d)
		msg := ""
		if d.Error != "" {
			msg = ": " + d.Error
		}
		fmt.Fprintf(w, "■ %s%s — %s, %d steps, %d LLM calls, %d tokens, %d ms\n", d.Outcome, msg, d.Mode, d.Steps, d.LLMCalls, d.Tokens, d.MS)
	}
}

func shortActivity(a string) string {
	if i := strings.LastIndexByte(a, '.'); i >= 0 {
		return a[i+1:]
	}
	return a
}

func decode(ev event.Event, v any) {
	_ = json.Unmarshal(ev.Data, v)
}

func since(t time.Time) string { return time.Since(t).Round(time.Millisecond).String() }

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/adb"
	"github.com/wayfinder-agent/wayfinder/daemon/adb/adbtest"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

func TestMain(m *testing.M) {
	adbtest.Serve()
	os.Exit(m.Run())
}

func TestTakeADB(t *testing.T) {
	for _, c := range []struct {
		args       []string
		positional bool
		want       adbChoice
		rest       []string
	}{
		{[]string{"--adb", "open notes"}, true, adbChoice{On: true}, []string{"open notes"}},
		{[]string{"--adb", "R58M", "open notes"}, true, adbChoice{On: true, Serial: "R58M"}, []string{"open notes"}},
		{[]string{"--adb=emulator-5554", "--db", "k.db", "x"}, true, adbChoice{On: true, Serial: "emulator-5554"}, []string{"--db", "k.db", "x"}},
		{[]string{"--adb", "192.168.1.5:5555"}, false, adbChoice{On: true, Serial: "192.168.1.5:5555"}, nil},
		{[]string{"--adb", "--addr", "127.0.0.1:7777"}, false, adbChoice{On: true}, []string{"--addr", "127.0.0.1:7777"}},
		{[]string{"--db", "k.db", "hello"}, true, adbChoice{}, []string{"--db", "k.db", "hello"}},
	} {
		got, rest := takeADB(c.args, c.positional)
		if got != c.want || !slices.Equal(rest, c.rest) {
			t.Errorf("takeADB(%q) = %+v %q, want %+v %q", c.args, got, rest, c.want, c.rest)
		}
	}
}

// buttonOnFirstScreen picks a recorded trace and a button of its first
// screen whose label is one plain word, not a navigation control (those
// never complete a command).
func buttonOnFirstScreen(t *testing.T) (string, string, screen.Rect) {
	t.Helper()
	dir := os.Getenv("WAYFINDER_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	dir = filepath.Join(dir, "fixtures", "uiautomator")
	traces, _ := filepath.Glob(filepath.Join(dir, "trace_*"))
	if len(traces) == 0 {
		t.Skipf("no traces in %s", dir)
	}
	tr := traces[0]
	raw, err := os.ReadFile(filepath.Join(tr, "0.xml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := screen.ParseUIAutomator(raw)
	if err != nil {
		t.Fatal(err)
	}
	var label string
	var box screen.Rect
	for _, e := range screen.Elements(s) {
		// one plain word, not a navigation control (those never complete a command)
		w := strings.ToLower(e.Label)
		if e.Kind == screen.KindButton && len(strings.Fields(w)) == 1 && len(w) > 3 &&
			!slices.Contains([]string{"navigate", "back", "more", "menu", "search", "options"}, w) {
			label, box = e.Label, e.Bounds
			break
		}
	}
	if label == "" {
		t.Skip("no labelled button on the first screen of " + tr)
	}
	return tr, label, box
}

// TestRunOverADB drives `wayfinder run --adb SERIAL "…"` through the fake
// adb serving a recorded trace: the command names a button of the first
// screen, the graph planner must tap it (an `input tap` at its centre) and
// the run must end in success with a learned flow.
func TestRunOverADB(t *testing.T) {
	tr, label, box := buttonOnFirstScreen(t)
	fake := adbtest.Install(t, tr, adbtest.ModeOK)
	db := filepath.Join(t.TempDir(), "k.db")
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("WAYFINDER_MODEL", "")
	err := run(context.Background(), []string{"run", "--adb", adbtest.Serial, "--db", db, "--planner", "graph", "tap " + label})
	if err != nil {
		t.Fatalf("run over adb: %v\nshell: %q", err, fake.Shell())
	}
	cx, cy := (box[0]+box[2])/2, (box[1]+box[3])/2
	tapped := false
	for _, c := range fake.Shell() {
		if len(c) == 4 && c[0] == "input" && c[1] == "tap" {
			tapped = tapped || (c[2] == strconv.Itoa(cx) && c[3] == strconv.Itoa(cy))
		}
	}
	if !tapped {
		t.Errorf("no tap at %q's centre (%d,%d); shell commands: %q", label, cx, cy, fake.Shell())
	}
	// a missing device is a clear error, not a hang or a panic
	fake.SetMode(adbtest.ModeNoDevice)
	err = run(context.Background(), []string{"run", "--adb", "--db", db, "tap " + label})
	if !adb.IsKind(err, adb.KindNoDevice) {
		t.Errorf("no device: got %v", err)
	}
}

// TestEvalOverADB runs `wayfinder eval --adb --commands FILE` on the fake
// phone: the command is learned with the graph planner, then replayed from
// HOME with the planner off and no model call.
func TestEvalOverADB(t *testing.T) {
	tr, label, _ := buttonOnFirstScreen(t)
	act, err := os.ReadFile(filepath.Join(tr, "0.activity"))
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, _ := strings.Cut(strings.TrimSpace(string(act)), "/")
	dir := t.TempDir()
	cmds := filepath.Join(dir, "cmds.jsonl")
	line, _ := json.Marshal(map[string]string{"app": pkg, "command": "tap " + label})
	if err := os.WriteFile(cmds, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	adbtest.Install(t, tr, adbtest.ModeOK)
	t.Setenv("OPENAI_BASE_URL", "")
	t.Setenv("WAYFINDER_MODEL", "")
	rep := filepath.Join(dir, "rep.json")
	if err := run(context.Background(), []string{"eval", "--adb", "--planner", "graph", "--commands", cmds, "--report", rep, "-q"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Cases, Done, Replayed, LLMCalls int }
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Cases != 1 || r.Done != 1 || r.Replayed != 1 || r.LLMCalls != 0 {
		t.Fatalf("report %s", b)
	}
}

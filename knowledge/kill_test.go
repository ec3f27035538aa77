package knowledge

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Environment of the re-executed test binary in TestKillDuringWrite.
const (
	killChildDBEnv   = "WAYFINDER_KNOWLEDGE_KILL_DB"   // database path; set: act as the child
	killChildIterEnv = "WAYFINDER_KNOWLEDGE_KILL_ITER" // iteration number, for unique names
	killChildSeedEnv = "WAYFINDER_KNOWLEDGE_KILL_SEED"
	// testExecEnv names a command prefix (split on spaces) that runs a
	// binary of the test's GOARCH, e.g. "qemu-aarch64-static" when the
	// tests run under qemu-user without binfmt_misc
	// (scripts/arm64-test.sh sets it).
	testExecEnv = "WAYFINDER_TEST_EXEC"
)

// TestHelperProcess is the child of TestKillDuringWrite: it writes flows
// and graphs until it is killed, printing one line per committed write:
//
//	saved ID NAME | updated ID NAME | graph PACKAGE
func TestHelperProcess(t *testing.T) {
	path := os.Getenv(killChildDBEnv)
	if path == "" {
		t.Skip("child process of TestKillDuringWrite")
	}
	iter, _ := strconv.Atoi(os.Getenv(killChildIterEnv))
	seed, _ := strconv.ParseUint(os.Getenv(killChildSeedEnv), 10, 64)
	os.Exit(killChild(path, iter, seed))
}

func killChild(path string, iter int, seed uint64) int {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, uint64(iter)))
	s, err := Open(ctx, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child open:", err)
		return 2
	}
	out := os.Stdout // unbuffered: a printed line is a committed write
	deadline := time.Now().Add(2 * time.Minute)
	var last *Flow
	for i := 0; time.Now().Before(deadline); i++ {
		op := rng.IntN(14)
		switch {
		case op == 0 && i > 0:
			// a checkpoint copies the WAL into the database file: kills
			// land in it too
			if _, err := s.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
				fmt.Fprintln(os.Stderr, "child checkpoint:", err)
				return 2
			}
		case op <= 2:
			n := 5 + rng.IntN(60)
			g := localGraph(fmt.Sprintf("graph.it%d.op%d.n%d", iter, i, n), n, 1+rng.IntN(4))
			if _, err := s.ImportGraph(ctx, g); err != nil {
				fmt.Fprintln(os.Stderr, "child import:", err)
				return 2
			}
			fmt.Fprintf(out, "graph %s\n", g.App.Package)
		case op <= 5 && last != nil:
			// the same flow id as the save it updates, which may be
			// several operations back (a checkpoint or an import between)
			id, _ := killFlowVersion(last.Name)
			f := killFlow(rng, id, 2)
			f.ID = last.ID
			if err := s.UpdateFlow(ctx, &f); err != nil {
				fmt.Fprintln(os.Stderr, "child update:", err)
				return 2
			}
			fmt.Fprintf(out, "updated %d %s\n", f.ID, f.Name)
			last = nil
		default:
			f := killFlow(rng, fmt.Sprintf("it%d-%d", iter, i), 1)
			if err := s.SaveFlow(ctx, &f); err != nil {
				fmt.Fprintln(os.Stderr, "child save:", err)
				return 2
			}
			fmt.Fprintf(out, "saved %d %s\n", f.ID, f.Name)
			last = &f
		}
	}
	return 3 // never killed
}

// killFlow makes a flow whose name records its shape and version:
// "ID vV steps=N slots=M cmds=K"; every part carries the version.
// One flow in ten is large (a long transaction).
func killFlow(rng *rand.Rand, id string, version int) Flow {
	n, m, k := 1+rng.IntN(8), rng.IntN(4), 1+rng.IntN(3)
	if rng.IntN(10) == 0 {
		n = 200 + rng.IntN(200)
	}
	f := sampleFlow(fmt.Sprintf("com.example.kill%d", rng.IntN(3)), "", n, m)
	f.Name = fmt.Sprintf("%s v%d steps=%d slots=%d cmds=%d", id, version, n, m, k)
	for i := range f.Steps {
		f.Steps[i].Comment = fmt.Sprintf("v%d #%d", version, i)
	}
	for i := range f.Slots {
		f.Slots[i].Example = fmt.Sprintf("v%d", version)
	}
	f.Commands = nil
	for i := 0; i < k; i++ {
		f.Commands = append(f.Commands, fmt.Sprintf("v%d command %d", version, i))
	}
	return f
}

// killFlowVersion returns the id token and version of a killFlow name.
func killFlowVersion(name string) (string, int) {
	var id string
	var v int
	fmt.Sscanf(name, "%s v%d", &id, &v)
	return id, v
}

// checkKillFlow checks that f has exactly the parts its name promises.
func checkKillFlow(f Flow) error {
	var id string
	var v, n, m, k int
	fields := strings.Fields(f.Name)
	if len(fields) != 5 {
		return fmt.Errorf("flow %d: name %q", f.ID, f.Name)
	}
	id = fields[0]
	if _, err := fmt.Sscanf(strings.Join(fields[1:], " "), "v%d steps=%d slots=%d cmds=%d", &v, &n, &m, &k); err != nil {
		return fmt.Errorf("flow %d (%s): name %q: %v", f.ID, id, f.Name, err)
	}
	if len(f.Steps) != n || len(f.Slots) != m || len(f.Commands) != k {
		return fmt.Errorf("flow %d %q is half-written: %d steps, %d slots, %d commands", f.ID, f.Name, len(f.Steps), len(f.Slots), len(f.Commands))
	}
	tag := fmt.Sprintf("v%d", v)
	for i, st := range f.Steps {
		if st.Index != i || st.Comment != fmt.Sprintf("%s #%d", tag, i) {
			return fmt.Errorf("flow %d %q: step %d is %d %q (parts of two versions)", f.ID, f.Name, i, st.Index, st.Comment)
		}
	}
	for _, sl := range f.Slots {
		if sl.Example != tag {
			return fmt.Errorf("flow %d %q: slot of %s", f.ID, f.Name, sl.Example)
		}
	}
	for _, c := range f.Commands {
		if !strings.HasPrefix(c, tag+" ") {
			return fmt.Errorf("flow %d %q: command %q", f.ID, f.Name, c)
		}
	}
	return nil
}

// TestKillDuringWrite SIGKILLs a child process that is writing flows and
// graphs, many times, then checks that the database is intact, that no
// flow or graph is half-written, that every write the child reported as
// committed is there, and that the database still takes writes.
func TestKillDuringWrite(t *testing.T) {
	if os.Getenv(killChildDBEnv) != "" {
		t.Skip("in the child")
	}
	wrapper := strings.Fields(os.Getenv(testExecEnv))
	iterations := 30
	if len(wrapper) > 0 {
		// emulated (qemu): each start-up of the child costs seconds
		iterations = 15
	}
	if testing.Short() {
		iterations = 8
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv(killChildSeedEnv); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (set %s to repeat)", seed, killChildSeedEnv)
	rng := rand.New(rand.NewPCG(seed, 0))
	path := filepath.Join(t.TempDir(), "kill.db")

	savedName := map[int64]string{} // acknowledged flows: id -> name they must have
	var graphs []string             // acknowledged graph imports
	kills, midWrite := 0, 0
	var startup time.Duration // total time from start to the first write
	for it := 0; it < iterations; it++ {
		args := append(append([]string{}, wrapper...), os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = append(os.Environ(), killChildDBEnv+"="+path, killChildIterEnv+"="+strconv.Itoa(it),
			killChildSeedEnv+"="+strconv.FormatUint(seed, 10))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 1024)
		done := make(chan []string)
		go func() {
			var all []string
			sc := bufio.NewScanner(stdout)
			first := true
			for sc.Scan() {
				all = append(all, sc.Text())
				if first {
					lines <- sc.Text()
					first = false
				}
			}
			close(lines)
			done <- all
		}()
		if it%5 == 0 {
			// kill early: during start-up, Open or migration
			time.Sleep(time.Duration(rng.IntN(30)) * time.Millisecond)
		} else {
			// kill while writing: after the first committed write
			started := time.Now()
			select {
			case <-lines:
			case <-time.After(60 * time.Second):
				cmd.Process.Kill()
				<-done
				cmd.Wait()
				t.Fatalf("iteration %d: child wrote nothing in 60 s; stderr:\n%s", it, stderr.String())
			}
			// up to 80 ms, or as long as start-up took on a slow machine
			// (qemu), so that several writes are under way
			startup += time.Since(started)
			window := min(max(80*time.Millisecond, time.Since(started)), 400*time.Millisecond)
			time.Sleep(time.Duration(rng.Int64N(int64(window))))
			midWrite++
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatalf("iteration %d: kill: %v", it, err)
		}
		all := <-done
		err = cmd.Wait()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != -1 {
			t.Fatalf("iteration %d: child ended by itself (%v) instead of by SIGKILL; stderr:\n%s", it, err, stderr.String())
		}
		kills++
		for _, l := range all {
			f := strings.SplitN(l, " ", 3)
			switch {
			case len(f) == 3 && (f[0] == "saved" || f[0] == "updated"):
				id, err := strconv.ParseInt(f[1], 10, 64)
				if err != nil {
					t.Fatalf("child line %q", l)
				}
				savedName[id] = f[2]
			case len(f) == 2 && f[0] == "graph":
				graphs = append(graphs, f[1])
			default:
				t.Fatalf("child line %q", l)
			}
		}
	}
	t.Logf("%d kills (%d mid-write), %d acknowledged flows, %d graphs; child start-up to first write %v on average",
		kills, midWrite, len(savedName), len(graphs), startup/time.Duration(max(midWrite, 1)))
	if len(savedName) == 0 {
		t.Fatal("the child committed nothing: the test tested nothing")
	}

	ctx := context.Background()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var ic []string
	rows, err := s.db.Query(`PRAGMA integrity_check`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var r string
		rows.Scan(&r)
		ic = append(ic, r)
	}
	rows.Close()
	if len(ic) != 1 || ic[0] != "ok" {
		t.Fatalf("integrity_check: %q", ic)
	}
	var fkRows int
	if err := s.db.QueryRow(`SELECT count(*) FROM pragma_foreign_key_check`).Scan(&fkRows); err != nil || fkRows != 0 {
		t.Fatalf("foreign_key_check: %d rows, %v", fkRows, err)
	}

	flows, err := s.Flows(ctx, FlowFilter{})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[int64]Flow{}
	for _, f := range flows {
		if err := checkKillFlow(f); err != nil {
			t.Error(err)
		}
		byID[f.ID] = f
	}
	for id, name := range savedName {
		f, ok := byID[id]
		if !ok {
			t.Errorf("acknowledged flow %d %q lost", id, name)
			continue
		}
		// the flow is as acknowledged, or a later update of it whose
		// acknowledgement the kill cut off
		ackID, ackV := killFlowVersion(name)
		gotID, gotV := killFlowVersion(f.Name)
		if f.Name != name && (gotID != ackID || gotV <= ackV) {
			t.Errorf("flow %d is %q, acknowledged as %q", id, f.Name, name)
		}
	}
	// graphs: an app exists only with all its screens, elements and edges
	apps, err := s.Apps(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ackGraph := map[string]bool{}
	for _, p := range graphs {
		ackGraph[p] = true
	}
	for _, a := range apps {
		if !strings.HasPrefix(a.Package, "graph.") {
			continue
		}
		var n int
		fmt.Sscanf(a.Package[strings.LastIndex(a.Package, ".n")+2:], "%d", &n)
		g, err := s.Graph(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Screens) != n || len(g.Transitions) != 2*n || len(g.Elements) < n {
			t.Errorf("graph %s half-written: %d screens, %d elements, %d transitions", a.Package, len(g.Screens), len(g.Elements), len(g.Transitions))
		}
		delete(ackGraph, a.Package)
	}
	for p := range ackGraph {
		t.Errorf("acknowledged graph %s lost", p)
	}

	// still writable
	f := sampleFlow("com.example.after", "after", 3, 1)
	if err := s.SaveFlow(ctx, &f); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Flow(ctx, f.ID); err != nil || len(got.Steps) != 3 {
		t.Fatalf("write after the kills: %v", err)
	}
	if _, err := s.ImportGraph(ctx, localGraph("com.example.after", 10, 2)); err != nil {
		t.Fatal(err)
	}
}

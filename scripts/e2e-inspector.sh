#!/usr/bin/env bash
# Browser end-to-end test of the inspector page (daemon/inspect).
#
# Installs, when missing, Debian's chromium (apt-get, as root) and
# playwright-core (npm ci into scripts/e2e/node_modules, version pinned in
# scripts/e2e/package.json); starts an inspector server; drives the page in
# headless chromium (scripts/e2e/inspector.test.mjs); prints
# "N passed, M failed" and exits non-zero on failure.
#
# Environment:
#   E2E_SERVER_CMD  command that serves the inspector on 127.0.0.1 and prints
#                   the page URL with ?token= as its FIRST stdout line, then
#                   keeps serving until SIGTERM. Default: the scripted demo
#                   server (daemon/inspect/internal/e2eserver), built here.
#                   Later: the real `wayfinder serve` on the simulated phone.
#   E2E_OUT         output directory (default /tmp/wayfinder-e2e): the
#                   screenshot inspector.png, server.log.
#   E2E_DELAY       pause between the demo's events (default 120ms).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
E2E_OUT=${E2E_OUT:-/tmp/wayfinder-e2e}
E2E_DELAY=${E2E_DELAY:-120ms}
mkdir -p "$E2E_OUT"

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

# ---- server ----
if [ -z "${E2E_SERVER_CMD:-}" ]; then
  (cd "$ROOT" && go build -o "$E2E_OUT/e2eserver" ./daemon/inspect/internal/e2eserver)
  E2E_SERVER_CMD="\"$E2E_OUT/e2eserver\" -addr 127.0.0.1:0 -delay $E2E_DELAY"
fi
: >"$E2E_OUT/server.out"
(cd "$ROOT" && exec bash -c "exec $E2E_SERVER_CMD") >"$E2E_OUT/server.out" 2>"$E2E_OUT/server.log" &
SERVER_PID=$!
cleanup() {
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
}
trap cleanup EXIT

URL=""
for _ in $(seq 600); do # up to 60 s
  URL=$(head -n 1 "$E2E_OUT/server.out" 2>/dev/null || true)
  case "$URL" in http://*) break ;; esac
  if ! kill -0 "$SERVER_PID" 2>/dev/null; then
    echo "e2e: the server exited before printing its URL; log:" >&2
    cat "$E2E_OUT/server.log" >&2
    exit 1
  fi
  sleep 0.1
done
case "$URL" in
  http://127.0.0.1:*|http://localhost:*|http://\[::1\]:*) ;;
  *) echo "e2e: the server's first line is not a loopback URL: ${URL%%\?*}" >&2; exit 1 ;;
esac
echo "e2e: inspector at ${URL%%\?*} (token hidden)" >&2

# ---- browser ----
set +e
(cd "$ROOT/scripts/e2e" && E2E_URL="$URL" E2E_OUT="$E2E_OUT" node inspector.test.mjs)
RC=$?
set -e
echo "e2e: screenshot $E2E_OUT/inspector.png, server log $E2E_OUT/server.log" >&2
exit $RC

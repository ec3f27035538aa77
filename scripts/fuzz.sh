#!/usr/bin/env bash
# fuzz.sh - run every fuzz target of the module for a while each.
# Usage: scripts/fuzz.sh [DURATION]   (default 30s)
set -euo pipefail
d=${1:-30s}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
for pkg in $(go list ./...); do
  for f in $(go test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz' || true); do
    echo "== $pkg $f ($d)"
    go test -run '^$' -fuzz "^$f\$" -fuzztime "$d" "$pkg"
  done
done

#!/usr/bin/env bash
# arm64-build.sh - build the wayfinder CLI as a fully static linux/arm64
# binary (cgo: mattn/go-sqlite3), print its size and run it once under
# qemu-aarch64-static. Same flags as scripts/arm64-test.sh.
# Usage: scripts/arm64-build.sh OUT
set -euo pipefail
out=${1:?usage: $0 OUT}
for tool in aarch64-linux-gnu-gcc qemu-aarch64-static; do
  command -v "$tool" >/dev/null || { echo "arm64-build: $tool missing (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static)" >&2; exit 2; }
done
mkdir -p "$(dirname "$out")"
CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=aarch64-linux-gnu-gcc \
  go build -trimpath -tags 'sqlite_omit_load_extension,osusergo,netgo' \
  -ldflags '-s -w -linkmode external -extldflags -static' -o "$out" ./cmd/wayfinder
file "$out" 2>/dev/null || true
echo "arm64-build: $(stat -c %s "$out") bytes ($(gzip -9c "$out" | wc -c) gzipped)"
# a smoke run: the demo needs no data and no key
qemu-aarch64-static "$out" demo | tail -3

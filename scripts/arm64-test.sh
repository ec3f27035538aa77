#!/usr/bin/env bash
# arm64-test.sh - run `go test` of packages as fully static linux/arm64
# binaries (cgo: mattn/go-sqlite3) under qemu-aarch64-static.
#
# Same build as ../shared/toolchain/scripts/cross-arm64.sh `test`:
#   CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=aarch64-linux-gnu-gcc
#   tags sqlite_omit_load_extension (no dlopen in a static binary),
#        osusergo,netgo (glibc NSS does not work in static binaries)
#   -ldflags '-linkmode external -extldflags -static', -exec qemu-aarch64-static
# Tests that re-execute their own binary (knowledge's kill test) read
# WAYFINDER_TEST_EXEC to run it through qemu too: without binfmt_misc the
# kernel cannot exec an arm64 binary directly.
#
# Installs nothing. Prerequisites (Debian bookworm):
#   apt-get install -y --no-install-recommends gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static
#
# Usage: scripts/arm64-test.sh [go test flags] PKGS...   e.g. scripts/arm64-test.sh -v ./knowledge/
# Exit status: go test's, or 2 for usage errors and missing tools.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 [go test flags] PKGS...   (e.g. $0 ./knowledge/)" >&2
  exit 2
fi

missing=()
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing+=("aarch64-linux-gnu-gcc (Debian: gcc-aarch64-linux-gnu, libc6-dev-arm64-cross)")
command -v qemu-aarch64-static >/dev/null 2>&1 || missing+=("qemu-aarch64-static (Debian: qemu-user-static)")
command -v go >/dev/null 2>&1 || missing+=("go")
if [ ${#missing[@]} -gt 0 ]; then
  echo "arm64-test.sh: missing tools:" >&2
  for m in "${missing[@]}"; do echo "  - $m" >&2; done
  echo "install with: apt-get install -y --no-install-recommends gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static" >&2
  exit 2
fi

cd "$(dirname "$0")/.."
export CGO_ENABLED=1 GOOS=linux GOARCH=arm64 CC=aarch64-linux-gnu-gcc
export WAYFINDER_TEST_EXEC=qemu-aarch64-static
TAGS='sqlite_omit_load_extension,osusergo,netgo'
exec go test -trimpath -count=1 -tags "$TAGS" -ldflags '-linkmode external -extldflags -static' \
  -exec qemu-aarch64-static "$@"

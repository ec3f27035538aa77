#!/usr/bin/env bash
# setup.sh - install what a fresh Debian machine (Go, JDK 17, gcc, npm
# present) lacks for the whole test suite. Idempotent: installs only what is
# missing. apt packages need root (CI runs as root); without root it says
# what to install and continues, so the Go tests still run.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

need=()
command -v aarch64-linux-gnu-gcc >/dev/null || need+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
[ -x /usr/bin/chromium ] || need+=(chromium)
# WordNet 3.0: the synonyms of the drift benchmark's text kind (daemon/drift)
[ -f /usr/share/wordnet/data.verb ] || need+=(wordnet-base)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "setup: apt-get install ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    echo "setup: not root; install with: sudo apt-get install -y ${need[*]}" >&2
  fi
fi

echo "setup: sentence-embedding model (daemon/bert)"
bash scripts/fetch-model.sh | tail -1

echo "setup: go modules"
go mod download
go build ./... >/dev/null
echo "setup: done"

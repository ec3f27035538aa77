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
# make aar / apk / test-apk without Google's SDK (scripts/android-standin.sh): the stub
# NDK's compiler (../shared/android-sysroot), packaging and the static checks
command -v clang-16 >/dev/null || need+=(clang-16)
command -v ld.lld-16 >/dev/null || need+=(lld-16)
compgen -G '/usr/lib/gcc-cross/aarch64-linux-gnu/*/libgcc.a' >/dev/null || need+=(libgcc-12-dev-arm64-cross)
for c in aapt zipalign apksigner dexdump zip unzip; do command -v $c >/dev/null || need+=($c); done
command -v mvn >/dev/null || need+=(maven)
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

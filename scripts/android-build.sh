#!/usr/bin/env bash
# android-build.sh aar|apk - builds the Go daemon AAR and the Android app.
# Needs the Android SDK (this repo's CI machine has none: there
# scripts/android-check.sh is the proof). See docs/android.md.
#
#   aar  gomobile bind ./bridge -> android-app/app/libs/wayfinder.aar
#        (dev.wayfinder.bridge.*, libgojni.so for arm64-v8a and x86_64)
#   apk  aar (if missing or older than the Go sources), then Gradle assembleDebug
#        -> android-app/app/build/outputs/apk/debug/app-debug.apk
#
# Requires: ANDROID_HOME (or ANDROID_SDK_ROOT) with platforms;android-35,
# build-tools;35.0.0 and ndk;27.2.12479018 (or ANDROID_NDK_HOME pointing at
# that NDK); JDK 17; Go from go.mod; for apk, Gradle >= 8.9 (android-app/gradlew
# if you generated one, else `gradle` on PATH).
# Env: ANDROID_BUILD_DRY_RUN=1 checks everything and prints the gomobile steps
#      (gomobile bind -n) and the Gradle task plan (--dry-run) without building.
#      WAYFINDER_CACHE (default <repo>/.tools) holds the pinned gomobile/gobind.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${WAYFINDER_CACHE:-$ROOT/.tools}

# Pinned versions; the Makefile passes the same values in these variables.
PLATFORM=${ANDROID_PLATFORM:-android-35}
BUILD_TOOLS=${ANDROID_BUILD_TOOLS:-35.0.0}
NDK_VERSION=27.2.12479018
# ANDROID_NDK is a version here (the Makefile's); some setups use it for an NDK path: ignore that
[[ ${ANDROID_NDK:-} =~ ^[0-9]+(\.[0-9]+)+$ ]] && NDK_VERSION=$ANDROID_NDK
MIN_API=26                     # = minSdk of android-app
JAVAPKG=dev.wayfinder
AAR=$ROOT/android-app/app/libs/wayfinder.aar
DRY=${ANDROID_BUILD_DRY_RUN:-}

die() { printf 'android-build: %s\n' "$*" >&2; exit 1; }
usage() { echo "usage: $0 aar|apk" >&2; exit 2; }
[ $# = 1 ] || usage
MODE=$1
case $MODE in aar|apk) ;; *) usage ;; esac

# ---- prerequisites, with the fix in each message -------------------------------
SDK=${ANDROID_HOME:-${ANDROID_SDK_ROOT:-}}
[ -n "$SDK" ] || die "ANDROID_HOME is not set. Install the Android SDK command-line tools and run
  sdkmanager 'platforms;$PLATFORM' 'build-tools;$BUILD_TOOLS' 'ndk;$NDK_VERSION'
then export ANDROID_HOME=<sdk dir> (docs/android.md)."
[ -d "$SDK" ] || die "ANDROID_HOME=$SDK does not exist."
[ -f "$SDK/platforms/$PLATFORM/android.jar" ] || die "missing SDK platform $PLATFORM in $SDK: sdkmanager 'platforms;$PLATFORM'"
[ -d "$SDK/build-tools/$BUILD_TOOLS" ] || die "missing build-tools $BUILD_TOOLS in $SDK: sdkmanager 'build-tools;$BUILD_TOOLS'"
NDK=${ANDROID_NDK_HOME:-$SDK/ndk/$NDK_VERSION}
[ -f "$NDK/meta/platforms.json" ] || die "no NDK at $NDK: sdkmanager 'ndk;$NDK_VERSION' (or set ANDROID_NDK_HOME)"
ndk_rev=$(sed -n 's/^Pkg.Revision *= *//p' "$NDK/source.properties" 2>/dev/null || true)
[ "$ndk_rev" = "$NDK_VERSION" ] || die "NDK at $NDK is ${ndk_rev:-of unknown version}; want $NDK_VERSION: sdkmanager 'ndk;$NDK_VERSION'"
ls "$NDK"/toolchains/llvm/prebuilt/*/bin/clang >/dev/null 2>&1 || die "NDK at $NDK has no clang toolchain (incomplete install?)"
command -v javac >/dev/null || die "javac not found: install JDK 17"
javac_major=$(javac -version 2>&1 | sed -E 's/^javac ([0-9]+).*/\1/')
[ "${javac_major:-0}" -ge 17 ] || die "JDK 17+ needed (javac $javac_major found)"
command -v go >/dev/null || die "go not found"

# ---- aar ------------------------------------------------------------------------
build_aar() {
  local ver bin
  ver=$(cd "$ROOT" && go list -m -f '{{.Version}}' golang.org/x/mobile) || die "golang.org/x/mobile is not in go.mod"
  [ -z "${XMOBILE_VERSION:-}" ] || [ "$XMOBILE_VERSION" = "$ver" ] ||
    die "XMOBILE_VERSION=$XMOBILE_VERSION but go.mod pins golang.org/x/mobile $ver: keep them equal"
  bin=$CACHE/gomobile-$ver
  if [ ! -x "$bin/gomobile" ] || [ ! -x "$bin/gobind" ]; then
    echo "== installing gomobile and gobind $ver into $bin"
    (cd "$ROOT" && GOBIN=$bin go install "golang.org/x/mobile/cmd/gomobile@$ver" "golang.org/x/mobile/cmd/gobind@$ver")
  fi
  mkdir -p "$(dirname "$AAR")"
  echo "== gomobile bind -> $AAR"
  (cd "$ROOT" && PATH=$bin:$PATH ANDROID_HOME=$SDK ANDROID_NDK_HOME=$NDK \
    "$bin/gomobile" bind ${DRY:+-n} -v \
      -target=android/arm64,android/amd64 -androidapi "$MIN_API" \
      -javapkg="$JAVAPKG" -trimpath -ldflags='-s -w' \
      -o "$AAR" ./bridge)
  [ -n "$DRY" ] || { [ -f "$AAR" ] || die "gomobile bind wrote no $AAR"; ls -l "$AAR"; }
}

# an AAR older than any Go source of the module is rebuilt
aar_stale() {
  [ -f "$AAR" ] || return 0
  [ -n "$(cd "$ROOT" && find bridge daemon knowledge go.mod go.sum -newer "$AAR" \( -name '*.go' -o -name 'go.*' -o -name '*.tmpl' -o -name '*.sql' \) -print -quit 2>/dev/null)" ]
}

# ---- apk ------------------------------------------------------------------------
gradle_cmd() {
  if [ -x "$ROOT/android-app/gradlew" ]; then echo "./gradlew"; return; fi
  command -v gradle >/dev/null || die "no Gradle: install Gradle >= 8.9 or generate a wrapper with
  (cd android-app && gradle wrapper --gradle-version 8.11.1)"
  local v
  v=$(gradle --version 2>/dev/null | sed -n 's/^Gradle \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
  set -- $v
  if [ "${1:-0}" -lt 8 ] || { [ "${1:-0}" = 8 ] && [ "${2:-0}" -lt 9 ]; }; then
    die "gradle on PATH is ${1:-?}.${2:-?}; AGP 8.7 needs Gradle >= 8.9 (Debian's gradle 4.4 will not do)"
  fi
  echo gradle
}

case $MODE in
  aar) build_aar ;;
  apk)
    if aar_stale; then build_aar; else echo "== $AAR is up to date"; fi
    G=$(gradle_cmd)
    printf 'sdk.dir=%s\n' "$SDK" > "$ROOT/android-app/local.properties"
    echo "== $G assembleDebug"
    (cd "$ROOT/android-app" && ANDROID_HOME=$SDK $G --no-daemon ${DRY:+--dry-run} assembleDebug)
    APK=$ROOT/android-app/app/build/outputs/apk/debug/app-debug.apk
    [ -n "$DRY" ] || { [ -f "$APK" ] || die "Gradle produced no $APK"; ls -l "$APK"; echo "install: adb install -r $APK"; }
    ;;
esac

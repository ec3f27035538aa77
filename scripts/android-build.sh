#!/usr/bin/env bash
# android-build.sh aar|apk|apk-release - builds the Go daemon AAR and the Android app
# with Google's SDK and NDK where they are installed, otherwise with the stand-in
# toolchain (scripts/android-standin.sh: Debian + Maven Central + npm packages and the
# stub NDK of ../shared/android-sysroot). It says which. See docs/android.md.
#
#   aar          gomobile bind ./bridge -> android-app/app/libs/wayfinder.aar
#                (dev.wayfinder.bridge.*, libgojni.so for arm64-v8a and x86_64)
#   apk          the debug AAR (if missing or older than the Go sources), then a signed
#                debug APK -> out/android/wayfinder-debug.apk. SDK: Gradle assembleDebug
#                (also android-app/app/build/outputs/apk/debug/app-debug.apk); stand-in:
#                kotlinc -> D8 -> aapt -> zipalign -> apksigner with a debug key
#                generated once into $WAYFINDER_CACHE (never in the repo).
#   apk-release  the AAR built with -tags wayfinder_release (no inspector, see
#                daemon/inspect/release.go) -> out/android/wayfinder-release.aar, then a
#                release APK signed with the key named by the environment:
#                  WAYFINDER_KEYSTORE       keystore file (JKS or PKCS12)
#                  WAYFINDER_KEY_ALIAS      key alias in it
#                  WAYFINDER_KEYSTORE_PASS  keystore password
#                  WAYFINDER_KEY_PASS       key password (default: the keystore password)
#                -> out/android/wayfinder-release.apk. Passwords go to apksigner as
#                env:VAR references, never on a command line or in a log.
#
# Toolchain (ANDROID_TOOLCHAIN=sdk|standin|auto, default auto = sdk when ANDROID_HOME or
# ANDROID_SDK_ROOT is set, else standin):
#   sdk      ANDROID_HOME with platforms;android-35, build-tools;35.0.0 and
#            ndk;27.2.12479018 (or ANDROID_NDK_HOME); JDK 17; Go from go.mod; for the APKs
#            Gradle >= 8.9 (android-app/gradlew if present, else `gradle` on PATH).
#            ANDROID_NDK_HOME may point at the stand-in kit's stub NDK: it is recognised
#            (whatever revision it wears) and accepted as the stand-in, and said so.
#   standin  ../shared/android-sysroot (SHARED or ANDROID_SYSROOT_KIT to move it); what
#            it needs is installed (as root, apt) or named, and cached in $WAYFINDER_CACHE.
# Env: ANDROID_BUILD_DRY_RUN=1 (sdk only) checks everything and prints the gomobile steps
#      (gomobile bind -n) and the Gradle task plan (--dry-run) without building.
#      WAYFINDER_CACHE (default <repo>/.tools) holds gomobile and the stand-in toolchain.
#      ANDROID_OUT (default <repo>/out/android) receives the APKs and the release AAR.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${WAYFINDER_CACHE:-$ROOT/.tools}
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)

# Pinned versions; the Makefile passes the same values in these variables.
PLATFORM=${ANDROID_PLATFORM:-android-35}
BUILD_TOOLS=${ANDROID_BUILD_TOOLS:-35.0.0}
NDK_VERSION=27.2.12479018
# ANDROID_NDK is a version here (the Makefile's); some setups use it for an NDK path: ignore that
[[ ${ANDROID_NDK:-} =~ ^[0-9]+(\.[0-9]+)+$ ]] && NDK_VERSION=$ANDROID_NDK
MIN_API=26                     # = minSdk of android-app
JAVAPKG=dev.wayfinder
RELEASE_TAG=wayfinder_release  # daemon/inspect/release.go
AAR=$ROOT/android-app/app/libs/wayfinder.aar
OUTDIR=${ANDROID_OUT:-$ROOT/out/android}
DRY=${ANDROID_BUILD_DRY_RUN:-}

die() { printf 'android-build: %s\n' "$*" >&2; exit 1; }
usage() { echo "usage: $0 aar|apk|apk-release" >&2; exit 2; }
[ $# = 1 ] || usage
MODE=$1
case $MODE in aar|apk|apk-release) ;; *) usage ;; esac
T0=$EPOCHREALTIME
elapsed() { awk -v t0="$T0" -v t1="$EPOCHREALTIME" 'BEGIN { printf "%.0f", t1 - t0 }'; }
# shellcheck source=android-standin.sh
. "$ROOT/scripts/android-standin.sh"

# ---- release key: checked first, so a long build does not end in a missing variable --
if [ "$MODE" = apk-release ]; then
  missing=()
  [ -n "${WAYFINDER_KEYSTORE:-}" ] || missing+=(WAYFINDER_KEYSTORE)
  [ -n "${WAYFINDER_KEY_ALIAS:-}" ] || missing+=(WAYFINDER_KEY_ALIAS)
  [ -n "${WAYFINDER_KEYSTORE_PASS:-}" ] || missing+=(WAYFINDER_KEYSTORE_PASS)
  [ ${#missing[@]} = 0 ] || die "apk-release signs with a key from the environment; not set: ${missing[*]}
  (WAYFINDER_KEYSTORE=keystore file, WAYFINDER_KEY_ALIAS, WAYFINDER_KEYSTORE_PASS, optional WAYFINDER_KEY_PASS;
  a new key: keytool -genkeypair -keystore release.jks -alias wayfinder -keyalg RSA -keysize 4096 -validity 10000)"
  [ -f "$WAYFINDER_KEYSTORE" ] || die "WAYFINDER_KEYSTORE=$WAYFINDER_KEYSTORE: no such file"
  RELEASE_KEY_PASS_VAR=WAYFINDER_KEY_PASS
  [ -n "${WAYFINDER_KEY_PASS:-}" ] || RELEASE_KEY_PASS_VAR=WAYFINDER_KEYSTORE_PASS
  export WAYFINDER_KEYSTORE_PASS WAYFINDER_KEY_PASS
fi

# ---- which toolchain ---------------------------------------------------------------
SDK=${ANDROID_HOME:-${ANDROID_SDK_ROOT:-}}
TOOLCHAIN=${ANDROID_TOOLCHAIN:-auto}
case $TOOLCHAIN in
  auto) if [ -n "$SDK" ]; then TOOLCHAIN=sdk; else TOOLCHAIN=standin; fi ;;
  sdk|standin) ;;
  *) die "ANDROID_TOOLCHAIN=$TOOLCHAIN: want sdk, standin or auto" ;;
esac

command -v go >/dev/null || die "go not found"
if [ "$TOOLCHAIN" = sdk ]; then
  # ---- prerequisites, with the fix in each message ----------------------------------
  [ -n "$SDK" ] || die "ANDROID_TOOLCHAIN=sdk but ANDROID_HOME is not set. Install the Android SDK command-line tools and run
  sdkmanager 'platforms;$PLATFORM' 'build-tools;$BUILD_TOOLS' 'ndk;$NDK_VERSION'
then export ANDROID_HOME=<sdk dir> (docs/android.md)."
  [ -d "$SDK" ] || die "ANDROID_HOME=$SDK does not exist."
  [ -f "$SDK/platforms/$PLATFORM/android.jar" ] || die "missing SDK platform $PLATFORM in $SDK: sdkmanager 'platforms;$PLATFORM'"
  [ -d "$SDK/build-tools/$BUILD_TOOLS" ] || die "missing build-tools $BUILD_TOOLS in $SDK: sdkmanager 'build-tools;$BUILD_TOOLS'"
  NDK=${ANDROID_NDK_HOME:-$SDK/ndk/$NDK_VERSION}
  [ -f "$NDK/meta/platforms.json" ] || die "no NDK at $NDK: sdkmanager 'ndk;$NDK_VERSION' (or set ANDROID_NDK_HOME)"
  ndk_rev=$(sed -n 's/^Pkg.Revision *= *//p' "$NDK/source.properties" 2>/dev/null || true)
  if is_standin_ndk "$NDK"; then
    # the kit's revision (0.1.0 by default, or whatever NDK_REVISION it was built with)
    # names no Google release: accept it as what it is, never as NDK $NDK_VERSION
    NDK_DESC="the stand-in stub NDK (android-sysroot kit, revision ${ndk_rev:-?}; NOT Google's NDK $NDK_VERSION)"
  else
    [ "$ndk_rev" = "$NDK_VERSION" ] || die "NDK at $NDK is ${ndk_rev:-of unknown version}; want $NDK_VERSION: sdkmanager 'ndk;$NDK_VERSION'"
    NDK_DESC="NDK $ndk_rev"
  fi
  ls "$NDK"/toolchains/llvm/prebuilt/*/bin/clang >/dev/null 2>&1 || die "NDK at $NDK has no clang toolchain (incomplete install?)"
  command -v javac >/dev/null || die "javac not found: install JDK 17"
  javac_major=$(javac -version 2>&1 | sed -E 's/^javac ([0-9]+).*/\1/')
  [ "${javac_major:-0}" -ge 17 ] || die "JDK 17+ needed (javac $javac_major found)"
  BT=$SDK/build-tools/$BUILD_TOOLS
  echo "android-build: toolchain: Android SDK at $SDK (platform $PLATFORM, build-tools $BUILD_TOOLS), $NDK_DESC at $NDK"
else
  [ -z "$DRY" ] || die "ANDROID_BUILD_DRY_RUN is for the SDK toolchain only"
  standin_tools
  standin_ndk
  standin_sdk
  SDK=$STANDIN_SDK NDK=$STANDIN_NDK
  echo "android-build: toolchain: STAND-IN (no Android SDK): stub NDK $(sed -n 's/^Pkg.Revision *= *//p' "$NDK/source.properties") built from $SI_KIT — not Google's NDK $NDK_VERSION;"
  echo "               android.jar from android-all $SI_ANDROID_ALL_35, Debian aapt/zipalign/apksigner, D8 $SI_R8_VERSION; cache $SI_DIR"
fi

# ---- aar ------------------------------------------------------------------------------
# build_aar OUT [TAGS]
build_aar() {
  local out=$1 tags=${2:-} ver bin
  ver=$(cd "$ROOT" && go list -m -f '{{.Version}}' golang.org/x/mobile) || die "golang.org/x/mobile is not in go.mod"
  [ -z "${XMOBILE_VERSION:-}" ] || [ "$XMOBILE_VERSION" = "$ver" ] ||
    die "XMOBILE_VERSION=$XMOBILE_VERSION but go.mod pins golang.org/x/mobile $ver: keep them equal"
  bin=$CACHE/gomobile-$ver
  if [ ! -x "$bin/gomobile" ] || [ ! -x "$bin/gobind" ]; then
    echo "== installing gomobile and gobind $ver into $bin"
    (cd "$ROOT" && GOBIN=$bin go install "golang.org/x/mobile/cmd/gomobile@$ver" "golang.org/x/mobile/cmd/gobind@$ver")
  fi
  mkdir -p "$(dirname "$out")"
  echo "== gomobile bind${tags:+ -tags $tags} -> $out"
  (cd "$ROOT" && PATH=$bin:$PATH ANDROID_HOME=$SDK ANDROID_NDK_HOME=$NDK \
    "$bin/gomobile" bind ${DRY:+-n} ${tags:+-tags "$tags"} \
      -target=android/arm64,android/amd64 -androidapi "$MIN_API" \
      -javapkg="$JAVAPKG" -trimpath -ldflags='-s -w' \
      -o "$out" ./bridge)
  [ -n "$DRY" ] || { [ -f "$out" ] || die "gomobile bind wrote no $out"; ls -l "$out"; }
  echo "== aar done ($(elapsed)s)"
}

# an AAR older than any Go source of the module is rebuilt
aar_stale() {
  [ -f "$1" ] || return 0
  [ -n "$(cd "$ROOT" && find bridge daemon knowledge go.mod go.sum -newer "$1" \( -name '*.go' -o -name 'go.*' -o -name '*.tmpl' -o -name '*.sql' -o -name '*.html' \) -print -quit 2>/dev/null)" ]
}

# ---- apk (SDK: Gradle) ---------------------------------------------------------------
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

# gradle_assemble TASK: runs it in android-app with the SDK
gradle_assemble() {
  local G
  G=$(gradle_cmd)
  printf 'sdk.dir=%s\n' "$SDK" > "$ROOT/android-app/local.properties"
  echo "== $G $1"
  (cd "$ROOT/android-app" && ANDROID_HOME=$SDK $G --no-daemon ${DRY:+--dry-run} "$1")
}

sdk_apk_release() {
  # Gradle takes app/libs/wayfinder.aar for every build type: lend it the release AAR
  local debug_aar=$OUTDIR/.debug-aar.keep unsigned=$ROOT/android-app/app/build/outputs/apk/release/app-release-unsigned.apk
  [ ! -f "$AAR" ] || mv "$AAR" "$debug_aar"
  trap 'rm -f "$AAR"; [ ! -f "'"$debug_aar"'" ] || mv "'"$debug_aar"'" "$AAR"' EXIT
  cp "$OUTDIR/wayfinder-release.aar" "$AAR"
  gradle_assemble assembleRelease
  [ -n "$DRY" ] && return 0
  [ -f "$unsigned" ] || die "Gradle produced no $unsigned"
  "$BT/zipalign" -f -P 16 4 "$unsigned" "$OUTDIR/.release-aligned.apk"
  "$BT/apksigner" sign --ks "$WAYFINDER_KEYSTORE" --ks-key-alias "$WAYFINDER_KEY_ALIAS" \
    --ks-pass env:WAYFINDER_KEYSTORE_PASS --key-pass "env:$RELEASE_KEY_PASS_VAR" \
    --out "$OUTDIR/wayfinder-release.apk" "$OUTDIR/.release-aligned.apk"
  rm -f "$OUTDIR/.release-aligned.apk" "$OUTDIR/wayfinder-release.apk.idsig"
}

mkdir -p "$OUTDIR"
case $MODE in
  aar) build_aar "$AAR" ;;
  apk)
    if aar_stale "$AAR"; then build_aar "$AAR"; else echo "== $AAR is up to date"; fi
    APK=$OUTDIR/wayfinder-debug.apk
    if [ "$TOOLCHAIN" = sdk ]; then
      gradle_assemble assembleDebug
      [ -n "$DRY" ] && exit 0
      G_APK=$ROOT/android-app/app/build/outputs/apk/debug/app-debug.apk
      [ -f "$G_APK" ] || die "Gradle produced no $G_APK"
      cp "$G_APK" "$APK"
    else
      standin_apk debug "$AAR" "$APK"
    fi
    ls -l "$APK"; echo "== apk done ($(elapsed)s); install: adb install -r $APK"
    ;;
  apk-release)
    RAAR=$OUTDIR/wayfinder-release.aar
    if aar_stale "$RAAR"; then build_aar "$RAAR" "$RELEASE_TAG"; else echo "== $RAAR is up to date"; fi
    APK=$OUTDIR/wayfinder-release.apk
    if [ "$TOOLCHAIN" = sdk ]; then sdk_apk_release; [ -n "$DRY" ] && exit 0
    else standin_apk release "$RAAR" "$APK"; fi
    ls -l "$APK"; echo "== apk-release done ($(elapsed)s)"
    ;;
esac

#!/usr/bin/env bash
# apk-check.sh [--build] - static checks on the built AAR and APKs (scripts/apk-check.py
# says what each check asserts): signature, zip alignment, aapt badging, the
# accessibility service and its config, dex contents, libgojni.so (NEEDED, undefined
# symbols against the NDK's API 26 stubs, 16 KiB alignment), inspector left out of
# release, assets, size ceilings.
#
#   --build  first builds what it checks, as CI does (make test-apk):
#            scripts/android-build.sh apk (debug, signed with the machine's debug key),
#            checks that apk-release without the key variables stops with an error
#            naming them, then apk-release with a throwaway key made in a temp dir
#            (random passwords, deleted on exit; a real release key never touches CI).
#   without  checks out/android/wayfinder-debug.apk (from android-app/app/libs/wayfinder.aar)
#            and, when present, out/android/wayfinder-release.apk (wayfinder-release.aar).
#
# The stub libraries come from ANDROID_NDK_HOME, else $ANDROID_HOME/ndk/27.2.12479018,
# else the stand-in kit's stub NDK (built into $WAYFINDER_CACHE if needed). Tools
# missing on a Debian machine are installed when root (scripts/android-standin.sh).
# Ends with "N passed, M failed"; exits non-zero on any failure.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${WAYFINDER_CACHE:-$ROOT/.tools}
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
OUTDIR=${ANDROID_OUT:-$ROOT/out/android}
die() { printf 'apk-check: %s\n' "$*" >&2; exit 1; }
# shellcheck source=android-standin.sh
. "$ROOT/scripts/android-standin.sh"

BUILD=
case ${1:-} in --build) BUILD=1 ;; "") ;; *) echo "usage: $0 [--build]" >&2; exit 2 ;; esac
T0=$EPOCHREALTIME
secs() { awk -v t0="$1" -v t1="$EPOCHREALTIME" 'BEGIN { printf "%.0f", t1 - t0 }'; }
pre_pass=0 pre_fail=0
pre() { # pre NAME OK DETAIL: a check made here, counted with apk-check.py's
  if [ "$2" = 1 ]; then pre_pass=$((pre_pass + 1)); echo "ok   $1${3:+: $3}"; else pre_fail=$((pre_fail + 1)); echo "FAIL $1${3:+: $3}"; fi
}

if [ -n "$BUILD" ] && [ -z "${ANDROID_HOME:-${ANDROID_SDK_ROOT:-}}" ] && [ ! -x "$SI_KIT/build.sh" ]; then
  echo "apk-check: skipped: no Android SDK (ANDROID_HOME) and no stand-in kit at $SI_KIT to build with"
  exit 0
fi
standin_tools
if [ -n "$BUILD" ]; then
  t=$EPOCHREALTIME
  bash "$ROOT/scripts/android-build.sh" apk
  echo "== build apk: $(secs "$t")s"

  t=$EPOCHREALTIME
  set +e
  msg=$(env -u WAYFINDER_KEYSTORE -u WAYFINDER_KEY_ALIAS -u WAYFINDER_KEYSTORE_PASS -u WAYFINDER_KEY_PASS \
        bash "$ROOT/scripts/android-build.sh" apk-release 2>&1)
  rc=$?
  set -e
  ok=0; [ $rc != 0 ] && [[ $msg == *WAYFINDER_KEYSTORE* ]] && [[ $msg == *WAYFINDER_KEYSTORE_PASS* ]] && ok=1
  pre "apk-release without the key variables stops and names them" $ok "exit $rc: $(head -1 <<<"$msg")"

  KEYDIR=$(mktemp -d)
  trap 'rm -rf "$KEYDIR"' EXIT
  pw() { head -c 18 /dev/urandom | base64 | tr -d '/+='; }
  WAYFINDER_KEYSTORE=$KEYDIR/throwaway-release.p12 WAYFINDER_KEY_ALIAS=wayfinder-ci
  WAYFINDER_KEYSTORE_PASS=$(pw)
  export WAYFINDER_KEYSTORE WAYFINDER_KEY_ALIAS WAYFINDER_KEYSTORE_PASS
  # PKCS12: one password for store and key; keytool reads them from the environment
  keytool -genkeypair -keystore "$WAYFINDER_KEYSTORE" -storetype PKCS12 -alias "$WAYFINDER_KEY_ALIAS" \
    -storepass:env WAYFINDER_KEYSTORE_PASS -keypass:env WAYFINDER_KEYSTORE_PASS \
    -keyalg RSA -keysize 2048 -validity 2 -dname "CN=Wayfinder CI throwaway release key" >/dev/null 2>&1 ||
    die "keytool could not make the throwaway key"
  bash "$ROOT/scripts/android-build.sh" apk-release
  unset WAYFINDER_KEYSTORE_PASS
  echo "== build apk-release: $(secs "$t")s"
fi

# the stub libraries to resolve symbols against
SDK=${ANDROID_HOME:-${ANDROID_SDK_ROOT:-}}
NDK=${ANDROID_NDK_HOME:-}
if [ -z "$NDK" ] && [ -n "$SDK" ] && [ -d "$SDK/ndk/27.2.12479018" ]; then NDK=$SDK/ndk/27.2.12479018; fi
if [ -z "$NDK" ]; then standin_ndk; NDK=$STANDIN_NDK; fi
is_standin_ndk "$NDK" && echo "== stubs: the stand-in kit's stub NDK $NDK" || echo "== stubs: NDK $NDK"

checks=()
DEBUG_APK=$OUTDIR/wayfinder-debug.apk RELEASE_APK=$OUTDIR/wayfinder-release.apk
[ -f "$DEBUG_APK" ] || die "no $DEBUG_APK: run make apk (or $0 --build)"
checks+=(--check debug "$DEBUG_APK" "$ROOT/android-app/app/libs/wayfinder.aar")
if [ -n "$BUILD" ] || [ -f "$RELEASE_APK" ]; then
  checks+=(--check release "$RELEASE_APK" "$OUTDIR/wayfinder-release.aar")
fi
set +e
MODEL=()
if [ -z "${WAYFINDER_APK_NO_MODEL:-}" ] && [ -f "$ROOT/scripts/fetch-model.sh" ]; then
  MODEL=(--model-dir "$(WAYFINDER_CACHE=$CACHE bash "$ROOT/scripts/fetch-model.sh" | tail -1)")
fi
python3 "$ROOT/scripts/apk-check.py" --root "$ROOT" --ndk "$NDK" "${MODEL[@]}" "${checks[@]}" | tee "$OUTDIR/apk-check.log"
rc=${PIPESTATUS[0]}
set -e
read -r p f < <(sed -nE 's/^apk-check.py: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$OUTDIR/apk-check.log")
echo "== apk-check: $(secs "$T0")s in all"
echo "$((${p:-0} + pre_pass)) passed, $((${f:-1} + pre_fail)) failed"
[ $rc = 0 ] && [ $pre_fail = 0 ]

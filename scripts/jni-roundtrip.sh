#!/usr/bin/env bash
# jni-roundtrip.sh - CI proof of the gomobile binding of ./bridge WITHOUT the
# Android SDK/NDK: the gobind-generated Java API and Go/JNI glue, built as a
# desktop (linux/amd64) libgojni.so, driven from Kotlin on the host JVM.
#
#  1. go tool gobind -lang=go,java -javapkg=dev.wayfinder ./bridge (the same
#     first step as `gomobile bind`);
#  2. the Go/C glue becomes a main package in _hostjni/gobind (gitignored; the
#     leading "_" keeps it out of ./...). Four Android-isms are handled there:
#     *_android.{go,c} carry an implicit GOOS=android constraint (renamed to
#     *_jni.*); the JNI headers are included only #ifdef __GOBIND_ANDROID__;
#     <android/log.h> and -llog (a stderr shim header and an empty liblog.a);
#     OpenJDK's AttachCurrentThread takes void** where Android's takes
#     JNIEnv** and the glue builds with -Werror. The flags go into a #cgo
#     directive of that package only, so go-sqlite3 and the rest keep their
#     build cache;
#  3. go build -buildmode=c-shared -> _hostjni/lib/libgojni.so;
#  4. javac of the generated Java plus a one-line android.content.Context stub
#     (the fifth Android-ism: go/Seq.java imports it for Seq.setContext only);
#  5. kotlinc 2.4.20 (npm, cached in $WAYFINDER_CACHE/kotlin-2.4.20 as
#     scripts/android-check.sh does) of testdata/jni/*.kt;
#  6. go run ./testdata/jni/exportdemo writes the demo phone (states and
#     transitions) for the Kotlin Device to replay;
#  7. java -Djava.library.path=_hostjni/lib runs testdata/jni/RoundTrip.kt:
#     a command learned and replayed through Daemon.call, events through
#     EventListener, Kotlin exceptions as Go errors, round-trip cost per call.
# Ends with "N passed, M failed"; exits non-zero on any failure.
#
# Needs go, a JDK (javac, jni.h), gcc, ar; npm only when Kotlin is not cached.
# When one but go is missing and we run as root on Debian, apt installs it.
# Env: WAYFINDER_CACHE (default <repo>/.tools) for Kotlin; JNI_LDFLAGS extra
#      go build -ldflags (e.g. '-s -w'); JAVA_OPTS extra JVM flags
#      (-Xcheck:jni works but the upstream glue makes it very noisy).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
CACHE=${WAYFINDER_CACHE:-$ROOT/.tools}
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
OUT=$ROOT/_hostjni
JAVAPKG=dev.wayfinder
KOTLIN_VERSION=2.4.20
MAIN=dev.wayfinder.jnitest.RoundTripKt

T0=$EPOCHREALTIME
step() { awk -v t0="$T0" -v t1="$EPOCHREALTIME" -v m="$*" 'BEGIN { printf "== %s (%.1fs)\n", m, t1 - t0 }'; }

case $OUT in *[[:space:]]*) echo "jni-roundtrip: the repo path must not contain spaces (cgo flags): $OUT" >&2; exit 1;; esac

# ---- 0. prerequisites ---------------------------------------------------------
# need CMD DEBIAN-PACKAGES...: install with apt only when missing and root.
need() {
  local cmd=$1; shift
  command -v "$cmd" >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "installing $* (apt) for $cmd"
    [ -n "${APT_UPDATED:-}" ] || { apt-get update -qq; APT_UPDATED=1; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
  fi
  command -v "$cmd" >/dev/null 2>&1 || { echo "jni-roundtrip: $cmd not found; install $*" >&2; exit 1; }
}
command -v go >/dev/null || { echo "jni-roundtrip: go not found (need the go.mod version, https://go.dev/dl)" >&2; exit 1; }
need gcc gcc libc6-dev
need ar binutils
need javac openjdk-17-jdk-headless
need java openjdk-17-jdk-headless
JAVA_HOME=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}
[ -f "$JAVA_HOME/include/jni.h" ] || { echo "jni-roundtrip: no jni.h under JAVA_HOME=$JAVA_HOME (need a full JDK)" >&2; exit 1; }

KOTLIN_HOME=$CACHE/kotlin-$KOTLIN_VERSION
KOTLINC=$KOTLIN_HOME/node_modules/kotlin-compiler/bin/kotlinc
KOTLIN_STDLIB=$KOTLIN_HOME/node_modules/kotlin-compiler/lib/kotlin-stdlib.jar
if [ ! -x "$KOTLINC" ]; then
  need npm npm
  step "installing Kotlin $KOTLIN_VERSION (npm kotlin-compiler) into $KOTLIN_HOME"
  npm install --silent --no-audit --no-fund --prefix "$KOTLIN_HOME" "kotlin-compiler@$KOTLIN_VERSION" >/dev/null
fi
[ -f "$KOTLIN_STDLIB" ] || { echo "jni-roundtrip: no kotlin-stdlib.jar in $KOTLIN_HOME" >&2; exit 1; }

# ---- 1. gobind ----------------------------------------------------------------
rm -rf "$OUT/gen" "$OUT/gobind" "$OUT/shim" "$OUT/classes" "$OUT/demo" "$OUT/run"
mkdir -p "$OUT"/{gobind,shim/android/content,lib,classes,run}
step "gobind -lang=go,java -javapkg=$JAVAPKG ./bridge"
go tool gobind -lang=go,java -javapkg="$JAVAPKG" -outdir="$OUT/gen" ./bridge

# ---- 2. glue as a host main package ----------------------------------------------
for f in "$OUT"/gen/src/gobind/*; do
  b=$(basename "$f")
  cp "$f" "$OUT/gobind/${b/_android./_jni.}"
done
for h in "$OUT"/gobind/*_jni.h; do cp "$h" "${h%_jni.h}_android.h"; done # still #included by the old name

cat > "$OUT/shim/android/log.h" <<'EOF'
/* Host stand-in for the NDK's <android/log.h>: the glue's logs go to stderr. */
#ifndef WAYFINDER_HOST_ANDROID_LOG_H
#define WAYFINDER_HOST_ANDROID_LOG_H
#include <stdarg.h>
#include <stdio.h>
typedef enum android_LogPriority {
  ANDROID_LOG_UNKNOWN = 0, ANDROID_LOG_DEFAULT, ANDROID_LOG_VERBOSE, ANDROID_LOG_DEBUG,
  ANDROID_LOG_INFO, ANDROID_LOG_WARN, ANDROID_LOG_ERROR, ANDROID_LOG_FATAL, ANDROID_LOG_SILENT
} android_LogPriority;
static inline int __android_log_vprint(int prio, const char *tag, const char *fmt, va_list ap) {
  int n = fprintf(stderr, "[%d %s] ", prio, tag);
  n += vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  return n + 1;
}
static inline int __android_log_print(int prio, const char *tag, const char *fmt, ...) {
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = __android_log_vprint(prio, tag, fmt, ap);
  va_end(ap);
  return n;
}
static inline int __android_log_write(int prio, const char *tag, const char *msg) {
  return fprintf(stderr, "[%d %s] %s\n", prio, tag, msg);
}
#endif
EOF
ar rcs "$OUT/shim/liblog.a" # empty archive: satisfies '#cgo LDFLAGS: -llog'

# gomobile gets -D__GOBIND_ANDROID__ from '#cgo android CFLAGS' in seq.go
cat > "$OUT/gobind/zz_hostjni.go" <<EOF
// Code generated by scripts/jni-roundtrip.sh. DO NOT EDIT.

package main

// #cgo CFLAGS: -D__GOBIND_ANDROID__ -Wno-incompatible-pointer-types -I$JAVA_HOME/include -I$JAVA_HOME/include/linux -I$OUT/shim
// #cgo LDFLAGS: -L$OUT/shim
import "C"
EOF

# ---- 3. libgojni.so ----------------------------------------------------------------
step "go build -buildmode=c-shared -> _hostjni/lib/libgojni.so"
CGO_ENABLED=1 go build -buildmode=c-shared ${JNI_LDFLAGS:+-ldflags="$JNI_LDFLAGS"} \
  -o "$OUT/lib/libgojni.so" ./_hostjni/gobind
rm -f "$OUT/lib/libgojni.h"

# ---- 4. Java -----------------------------------------------------------------------
step "javac (generated Java + android.content.Context stub)"
echo 'package android.content; public class Context {}' > "$OUT/shim/android/content/Context.java"
javac -nowarn -d "$OUT/classes" $(find "$OUT/gen/java" -name '*.java') "$OUT/shim/android/content/Context.java"
rm -rf "$OUT/classes/android" # the stub is compile-only

# ---- 5. Kotlin (skipped when sources and the generated API are unchanged) ----------
KT_SRC=("$ROOT"/testdata/jni/*.kt)
STAMP=$( (echo "$KOTLIN_VERSION"; cat "${KT_SRC[@]}"; find "$OUT/gen/java" -name '*.java' | sort | xargs cat) | sha256sum | cut -c1-16)
if [ "$(cat "$OUT/ktclasses/.stamp" 2>/dev/null)" != "$STAMP" ]; then
  step "kotlinc $KOTLIN_VERSION testdata/jni/*.kt"
  rm -rf "$OUT/ktclasses"
  "$KOTLINC" -jvm-target 17 -nowarn -cp "$OUT/classes" -d "$OUT/ktclasses" "${KT_SRC[@]}"
  echo "$STAMP" > "$OUT/ktclasses/.stamp"
else
  step "kotlinc skipped (testdata/jni/*.kt and the bound API unchanged)"
fi

# ---- 6. demo phone for the Kotlin device -------------------------------------------
step "exporting the demo phone"
go run ./testdata/jni/exportdemo -out "$OUT/demo"

# ---- 7. run ------------------------------------------------------------------------
SIZE=$(stat -c %s "$OUT/lib/libgojni.so")
step "running $MAIN (libgojni.so $SIZE bytes${JNI_LDFLAGS:+, -ldflags '$JNI_LDFLAGS'})"
set +e
# shellcheck disable=SC2086 # JAVA_OPTS is a list of flags
java ${JAVA_OPTS:-} -Djava.library.path="$OUT/lib" -cp "$OUT/classes:$OUT/ktclasses:$KOTLIN_STDLIB" \
  "$MAIN" "$OUT/demo" "$OUT/run"
rc=$?
set -e
step "done (exit $rc)"
exit $rc

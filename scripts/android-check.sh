#!/usr/bin/env bash
# android-check.sh - CI proof for android-app/ WITHOUT the Android SDK.
#
#  1. installs (once, into $WAYFINDER_CACHE) Kotlin 2.4.20 from npm and, from
#     Maven Central via mvn, org.robolectric:android-all (API 35, the real
#     framework classes), its Robolectric-instrumented twin, Robolectric,
#     JUnit 4 and kotlinx-coroutines;
#  2. generates the Java API of ./bridge with gobind (-javapkg=dev.wayfinder)
#     and compiles it against android-all;
#  3. compiles EVERY Kotlin source of android-app/app/src/main against
#     android-all + the bridge classes + coroutines (the app uses no R class);
#  4. checks that every class the manifest names was compiled;
#  5. compiles and runs the JUnit 4 tests of android-app/app/src/test under
#     Robolectric (offline: robolectric.offline=true, dependency dir = cache);
#  6. checks the wire contract with the Go side: the snapshots the tests
#     wrote are parsed by daemon/screen.ParseJSON, results decode strictly
#     into device.Result, and actions marshalled by Go parse in Kotlin.
# Ends with "N passed, M failed" from the test run; exits non-zero on any failure.
#
# Env: WAYFINDER_CACHE (default <repo>/.tools, gitignored) holds downloads and
#      build output; ANDROID_CHECK_TESTS="ClassA ClassB" runs only those tests;
#      ANDROID_CHECK_CLEAN=1 recompiles even when the sources are unchanged.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${WAYFINDER_CACHE:-$ROOT/.tools}
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
APP=$ROOT/android-app/app

KOTLIN_VERSION=2.4.20
ROBOLECTRIC_VERSION=4.17
# Robolectric 4.17 maps SDK 35 to this android-all build (DefaultSdkProvider);
# SDK 36+ needs Java 21, this machine has 17.
ANDROID_ALL_VERSION=15-robolectric-13954326
ANDROID_ALL_INSTRUMENTED=$ANDROID_ALL_VERSION-i7
COROUTINES_VERSION=1.11.0
JUNIT_VERSION=4.13.2

T0=$EPOCHREALTIME
step() { awk -v t0="$T0" -v t1="$EPOCHREALTIME" -v m="$*" 'BEGIN { printf "== %s (%.1fs)\n", m, t1 - t0 }'; }

# ---- 1. toolchain and jars ---------------------------------------------------
KOTLIN_HOME=$CACHE/kotlin-$KOTLIN_VERSION
KOTLINC=$KOTLIN_HOME/node_modules/kotlin-compiler/bin/kotlinc
if [ ! -x "$KOTLINC" ]; then
  step "installing Kotlin $KOTLIN_VERSION (npm kotlin-compiler)"
  npm install --silent --no-audit --no-fund --prefix "$KOTLIN_HOME" "kotlin-compiler@$KOTLIN_VERSION" >/dev/null
fi
KOTLIN_STDLIB=$KOTLIN_HOME/node_modules/kotlin-compiler/lib/kotlin-stdlib.jar
[ "$(cat "$KOTLIN_HOME/node_modules/kotlin-compiler/build.txt")" = "$KOTLIN_VERSION" ] || {
  echo "$KOTLIN_HOME holds another Kotlin than $KOTLIN_VERSION; delete it and rerun" >&2; exit 1; }

DEPS=$CACHE/android-deps
STAMP=$DEPS/.ok-$ROBOLECTRIC_VERSION-$ANDROID_ALL_INSTRUMENTED-$COROUTINES_VERSION-$JUNIT_VERSION
if [ ! -f "$STAMP" ]; then
  step "fetching jars from Maven Central (mvn, local repo $CACHE/m2)"
  rm -rf "$DEPS" && mkdir -p "$DEPS/lib" "$DEPS/sdk" "$DEPS/aar"
  cat > "$DEPS/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.wayfinder</groupId><artifactId>android-check-deps</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>org.robolectric</groupId><artifactId>robolectric</artifactId><version>$ROBOLECTRIC_VERSION</version></dependency>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>$JUNIT_VERSION</version></dependency>
    <dependency><groupId>org.jetbrains.kotlinx</groupId><artifactId>kotlinx-coroutines-android</artifactId><version>$COROUTINES_VERSION</version></dependency>
  </dependencies>
</project>
EOF
  MVN=(mvn -B -q -f "$DEPS/pom.xml" -Dmaven.repo.local="$CACHE/m2")
  mvn_() { "${MVN[@]}" "$@" >>"$DEPS/mvn.log" 2>&1 || { cat "$DEPS/mvn.log" >&2; exit 1; }; }
  # kotlin-stdlib comes with the compiler (one version only on the classpath)
  mvn_ dependency:copy-dependencies -DoutputDirectory="$DEPS/lib" \
    -DexcludeArtifactIds=kotlin-stdlib,kotlin-stdlib-jdk7,kotlin-stdlib-jdk8
  for a in "android-all:$ANDROID_ALL_VERSION" "android-all-instrumented:$ANDROID_ALL_INSTRUMENTED"; do
    mvn_ dependency:copy -Dartifact="org.robolectric:$a" -DoutputDirectory="$DEPS/sdk"
  done
  # androidx.test AARs that Robolectric depends on: use their classes.jar
  for a in "$DEPS"/lib/*.aar; do
    [ -e "$a" ] || continue
    unzip -p "$a" classes.jar > "$DEPS/aar/$(basename "$a" .aar).jar"
    rm "$a"
  done
  for j in lib/kotlinx-coroutines-core-jvm-$COROUTINES_VERSION.jar lib/kotlinx-coroutines-android-$COROUTINES_VERSION.jar \
           lib/robolectric-$ROBOLECTRIC_VERSION.jar lib/junit-$JUNIT_VERSION.jar; do
    [ -f "$DEPS/$j" ] || { echo "fetch incomplete: $DEPS/$j missing" >&2; exit 1; }
  done
  touch "$STAMP"
fi
ANDROID_ALL=$DEPS/sdk/android-all-$ANDROID_ALL_VERSION.jar
[ -f "$ANDROID_ALL" ] && [ -f "$DEPS/sdk/android-all-instrumented-$ANDROID_ALL_INSTRUMENTED.jar" ] || {
  echo "missing android-all jars in $DEPS/sdk; delete $STAMP and rerun" >&2; exit 1; }
COROUTINES_CP=$(ls "$DEPS"/lib/kotlinx-coroutines-core-jvm-*.jar "$DEPS"/lib/kotlinx-coroutines-android-*.jar | paste -sd:)
ALL_LIBS_CP=$(ls "$DEPS"/lib/*.jar "$DEPS"/aar/*.jar | paste -sd:)

OUT=$CACHE/android-check
rm -rf "$OUT/contract" "$OUT/runner" && mkdir -p "$OUT"/{contract,runner}

# Compiled classes are reused while the hash of their inputs is unchanged
# (ANDROID_CHECK_CLEAN=1 forces a rebuild): a warm rerun only runs the tests.
hash_of() { { printf '%s\n' "$@"; for f in "$@"; do [ -f "$f" ] && cat "$f"; done; } | sha256sum | cut -c1-16; }
fresh() { [ -z "${ANDROID_CHECK_CLEAN:-}" ] && [ -f "$1/.hash" ] && [ "$(cat "$1/.hash")" = "$2" ]; }
# kotlinc_to DIR CLASSPATH SOURCES...: compiles into a clean DIR, fails on any error
kotlinc_to() {
  local dir=$1 cp=$2; shift 2
  rm -rf "$dir" && mkdir -p "$dir"
  local rc=0
  "$KOTLINC" -jvm-target 17 -Werror -cp "$cp" -d "$dir" "$@" > "$dir.log" 2>&1 || rc=$?
  grep -v -E 'noverify|^$' "$dir.log" || true
  [ $rc = 0 ] || { echo "kotlinc failed (exit $rc)" >&2; exit 1; }
}

# ---- 2. bridge Java API --------------------------------------------------------
BRIDGE=$OUT/bridge
BRIDGE_HASH=$(hash_of "$ANDROID_ALL_VERSION" "$ROOT/go.mod" "$ROOT"/bridge/*.go)
if fresh "$BRIDGE" "$BRIDGE_HASH"; then
  step "bridge Java API: up to date"
else
  step "gobind -lang=java -javapkg=dev.wayfinder ./bridge"
  rm -rf "$BRIDGE" && mkdir -p "$BRIDGE"/{src,classes}
  (cd "$ROOT" && go tool gobind -lang=java -javapkg=dev.wayfinder -outdir="$BRIDGE/src" ./bridge)
  mapfile -t BRIDGE_JAVA < <(find "$BRIDGE/src" -name '*.java' | sort)
  javac -nowarn -encoding UTF-8 -d "$BRIDGE/classes" -cp "$ANDROID_ALL" "${BRIDGE_JAVA[@]}"
  echo "   ${#BRIDGE_JAVA[@]} Java files: $(cd "$BRIDGE/src/java" && find . -name '*.java' | sed 's|^\./||' | sort | paste -sd' ')"
  echo "$BRIDGE_HASH" > "$BRIDGE/.hash"
fi

# ---- 3. app sources -------------------------------------------------------------
mapfile -t MAIN_KT < <(find "$APP/src/main" -name '*.kt' | sort)
MAIN=$OUT/main
MAIN_CP=$ANDROID_ALL:$BRIDGE/classes:$COROUTINES_CP
MAIN_HASH=$(hash_of "$BRIDGE_HASH $KOTLIN_VERSION $COROUTINES_VERSION" "${MAIN_KT[@]}")
if fresh "$MAIN" "$MAIN_HASH"; then
  step "kotlinc $KOTLIN_VERSION: ${#MAIN_KT[@]} main sources up to date"
else
  step "kotlinc $KOTLIN_VERSION: ${#MAIN_KT[@]} main sources (-Werror)"
  kotlinc_to "$MAIN/classes" "$MAIN_CP" "${MAIN_KT[@]}"
  echo "$MAIN_HASH" > "$MAIN/.hash"
fi
if grep -rlP '(?<!android\.)\bR\.(id|layout|string|xml|drawable|color|dimen|style)\.|import dev\.wayfinder\.app\.R\b' "$APP/src/main" --include='*.kt' >/dev/null; then
  echo "app code uses the generated R class; build views programmatically instead" >&2; exit 1
fi

# ---- 4. manifest names -----------------------------------------------------------
step "manifest: every named class exists"
MANIFEST=$APP/src/main/AndroidManifest.xml
python3 -c '
import sys, xml.dom.minidom
for f in sys.argv[1:]: xml.dom.minidom.parse(f)' "$MANIFEST" "$APP"/src/main/res/*/*.xml
missing=0
for n in $(grep -oE 'android:name="\.[A-Za-z0-9_.]+"' "$MANIFEST" | sed -E 's/android:name="\.(.*)"/\1/'); do
  f=$MAIN/classes/dev/wayfinder/app/${n//.//}.class
  if [ -f "$f" ]; then echo "   .$n"; else echo "   MISSING class for .$n" >&2; missing=1; fi
done
[ $missing = 0 ] || exit 1

# ---- 5. unit tests ---------------------------------------------------------------
mapfile -t TEST_KT < <(find "$APP/src/test" -name '*.kt' | sort)
TEST=$OUT/test
TEST_CP=$MAIN/classes:$MAIN_CP:$ALL_LIBS_CP
TEST_HASH=$(hash_of "$MAIN_HASH $ROBOLECTRIC_VERSION $JUNIT_VERSION" "${TEST_KT[@]}")
if fresh "$TEST" "$TEST_HASH"; then
  step "kotlinc $KOTLIN_VERSION: ${#TEST_KT[@]} test sources up to date"
else
  step "kotlinc $KOTLIN_VERSION: ${#TEST_KT[@]} test sources"
  kotlinc_to "$TEST/classes" "$TEST_CP" "${TEST_KT[@]}"
  echo "$TEST_HASH" > "$TEST/.hash"
fi

step "Go side of the contract: marshalling actions"
mkdir -p "$ROOT/.tools/contract-go"   # inside the module (gitignored), so it can import daemon/*
cat > "$ROOT/.tools/contract-go/main.go" <<'EOF'
// Command contract-go checks the Kotlin <-> Go wire formats for android-check.sh.
//
//	contract-go actions OUT.jsonl   Go-marshalled device.Actions + whether Validate accepts them
//	contract-go check DIR           parses DIR/*.snapshot.json with screen.ParseJSON and
//	                                DIR/*.result.json strictly into device.Result
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "contract-go:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("usage: contract-go actions OUT | check DIR")
	}
	switch args[0] {
	case "actions":
		acts := []device.Action{
			{Type: device.Tap, Node: 3, Bounds: screen.Rect{10, 20, 110, 220}, Label: "Save"},
			{Type: device.Tap, Node: -1, X: 540, Y: 1200},
			{Type: device.LongPress, Node: 0, Label: "Item \"quoted\" ünïcode"},
			{Type: device.Input, Node: 7, Bounds: screen.Rect{0, 100, 1080, 200}, Text: "Alice\nline 2"},
			{Type: device.Scroll, Node: 2, Direction: device.Forward},
			{Type: device.Scroll, Node: -1, Direction: device.Backward},
			{Type: device.Back, Node: -1},
			{Type: device.Home, Node: -1},
			{Type: device.Launch, Node: -1, Package: "com.example.notes"},
			{Type: device.ImeEnter, Node: -1},
			{Type: device.ImeEnter, Node: 2, Label: "Search", CaptureID: "3f2a9c1e-7"},
			{Type: device.Tap, Node: 4, Bounds: screen.Rect{40, 340, 520, 460}, CaptureID: "3f2a9c1e-8"},
			{Type: device.Tap, Node: -1},
			{Type: device.Input, Node: -1, Text: "x"},
			{Type: device.Scroll, Node: 1, Direction: "sideways"},
			{Type: device.Launch, Node: -1},
			{Type: "swipe", Node: 1},
		}
		var b bytes.Buffer
		for _, a := range acts {
			j, err := json.Marshal(a)
			if err != nil {
				return err
			}
			line, _ := json.Marshal(map[string]any{"action": json.RawMessage(j), "valid": a.Validate() == nil})
			b.Write(append(line, '\n'))
		}
		return os.WriteFile(args[1], b.Bytes(), 0o644)
	case "check":
		snaps, _ := filepath.Glob(filepath.Join(args[1], "*.snapshot.json"))
		results, _ := filepath.Glob(filepath.Join(args[1], "*.result.json"))
		if len(snaps) == 0 || len(results) == 0 {
			return fmt.Errorf("%s: no *.snapshot.json or *.result.json written by the tests", args[1])
		}
		for _, f := range snaps {
			b, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			s, err := screen.ParseJSON(b)
			if err != nil {
				return fmt.Errorf("%s: %w", filepath.Base(f), err)
			}
			// ids must already be dense in document order, so that the
			// daemon's renumbering is the identity and action node ids match.
			var raw struct {
				Windows []struct {
					Nodes []struct {
						ID int `json:"id"`
					} `json:"nodes"`
				} `json:"windows"`
			}
			if err := json.Unmarshal(b, &raw); err != nil {
				return err
			}
			i := 0
			for _, w := range raw.Windows {
				for _, n := range w.Nodes {
					if n.ID != i {
						return fmt.Errorf("%s: node id %d at position %d: ids must be dense in document order", filepath.Base(f), n.ID, i)
					}
					i++
				}
			}
			fmt.Printf("   go parsed %s: %d windows, %d nodes, %dx%d, package %q\n",
				filepath.Base(f), len(s.Windows), len(s.Nodes), s.Width, s.Height, s.Package)
		}
		for _, f := range results {
			b, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				dec := json.NewDecoder(strings.NewReader(line))
				dec.DisallowUnknownFields()
				var r device.Result
				if err := dec.Decode(&r); err != nil {
					return fmt.Errorf("%s: %q: %w", filepath.Base(f), line, err)
				}
			}
			fmt.Printf("   go decoded %s\n", filepath.Base(f))
		}
		return nil
	}
	return fmt.Errorf("unknown mode %q", args[0])
}
EOF
CONTRACT_BIN=$OUT/contract-go
CONTRACT_HASH=$(hash_of "$ROOT/.tools/contract-go/main.go" "$ROOT/go.mod" "$ROOT/go.sum" "$ROOT"/daemon/screen/*.go "$ROOT"/daemon/device/*.go)
if ! [ -x "$CONTRACT_BIN" ] || ! fresh "$OUT/contract-go.d" "$CONTRACT_HASH"; then
  mkdir -p "$OUT/contract-go.d"
  (cd "$ROOT" && go build -o "$CONTRACT_BIN" ./.tools/contract-go/main.go)
  echo "$CONTRACT_HASH" > "$OUT/contract-go.d/.hash"
fi
"$CONTRACT_BIN" actions "$OUT/contract/go-actions.jsonl"

step "running tests (Robolectric $ROBOLECTRIC_VERSION offline, SDK 35)"
cat > "$OUT/runner/CheckRunner.java" <<'EOF'
import java.nio.file.*;
import java.util.*;
import org.junit.runner.*;
import org.junit.runner.notification.*;

/** Runs every *Test class under a directory (or the named ones) and prints "N passed, M failed". */
public class CheckRunner {
  public static void main(String[] args) throws Exception {
    Path dir = Paths.get(args[0]);
    List<Class<?>> classes = new ArrayList<>();
    List<String> names = new ArrayList<>();
    if (args.length > 1) {
      for (int i = 1; i < args.length; i++) names.add(args[i]);
    } else {
      try (var s = Files.walk(dir)) {
        s.map(p -> dir.relativize(p).toString())
         .filter(p -> p.endsWith("Test.class") && !p.contains("$"))
         .sorted().forEach(p -> names.add(p.substring(0, p.length() - 6).replace('/', '.')));
      }
    }
    for (String n : names) classes.add(Class.forName(n.contains(".") ? n : "dev.wayfinder.app." + n));
    JUnitCore core = new JUnitCore();
    final int[] failed = {0}, skipped = {0};
    core.addListener(new RunListener() {
      @Override public void testFailure(Failure f) {
        failed[0]++;
        System.out.println("FAIL " + f.getDescription().getDisplayName() + ": " + f.getMessage());
        System.out.println(f.getTrace());
      }
      @Override public void testAssumptionFailure(Failure f) {
        skipped[0]++;
        System.out.println("SKIP " + f.getDescription().getDisplayName() + ": " + f.getMessage());
      }
      @Override public void testIgnored(Description d) { skipped[0]++; }
      @Override public void testFinished(Description d) {
        System.out.println("ran  " + d.getDisplayName());
      }
    });
    Result r = core.run(classes.toArray(new Class<?>[0]));
    int failures = r.getFailureCount();
    int passed = r.getRunCount() - failures - r.getAssumptionFailureCount();
    System.out.println(classes.size() + " test classes, " + r.getRunCount() + " tests in " + r.getRunTime() + " ms");
    System.out.println(passed + " passed, " + failures + " failed" + (skipped[0] > 0 ? ", " + skipped[0] + " skipped" : ""));
    System.exit(failures == 0 && r.getRunCount() > 0 ? 0 : 1);
  }
}
EOF
javac -nowarn -d "$OUT/runner" -cp "$ALL_LIBS_CP" "$OUT/runner/CheckRunner.java"
RUN_CP=$OUT/runner:$TEST/classes:$APP/src/test/resources:$MAIN/classes:$BRIDGE/classes:$KOTLIN_STDLIB:$ALL_LIBS_CP:$ANDROID_ALL
set +e
# shellcheck disable=SC2086
(cd "$APP" && exec java -Xmx2g \
  -Drobolectric.offline=true \
  -Drobolectric.dependency.dir="$DEPS/sdk" \
  -Drobolectric.logging.enabled=false \
  -Dwayfinder.contract.dir="$OUT/contract" \
  -cp "$RUN_CP" CheckRunner "$TEST/classes" ${ANDROID_CHECK_TESTS:-}) > "$OUT/test.log" 2>&1
rc=$?
set -e
grep -E '^(FAIL|SKIP|ran |\s+at dev\.wayfinder|[0-9]+ test classes)' "$OUT/test.log" | grep -v -E '^\s+at .*(\$\$robo|reflect)' || true
if [ $rc != 0 ]; then
  echo "--- test log: $OUT/test.log (last 60 lines)"; tail -60 "$OUT/test.log"
fi
SUMMARY=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$OUT/test.log" | tail -1 || true)

if [ $rc = 0 ] && [ -z "${ANDROID_CHECK_TESTS:-}" ]; then
  step "Go side of the contract: parsing what Kotlin wrote"
  "$CONTRACT_BIN" check "$OUT/contract" || rc=1
fi
step "done: ${#MAIN_KT[@]} main + ${#TEST_KT[@]} test Kotlin sources compiled (now or, unchanged, in an earlier run)"
echo "${SUMMARY:-0 passed, 1 failed}"
exit $rc

# android-standin.sh - sourced by scripts/android-build.sh and scripts/apk-check.sh:
# the stand-in Android toolchain, for machines without Google's SDK and NDK.
#
# Everything comes from the registries plus ../shared/android-sysroot (the kit;
# its README has the recipe this follows), cached under $CACHE/android-standin:
#   Debian apt   clang-16 lld-16 libgcc-12-dev-arm64-cross (the kit's compiler),
#                aapt zipalign apksigner dexdump zip unzip maven (packaging, checks)
#   npm          kotlin-compiler (the same cache dir as scripts/android-check.sh)
#   Maven        org.robolectric:android-all 15 (android.jar: the API 35 classes)
#   Central      and 14 (its resources.arsc: Debian's aapt v1 resolves no android:
#                attribute with API 35's table), com.android.tools:r8 (D8),
#                kotlinx-coroutines (the app's only library)
#   the kit      build.sh -> a stub NDK (revision 0.1.0: NOT a Google NDK)
#
# Callers set ROOT, CACHE (absolute) and define die(). Functions:
#   standin_tools          installs (root + apt) or names the missing Debian packages
#   standin_ndk            builds the kit once per kit content; sets STANDIN_NDK
#   standin_sdk            android.jar + the API 34 resource table; sets STANDIN_SDK
#   standin_apk V AAR APK  packages the app: V = debug|release
#   is_standin_ndk DIR     true when DIR is the kit's stub NDK (whatever revision it wears)

SI_KOTLIN_VERSION=2.4.20          # = scripts/android-check.sh, android-app/build.gradle.kts
SI_COROUTINES_VERSION=1.11.0      # = android-app/app/build.gradle.kts
SI_R8_VERSION=9.5.28
SI_ANDROID_ALL_35=15-robolectric-13954326   # android.jar (API 35 classes)
SI_ANDROID_ALL_34=14-robolectric-10818077   # resources.arsc (API 34) for aapt
SI_MIN_API=26                     # = minSdk; the kit's stubs are built for exactly this level
SI_DIR=$CACHE/android-standin
SI_KIT=${ANDROID_SYSROOT_KIT:-${SHARED:-$ROOT/../shared}/android-sysroot}
case $SI_KIT in /*) ;; *) SI_KIT=$ROOT/$SI_KIT ;; esac

si_step() { printf '== %s\n' "$*"; }
mkdir -p "$SI_DIR"

# is_standin_ndk DIR: the kit writes "(not a Google NDK)" into Pkg.Desc; it can be
# built to wear any revision (NDK_REVISION=27.2.12479018), so the revision proves nothing.
is_standin_ndk() { grep -q '^Pkg.Desc.*not a Google NDK' "$1/source.properties" 2>/dev/null; }

standin_tools() {
  local need=() c
  for c in clang-16:clang-16 ld.lld-16:lld-16 aapt:aapt zipalign:zipalign apksigner:apksigner \
           dexdump:dexdump zip:zip unzip:unzip mvn:maven readelf:binutils python3:python3 \
           keytool:openjdk-17-jdk-headless javac:openjdk-17-jdk-headless npm:npm; do
    command -v "${c%%:*}" >/dev/null 2>&1 || need+=("${c#*:}")
  done
  compgen -G '/usr/lib/gcc-cross/aarch64-linux-gnu/*/libgcc.a' >/dev/null || need+=(libgcc-12-dev-arm64-cross)
  [ ${#need[@]} = 0 ] && return 0
  mapfile -t need < <(printf '%s\n' "${need[@]}" | sort -u)
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    si_step "apt-get install ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    die "missing Debian packages for the stand-in toolchain: apt-get install ${need[*]}"
  fi
}

standin_kotlin() {
  local home=$CACHE/kotlin-$SI_KOTLIN_VERSION
  KOTLINC=$home/node_modules/kotlin-compiler/bin/kotlinc
  KOTLIN_STDLIB=$home/node_modules/kotlin-compiler/lib/kotlin-stdlib.jar
  if [ ! -x "$KOTLINC" ]; then
    si_step "installing Kotlin $SI_KOTLIN_VERSION (npm kotlin-compiler) into $home"
    npm install --silent --no-audit --no-fund --prefix "$home" "kotlin-compiler@$SI_KOTLIN_VERSION" >/dev/null
  fi
  [ -f "$KOTLIN_STDLIB" ] || die "no kotlin-stdlib.jar in $home"
}

# standin_jars: Maven Central artifacts into $SI_DIR/jars (local repo $CACHE/m2, shared
# with scripts/android-check.sh, so android-all 15 is downloaded once).
standin_jars() {
  SI_JARS=$SI_DIR/jars
  local stamp=$SI_JARS/.ok-$SI_ANDROID_ALL_35-$SI_ANDROID_ALL_34-$SI_R8_VERSION-$SI_COROUTINES_VERSION a
  [ -f "$stamp" ] && return 0
  si_step "fetching android-all, r8 and kotlinx-coroutines from Maven Central (local repo $CACHE/m2)"
  rm -rf "$SI_JARS" && mkdir -p "$SI_JARS"
  for a in org.robolectric:android-all:$SI_ANDROID_ALL_35 org.robolectric:android-all:$SI_ANDROID_ALL_34 \
           com.android.tools:r8:$SI_R8_VERSION \
           org.jetbrains.kotlinx:kotlinx-coroutines-android:$SI_COROUTINES_VERSION \
           org.jetbrains.kotlinx:kotlinx-coroutines-core-jvm:$SI_COROUTINES_VERSION; do
    mvn -B -q dependency:copy -Dmaven.repo.local="$CACHE/m2" -Dartifact="$a" -DoutputDirectory="$SI_JARS" \
      >>"$SI_DIR/mvn.log" 2>&1 || { tail -30 "$SI_DIR/mvn.log" >&2; die "mvn could not fetch $a"; }
  done
  touch "$stamp"
}

# standin_sdk: $STANDIN_SDK/platforms/android-35/android.jar = android-all 15 + the JDK's
# java.*/javax.* classes (android-all lacks them as class files; gomobile's javac and D8
# need them), and $STANDIN_SDK/android34-res.zip = API 34's resources.arsc for aapt.
standin_sdk() {
  standin_jars
  STANDIN_SDK=$SI_DIR/sdk-$SI_ANDROID_ALL_35
  ANDROID_JAR=$STANDIN_SDK/platforms/android-35/android.jar
  RES_TABLE=$STANDIN_SDK/android34-res.zip
  [ -f "$STANDIN_SDK/.ok" ] && return 0
  si_step "stand-in SDK: android.jar from android-all $SI_ANDROID_ALL_35 + JDK classes"
  local tmp jh m
  rm -rf "$STANDIN_SDK" && mkdir -p "$STANDIN_SDK/platforms/android-35"
  tmp=$(mktemp -d)
  cp "$SI_JARS/android-all-$SI_ANDROID_ALL_35.jar" "$tmp/android.jar"
  jh=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
  jimage extract --dir "$tmp/jbase" \
    --include 'regex:/java\.(base|logging|sql)/java/.*,regex:/java\.(sql|xml)/javax/.*,regex:/java\.xml/org/.*' \
    "$jh/lib/modules"
  for m in java.base java.logging java.sql java.xml; do (cd "$tmp/jbase/$m" && zip -qr "$tmp/android.jar" .); done
  mv "$tmp/android.jar" "$ANDROID_JAR"
  mkdir -p "$tmp/res34"
  unzip -q -o "$SI_JARS/android-all-$SI_ANDROID_ALL_34.jar" resources.arsc AndroidManifest.xml -d "$tmp/res34"
  (cd "$tmp/res34" && zip -q -0 "$RES_TABLE" resources.arsc AndroidManifest.xml)
  rm -rf "$tmp"
  touch "$STANDIN_SDK/.ok"
}

# standin_ndk: the kit's stub NDK for API $SI_MIN_API, arm64-v8a and x86_64, rebuilt when
# any file of the kit changes.
standin_ndk() {
  [ -x "$SI_KIT/build.sh" ] || die "no stand-in kit at $SI_KIT (set SHARED or ANDROID_SYSROOT_KIT) and no Android SDK (ANDROID_HOME): nothing to build with"
  local h out
  h=$(cd "$SI_KIT" && find . -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-12)
  out=$SI_DIR/ndk-$h
  STANDIN_NDK=$(ls -d "$out"/ndk/*/ 2>/dev/null | head -1 || true)
  STANDIN_NDK=${STANDIN_NDK%/}
  if [ -z "$STANDIN_NDK" ] || [ ! -f "$out/.ok" ]; then
    si_step "building the stub NDK from $SI_KIT (API $SI_MIN_API)"
    rm -rf "$out"
    ABIS="arm64-v8a x86_64" bash "$SI_KIT/build.sh" "$out" "$SI_MIN_API" > "$SI_DIR/ndk-build.log" 2>&1 ||
      { cat "$SI_DIR/ndk-build.log" >&2; die "the kit's build.sh failed"; }
    grep '^self-check' "$SI_DIR/ndk-build.log" | sed 's/^/   /'
    touch "$out/.ok"
    STANDIN_NDK=$(ls -d "$out"/ndk/*/ | head -1); STANDIN_NDK=${STANDIN_NDK%/}
  fi
  is_standin_ndk "$STANDIN_NDK" || die "$STANDIN_NDK does not describe itself as the stand-in kit"
}

# gradle_prop NAME: a value from android-app/app/build.gradle.kts (one source of truth
# for the application id, SDK levels and version).
gradle_prop() {
  sed -nE "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*\"?([^\"]*)\"?[[:space:]]*$/\1/p" \
    "$ROOT/android-app/app/build.gradle.kts" | head -1
}

# si_pack BASE STAGE OUT: BASE (from aapt) plus STAGE's classes*.dex (deflated),
# lib/<abi>/*.so (stored), assets/ (*.safetensors stored) and META-INF/services/*
# (deflated) -> OUT. Every stored entry
# carries the zip extra field 0xd935 (the alignment field of Android's apksigner and
# zipalign: uint16 multiple, then padding) with its data at that multiple: 16384 for
# .so files (mapped from the APK on 16 KiB-page devices), 4 otherwise. apksigner keeps
# the multiple the field names (it realigns .so to 4096 without one, and Debian's
# zipalign 10 knows no 16 KiB page size).
si_pack() {
  python3 - "$@" <<'PY'
import os, struct, sys, zipfile
base, stage, out = sys.argv[1:4]
ALIGN_ID = 0xD935

def add(zout, info, data):
    if info.compress_type != zipfile.ZIP_STORED:
        zout.writestr(info, data)
        return
    align = 16384 if info.filename.endswith(".so") else 4
    # local header: 30 bytes + name + extra, written at start_dir (zipfile's append point)
    at = zout.start_dir + 30 + len(info.filename.encode()) + 6
    info.extra = struct.pack("<HHH", ALIGN_ID, 2 + (-at) % align, align) + b"\0" * ((-at) % align)
    zout.writestr(info, data)
    info.extra = struct.pack("<HHH", ALIGN_ID, 2, align)  # the central directory needs no padding
    assert (info.header_offset + 30 + len(info.filename.encode()) + 6 + (-at) % align) % align == 0

with zipfile.ZipFile(base) as zin, zipfile.ZipFile(out, "w") as zout:
    for i in zin.infolist():
        n = zipfile.ZipInfo(i.filename, i.date_time)
        n.compress_type, n.external_attr = i.compress_type, i.external_attr
        add(zout, n, zin.read(i))
    for d, _, files in sorted(os.walk(stage)):
        for f in sorted(files):
            rel = os.path.relpath(os.path.join(d, f), stage).replace(os.sep, "/")
            n = zipfile.ZipInfo(rel, (1981, 1, 1, 0, 0, 0))
            n.external_attr = 0o644 << 16
            # native libraries and model weights stored (mapped, or opened with openFd)
            stored = rel.startswith("lib/") or rel.endswith(".safetensors")
            n.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            add(zout, n, open(os.path.join(d, f), "rb").read())
PY
}

# standin_apk VARIANT AAR APK: kotlinc -> D8 -> aapt package -> si_pack (dex, native
# libraries at 16 KiB, service files) -> apksigner (debug key, or the release key from env).
standin_apk() {
  local variant=$1 aar=$2 apk=$3
  local app=$ROOT/android-app/app/src/main w=$SI_DIR/build-$variant
  # the classes are the same for both variants while the bound API is: one cache, keyed by hash
  local kc=$SI_DIR/kotlin-classes
  standin_kotlin; standin_sdk
  local app_id min_sdk target_sdk vcode vname
  app_id=$(gradle_prop applicationId); min_sdk=$(gradle_prop minSdk); target_sdk=$(gradle_prop targetSdk)
  vcode=$(gradle_prop versionCode); vname=$(gradle_prop versionName)
  [ -n "$app_id" ] && [ -n "$min_sdk" ] && [ -n "$target_sdk" ] && [ -n "$vcode" ] && [ -n "$vname" ] ||
    die "could not read applicationId/minSdk/targetSdk/versionCode/versionName from android-app/app/build.gradle.kts"
  [ "$min_sdk" = "$SI_MIN_API" ] || die "minSdk is $min_sdk but the stub NDK is built for API $SI_MIN_API"

  rm -rf "$w/aar" "$w/stage" "$w"/*.apk && mkdir -p "$w/aar" "$w/stage"
  unzip -q -o "$aar" classes.jar 'jni/*' -d "$w/aar"
  local libs=("$SI_JARS/kotlinx-coroutines-android-$SI_COROUTINES_VERSION.jar"
              "$SI_JARS/kotlinx-coroutines-core-jvm-$SI_COROUTINES_VERSION.jar")

  # Kotlin -> classes, skipped while the sources, the bound API and the versions are unchanged
  local kt h
  mapfile -t kt < <(find "$app/kotlin" -name '*.kt' | LC_ALL=C sort)
  [ ${#kt[@]} -gt 0 ] || die "no Kotlin sources under $app/kotlin"
  h=$( { echo "$SI_KOTLIN_VERSION $SI_COROUTINES_VERSION $SI_ANDROID_ALL_35"; printf '%s\n' "${kt[@]}"; cat "${kt[@]}" "$w/aar/classes.jar"; } | sha256sum | cut -c1-16)
  if [ "$(cat "$kc.hash" 2>/dev/null)" = "$h" ]; then
    si_step "kotlinc: ${#kt[@]} sources unchanged"
  else
    si_step "kotlinc $SI_KOTLIN_VERSION: ${#kt[@]} sources"
    rm -rf "$kc" && mkdir -p "$kc"
    "$KOTLINC" -jvm-target 17 -no-reflect -nowarn -cp "$ANDROID_JAR:$w/aar/classes.jar:$(IFS=:; echo "${libs[*]}")" \
      -d "$kc" "${kt[@]}" 2>&1 | grep -v -E 'noverify|^$' || true
    [ -n "$(find "$kc" -name '*.class' -print -quit)" ] || die "kotlinc produced no classes"
    echo "$h" > "$kc.hash"
  fi

  # D8, skipped while its inputs are unchanged ($h covers the sources and the bound API)
  local dh="$h $variant $min_sdk $SI_R8_VERSION"
  if [ "$(cat "$w/dex.hash" 2>/dev/null)" = "$dh" ] && compgen -G "$w/dex/classes*.dex" >/dev/null; then
    si_step "D8: inputs unchanged ($variant)"
  else
    si_step "D8 $SI_R8_VERSION ($variant, min API $min_sdk)"
    rm -rf "$w/dex" "$w/dex.hash" "$w/app-classes.jar" && mkdir -p "$w/dex"
    jar cf "$w/app-classes.jar" -C "$kc" .
    java -Xmx1g -cp "$SI_JARS/r8-$SI_R8_VERSION.jar" com.android.tools.r8.D8 \
      "--$variant" --min-api "$min_sdk" --lib "$ANDROID_JAR" --output "$w/dex" \
      "$w/app-classes.jar" "$w/aar/classes.jar" "${libs[@]}" "$KOTLIN_STDLIB"
    echo "$dh" > "$w/dex.hash"
  fi

  si_step "aapt package (API 34 resource table; minSdk $min_sdk, targetSdk $target_sdk)"
  # aapt v1 needs package= in the manifest (AGP injects it from namespace)
  sed -E "0,/<manifest /s|<manifest |<manifest package=\"$app_id\" |" "$app/AndroidManifest.xml" > "$w/AndroidManifest.xml"
  local aapt_args=(-f -M "$w/AndroidManifest.xml" -I "$RES_TABLE"
    --min-sdk-version "$min_sdk" --target-sdk-version "$target_sdk"
    --version-code "$vcode" --version-name "$vname")
  [ -d "$app/res" ] && aapt_args+=(-S "$app/res")
  [ -d "$app/assets" ] && aapt_args+=(-A "$app/assets")
  [ "$variant" = debug ] && aapt_args+=(--debug-mode)
  aapt package "${aapt_args[@]}" -F "$w/base.apk"

  # classes*.dex compressed; lib/<abi>/*.so stored (mapped from the APK: extractNativeLibs
  # defaults to false from API 23); META-INF/services of the libraries (ServiceLoader
  # files, e.g. kotlinx-coroutines' Main dispatcher), as AGP merges them.
  cp "$w"/dex/classes*.dex "$w/stage/"
  local abi
  for abi in arm64-v8a x86_64; do
    [ -f "$w/aar/jni/$abi/libgojni.so" ] || die "$aar has no jni/$abi/libgojni.so"
    mkdir -p "$w/stage/lib/$abi" && cp "$w/aar/jni/$abi/libgojni.so" "$w/stage/lib/$abi/"
  done
  # the on-device sentence-embedding model (daemon/bert) as assets/models/<name>/, from the
  # cache scripts/fetch-model.sh fills and verifies: its config, vocabulary and int8 weights
  # (model.int8.safetensors; the float32 file stays out) (WAYFINDER_APK_NO_MODEL=1: leave it out)
  if [ -z "${WAYFINDER_APK_NO_MODEL:-}" ] && [ -f "$ROOT/scripts/fetch-model.sh" ]; then
    local mdir f
    mdir=$(WAYFINDER_CACHE=$CACHE bash "$ROOT/scripts/fetch-model.sh" | tail -1) ||
      die "scripts/fetch-model.sh could not provide the embedding model (WAYFINDER_APK_NO_MODEL=1 builds without it)"
    mkdir -p "$w/stage/assets/models/$(basename "$mdir")"
    for f in config.json vocab.txt model.int8.safetensors; do
      cp "$mdir/$f" "$w/stage/assets/models/$(basename "$mdir")/"
    done
    si_step "assets: models/$(basename "$mdir") ($(du -shc "$w/stage/assets/models/$(basename "$mdir")"/* | tail -1 | cut -f1))"
  fi
  for j in "${libs[@]}" "$KOTLIN_STDLIB"; do
    unzip -q -o "$j" 'META-INF/services/*' -d "$w/stage" 2>/dev/null || true
  done
  si_pack "$w/base.apk" "$w/stage" "$w/aligned.apk"
  mkdir -p "$(dirname "$apk")"
  if [ "$variant" = debug ]; then
    local ks=$CACHE/android-debug.keystore
    if [ ! -f "$ks" ]; then
      si_step "generating the debug key $ks (machine-local, never committed)"
      keytool -genkeypair -keystore "$ks" -storepass android -keypass android -alias androiddebugkey \
        -keyalg RSA -keysize 2048 -validity 10000 -dname "CN=Android Debug,O=Android,C=US" >/dev/null 2>&1
    fi
    si_step "apksigner sign (debug key $ks)"
    apksigner sign --ks "$ks" --ks-pass pass:android --key-pass pass:android --ks-key-alias androiddebugkey \
      --out "$apk" "$w/aligned.apk"
  else
    si_step "apksigner sign (release key from \$WAYFINDER_KEYSTORE)"
    apksigner sign --ks "$WAYFINDER_KEYSTORE" --ks-key-alias "$WAYFINDER_KEY_ALIAS" \
      --ks-pass env:WAYFINDER_KEYSTORE_PASS --key-pass "env:$RELEASE_KEY_PASS_VAR" \
      --out "$apk" "$w/aligned.apk"
  fi
  rm -f "$apk.idsig"
}

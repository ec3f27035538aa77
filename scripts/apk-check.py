#!/usr/bin/env python3
"""apk-check.py - static checks of a built Wayfinder APK and the AAR it came from.

Run by scripts/apk-check.sh (which builds, installs the tools and finds the NDK's API 26
stub libraries); usable alone:

    apk-check.py --root REPO --ndk NDK_DIR --check debug|release APK AAR [--check ...]

Checks (each prints "ok" or "FAIL" with what it saw; the run ends with "N passed, M failed"
and exits non-zero on any failure):
  signature   apksigner verify (v2 or v3); a release APK is not signed with a debug key
  alignment   zipalign -c -p 4; every lib/*.so stored uncompressed at a 16 KiB offset
  badging     aapt dump badging: package = applicationId of android-app/app/build.gradle.kts,
              minSdk 26, targetSdk 35, the permissions = the source manifest's, both ABIs,
              debuggable only in debug, the launcher activity, the accessibility component
  service     the accessibility service: BIND_ACCESSIBILITY_SERVICE, its intent filter and
              meta-data, and the config XML it points to (window content, gestures,
              interactive windows, view ids, a description string)
  dex         dexdump parses every classes*.dex; they hold every class of the AAR's
              classes.jar (gobind), every manifest component and every class named by the
              APK's META-INF/services files
  elf         per ABI: the APK's libgojni.so = the AAR's; machine; NEEDED within
              {libc, libdl, libm, liblog, libandroid}; every undefined dynamic symbol (and
              its version) defined by the NDK's API 26 stubs; PT_LOAD aligned to 16 KiB
  inspector   the debugging inspector page is in a debug build's library and not in a
              release build's (daemon/inspect/release.go, tag wayfinder_release)
  assets      every file of android-app/app/src/main/assets is in the APK unchanged, and
              the embedding model of --model-dir under assets/models/<name>/ (weights stored)
  sizes       the AAR, each .so, the dex and the APK (less the model) under their ceilings
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import zipfile

MIN_SDK, TARGET_SDK = 26, 35  # issue 12; also asserted equal to the Gradle file's
ABIS = {"arm64-v8a": ("AArch64", "aarch64-linux-android"), "x86_64": ("Advanced Micro Devices X86-64", "x86_64-linux-android")}
ALLOWED_NEEDED = {"libc.so", "libdl.so", "libm.so", "liblog.so", "libandroid.so"}
PAGE = 16384
MB = 1 << 20
# Ceilings, with headroom over what was measured when they were set (2026-11, stand-in build):
# AAR 12.0 MiB, libgojni.so 14.8 MiB (arm64-v8a) / 15.9 MiB (x86_64), classes.dex 3.9 MiB,
# debug APK 32.0 MiB without the 86.8 MiB embedding model (118.7 MiB with it). A jump past
# them means an accidental dependency or a lost -s -w. The model is checked by content.
CEILINGS = {"aar": 16 * MB, "so": 20 * MB, "dex": 8 * MB, "apk": 40 * MB}
A11Y_FLAGS = {"flagReportViewIds": 0x10, "flagRetrieveInteractiveWindows": 0x40}

passed, failed = 0, 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
    print(f"{'ok  ' if ok else 'FAIL'} {name}{': ' + detail if detail else ''}", flush=True)
    return ok


def run(*cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    return p.returncode, p.stdout, p.stderr


def gradle_prop(root, name):
    text = open(os.path.join(root, "android-app/app/build.gradle.kts")).read()
    m = re.search(rf'^\s*{name}\s*=\s*"?([^"\n]*)"?\s*$', text, re.M)
    return m.group(1) if m else None


def manifest_source(root):
    return open(os.path.join(root, "android-app/app/src/main/AndroidManifest.xml")).read()


def check_signature(apk, variant):
    rc, out, err = run("apksigner", "verify", "--verbose", "--print-certs", apk)
    schemes = [s for s in ("v1", "v2", "v3") if re.search(rf"^Verified using {s} scheme .*: true$", out, re.M)]
    check("signature: apksigner verify", rc == 0 and "Verifies" in out and bool({"v2", "v3"} & set(schemes)),
          f"exit {rc}, schemes {schemes or 'none'}" + ("" if rc == 0 else f": {err.strip()[:300]}"))
    dn = re.search(r"Signer #1 certificate DN: (.*)", out)
    dn = dn.group(1).strip() if dn else "?"
    if variant == "release":
        check("signature: release key is not a debug key", "Android Debug" not in dn, dn)
    else:
        print(f"     signer: {dn}")


def entry_data_offset(f, info):
    f.seek(info.header_offset)
    h = f.read(30)
    return info.header_offset + 30 + int.from_bytes(h[26:28], "little") + int.from_bytes(h[28:30], "little")


def check_alignment(apk, z):
    rc, out, err = run("zipalign", "-c", "-p", "4", apk)
    check("alignment: zipalign -c -p 4", rc == 0, f"exit {rc} {err.strip()[:200]}")
    sos = [i for i in z.infolist() if i.filename.startswith("lib/") and i.filename.endswith(".so")]
    check("alignment: native libraries present", len(sos) > 0, ", ".join(i.filename for i in sos) or "none")
    with open(apk, "rb") as f:
        for i in sos:
            off = entry_data_offset(f, i)
            check(f"alignment: {i.filename} stored at a 16 KiB boundary",
                  i.compress_type == zipfile.ZIP_STORED and off % PAGE == 0,
                  f"{'stored' if i.compress_type == zipfile.ZIP_STORED else 'compressed'}, offset {off} (mod 16384 = {off % PAGE})")


def components(xmltree):
    """(kind, name, attrs, children-lines) of activity/service/receiver/provider elements."""
    out, cur = [], None
    for line in xmltree.splitlines():
        m = re.match(r"(\s*)E: (\w[\w-]*)", line)
        if m:
            depth = len(m.group(1))
            if cur and depth <= cur["depth"]:
                out.append(cur)
                cur = None
            if m.group(2) in ("activity", "activity-alias", "service", "receiver", "provider") and cur is None:
                cur = {"kind": m.group(2), "depth": depth, "lines": []}
                continue
        if cur is not None:
            cur["lines"].append(line)
    if cur:
        out.append(cur)
    for c in out:
        own = [l for l in c["lines"] if not re.match(r"\s*E: ", l)]
        first = re.search(r'A: android:name\([^)]*\)="([^"]+)"', "\n".join(c["lines"]))
        c["name"] = first.group(1) if first else "?"
        c["text"] = "\n".join(c["lines"])
    return out


def full_class(pkg, name):
    return pkg + name if name.startswith(".") else (name if "." in name else f"{pkg}.{name}")


def check_badging(apk, root, variant):
    rc, out, err = run("aapt", "dump", "badging", apk)
    print("     --- aapt dump badging ---")
    print("\n".join("     " + l for l in out.rstrip().splitlines()))
    print("     ---")
    check("badging: aapt dump badging", rc == 0 and out.startswith("package:"), f"exit {rc} {err.strip()[:300]}")
    app_id = gradle_prop(root, "applicationId")
    pkg = re.search(r"^package: name='([^']*)'", out, re.M)
    check("badging: package", pkg is not None and pkg.group(1) == app_id, f"{pkg.group(1) if pkg else None} (want {app_id})")
    for key, want, prop in (("sdkVersion", MIN_SDK, "minSdk"), ("targetSdkVersion", TARGET_SDK, "targetSdk")):
        m = re.search(rf"^{key}:'(\d+)'", out, re.M)
        got = int(m.group(1)) if m else None
        check(f"badging: {key}", got == want and str(want) == gradle_prop(root, prop),
              f"{got} (want {want}; build.gradle.kts {prop} = {gradle_prop(root, prop)})")
    perms = set(re.findall(r"^uses-permission: name='([^']+)'", out, re.M))
    src = set(re.findall(r'<uses-permission\s+android:name="([^"]+)"', manifest_source(root)))
    check("badging: permissions = the source manifest's", perms == src and len(perms) > 0,
          f"{sorted(p.rsplit('.', 1)[-1] for p in perms)}" + (f"; missing {sorted(src - perms)}, extra {sorted(perms - src)}" if perms != src else ""))
    need = {"android.permission.INTERNET", "android.permission.FOREGROUND_SERVICE"}
    check("badging: INTERNET and FOREGROUND_SERVICE requested", need <= perms, f"missing {sorted(need - perms)}" if not need <= perms else "")
    abis = re.findall(r"'([^']+)'", (re.search(r"^native-code: (.*)$", out, re.M) or re.match("", "")).group(0))
    check("badging: native-code arm64-v8a and x86_64", sorted(abis) == sorted(ABIS), f"{abis}")
    dbg = bool(re.search(r"^application-debuggable$", out, re.M))
    check("badging: debuggable only in debug", dbg == (variant == "debug"), f"application-debuggable {'present' if dbg else 'absent'} ({variant})")
    la = re.search(r"^launchable-activity: name='([^']+)'", out, re.M)
    check("badging: launchable activity", la is not None and la.group(1).startswith(app_id + "."), la.group(1) if la else "none")
    check("badging: provides the accessibility component", "provides-component:'accessibility'" in out)
    return app_id


def resource_files(apk):
    """resource id (int) -> string value or file path, from aapt dump --values resources."""
    rc, out, _ = run("aapt", "dump", "--values", "resources", apk)
    res, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"\s*resource (0x[0-9a-f]{8}) \S+: t=", line)
        if m:
            cur = int(m.group(1), 16)
            continue
        m = re.match(r'\s*\(string8\) "(.*)"$', line)
        if m and cur is not None:
            res[cur] = m.group(1)
            cur = None
    return res


def check_service(apk, z, app_id):
    rc, tree, err = run("aapt", "dump", "xmltree", apk, "AndroidManifest.xml")
    check("service: manifest xmltree", rc == 0, err.strip()[:200])
    comps = components(tree)
    a11y = [c for c in comps if c["kind"] == "service" and "android.permission.BIND_ACCESSIBILITY_SERVICE" in c["text"]]
    if not check("service: one service guarded by BIND_ACCESSIBILITY_SERVICE", len(a11y) == 1, ", ".join(c["name"] for c in a11y)):
        return comps
    s = a11y[0]
    check("service: intent filter android.accessibilityservice.AccessibilityService",
          '"android.accessibilityservice.AccessibilityService"' in s["text"], s["name"])
    m = re.search(r'E: meta-data[^\n]*\n\s*A: android:name\([^)]*\)="android.accessibilityservice"[^\n]*\n\s*A: android:resource\([^)]*\)=@(0x[0-9a-f]+)', s["text"])
    res = resource_files(apk)
    path = res.get(int(m.group(1), 16)) if m else None
    if not check("service: meta-data android.accessibilityservice names an XML resource", path is not None and path in z.namelist(), f"{path}"):
        return comps
    rc, cfg, err = run("aapt", "dump", "xmltree", apk, path)
    check("service: config is an <accessibility-service>", rc == 0 and "E: accessibility-service" in cfg, err.strip()[:200])

    def attr(name):
        m = re.search(rf"A: android:{name}\([^)]*\)=((?:\(type \S+\))?\S+)", cfg)
        return m.group(1) if m else None

    for name in ("canRetrieveWindowContent", "canPerformGestures"):
        check(f"service: config {name}=true", attr(name) == "(type 0x12)0xffffffff", f"{attr(name)}")
    flags = attr("accessibilityFlags")
    v = int(flags.split(")")[-1], 16) if flags else 0
    for fname, bit in A11Y_FLAGS.items():
        check(f"service: config accessibilityFlags has {fname}", v & bit == bit, f"{flags}")
    desc = attr("description")
    text = res.get(int(desc[1:], 16)) if desc and desc.startswith("@0x") else None
    check("service: config description resolves to a string", bool(text), f"{(text or desc or 'none')[:60]}...")
    sa = re.search(r'A: android:settingsActivity\([^)]*\)="([^"]+)"', cfg)
    if sa:
        names = {full_class(app_id, c["name"]) for c in comps if c["kind"] == "activity"}
        check("service: config settingsActivity is a declared activity", sa.group(1) in names, sa.group(1))
    return comps


def dex_classes(z, tmp):
    dexes = sorted(n for n in z.namelist() if re.fullmatch(r"classes\d*\.dex", n))
    classes, ok = set(), bool(dexes)
    for n in dexes:
        p = z.extract(n, tmp)
        rc, out, err = run("dexdump", p)
        ok = ok and rc == 0
        classes |= {m.replace("/", ".") for m in re.findall(r"Class descriptor\s*:\s*'L([^;]+);'", out)}
        print(f"     {n}: {z.getinfo(n).file_size} bytes, dexdump exit {rc}")
    check("dex: dexdump parses every classes*.dex", ok, f"{len(dexes)} dex files, {len(classes)} classes")
    return classes, sum(z.getinfo(n).file_size for n in dexes)


def check_dex(z, aar, comps, app_id, tmp):
    classes, dex_size = dex_classes(z, tmp)
    with zipfile.ZipFile(aar) as a, zipfile.ZipFile(a.open("classes.jar")) as cj:
        bound = {n[:-6].replace("/", ".") for n in cj.namelist() if n.endswith(".class")}
    missing = sorted(bound - classes)
    check("dex: every gobind class of the AAR", bound and not missing,
          f"{len(bound)} classes (e.g. {', '.join(sorted(c for c in bound if '$' not in c)[:4])})" + (f"; missing {missing[:5]}" if missing else ""))
    app = sorted(c for c in classes if c.startswith(app_id + "."))
    names = sorted({full_class(app_id, c["name"]) for c in comps})
    missing = [n for n in names if n not in classes]
    check("dex: every manifest component", names and not missing, f"{len(names)} components, {len(app)} app classes" + (f"; missing {missing}" if missing else ""))
    services = [n for n in z.namelist() if n.startswith("META-INF/services/") and not n.endswith("/")]
    named = {l.split("#")[0].strip() for n in services for l in z.read(n).decode().splitlines()} - {""}
    missing = sorted(named - classes)
    check("dex: every class named in META-INF/services", not missing, f"{len(services)} service files, {len(named)} classes" + (f"; missing {missing}" if missing else ""))
    return dex_size


def elf_dynsyms(path):
    """(defined {name: set(versions)}, undefined [(name, version)]) from readelf --dyn-syms -W."""
    rc, out, _ = run("readelf", "--dyn-syms", "-W", path)
    defined, undefined = {}, []
    for line in out.splitlines():
        f = line.split()
        if len(f) < 8 or not f[0].rstrip(":").isdigit() or f[3] == "SECTION" or f[7] == "":
            continue
        name, _, ver = f[7].partition("@")
        ver = ver.lstrip("@").split(" ")[0]
        if f[6] == "UND":
            if name:
                undefined.append((name, ver, f[4]))
        else:
            defined.setdefault(name, set()).add(ver)
    return defined, undefined


def check_elf(z, aar, ndk, tmp, variant, inspector_marker):
    sizes = {}
    with zipfile.ZipFile(aar) as a:
        for abi, (machine, triple) in ABIS.items():
            name = f"lib/{abi}/libgojni.so"
            if not check(f"elf {abi}: {name} in the APK", name in z.namelist()):
                continue
            data = z.read(name)
            sizes[abi] = len(data)
            check(f"elf {abi}: same bytes as the AAR's jni/{abi}/libgojni.so", data == a.read(f"jni/{abi}/libgojni.so"))
            p = os.path.join(tmp, f"{abi}-libgojni.so")
            open(p, "wb").write(data)
            _, hdr, _ = run("readelf", "-h", p)
            check(f"elf {abi}: machine {machine}", re.search(rf"Machine:\s+{re.escape(machine)}", hdr) is not None)
            _, dyn, _ = run("readelf", "-d", "-W", p)
            needed = set(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dyn))
            check(f"elf {abi}: NEEDED within {{libc, libdl, libm, liblog, libandroid}}", needed and needed <= ALLOWED_NEEDED,
                  " ".join(sorted(needed)) + (f"; not allowed: {sorted(needed - ALLOWED_NEEDED)}" if not needed <= ALLOWED_NEEDED else ""))
            check(f"elf {abi}: no TEXTREL", "TEXTREL" not in dyn)
            stubdir = os.path.join(ndk, "toolchains/llvm/prebuilt/linux-x86_64/sysroot/usr/lib", triple, str(MIN_SDK))
            stubs = {}
            for lib in sorted(ALLOWED_NEEDED):
                sp = os.path.join(stubdir, lib)
                if os.path.exists(sp):
                    for k, v in elf_dynsyms(sp)[0].items():
                        stubs.setdefault(k, set()).update(v)
            _, undefined = elf_dynsyms(p)
            bad = [f"{n}@{v}" if v else n for n, v, _ in undefined if n not in stubs or (v and v not in stubs[n])]
            vers = sorted({v or "(unversioned)" for _, v, _ in undefined})
            check(f"elf {abi}: every undefined symbol defined by the API {MIN_SDK} stubs", bool(stubs) and not bad,
                  f"{len(undefined)} undefined, versions {vers}; stubs {stubdir}" + (f"; unresolved {bad[:8]}" if bad else ""))
            _, ph, _ = run("readelf", "-l", "-W", p)
            loads = [l.split() for l in ph.splitlines() if l.strip().startswith("LOAD")]
            bad = [l for l in loads if int(l[-1], 16) < PAGE or int(l[1], 16) % PAGE != int(l[2], 16) % PAGE]
            check(f"elf {abi}: every PT_LOAD aligned to 16 KiB", loads and not bad,
                  f"{len(loads)} LOAD, align {sorted({l[-1] for l in loads})}")
            has = inspector_marker.encode() in data
            want = variant == "debug"
            check(f"inspector {abi}: page {'built in' if want else 'left out'} ({variant})", has == want,
                  f"{inspector_marker!r} {'found' if has else 'absent'}")
    return sizes


def check_assets(z, root, model_dir):
    """Files of android-app/app/src/main/assets and the embedding model; returns the model's bytes."""
    src = os.path.join(root, "android-app/app/src/main/assets")
    for dirpath, _, files in os.walk(src):
        for fn in files:
            rel = os.path.relpath(os.path.join(dirpath, fn), src)
            data = open(os.path.join(dirpath, fn), "rb").read()
            name = "assets/" + rel.replace(os.sep, "/")
            check(f"assets: {name} in the APK unchanged", name in z.namelist() and z.read(name) == data, f"{len(data)} bytes")
    # SEMANTIC MODEL (daemon/bert): scripts/fetch-model.sh verifies the files in the cache;
    # the APK must carry the config, vocabulary and int8 weights unchanged under
    # assets/models/<name>/, the weights stored uncompressed (the app copies them out once;
    # docs/android.md), and not the float32 weights (four times the size, not used).
    if not model_dir or not os.path.isdir(model_dir):
        print(f"     assets: no embedding model at {model_dir or '(none given)'}: model checks skipped")
        return 0
    total = 0
    fp32 = f"assets/models/{os.path.basename(os.path.normpath(model_dir))}/model.safetensors"
    check(f"assets: no float32 weights {fp32}", fp32 not in z.namelist())
    for fn in ("config.json", "vocab.txt", "model.int8.safetensors"):
        name = f"assets/models/{os.path.basename(os.path.normpath(model_dir))}/{fn}"
        want = open(os.path.join(model_dir, fn), "rb").read()
        ok = name in z.namelist() and z.read(name) == want
        if ok and fn.endswith(".safetensors"):
            ok = z.getinfo(name).compress_type == zipfile.ZIP_STORED
        check(f"assets: model {name} unchanged{' and stored' if fn.endswith('.safetensors') else ''}", ok, f"{len(want)} bytes")
        total += z.getinfo(name).compress_size if name in z.namelist() else 0
    return total


def size_line(what, n, ceiling):
    return check(f"size: {what} <= {ceiling / MB:.0f} MiB", n <= ceiling, f"{n} bytes ({n / MB:.1f} MiB)")


def check_one(root, ndk, variant, apk, aar, marker, model_dir):
    print(f"== {variant}: {apk} (from {aar})")
    with zipfile.ZipFile(apk) as z, tempfile.TemporaryDirectory() as tmp:
        check_signature(apk, variant)
        check_alignment(apk, z)
        app_id = check_badging(apk, root, variant)
        comps = check_service(apk, z, app_id)
        dex_size = check_dex(z, aar, comps, app_id, tmp)
        so = check_elf(z, aar, ndk, tmp, variant, marker)
        model = check_assets(z, root, model_dir)
    size_line(f"AAR {os.path.basename(aar)}", os.path.getsize(aar), CEILINGS["aar"])
    for abi, n in so.items():
        size_line(f"libgojni.so {abi}", n, CEILINGS["so"])
    size_line("classes*.dex", dex_size, CEILINGS["dex"])
    size_line(f"APK {os.path.basename(apk)} less the model assets ({model} bytes)", os.path.getsize(apk) - model, CEILINGS["apk"])
    print(f"     APK {os.path.basename(apk)}: {os.path.getsize(apk)} bytes in all ({os.path.getsize(apk) / MB:.1f} MiB)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--ndk", required=True, help="NDK (or stand-in) whose API 26 stubs define the symbols")
    ap.add_argument("--model-dir", help="the embedding model the APK must carry (scripts/fetch-model.sh's directory)")
    ap.add_argument("--check", nargs=3, action="append", required=True, metavar=("VARIANT", "APK", "AAR"),
                    help="VARIANT is debug or release; repeatable")
    a = ap.parse_args()
    html = open(os.path.join(a.root, "daemon/inspect/inspector.html")).read()
    marker = re.search(r"<title>[^<]+</title>", html).group(0)
    for variant, apk, aar in a.check:
        if variant not in ("debug", "release"):
            ap.error(f"variant {variant!r}: want debug or release")
        check_one(a.root, a.ndk, variant, apk, aar, marker, a.model_dir)
    print(f"apk-check.py: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

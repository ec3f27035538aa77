#!/usr/bin/env bash
# Re-vendors the inspector's graph-layout libraries into daemon/inspect/assets
# (embedded in the binary with go:embed, served by the inspector at /assets/):
#   cytoscape        the graph view (canvas, zoom and pan)   MIT
#   cytoscape-dagre  the layered layout, bundling @dagrejs/dagre   MIT
# Each tarball comes from the npm registry (npm pack) at a pinned version
# and must match the pinned sha512 integrity below; the minified browser
# builds and the licences are copied, and SHA256SUMS is rewritten (a Go test
# checks the embedded files against it).
#
# The files are committed, so building needs neither npm nor the network
# (go build, gomobile, the arm64 cross build, CI on a fresh machine); run
# this script only to change a version, then commit what it writes.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/daemon/inspect/assets"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# name@version  integrity (npm view NAME@VERSION dist.integrity)
PKGS=(
  "cytoscape@3.34.4 sha512-msY99tMY8iWTg+sIPGfSqDcPNOt4xcj+v/K/7qUFaCUxxlqnMkUYLBjRUzn9W5CU/R2hrmtJa5+UtovrEM2ctg=="
  "cytoscape-dagre@4.0.1 sha512-hyNdh8Vp1nwzBcjHnM4c71G81bFhPmQYLXD2HM9AZIvl+8TrMzWEOPW45hF/XOBQiEguPcDQzi6VrXR1XBcXOA=="
  "@dagrejs/dagre@3.1.3 sha512-X4aUTwOReZvthaZWOVHqlJ52/ZdhZFEM4+Lh/uR4XooUSLE6p71bcy7MPGzYnNUcNh+nj+i/qJQpCMIdQnSmrg=="
)

cd "$TMP"
for entry in "${PKGS[@]}"; do
  spec=${entry%% *} want=${entry#* }
  tgz=$(npm pack --silent "$spec")
  got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
  if [ "$got" != "$want" ]; then
    echo "vendor: $spec: integrity $got, want $want" >&2
    exit 1
  fi
  dir="$TMP/x/${spec%@*}"
  mkdir -p "$dir"
  tar xzf "$tgz" -C "$dir"
  echo "vendor: $spec ok" >&2
done

mkdir -p "$OUT"
cp "$TMP/x/cytoscape/package/dist/cytoscape.min.js" "$OUT/cytoscape.min.js"
cp "$TMP/x/cytoscape/package/LICENSE" "$OUT/LICENSE.cytoscape"
cp "$TMP/x/cytoscape-dagre/package/dist/cytoscape-dagre.min.js" "$OUT/cytoscape-dagre.min.js"
cp "$TMP/x/cytoscape-dagre/package/LICENSE" "$OUT/LICENSE.cytoscape-dagre"
# cytoscape-dagre's build bundles @dagrejs/dagre; its licence goes along
cp "$TMP/x/@dagrejs/dagre/package/LICENSE" "$OUT/LICENSE.dagre"
{
  echo "# daemon/inspect/assets: written by scripts/vendor-inspector-libs.sh from"
  for entry in "${PKGS[@]}"; do echo "#   ${entry%% *} (npm, ${entry#* })"; done
  (cd "$OUT" && sha256sum cytoscape.min.js cytoscape-dagre.min.js LICENSE.cytoscape LICENSE.cytoscape-dagre LICENSE.dagre)
} >"$OUT/SHA256SUMS"
echo "vendor: wrote $OUT" >&2

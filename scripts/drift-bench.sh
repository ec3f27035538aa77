#!/usr/bin/env bash
# drift-bench.sh - the UI-drift benchmark (issue 13): for every kind and
# strength, make a drifted copy of the recorded apps (wayfinder drift),
# learn flows on the original with the given planner and replay them on
# the copy (wayfinder eval --replay-data); print one table row per kind and
# strength (markdown). Usage:
#   scripts/drift-bench.sh [--data DIR] [--out DIR] [--apps a,b | --app-count N]
#                          [--kinds k,...] [--strengths low,moderate,high] [--seed N]
#                          [--planner oracle] [--min-replay R] [--explore] [--embed-model M]
# --app-count N takes the first N apps by name; --min-replay R is the guard:
# exit 1 when a row replays (without help) less than R, or on any wrong tap
# or lost flow. --explore imports each drifted app's exploration graph
# before its replay (eval --explore-drifted): the agent has explored the
# updated app, so a moved entry can be re-planned through the graph.
# --embed-model M gives the engine an embedding model (eval --embed-model;
# "local": the on-device one): re-grounding compares reworded labels by
# meaning.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA="$ROOT/../shared/droidtask" OUT="$ROOT/out/drift" APPS="" COUNT=""
KINDS="text,rename-id,bounds,wrap,shuffle,deeper,interstitial" STRENGTHS="low,moderate,high"
SEED=1 PLANNER=oracle MIN="" EXPLORE=() EMBED=()
while [ $# -gt 0 ]; do
  case "$1" in
    --data) DATA=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --apps) APPS=$2; shift 2 ;;
    --app-count) COUNT=$2; shift 2 ;;
    --kinds) KINDS=$2; shift 2 ;;
    --strengths) STRENGTHS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --planner) PLANNER=$2; shift 2 ;;
    --min-replay) MIN=$2; shift 2 ;;
    --explore) EXPLORE=(--explore-drifted); shift ;;
    --embed-model) EMBED=(--embed-model "$2"); shift 2 ;;
    *) echo "drift-bench: unknown argument $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$OUT"
WF="$OUT/wayfinder"
(cd "$ROOT" && go build -o "$WF" ./cmd/wayfinder)
if [ -z "$APPS" ] && [ -n "$COUNT" ]; then
  APPS=$(ls "$DATA/apps" | sort | head -n "$COUNT" | paste -sd, -)
fi
appflag=()
if [ -n "$APPS" ]; then appflag=(--apps "$APPS"); fi
guard=()
if [ -n "$MIN" ]; then guard=(--min-drift-replay "$MIN"); fi
re='^drift: ([0-9]+) tasks, replayed ([0-9]+) \(([0-9.]+)%\), repaired ([0-9]+), success ([0-9.]+)%, wrong ([0-9]+) \(([0-9]+) wrong taps\), failed ([0-9]+), steps repaired ([0-9]+), LLM calls ([0-9]+), flows lost ([0-9]+)$'
status=0
echo "| kind | strength | tasks | replayed alone | repaired | success | wrong (taps) | failed | steps repaired | LLM calls | flows lost |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for kind in ${KINDS//,/ }; do
  for strength in ${STRENGTHS//,/ }; do
    dir="$OUT/data-$kind-$strength"
    rm -rf "$dir"
    "$WF" drift --data "$DATA" --out "$dir" --kinds "$kind" --strength "$strength" --seed "$SEED" > "$OUT/drift-$kind-$strength.json"
    if ! "$WF" eval --data "$DATA" --planner "$PLANNER" --replay-data "$dir" "${appflag[@]}" -q --min-success 0 \
        --report "$OUT/eval-$kind-$strength.json" "${guard[@]}" "${EXPLORE[@]}" "${EMBED[@]}" > "$OUT/eval-$kind-$strength.txt" 2>&1; then
      status=1
    fi
    line=$(grep '^drift: ' "$OUT/eval-$kind-$strength.txt" || true)
    if [[ $line =~ $re ]]; then
      m=("${BASH_REMATCH[@]}")
      echo "| $kind${EXPLORE:+ (explored)} | $strength | ${m[1]} | ${m[2]} (${m[3]}%) | ${m[4]} | ${m[5]}% | ${m[6]} (${m[7]}) | ${m[8]} | ${m[9]} | ${m[10]} | ${m[11]} |"
    else
      echo "| $kind | $strength | no result: $(tail -1 "$OUT/eval-$kind-$strength.txt") |"
      status=1
    fi
    rm -rf "$dir"
  done
done
exit $status

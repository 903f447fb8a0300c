#!/usr/bin/env bash
# On the lent x4 machine (carry [".deps"]): scripts/gpu_x4.list (LIST=: another); the runs' JSON
# (their labels) packed as one file beside the log.
set -uo pipefail
LINE_TIMEOUT=200 BUILD=/tmp/b bash scripts/gpu_bench.sh "${LIST:-scripts/gpu_x4.list}" >"$OUT/stdout.log" 2>&1
tar czf "$OUT/x4_json.tar.gz" -C "$OUT" $(cd "$OUT" && ls run*.json) 2>/dev/null
rm -f "$OUT"/run*.json "$OUT/stdout.log"
grep -E "^== |^(xpcs|spots|azint|rbf) |^receive \+ decode \+|rc=[1-9]" "$OUT/bench.log" | cut -c1-200

#!/usr/bin/env bash
# On the lent x4 machine (carry [".deps"]): scripts/gpu_session17b.list; the sparselags run's
# JSON (its labels) kept beside the log.
set -uo pipefail
LINE_TIMEOUT=200 BUILD=/tmp/b bash scripts/gpu_bench.sh scripts/gpu_session17b.list >"$OUT/stdout.log" 2>&1
mkdir -p "$OUT/json" && mv "$OUT"/run4.json "$OUT/json/" 2>/dev/null; rm -f "$OUT"/run*.json "$OUT/stdout.log"
grep -E "^== |^(xpcs|spots|local|fork) |rc=[1-9]" "$OUT/bench.log" | grep -v "binary\|text " | cut -c1-230 | head -60

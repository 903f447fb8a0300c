#!/usr/bin/env bash
# On the lent x2 machine (carry [".deps"]): scripts/gpu_session17.list, then the summary lines.
set -uo pipefail
LINE_TIMEOUT=200 BUILD=/tmp/b bash scripts/gpu_bench.sh scripts/gpu_session17.list >"$OUT/stdout.log" 2>&1
grep -E "^== |^(xpcs|spots|local|fork) |rc=[1-9]" "$OUT/bench.log" | grep -v "binary" | cut -c1-230 | head -120

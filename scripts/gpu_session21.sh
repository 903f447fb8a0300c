#!/usr/bin/env bash
# On the lent x2 machine (carry [".deps"]): scripts/gpu_session21.list (LIST=: another), then one
# sparse multi-tau run traced (CLSCOPE_TRACE) for where its wall goes beyond its kernels.
set -uo pipefail
LIST=${LIST:-scripts/gpu_session21.list} bash scripts/gpu_x4.sh
CLSCOPE_TRACE=$OUT/trace_sparse.txt timeout 120 /tmp/b/app/clscope-cli bench xpcs --size sparse \
  --device ocl:1 --variant sparse --repeat 1 --no-check >"$OUT/trace_run.log" 2>&1
gzip -f "$OUT/trace_sparse.txt"
tail -5 "$OUT/trace_run.log"

#!/usr/bin/env bash
# On the lent GPU machine (carry [".deps"]): LIST (default scripts/gpu_sparse_call.list) through
# scripts/gpu_bench.sh, each row's kernels, wall and largest labels printed; with TRACE=1 one
# traced run of `sparse` at 0.1 % (CLSCOPE_TRACE) summed by command label; then the GPU's
# exactness on files (scripts/gpu_sparse_check.sh) with each of CHECKS (default: the defaults).
set -uo pipefail
OUT=${OUT:-/tmp/out}
LINE_TIMEOUT=240 bash scripts/gpu_bench.sh "${LIST:-scripts/gpu_sparse_call.list}" >/dev/null 2>&1
grep -E "^== |^xpcs |rc=[1-9]" "$OUT/bench.log" | cut -c1-220
for j in $(ls "$OUT"/run*.json | sort -V); do
  python3 - "$j" <<'P'
import json, sys
for r in json.load(open(sys.argv[1])).get("rows", []):
    labels = sorted(r.get("labels_median_ms", {}).items(), key=lambda kv: -kv[1])
    print(sys.argv[1].split("/")[-1], r.get("variant"), r.get("size"), "kernels", round(r.get("median_ms", 0), 3), "wall", round(r.get("wall_median_ms", 0), 1))
    for name, ms in labels[:12]:
        print("    %-70s %9.3f" % (name, ms))
P
done
rm -f "$OUT"/run*.json "$OUT"/cmake.log "$OUT"/build.log
export LD_LIBRARY_PATH=$PWD/.deps/sys/usr/lib/x86_64-linux-gnu
if [ -n "${TRACE:-}" ]; then
  T=/tmp/trace.txt; rm -f $T
  CLSCOPE_TRACE=$T timeout 120 /tmp/b/app/clscope-cli bench xpcs --size sparse --device ocl:NVIDIA \
    --variant sparse --repeat 1 --no-check >/dev/null 2>&1
  awk 'NR>1 && $3 ~ /^[kc]$/ {name=""; for(i=4;i<=NF;i++) name=name" "$i; t[name]+=$2; n[name]++} END{for(k in t) printf "%9.3f %5d %s\n", t[k], n[k], k}' $T | sort -rn | head -20
  grep -E "busy|ended" $T | tail -8
  cp $T "$OUT/trace_sparse.txt"
fi
CHECKS=("${CHECKS:-}")
for tune in "${CHECKS[@]}"; do
  echo "=== sparse check ${tune:-(defaults)}"
  rm -f "$OUT/sparse_check.log"
  TUNE="$tune" timeout 200 bash scripts/gpu_sparse_check.sh 2>&1 | tail -16
done
rm -f "$OUT/sparse_check.log"

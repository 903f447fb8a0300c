#!/usr/bin/env bash
# On the lent GPU machine (carry [".deps"]): the host's CPUs, the multi-tau fold's micro
# benchmark (bench_multitau_fold: 65,536 frames shaped like the sparse bench's, 1 to 16 threads,
# nothing else running) and scripts/gpu_fold.list (LIST=: another) through scripts/gpu_bench.sh,
# each run's labels printed after the rows.
set -uo pipefail
LIST=${LIST:-scripts/gpu_fold.list}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
lscpu | grep -E "^(Model name|CPU\(s\)|Thread|Core|Socket|NUMA node\(s\)|CPU max MHz)" | tee "$OUT/cpu.txt"
BUILD=/tmp/b bash scripts/gpu_bench.sh "$LIST" >/dev/null 2>&1
# The build links .deps/sys's libraries (libzmq, libsodium, ...): found there at run time too.
export LD_LIBRARY_PATH=$PWD/.deps/sys/usr/lib/x86_64-linux-gnu
cmake --build /tmp/b -j16 --target bench_multitau_fold >"$OUT/fold_build.log" 2>&1 || tail -20 "$OUT/fold_build.log"
for t in 1 4 8 16; do /tmp/b/bench_multitau_fold 65536 57 16 int64 9 "$t"; done | tee "$OUT/fold.txt"
grep -E "^== |^(xpcs|azint|spots|local|fork) |rc=[1-9]" "$OUT/bench.log" | cut -c1-200
for j in "$OUT"/run*.json; do
  python3 - "$j" <<'P'
import json, sys
for r in json.load(open(sys.argv[1])).get("rows", []):
    labels = sorted(r.get("labels_median_ms", {}).items(), key=lambda kv: -kv[1])
    print(" ", r.get("variant"), r.get("size"), "kernels", round(r.get("median_ms", 0), 3), "wall", round(r.get("wall_median_ms", 0), 1), r.get("throughput"), r.get("unit"))
    for name, ms in labels[:14]:
        print("    %-70s %9.3f" % (name, ms))
P
done

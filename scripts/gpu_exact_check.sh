#!/usr/bin/env bash
# On the lent GPU, after scripts/gpu_bench.sh built clscope-cli (BUILD, default /tmp/b): uint32
# frames whose 64-bit sums could wrap (values near 1e9) through every dense OpenCL xpcs variant and
# multi-tau, each against `cpu` by `clscope-cli lab xpcs` (its max deviation column), then the same
# shape at 1,000 counts (the 64-bit path). One log under $OUT.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.deps/sys/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
CLI=${BUILD:-/tmp/b}/app/clscope-cli
OUT=${OUT:-/tmp/out}
LOG=$OUT/exact_check.log
mkdir -p "$OUT"
for intensity in 1000000000 1000; do
  f=/tmp/u32_$intensity.h5
  $CLI generate xpcs --model seed --dtype uint32 --frames 300 --height 64 --width 64 \
    --ring-width 8 --intensity $intensity -o "$f" >>"$LOG" 2>&1
  for v in naive ordered gemm mma; do
    echo "== intensity $intensity: lab xpcs --from $v" | tee -a "$LOG"
    $CLI lab xpcs "$f" --from $v --device ocl:NVIDIA --repeat 3 >>"$LOG" 2>&1
    echo "rc=$?" >>"$LOG"
  done
  echo "== intensity $intensity: lab xpcs --from multitau" | tee -a "$LOG"
  $CLI lab xpcs "$f" --from multitau --device ocl:NVIDIA --repeat 3 \
    --params '{"multitau":true,"channels":8}' >>"$LOG" 2>&1
  echo "rc=$?" >>"$LOG"
done
tail -c 5000 "$LOG"

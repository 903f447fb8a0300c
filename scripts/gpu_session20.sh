#!/usr/bin/env bash
# On the lent x2 machine (carry [".deps"]): scripts/gpu_multi.list (one and two GPUs, the live
# lanes), then a trace of the two-GPU spots stream from host memory and the spots strip
# kernel's block shape on the lab's roofline. The runs' JSON (their labels) packed as one file.
set -uo pipefail
LINE_TIMEOUT=200 BUILD=/tmp/b bash scripts/gpu_bench.sh scripts/gpu_multi.list >"$OUT/stdout.log" 2>&1
CLI=/tmp/b/app/clscope-cli
export LD_LIBRARY_PATH=$PWD/.deps/sys/usr/lib/x86_64-linux-gnu
for d in ocl:1 gpus; do
  echo "== trace spots stream $d" >>"$OUT/bench.log"
  CLSCOPE_TRACE=/tmp/trace_$d.txt $CLI bench spots --size stream --device $d --variant local \
    --repeat 2 --no-check --json /tmp/trace_$d.json >>"$OUT/bench.log" 2>&1
done
for s in STRIP_X=16,32,64,128 STRIP_Y=2,4,8,16 STRIP_ROWS=2,4,8; do
  echo "== lab spots sweep $s" >>"$OUT/bench.log"
  timeout 200 $CLI lab spots --from local --size large --params '{"threshold_algorithm":"dispersion"}' \
    --device ocl:NVIDIA --repeat 9 --sweep $s >>"$OUT/bench.log" 2>&1
done
tar czf "$OUT/session20.tar.gz" -C "$OUT" $(cd "$OUT" && ls run*.json) -C /tmp trace_ocl:1.txt trace_gpus.txt trace_ocl:1.json trace_gpus.json 2>/dev/null
rm -f "$OUT"/run*.json "$OUT/stdout.log"
grep -E "^== |^(xpcs|spots|azint|rbf|stream|local|fork|sweep) |frames/s|rc=[1-9]" "$OUT/bench.log" | grep -v "binary\|text " | cut -c1-230 | head -150

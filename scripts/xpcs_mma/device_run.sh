#!/usr/bin/env bash
# Issue 21 on the lent GPU machine, one call: build the headless CLI, run the mma probe
# (PROBE=path), check mma and gemm against cpu bit for bit on the seed and large datasets
# (correlate outputs compared by same_g2), time both variants with `clscope-cli bench`, run
# the PyTorch peers, and print a short table last. Writes logs and JSON under $OUT.
# NOGEMM=1: mma only (gemm neither checked nor timed). CHECK: the other OpenCL variants checked
# against cpu on both datasets (default "naive ordered"); every variant's two-time map of bin 3
# on large is compared with cpu's too. NOPEER=1: no PyTorch peers. The bench rows carry the transfer bound (bytes / pinned
# host-to-device bandwidth) beside kernel and wall time.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
here=$(dirname "$0")
B=${B:-/tmp/b} # build folder (another on a machine that a different tree built in)
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLSCOPE_BUILD_GUI=OFF \
  -DCLSCOPE_BUILD_TESTS=OFF >"$OUT/cmake.log" 2>&1 &&
  cmake --build "$B" -j16 >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
CLI=$B/app/clscope-cli
g++ -O2 "$here/same_g2.cpp" -I/usr/include/hdf5/serial -lhdf5_serial -o /tmp/same_g2 || exit 1
log="$OUT/run.log"
g++ -O2 "$here/h2d_bandwidth.cpp" -lOpenCL -o /tmp/h2d && /tmp/h2d 512 >>"$log" 2>&1
if [ -n "${PROBE:-}" ]; then
  g++ -O2 -std=c++17 "$PROBE" -o /tmp/mma_probe -lOpenCL && /tmp/mma_probe 2>&1 | tail -3 >>"$log"
fi
# SHAPES: mma warp shapes "WM,WN,MI,NJ[,PREP_FRAMES[,PREFETCH[,STAGE]]]" to check and time;
# "default": the variant's own tuning (no --tune).
SHAPES=${SHAPES:-default}
tune() {
  [ "$1" = default ] && return
  IFS=, read -r wm wn mi nj pf pre st <<<"$1"
  echo "--tune MMA_WM=$wm --tune MMA_WN=$wn --tune MMA_MI=$mi --tune MMA_NJ=$nj" \
    "--tune MMA_PREP_FRAMES=${pf:-4} --tune MMA_PREFETCH=${pre:-1} --tune MMA_STAGE=${st:-0}"
}
# TUNES: tuning sets of mma to check bit for bit against cpu and time, each "A=1,B=2", e.g.
# "MMA_WGMMA=1,MMA_WM=8,MMA_WN=1,MMA_MI=1,MMA_NJ=16" (one check of each dataset, one bench each).
tunes() { local IFS=,; for t in $1; do echo "--tune $t"; done; }
run_variant() { # dataset, label, options...
  local name=$1 label=$2; shift 2
  timeout 150 $CLI correlate "/tmp/$name.h5" --device ocl:NVIDIA "$@" -o "/tmp/${name}_$label.h5" >>"$log" 2>&1 ||
    echo "correlate $name $label failed" >>"$log"
  local names="g2 g2_err"
  [[ " $* " == *" --twotime 3 "* ]] && names="g2 g2_err twotime/3"
  # shellcheck disable=SC2086
  echo "exact $name $label vs cpu: $(/tmp/same_g2 "/tmp/${name}_$label.h5" "/tmp/${name}_cpu.h5" /xpcs $names | tr '\n' ' ')" >>"$log"
}
check() { # dataset name, generate options
  local name=$1; shift
  $CLI generate xpcs -o "/tmp/$name.h5" --model seed --compression none "$@" >/dev/null
  $CLI correlate "/tmp/$name.h5" --device cpu --variant cpu --twotime 3 -o "/tmp/${name}_cpu.h5" >/dev/null
  for v in ${CHECK-naive ordered}; do run_variant "$name" "$v" --variant "$v"; done
  [ -n "${NOGEMM:-}" ] || run_variant "$name" gemm --variant gemm
  for s in $SHAPES; do
    # shellcheck disable=SC2046
    run_variant "$name" "mma$s" --variant mma $(tune "$s")
  done
  for t in ${TUNES:-}; do
    # shellcheck disable=SC2046
    run_variant "$name" "mma-${t//[=,]/}" --variant mma $(tunes "$t")
  done
}
if [ -n "${VERBOSE:-}" ]; then # ptxas registers and spills of the default mma build
  $CLI generate xpcs -o /tmp/v.h5 --model seed --frames 64 --compression none >/dev/null
  for s in $SHAPES; do
    # shellcheck disable=SC2046
    CLSCOPE_CL_OPTIONS=-cl-nv-verbose CLSCOPE_CL_LOG=1 $CLI correlate /tmp/v.h5 --device ocl:NVIDIA \
      --variant mma $(tune "$s") -o /tmp/v_out.h5 2>&1 | grep -B1 -A2 "xpcs_mma'" |
      sed "s/^/ptxas $s: /" >>"$log"
  done
  for t in ${TUNES:-}; do # the kernel the tuning set picks, and any warning
    # shellcheck disable=SC2046
    CLSCOPE_CL_OPTIONS=-cl-nv-verbose CLSCOPE_CL_LOG=1 $CLI correlate /tmp/v.h5 --device ocl:NVIDIA \
      --variant mma $(tunes "$t") -o /tmp/v_out.h5 2>&1 | grep -i -E -A3 "wgmma'|warn|error" |
      head -40 | sed "s/^/ptxas $t: /" >>"$log"
  done
fi
check seed
check large --frames 2000 --height 511 --width 511 --ring-width 8
# Two-time map asked for: mma writes the Gram matrices (lag sums not fused); g2 still exact.
for v in mma $([ -n "${NOGEMM:-}" ] || echo gemm) ${CHECK-naive ordered}; do
  run_variant large "$v-twotime" --variant "$v" --twotime 3
done
for size in seed large; do
  [ -n "${NOGEMM:-}" ] || $CLI bench xpcs --size $size --device ocl:NVIDIA --variant gemm \
    --repeat 7 --json "$OUT/bench_${size}_gemm.json" >>"$log" 2>&1
  for s in $SHAPES; do
    # shellcheck disable=SC2046
    $CLI bench xpcs --size $size --device ocl:NVIDIA --variant mma --repeat 7 $(tune "$s") \
      --json "$OUT/bench_${size}_mma${s//,/-}.json" >>"$log" 2>&1
  done
done
# EXTRA: more tuning sets for mma, timed only (TUNES are checked too), e.g. "MMA_STREAM=0
# MMA_LAGS=0,MMA_GRAM32=0" (unset: MMA_FUSE_LAGS=1, empty: none).
for t in ${TUNES:-} ${EXTRA-MMA_FUSE_LAGS=1}; do
  for size in seed large; do
    # shellcheck disable=SC2046
    $CLI bench xpcs --size $size --device ocl:NVIDIA --variant mma --repeat 7 $(tunes "$t") \
      --json "$OUT/bench_${size}_mma-${t//[=,]/}.json" >>"$log" 2>&1
  done
done
# ENVS: environment settings benched with mma's default tuning on large, e.g.
# "CLSCOPE_COPY_NT=0 CLSCOPE_COPY_THREADS=16" (host copy into the pinned staging).
for e in ${ENVS:-}; do
  env "$e" $CLI bench xpcs --size large --device ocl:NVIDIA --variant mma --repeat 7 \
    --json "$OUT/bench_large_mma-${e//=/}.json" >>"$log" 2>&1
done
[ -n "${NOPEER:-}" ] || PYTHONUNBUFFERED=1 timeout 200 python3 "$here/torch_peer.py" >>"$log" 2>&1 ||
  echo "torch peer failed" >>"$log"
python3 - "$OUT" <<'PY' >>"$log"
import json, sys, glob
for f in sorted(glob.glob(sys.argv[1] + "/bench_*.json")):
    for r in json.load(open(f)).get("rows", []):
        labels = ", ".join(f"{k} {v:.3f}" for k, v in sorted(r.get("labels_median_ms", {}).items())
                           if "xpcs" in k or v > 0.5)
        d = r.get("deviation", {})
        tag = f.rsplit("/", 1)[-1][len("bench_"):-len(".json")]
        k, w, b = r.get('median_ms', 0), r.get('wall_median_ms', 0), r.get('transfer_bound_ms', 0)
        print(f"bench {r.get('size')} {tag}: kernel {k:.3f} ms "
              f"(min {r.get('min_ms', 0):.3f}), wall {w:.1f} ms, transfer bound {b:.2f} ms "
              f"({r.get('h2d_pinned_gbps', 0):.1f} GB/s), wall / (transfer + kernel) "
              f"{w / (b + k) if b + k else 0:.2f}, "
              f"{r.get('note', '')}, max dev {d.get('max')} pass {d.get('pass')} | {labels}")
PY
(cd "$OUT" && tar czf results.tgz ./*.json run.log && rm -f ./*.json)
grep -E "^(h2d|iters|exact|bench|peer|torch|correlate|ptxas)" "$log"

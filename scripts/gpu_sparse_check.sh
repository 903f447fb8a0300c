#!/usr/bin/env bash
# On the lent GPU, after scripts/gpu_bench.sh built clscope-cli (BUILD, default /tmp/b): the
# sparse multi-tau variant on files (issue 55's done-when: the same g2 as the dense path on the
# GPU for every layout): CSR files from `generate xpcs --sparse` at two occupancies, their dense
# twins (the variant reads a dense stack's non-zero pixels) and, where python3 has h5py, an event
# list and a Rigaku .bin file (tests/sparse_files.py), each by `clscope-cli lab xpcs --from
# sparse` against `cpu` (its max deviation column: 0 is bit for bit); then a run that names no
# variant on the low-occupancy file, which takes `sparse` (xpcs::sparseCrossover); and uint32
# counts whose terms pass 2^63 (the 128-bit path of the device's fold). One log under $OUT.
# TUNE='--tune K=V ...': given to every `sparse` run (e.g. blocks and pair levels forced).
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/.deps/sys/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
CLI=${BUILD:-/tmp/b}/app/clscope-cli
OUT=${OUT:-/tmp/out}
GPU=${GPU:-ocl:NVIDIA} # GPU=ocl:0: the same on PoCL
PY=${PYTHON:-python3}  # one with h5py and numpy for the event list and the Rigaku file
LOG=$OUT/sparse_check.log
mkdir -p "$OUT"
params='{"multitau":true,"channels":8}'
lab() { # FILE WHAT [more lab options]
  local f=$1 what=$2
  shift 2
  echo "== $what: lab xpcs --from sparse" | tee -a "$LOG"
  # shellcheck disable=SC2086
  $CLI lab xpcs "$f" --from sparse --device "$GPU" --repeat 3 --params "$params" ${TUNE:-} "$@" \
    >>"$LOG" 2>&1
  echo "rc=$?" >>"$LOG"
}
for intensity in 0.02 0.5; do
  for layout in sparse dense; do
    f=/tmp/photons_${intensity}_$layout.h5
    $CLI generate xpcs --frames "${FRAMES:-3000}" --height 128 --width 256 --ring-width 6 \
      --intensity "$intensity" --seed 3 $([ $layout = sparse ] && echo --sparse) -o "$f" \
      >>"$LOG" 2>&1
    lab "$f" "intensity $intensity, $layout"
  done
done
# correlate on DEVICE with VARIANT: FILE's g2 into OUT (more options after).
correlate() { # FILE OUT DEVICE VARIANT [options]
  local f=$1 o=$2 d=$3 v=$4
  shift 4
  $CLI correlate "$f" --multitau --channels 8 --device "$d" --variant "$v" -o "$o" "$@" \
    >>"$LOG" 2>&1 || echo "correlate $f on $d ($v): rc=$?" | tee -a "$LOG"
}
same_g2() { # A B WHAT: g2 and g2_err equal bit for bit
  $PY - "$1" "$2" "$3" <<'PY' | tee -a "$LOG"
import sys, h5py, numpy as np
a, b = (h5py.File(p, "r") for p in sys.argv[1:3])
same = all(np.array_equal(a["/xpcs/" + k][()], b["/xpcs/" + k][()], equal_nan=True)
           for k in ("g2", "g2_err"))
print("== %s: sparse on the GPU %s cpu's g2 and g2_err" % (sys.argv[3], "equals" if same else "DIFFERS from"))
PY
}
if $PY -c 'import h5py, numpy' 2>/dev/null; then
  $PY tests/sparse_files.py events /tmp/photons_0.5_dense.h5 /tmp/events.h5 1000000 >>"$LOG" 2>&1
  correlate /tmp/events.h5 /tmp/ev_cpu.h5 cpu cpu --frame-time 0.001
  # shellcheck disable=SC2086
  correlate /tmp/events.h5 /tmp/ev_gpu.h5 "$GPU" sparse --frame-time 0.001 ${TUNE:-}
  same_g2 /tmp/ev_cpu.h5 /tmp/ev_gpu.h5 "event list"
  $PY tests/sparse_files.py rigaku /tmp/run.bin /tmp/run_dense.h5 >>"$LOG" 2>&1
  correlate /tmp/run_dense.h5 /tmp/rk_cpu.h5 cpu cpu --no-pixel-mask
  # shellcheck disable=SC2086
  correlate /tmp/run.bin /tmp/rk_gpu.h5 "$GPU" sparse --mask /tmp/run_dense.h5 --no-pixel-mask ${TUNE:-}
  same_g2 /tmp/rk_cpu.h5 /tmp/rk_gpu.h5 "Rigaku .bin (its dense twin on cpu)"
  $PY tests/sparse_files.py wide /tmp/wide_dense.h5 /tmp/wide.h5 >>"$LOG" 2>&1
  correlate /tmp/wide_dense.h5 /tmp/wide_cpu.h5 cpu cpu
  # shellcheck disable=SC2086
  correlate /tmp/wide.h5 /tmp/wide_gpu.h5 "$GPU" sparse ${TUNE:-}
  same_g2 /tmp/wide_cpu.h5 /tmp/wide_gpu.h5 "uint32 counts whose n N_t pass 2^63"
else
  echo "== no python3 with h5py here: event list and Rigaku not checked" | tee -a "$LOG"
fi
echo "== a run that names no variant, CSR at intensity 0.02" | tee -a "$LOG"
$CLI correlate /tmp/photons_0.02_sparse.h5 --multitau --channels 8 --device "$GPU" \
  -o /tmp/chosen.h5 >>"$LOG" 2>&1
echo "rc=$?" >>"$LOG"
grep -E "^==|^(sparse|fork) +ocl|occupancy|rc=|variant sparse|error" "$LOG" | cut -c1-220

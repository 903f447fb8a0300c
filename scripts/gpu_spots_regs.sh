#!/usr/bin/env bash
# On the lent GPU: spots `local`'s registers and its speed under register caps (issue 56's
# spots kernels toward the roofline; azint's tiled gained 45 -> 52 % from a cap of 32). A lab
# fork of the built-in program without reqd_work_group_size on spots_local (ptxas ignores
# -cl-nv-maxrregcount where a kernel requires its work-group size), built with the caps CAPS
# (default "0 32 40 48"; 0: none) through CLSCOPE_CL_OPTIONS beside the built-in, on the large
# case (one 4148x4362 frame), with ptxas' registers of spots_local. Carry [".deps"].
set -uo pipefail
# shellcheck source=scripts/gpu_cli.sh
. scripts/gpu_cli.sh || exit 1
P='{"threshold_algorithm":"dispersion"}'
$CLI lab spots --from local --size large --params "$P" --device ocl:NVIDIA --print-source >"$OUT/new.cl" || exit 1
python3 - "$OUT" <<'PY'
import sys
d = sys.argv[1]
s = open(d + "/new.cl").read()
old = "kernel __attribute__((reqd_work_group_size(STRIP_X, STRIP_Y, 1)))\nvoid spots_local("
assert old in s, "spots_local's header changed"
open(d + "/noreqd.cl", "w").write(s.replace(old, "kernel void spots_local("))
PY
for cap in ${CAPS:-0 32 40 48}; do
  opts="-cl-nv-verbose"
  [ "$cap" = 0 ] || opts="$opts -cl-nv-maxrregcount=$cap"
  echo "== cap $cap: the built-in (reqd_work_group_size: uncapped) against the fork without it" | tee -a "$OUT/regs.log"
  CLSCOPE_CL_OPTIONS="$opts" CLSCOPE_CL_LOG=1 timeout 120 $CLI lab spots --from local --size large --params "$P" \
    --device ocl:NVIDIA --repeat 9 --source "$OUT/noreqd.cl" >"$OUT/case.txt" 2>&1
  grep -A3 "entry function 'spots_local'" "$OUT/case.txt" | grep -E "Used|spill" | sort -u | tee -a "$OUT/regs.log"
  grep -E "^(local|fork) " "$OUT/case.txt" | grep -v " spots_" | tee -a "$OUT/regs.log"
done

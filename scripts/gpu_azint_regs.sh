#!/usr/bin/env bash
# On the lent GPU: azint tiled's registers and its speed under register caps (issue 53: does
# occupancy bound it?). `lab azint --from tiled --sweep AZ_TILE_REGS=REGS` (default 0,32,40,48)
# on the large case and 16 x 4096^2, each with SETS (default: the built-in counts and
# AZ_STATIC_COUNTS=1), with each program's build log (CLSCOPE_CL_OPTIONS=-cl-nv-verbose,
# CLSCOPE_CL_LOG=1: ptxas' registers and spills of azint_tiled, in the order built). Before
# AZ_TILE_REGS the caps were tried through CLSCOPE_CL_OPTIONS and ptxas ignored them: the kernel
# required its work-group size (session24_azint_regs_h200.log). Carry [".deps"].
set -uo pipefail
# shellcheck source=scripts/gpu_cli.sh
. scripts/gpu_cli.sh || exit 1
$CLI generate powder -o /tmp/p16.h5 --frames 16 --height 4096 --width 4096 >/dev/null || exit 1
for set in "" ${SETS:-AZ_STATIC_COUNTS=1}; do
  for input in "--size large --tune AZ_CHUNK_FRAMES=8" "/tmp/p16.h5 --tune AZ_CHUNK_FRAMES=16"; do
    echo "== ${set:-built-in}, $input, AZ_TILE_REGS=${REGS:-0,32,40,48}" | tee -a "$OUT/regs.log"
    # shellcheck disable=SC2086
    CLSCOPE_CL_OPTIONS=-cl-nv-verbose CLSCOPE_CL_LOG=1 $CLI lab azint --from tiled $input \
      --device ocl:NVIDIA --repeat 9 ${set:+--set $set} --sweep "AZ_TILE_REGS=${REGS:-0,32,40,48}" \
      >"$OUT/case.txt" 2>&1
    grep -E "^build log|entry function 'azint_tiled'" -A3 "$OUT/case.txt" |
      grep -E "^build log|Used|spill" | sed 's/^\(build log ([^,]*\),.*\(maxrregcount=[0-9]*\).*/\1 \2/' |
      tee -a "$OUT/regs.log"
    grep -E "^(tiled|fork) " "$OUT/case.txt" | grep -v " azint_" | tee -a "$OUT/regs.log"
  done
done

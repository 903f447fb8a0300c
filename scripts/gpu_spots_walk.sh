#!/usr/bin/env bash
# On the lent GPU (carry [".deps"]): spots `local`'s walk form (STRIP_WALK=1) against the tile
# form on the kernel lab's large case (one 4148x4362 uint16 frame; roofline rows) and the seed
# case, its tunables swept (SWEEPS: lines of lab arguments, default below), ptxas' registers of
# both forms, then the bench lines of LIST (default scripts/gpu_spots_walk.list) for the wall.
set -uo pipefail
# shellcheck source=scripts/gpu_cli.sh
. scripts/gpu_cli.sh || exit 1
P='{"threshold_algorithm":"dispersion"}'
lab() { timeout 150 $CLI lab spots --from local --params "$P" --device ocl:NVIDIA "$@"; }
for walk in 0 1; do
  echo "== ptxas, STRIP_WALK=$walk" | tee -a "$OUT/walk.log"
  CLSCOPE_CL_OPTIONS="-cl-nv-verbose" CLSCOPE_CL_LOG=1 lab --size large --set STRIP_WALK=$walk \
    --repeat 1 >"$OUT/case.txt" 2>&1 || tail -3 "$OUT/case.txt"
  grep -A3 "entry function 'spots_local'" "$OUT/case.txt" | grep -E "Used|spill|stack" | sort -u |
    tee -a "$OUT/walk.log"
done
# The tile form as it was before (OLD, a commit: its spots_strip.cl in place of this one's),
# beside this one's.
lab --size large --print-source >"$OUT/tile.cl" || exit 1
if git show "${OLD:-5da9b24}:resources/kernels/spots_strip.cl" >"$OUT/old_strip.cl" 2>/dev/null; then
  python3 - "$OUT" <<'PY'
import sys
d = sys.argv[1]
s = open(d + "/tile.cl").read()
now = open("resources/kernels/spots_strip.cl").read()
assert now in s, "the printed program does not hold spots_strip.cl"
open(d + "/old.cl", "w").write(s.replace(now, open(d + "/old_strip.cl").read()))
PY
  echo "== the tile form before (fork) against this one (local)" | tee -a "$OUT/walk.log"
  lab --size large --repeat 9 --source "$OUT/old.cl" 2>&1 | grep -E "^(local|fork) " | grep -v " spots_" |
    tee -a "$OUT/walk.log"
fi
SWEEPS=${SWEEPS:-"--size large --sweep STRIP_WALK=0,1
--size large --set STRIP_WALK=1 --sweep WALK_ROWS=8,16,32,64
--size large --set STRIP_WALK=1 --sweep WALK_COLS=4,8,16
--size large --set STRIP_WALK=1 --set WALK_COLS=4 --sweep WALK_ROWS=16,32,64
--size large --set STRIP_WALK=1 --set STRIP_X=32 --sweep STRIP_Y=1,2,4
--size large --sweep STRIP_ROWS=4,8
--size seed --sweep STRIP_WALK=0,1"}
while read -r args; do
  echo "== lab $args" | tee -a "$OUT/walk.log"
  # shellcheck disable=SC2086
  lab --repeat 9 $args 2>&1 | grep -E "^(local|fork|row) " | grep -v " spots_" | tee -a "$OUT/walk.log"
done <<<"$SWEEPS"
LINE_TIMEOUT=200 bash scripts/gpu_bench.sh "${LIST:-scripts/gpu_spots_walk.list}" >/dev/null 2>&1
grep -E "^== |^spots |rc=[1-9]|frames/s" "$OUT/bench.log" | cut -c1-240
rm -f "$OUT"/*.json "$OUT"/*.cl "$OUT"/case.txt "$OUT"/cmake.log "$OUT"/build.log "$OUT"/empty.list

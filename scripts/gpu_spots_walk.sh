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
# The tile form's decision in double (spots_decide, as before 03b69e0) against the exact
# integer one (spots_strip_decide), twice each way, and the tile form before this session (OLD).
lab --size large --print-source >"$OUT/tile.cl" || exit 1
git show "${OLD:-5da9b24}:resources/kernels/spots_strip.cl" >"$OUT/old_strip.cl" 2>/dev/null
python3 - "$OUT" <<'PY'
import sys
d = sys.argv[1]
s = open(d + "/tile.cl").read()
now = "const uchar on = spots_strip_decide(sp >> 22, sp & PACK_MASK, sq, own, above, p, roots);"
before = ("const uchar on = spots_decide(sp >> 22, (real_t)(sp & PACK_MASK), (real_t)sq, "
          "(real_t)(own & PACK_MASK), own != 0, p, roots);")
assert now in s, "the tile form's decision changed"
open(d + "/double.cl", "w").write(s.replace(now, before))
strip = open("resources/kernels/spots_strip.cl").read()
assert strip in s
open(d + "/old.cl", "w").write(s.replace(strip, open(d + "/old_strip.cl").read()))
PY
for fork in double double old; do
  echo "== the tile form: $fork (fork) against this one (local)" | tee -a "$OUT/walk.log"
  lab --size large --repeat 15 --source "$OUT/$fork.cl" 2>&1 | grep -E "^(local|fork) " | grep -v " spots_" |
    tee -a "$OUT/walk.log"
done
SWEEPS=${SWEEPS:-"--size large --sweep STRIP_WALK=0,1
--size seed --sweep STRIP_WALK=0,1"}
while read -r args; do
  echo "== lab $args" | tee -a "$OUT/walk.log"
  # shellcheck disable=SC2086
  lab --repeat 9 $args 2>&1 | grep -E "^(local|fork|row) " | grep -v " spots_" | tee -a "$OUT/walk.log"
done <<<"$SWEEPS"
LINE_TIMEOUT=200 bash scripts/gpu_bench.sh "${LIST:-scripts/gpu_spots_walk.list}" >/dev/null 2>&1
grep -E "^== |^spots |rc=[1-9]|frames/s" "$OUT/bench.log" | cut -c1-240
rm -f "$OUT"/*.json "$OUT"/*.cl "$OUT"/case.txt "$OUT"/cmake.log "$OUT"/build.log "$OUT"/empty.list

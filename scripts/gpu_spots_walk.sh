#!/usr/bin/env bash
# On the lent GPU (carry [".deps"]): spots `local`'s strip forms on the kernel lab's large case
# (one 4148x4362 uint16 frame; roofline rows): ptxas' registers of each form of FORMS and its
# machine instructions by opcode, ablations of the tile form, lab lines (SWEEPS: lines of lab
# arguments), then the bench lines of LIST (default scripts/gpu_spots_walk.list) for the wall.
# Sessions 27 and 28's calls (docs/bench/2026-11-29/session2[78]_spots_*;
# docs/performance-checks.md "spots' strip forms").
set -uo pipefail
# shellcheck source=scripts/gpu_cli.sh
. scripts/gpu_cli.sh || exit 1
P='{"threshold_algorithm":"dispersion"}'
lab() { timeout 150 $CLI lab spots --from local --params "$P" --device ocl:NVIDIA "$@"; }
# FORMS: lines of --set arguments, one form each: ptxas' registers and, where cuobjdump is there,
# the counts of spots_local's machine instructions by opcode (its most frequent 24).
FORMS=${FORMS:-"--set STRIP_WALK=0
--set STRIP_WALK=1"}
while read -r sets; do
  echo "== ptxas, $sets" | tee -a "$OUT/walk.log"
  rm -rf "$OUT/bin"
  # shellcheck disable=SC2086
  CLSCOPE_CL_OPTIONS="-cl-nv-verbose" CLSCOPE_CL_LOG=1 lab --size large $sets --repeat 1 \
    --binary "$OUT/bin" >"$OUT/case.txt" 2>&1 || tail -3 "$OUT/case.txt"
  grep -A3 "entry function 'spots_local'" "$OUT/case.txt" | grep -E "Used|spill|stack" | sort -u |
    tee -a "$OUT/walk.log"
  ptx=$(ls "$OUT"/bin/1-*.ptx 2>/dev/null | head -1)
  if [ -n "$ptx" ] && command -v cuobjdump >/dev/null &&
    ptxas -arch=sm_90 -o "$OUT/k.cubin" "$ptx" 2>/dev/null; then
    cuobjdump -sass -fun spots_local "$OUT/k.cubin" 2>/dev/null |
      grep -oE '^ +/\*[0-9a-f]{4}\*/ +(@!?U?P[0-9T] +)?[A-Z][A-Z0-9_.]*' |
      awk '{print $NF}' | sed 's/\..*//' | sort | uniq -c | sort -rn | head -24 | tr '\n' ' ' |
      tee -a "$OUT/walk.log"
    echo | tee -a "$OUT/walk.log"
  fi
done <<<"$FORMS"
rm -rf "$OUT/bin" "$OUT/k.cubin"
# Ablations of the tile form (forks with wrong results, timed): without the decision, without
# the rows' 2KX+1-term sums, without either (ABLATE=0: none).
[ "${ABLATE:-1}" = 0 ] || {
lab --size large --print-source >"$OUT/tile.cl" || exit 1
python3 - "$OUT" <<'PY' || exit 1
import sys
d = sys.argv[1]
s = open(d + "/tile.cl").read()
decide = ("const uchar on = spots_decide(sp >> 22, (real_t)(sp & PACK_MASK), (real_t)sq,\n"
          "                                          (real_t)(own & PACK_MASK), own != 0, p, roots);")
hsum = "for (int d = 0; d <= 2 * KX; ++d) {"
assert decide in s and hsum in s, "the tile form changed"
cheap = "const uchar on = (sp >> 22) == 77u && sq == 5 && own == 9;"
one = "for (int d = 0; d < 1; ++d) {"
open(d + "/nodecide.cl", "w").write(s.replace(decide, cheap))
open(d + "/nohsum.cl", "w").write(s.replace(hsum, one))
open(d + "/neither.cl", "w").write(s.replace(decide, cheap).replace(hsum, one))
PY
for fork in nodecide nohsum neither; do
  echo "== ablation $fork (fork) against the tile form (local)" | tee -a "$OUT/walk.log"
  lab --size large --repeat 9 --source "$OUT/$fork.cl" 2>&1 | grep -E "^(local|fork) " | grep -v " spots_" |
    tee -a "$OUT/walk.log"
done
}
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

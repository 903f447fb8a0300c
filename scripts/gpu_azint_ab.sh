#!/usr/bin/env bash
# On the lent GPU: the built-in tiled against a base version of azint_tiled.cl (BASE, default
# .ab/azint_tiled_base.cl: `git show REV:resources/kernels/azint_tiled.cl`), each tile shape of
# CONFIGS in one lab call (the fork is the base: the built-in program with the base's file in
# place of today's), on the large case (8 x 2048^2, one launch) and 16 frames of 4096^2 (one
# launch), beside the read alone (scripts/azint_forks.py's readonly), then SWEEP (default
# AZ_TILE_TWO=0,1; empty: none). FORKS: the forks timed (default "base readonly"; any of
# azint_forks.py's, made from the base). Forks of today's program: BASE=resources/kernels/
# azint_tiled.cl FORKS="copies2 copies4 copies8 copies32 preload preload_copies8 readonly" SWEEP=
# (session22_azint_forks_h200.log). Carry [".deps", ".ab"].
set -uo pipefail
BASE=${BASE:-.ab/azint_tiled_base.cl}
SWEEP=${SWEEP-AZ_TILE_TWO=0,1}
# shellcheck source=scripts/gpu_cli.sh
. scripts/gpu_cli.sh || exit 1
run_case() { # NAME INPUT-ARGS CHUNK CONFIGS
  local name=$1 input=$2 chunk=$3
  for cfg in $4; do
    IFS=, read -r h w wg sc <<<"$cfg"
    local set="--set AZ_STATIC_COUNTS=${sc:-1} --set AZ_TILE_H=$h --set AZ_TILE_W=$w --set AZ_TILE_WG=$wg"
    local d=$OUT/$name-$h-$w-$wg-${sc:-1}
    mkdir -p "$d"
    # shellcheck disable=SC2086
    $CLI lab azint --from tiled $input --device ocl:NVIDIA --print-source $set >"$d/new.cl" || continue
    python3 - "$d" "$BASE" <<'P'
import sys
d, base = sys.argv[1], sys.argv[2]
s = open(d + "/new.cl").read()
now = open("resources/kernels/azint_tiled.cl").read()
assert now in s, "the printed program does not hold azint_tiled.cl"
open(d + "/base.cl", "w").write(s.replace(now, open(base).read()))
P
    python3 scripts/azint_forks.py "$d/base.cl" "$d" >/dev/null 2>&1
    for f in ${FORKS:-base readonly}; do
      [ -f "$d/$f.cl" ] || continue
      echo "== $name $cfg: tiled (this tree) against $f" | tee -a "$OUT/ab.log"
      # shellcheck disable=SC2086
      $CLI lab azint --from tiled $input --device ocl:NVIDIA --repeat 9 --tune AZ_CHUNK_FRAMES=$chunk \
        $set --source "$d/$f.cl" 2>&1 | grep -E "^(tiled|fork) " | grep -v azint_ | tee -a "$OUT/ab.log"
    done
    [ -n "$SWEEP" ] || continue
    echo "== $name $cfg: $SWEEP swept" | tee -a "$OUT/ab.log"
    # shellcheck disable=SC2086
    $CLI lab azint --from tiled $input --device ocl:NVIDIA --repeat 9 --tune AZ_CHUNK_FRAMES=$chunk \
      $set --sweep "$SWEEP" 2>&1 | grep -E "^(tiled|fork) " | grep -v azint_ |
      tee -a "$OUT/ab.log"
  done
}
run_case large "--size large" 8 "${CONFIGS:-64,64,256 32,64,256 64,64,256,0}"
$CLI generate powder -o /tmp/p16.h5 --frames 16 --height 4096 --width 4096 >/dev/null &&
  run_case p16 /tmp/p16.h5 16 "${CONFIGS16:-64,64,256 32,64,256 64,64,256,0}"

#!/usr/bin/env bash
# On the lent GPU (issue 53, azint at >= 50 % of the measured bandwidth): build the CLI
# (scripts/gpu_bench.sh with no line), then for each tile shape time tiled's forks of
# scripts/azint_forks.py (local histogram copies, loads first, the read alone) beside the built-in
# tiled, on the large case (8 x 2048^2, one launch) and on 16 frames of 4096^2 (one launch).
# CONFIGS: "H,W,WG ..." (default below). Carry [".deps"].
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
: >"$OUT/empty.list"
bash scripts/gpu_bench.sh "$OUT/empty.list" >/dev/null; [ -x "${BUILD:-/tmp/b}/app/clscope-cli" ] || exit 1
CLI=${BUILD:-/tmp/b}/app/clscope-cli
export LD_LIBRARY_PATH=$PWD/.deps/sys/usr/lib/x86_64-linux-gnu
FORKS=${FORKS:-copies2 copies4 copies8 copies32 preload preload_copies8 readonly}
lab_rows() { grep -E "^(tiled|fork) " | grep -v azint_ ; }
run_case() { # NAME INPUT-ARGS CHUNK
  local name=$1 input=$2 chunk=$3
  for cfg in ${CONFIGS:-64,64,256 32,32,128 32,32,256 64,32,256 32,64,256}; do
    IFS=, read -r h w wg <<<"$cfg"
    local set="--set AZ_STATIC_COUNTS=1 --set AZ_TILE_H=$h --set AZ_TILE_W=$w --set AZ_TILE_WG=$wg"
    local d=$OUT/$name-$h-$w-$wg
    mkdir -p "$d"
    # shellcheck disable=SC2086
    $CLI lab azint --from tiled $input --device ocl:NVIDIA --print-source $set >"$d/tiled.cl" || continue
    python3 scripts/azint_forks.py "$d/tiled.cl" "$d" || continue
    for f in $FORKS; do
      echo "== $name $cfg $f" | tee -a "$OUT/forks.log"
      # shellcheck disable=SC2086
      $CLI lab azint --from tiled $input --device ocl:NVIDIA --repeat 9 --tune AZ_CHUNK_FRAMES=$chunk \
        --source "$d/$f.cl" >"$d/$f.log" 2>&1
      lab_rows <"$d/$f.log" | tee -a "$OUT/forks.log"
    done
  done
}
run_case large "--size large" 8
$CLI generate powder -o /tmp/p16.h5 --frames 16 --height 4096 --width 4096 >/dev/null &&
  CONFIGS=${CONFIGS16:-64,64,256 32,32,128} run_case p16 /tmp/p16.h5 16
grep -h "roofline: " "$OUT"/*/*.log | sort -u | head -3

# Sourced by the lent GPU's experiment scripts (gpu_azint_ab.sh, gpu_azint_regs.sh,
# gpu_spots_regs.sh): the headless tools built by scripts/gpu_bench.sh (an empty list: no
# bench line), $CLI set to its clscope-cli and the live input's libraries from .deps/sys on the
# library path; $OUT made. Returns 1 where the build failed.
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
: >"$OUT/empty.list"
bash scripts/gpu_bench.sh "$OUT/empty.list" >/dev/null
CLI=${BUILD:-/tmp/b}/app/clscope-cli
export LD_LIBRARY_PATH=$PWD/.deps/sys/usr/lib/x86_64-linux-gnu
[ -x "$CLI" ]

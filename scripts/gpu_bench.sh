#!/usr/bin/env bash
# On the lent GPU machine (see docs/PERFORMANCE.md): register NVIDIA's OpenCL, build the
# headless tools (no GUI, no tests), then run each `clscope-cli bench ...` line of the file
# given (default scripts/gpu_bench.list: the cases of docs/PERFORMANCE.md's table), writing one
# JSON per line and a log under $OUT (LINE_TIMEOUT: seconds a line, default 300). ONLY=REGEX: only the lines matching REGEX (grep -E, on the
# line with its mark: ONLY='^x2 ' runs the two-GPU lines alone). Lines marked `x2 ` run only
# where `clscope-cli devices` lists two GPUs or more.
# Needs the CLI11/nlohmann headers in .deps/include (carry [".deps"]; cmake/ClscopeDeps.cmake finds them)
# and, for the `bench stream` lines, .deps/sys (scripts/stream_bench/fetch_deps.sh makes both).
set -uo pipefail
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
OUT=${OUT:-/tmp/out}
LIST=${1:-scripts/gpu_bench.list}
mkdir -p "$OUT"
# libzmq/libcbor/liblz4 from .deps/sys (scripts/stream_bench/fetch_deps.sh) for the live input.
DEPS_USR=$PWD/.deps/sys/usr
if [ -d "$DEPS_USR" ]; then
  export PKG_CONFIG_PATH=$DEPS_USR/lib/x86_64-linux-gnu/pkgconfig
  export LD_LIBRARY_PATH=$DEPS_USR/lib/x86_64-linux-gnu
fi
# BUILD=DIR: build there (default /tmp/b; an earlier call's build-ab/new is reused as it is).
BUILD=${BUILD:-/tmp/b}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLSCOPE_BUILD_GUI=OFF \
  -DCLSCOPE_BUILD_TESTS=OFF -DCMAKE_PREFIX_PATH="$DEPS_USR" >"$OUT/cmake.log" 2>&1 &&
  cmake --build "$BUILD" -j16 --target clscope-cli >"$OUT/build.log" 2>&1 ||
  { tail -30 "$OUT/build.log"; exit 1; }
CLI=$BUILD/app/clscope-cli
$CLI devices | tee "$OUT/devices.txt"
GPUS=$(grep -c '\[GPU,' "$OUT/devices.txt")
git rev-parse --short HEAD 2>/dev/null | tee "$OUT/commit.txt"
n=0
while read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  [ -z "${ONLY:-}" ] || echo "$line" | grep -Eq -- "$ONLY" || continue
  case "$line" in x2\ *) [ "$GPUS" -ge 2 ] || continue; line=${line#x2 } ;; esac
  n=$((n + 1))
  echo "== $n: clscope-cli $line" | tee -a "$OUT/bench.log"
  # shellcheck disable=SC2086
  timeout "${LINE_TIMEOUT:-300}" $CLI $line --json "$OUT/run$n.json" >>"$OUT/bench.log" 2>&1
  echo "rc=$?" >>"$OUT/bench.log"
done <"$LIST"
tail -c 6000 "$OUT/bench.log"

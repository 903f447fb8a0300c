#!/usr/bin/env bash
# On the lent GPU machine (see docs/PERFORMANCE.md): register NVIDIA's OpenCL, build the
# headless tools, list devices and run clscope-cli bench for the algorithms given (default all),
# writing JSON under $OUT. Usage: scripts/gpu_bench.sh [ALGO...]; BENCH_ARGS adds bench options.
set -uo pipefail
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
OUT=${OUT:-/tmp/out}
cmake -S . -B /tmp/b -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLSCOPE_BUILD_GUI=OFF -DCLSCOPE_BUILD_TESTS=OFF >/dev/null &&
  cmake --build /tmp/b -j16 >/dev/null || exit 1
CLI=/tmp/b/app/clscope-cli
$CLI devices | tee "$OUT/devices.txt"
git rev-parse --short HEAD 2>/dev/null | tee "$OUT/commit.txt"

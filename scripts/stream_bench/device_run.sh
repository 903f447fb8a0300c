#!/bin/bash
# Issue 24 item 5 on the lent GPU machine, without the socket (no libzmq/libcbor there): the
# bslz4 decompression rate of clscope's decoder on 1..16 host threads (bslz4_rate.cpp) and the
# spots stream from host memory (upload + kernels + grouping) for 16M and 4M frames.
set -u
OUT=${OUT:-/tmp/out}
B=${B:-/tmp/b}
mkdir -p "$OUT"
g++ -O2 -std=c++20 -I. scripts/stream_bench/bslz4_rate.cpp core/stream/compression.cpp -llz4 \
    -pthread -o /tmp/bslz4_rate && /tmp/bslz4_rate
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLSCOPE_BUILD_GUI=OFF >/dev/null &&
    cmake --build "$B" -j16 --target clscope-cli >/dev/null || exit 1
for size in stream stream4m; do
    "$B/app/clscope-cli" bench spots --size $size --device ocl:H200 --variant local --repeat 3 \
        --json "$OUT/spots_$size.json" 2>&1 | tail -1
done

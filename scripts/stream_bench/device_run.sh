#!/bin/bash
# Issue 24 item 5 on the lent GPU machine: `clscope-cli bench stream` for 16M and 4M bslz4
# uint16 frames (decode from memory on 1/8/15 threads, ZeroMQ loopback receive alone and with
# decoding, then spots on the GPU over the received frames), and the spots stream from host
# memory (upload + kernels + grouping) for comparison (FROM_MEMORY=0 leaves it out). Then spots
# again in passes of each of PASS_MIB (default 1024; CLSCOPE_LIVE_PASS_MIB) on 15 threads.
# THREADS: the decoding thread counts of the first lines (default "1 8 15"). DEPS: a folder
# holding libzmq/libcbor headers, libraries and .pc files (lib/pkgconfig), for a machine without
# them.
set -u
OUT=${OUT:-/tmp/out}
B=${B:-/tmp/b}
DEV=${DEV:-ocl:H200}
mkdir -p "$OUT"
if [ -n "${DEPS:-}" ]; then
    export PKG_CONFIG_PATH=$DEPS/lib/pkgconfig LD_LIBRARY_PATH=$DEPS/lib
fi
ldconfig -p | grep -E 'libzmq|libcbor|liblz4' >"$OUT/ldconfig.txt"
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLSCOPE_BUILD_GUI=OFF \
    -DCLSCOPE_BUILD_TESTS=OFF >/dev/null &&
    cmake --build "$B" -j16 --target clscope-cli >/dev/null || exit 1
grep -E '^CLSCOPE_(LIVE|DECOMPRESS)' "$B/CMakeCache.txt"
T=()
for t in ${THREADS:-1 8 15}; do T+=(--threads "$t"); done
for size in 16m 4m; do
    "$B/app/clscope-cli" bench stream --size $size "${T[@]}" \
        --then spots --device "$DEV" --variant local --json "$OUT/stream_$size.json" 2>&1 |
        tee "$OUT/stream_$size.log"
done
for mib in ${PASS_MIB:-1024}; do
    for size in 16m 4m; do
        CLSCOPE_LIVE_PASS_MIB=$mib "$B/app/clscope-cli" bench stream --size $size --threads 15 \
            --then spots --device "$DEV" --variant local \
            --json "$OUT/stream_${size}_pass$mib.json" 2>&1 | tail -2 |
            tee "$OUT/stream_${size}_pass$mib.log"
    done
done
[ "${FROM_MEMORY:-1}" = 0 ] && exit 0
for size in stream stream4m; do
    "$B/app/clscope-cli" bench spots --size $size --device "$DEV" --variant local --repeat 3 \
        --json "$OUT/spots_$size.json" 2>&1 | tail -2
done

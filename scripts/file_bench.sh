#!/usr/bin/env bash
# On the lent GPU machine (docs/PERFORMANCE.md, "Files through the pipeline"): spots and
# multi-tau on files read front to back, through the streaming pipeline and the way a run
# without a stream stage reads them (CLSCOPE_FILE_PIPELINE=0), for a raw (contiguous), a gzip
# (shuffle + deflate, a frame a chunk) and a bslz4 file; then `bench stream --file`. Builds as
# scripts/gpu_bench.sh does; needs .deps (scripts/stream_bench/fetch_deps.sh) and the bitshuffle
# HDF5 plugin in .deps/plugins (copied from Debian's bitshuffle package) for the bslz4 files.
set -uo pipefail
OUT=${OUT:-/tmp/out}
ONLY='^nothing$' OUT=$OUT bash scripts/gpu_bench.sh >/dev/null 2>&1
[ -x /tmp/b/app/clscope-cli ] || { tail -30 "$OUT/build.log"; exit 1; }
export LD_LIBRARY_PATH=$PWD/.deps/sys/usr/lib/x86_64-linux-gnu HDF5_PLUGIN_PATH=$PWD/.deps/plugins
CLI=/tmp/b/app/clscope-cli
LOG=$OUT/file_bench.log
D=${DEVICE:-ocl:NVIDIA}
run() { echo "== $*" >>"$LOG"; timeout 150 "$@" >>"$LOG" 2>&1; echo "rc=$?" >>"$LOG"; }
# PHASE=files: the files only; PHASE=stream: bench stream --file only; default both.
# LAYOUTS: the files' compressions (default "none bslz4 gzip"); SPOTS_FRAMES, XPCS_FRAMES: their
# frames (400, 4000). The passes path (CLSCOPE_FILE_PIPELINE=0) runs in the first round only.
PHASE=${PHASE:-both}
LAYOUTS=${LAYOUTS:-none bslz4 gzip}
if [ "$PHASE" != stream ]; then
for c in $LAYOUTS; do
  run $CLI generate diffraction --frames ${SPOTS_FRAMES:-400} --height 2162 --width 2068 --seed 3 \
    --compression $c -o /tmp/spots_$c.h5
  run $CLI generate xpcs --frames ${XPCS_FRAMES:-4000} --height 512 --width 1024 --dtype uint16 \
    --ring-width 32 --seed 3 --compression $c -o /tmp/xpcs_$c.h5
done
ls -l /tmp/*.h5 >>"$LOG"
for rep in 1 2; do
  for c in $LAYOUTS; do
    [ $rep = 2 ] && [ $c = gzip ] && continue
    for p in 1 0; do
      [ $rep = 2 ] && [ $p = 0 ] && continue
      CLSCOPE_FILE_PIPELINE=$p run $CLI spots /tmp/spots_$c.h5 --device $D --variant local \
        -o /tmp/o_spots_${c}_$p.h5
      CLSCOPE_FILE_PIPELINE=$p run $CLI correlate /tmp/xpcs_$c.h5 --multitau --device $D \
        -o /tmp/o_xpcs_${c}_$p.h5
    done
  done
done
rm -f /tmp/spots_*.h5 /tmp/xpcs_*.h5
fi
if [ "$PHASE" != files ]; then
run $CLI bench stream --size 4m --frames 4000 --threads 15 --device $D --file --then xpcs \
  --variant multitau --params '{"multitau":true}' --json "$OUT/stream_file_4m_xpcs.json"
run $CLI bench stream --size 16m --frames 1000 --threads 15 --device $D --file --then spots \
  --variant local --json "$OUT/stream_file_16m_spots.json"
fi
grep -E "^==|wrote|rc=|file|pipeline" "$LOG" | cut -c1-400

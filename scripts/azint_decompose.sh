#!/usr/bin/env bash
# azint's sorted tiled form taken apart in the kernel lab (PERFORMANCE.md, azint large, 2026-11-28):
# its program as built (`lab --print-source`), then two forks that leave a stage out — the
# global atomics (a flush no sum can reach), and everything after the staging of the frames into
# local memory — each timed beside the built-in tiled with `lab --source` (the forks' checks
# fail by design: only their times count). CLI: the clscope-cli to use; DEVICE (ocl:NVIDIA), SIZE (large).
set -euo pipefail
CLI=${CLI:-build/app/clscope-cli}
DEVICE=${DEVICE:-ocl:NVIDIA}
SIZE=${SIZE:-large}
DIR=${DIR:-$(mktemp -d)}
SET=(--set AZ_TILE_SORTED=1 --set AZ_TILE_H=32 --set AZ_TILE_W=32)
"$CLI" lab azint --from tiled --size "$SIZE" --device "$DEVICE" --print-source "${SET[@]}" \
  >"$DIR/az_sorted.cl"
python3 - "$DIR" <<'P'
import sys
d = sys.argv[1]
s = open(d + "/az_sorted.cl").read()
flush = "        if (m) azint_global_flush(sum_signal, count, at, s, m);"
staged = ("    azint_sorted_stage(frames, tile, width, height, t0, here, tile_order, values, order, lid);\n"
          "    barrier(CLK_LOCAL_MEM_FENCE);\n")
assert flush in s and staged in s, "the program changed: update the forks' edits"
open(d + "/az_sorted_noatomics.cl", "w").write(
    s.replace(flush, flush.replace("if (m)", "if (m == 0xFFFFFFFFu)")))
open(d + "/az_sorted_stageonly.cl", "w").write(s.replace(
    staged, staged + "    if (values[lid] == (DATA_T)12345 && order[lid] == 7) count[0] = 1;\n    return;\n"))
P
for f in az_sorted az_sorted_noatomics az_sorted_stageonly; do
  echo "== $f"
  "$CLI" lab azint --from tiled --size "$SIZE" --device "$DEVICE" --repeat 9 \
    --tune AZ_CHUNK_FRAMES=8 --source "$DIR/$f.cl" || true
done

#!/usr/bin/env bash
# Issue 53's per-image target (DIALS' per-image analysis adds < 10 % to a spots run): the same
# spots run on FRAMES frames of HEIGHT x WIDTH uint16 (generated; COMPRESSION, default none) with and
# without a geometry (--expt: the analysis of each image's spots, written to /spots/per_image),
# REPEAT times each, alternating; the CLI's own line for each (read, compute, write) and the
# process's wall. Usage: scripts/per_image_bench.sh CLI DEVICE [FRAMES HEIGHT WIDTH REPEAT SPOTS]
set -euo pipefail
cli=$1 device=$2 frames=${3:-100} height=${4:-4362} width=${5:-4148} repeat=${6:-3} spots=${7:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cli" generate diffraction -o "$work/d.h5" --frames "$frames" --height "$height" \
    --width "$width" --spots "$spots" --compression "${COMPRESSION:-none}" >/dev/null
# A flat detector of 75 µm pixels at 150 mm, the beam at the centre, 0.9 Å (DIALS' model).
ox=$(awk -v w="$width" 'BEGIN { printf "%.6f", -w * 0.075 / 2 }')
oy=$(awk -v h="$height" 'BEGIN { printf "%.6f", h * 0.075 / 2 }')
cat >"$work/g.expt" <<JSON
{"__id__": "ExperimentList",
 "experiment": [{"__id__": "Experiment", "beam": 0, "detector": 0}],
 "beam": [{"direction": [0.0, 0.0, 1.0], "wavelength": 0.9}],
 "detector": [{"panels": [{"name": "p", "type": "SENSOR_PAD",
   "fast_axis": [1.0, 0.0, 0.0], "slow_axis": [0.0, -1.0, 0.0],
   "origin": [$ox, $oy, -150.0], "pixel_size": [0.075, 0.075], "image_size": [$width, $height],
   "trusted_range": [0, 65533], "thickness": 0.0, "material": "", "mu": 0.0,
   "identifier": "", "mask": [], "gain": 1.0, "pedestal": 0.0,
   "px_mm_strategy": {"type": "SimplePxMmStrategy"}, "raw_image_offset": [0, 0]}],
   "hierarchy": {"name": "", "type": "", "fast_axis": [1, 0, 0], "slow_axis": [0, 1, 0],
     "origin": [0, 0, 0], "raw_image_offset": [0, 0], "image_size": [0, 0],
     "children": [{"panel": 0}]}}]}
JSON
for ((i = 1; i <= repeat; i++)); do
    for geometry in none expt; do
        extra=()
        [[ $geometry == none ]] || extra=(--expt "$work/g.expt")
        start=$(date +%s.%N)
        line=$("$cli" spots "$work/d.h5" -o "$work/s-$geometry.h5" --device "$device" \
            --variant local "${extra[@]}")
        wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", (e - s) * 1000 }')
        echo "per-image $geometry run $i: process wall $wall ms: $line"
    done
done

#!/usr/bin/env bash
# On the lent GPU (carry [".deps"]): where cluster's kernel time goes. For each size and variant,
# `bench cluster` traced (CLSCOPE_TRACE) and its kernels summed by label over the traced
# sessions (ms in all, launches, ms a launch), then the kernel lab's roofline rows of the large
# case. Writes $OUT/cluster.log.
set -uo pipefail
# shellcheck source=scripts/gpu_cli.sh
. scripts/gpu_cli.sh || exit 1
for size in ${SIZES:-seed large events}; do
  for variant in cmssw unionfind; do
    rm -f "$OUT/trace.txt"
    echo "== bench cluster --size $size --variant $variant" | tee -a "$OUT/cluster.log"
    CLSCOPE_TRACE="$OUT/trace.txt" timeout 150 $CLI bench cluster --size "$size" \
      --device ocl:NVIDIA --variant "$variant" --repeat 5 2>&1 | grep -E "^cluster " |
      tee -a "$OUT/cluster.log"
    awk '$3 == "k" { l = $4; for (i = 5; i <= NF; ++i) l = l " " $i; t[l] += $2; n[l]++ }
         END { for (l in t) printf "%9.3f ms %5d launches %8.4f ms each  %s\n", t[l], n[l],
               t[l] / n[l], l }' "$OUT/trace.txt" | sort -rn | head -14 | tee -a "$OUT/cluster.log"
  done
done
for variant in cmssw unionfind; do
  echo "== lab cluster --from $variant --size large" | tee -a "$OUT/cluster.log"
  timeout 150 $CLI lab cluster --from "$variant" --size large --device ocl:NVIDIA --repeat 9 \
    2>&1 | grep -vE "^ *$" | tee -a "$OUT/cluster.log" | tail -12
done
rm -f "$OUT/trace.txt" "$OUT"/*.json "$OUT"/cmake.log "$OUT"/build.log "$OUT"/empty.list

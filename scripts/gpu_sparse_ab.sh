#!/usr/bin/env bash
# On the lent GPU machine (carry [".deps", ".ab"]): scripts/gpu_sparse_ab.list (LIST=: another)
# with the CLI of a base tree (A: .ab/base.tar.gz, `git archive BASE -- . ':!tests/data' | gzip`)
# and with this tree's (B), one after the other in one call on one card; each run's labels (the
# bench's --json labels_median_ms) printed after the rows.
set -uo pipefail
LIST=$PWD/${LIST:-scripts/gpu_sparse_ab.list}
HERE=$PWD
OUT_ALL=$OUT
mkdir -p /tmp/base && tar xzf .ab/base.tar.gz -C /tmp/base && ln -sfn "$HERE/.deps" /tmp/base/.deps
(cd /tmp/base && OUT=$OUT_ALL/a LINE_TIMEOUT=200 BUILD=/tmp/bbase bash scripts/gpu_bench.sh "$LIST" >/dev/null 2>&1)
OUT=$OUT_ALL/b LINE_TIMEOUT=200 BUILD=/tmp/b bash scripts/gpu_bench.sh "$LIST" >/dev/null 2>&1
for side in a b; do
  echo "=== $side"
  grep -E "^== |^(xpcs|azint|spots|local|fork) |rc=[1-9]" "$OUT_ALL/$side/bench.log" | cut -c1-200
  for j in "$OUT_ALL/$side"/run*.json; do
    python3 - "$j" <<'P'
import json, sys
for r in json.load(open(sys.argv[1])).get("rows", []):
    labels = sorted(r.get("labels_median_ms", {}).items(), key=lambda kv: -kv[1])
    print(" ", r.get("variant"), r.get("size"), "kernels", round(r.get("median_ms", 0), 3), "wall", round(r.get("wall_median_ms", 0), 1))
    for name, ms in labels[:int(sys.argv[2]) if len(sys.argv) > 2 else 10]:
        print("    %-70s %9.3f" % (name, ms))
P
  done
  rm -f "$OUT_ALL/$side"/run*.json "$OUT_ALL/$side"/*.log.tmp
  rm -f "$OUT_ALL/$side"/cmake.log "$OUT_ALL/$side"/build.log "$OUT_ALL/$side"/devices.txt
done

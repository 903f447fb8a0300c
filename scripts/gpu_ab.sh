#!/usr/bin/env bash
# On the lent GPU machine: the same bench lines through two builds in one call, base and new,
# alternating (base, new, base, new ...), so that both see the same card and the same state.
#   scripts/gpu_ab.sh BASE_SRC LIST
# BASE_SRC: a source tree of the base commit (e.g. `git archive BASE | tar -x -C build-base-src`,
# carried); the working tree is "new". LIST: one `clscope-cli` command per line (scripts/gpu_bench.list's
# form), each run ROUNDS times (default 2) by each build. Prints, per line and build, the bench's
# table row and the median ms of the LABELS (default 6) labels that take the most time (its JSON).
# Needs .deps as scripts/gpu_bench.sh does.
set -uo pipefail
BASE_SRC=$1
LIST=$2
ROUNDS=${ROUNDS:-2}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
DEPS_USR=$PWD/.deps/sys/usr
if [ -d "$DEPS_USR" ]; then
  export PKG_CONFIG_PATH=$DEPS_USR/lib/x86_64-linux-gnu/pkgconfig
  export LD_LIBRARY_PATH=$DEPS_USR/lib/x86_64-linux-gnu
fi
build() { # SRC DIR
  # the base tree finds .deps where its own cmake looks: beside its sources
  [ -e "$1/.deps" ] || ln -s "$PWD/.deps" "$1/.deps"
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLSCOPE_BUILD_GUI=OFF \
    -DCLSCOPE_BUILD_TESTS=OFF -DCMAKE_PREFIX_PATH="$DEPS_USR" >"$2.cmake.log" 2>&1 &&
    cmake --build "$2" -j8 --target clscope-cli >"$2.build.log" 2>&1
}
mkdir -p build-ab
build "$BASE_SRC" build-ab/base & b=$!
build . build-ab/new & n=$!
wait $b || { tail -20 build-ab/base.build.log; exit 1; }
wait $n || { tail -20 build-ab/new.build.log; exit 1; }
labels() { # JSON: the LABELS labels of the most median ms
  LABELS=${LABELS:-6} python3 - "$1" <<'EOF'
import os
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception as e:
    sys.exit(0)
rows = d if isinstance(d, list) else d.get("rows", [])
for r in rows:
    l = sorted(r.get("labels_median_ms", {}).items(), key=lambda kv: -kv[1])[: int(os.environ["LABELS"])]
    print("   labels: " + "; ".join(f"{k} {v:.2f}" for k, v in l))
EOF
}
n=0
while read -r line; do
  case "$line" in '' | '#'*) continue ;; esac
  n=$((n + 1))
  echo "== $n: clscope-cli $line" | tee -a "$OUT/ab.log"
  for round in $(seq "$ROUNDS"); do
    for which in base new; do
      # shellcheck disable=SC2086
      timeout 300 build-ab/$which/app/clscope-cli $line --json "$OUT/ab_${n}_${which}_$round.json" \
        >"$OUT/one.log" 2>&1
      echo "-- $which (round $round, rc=$?)" >>"$OUT/ab.log"
      grep -v '^algo ' "$OUT/one.log" >>"$OUT/ab.log"
      labels "$OUT/ab_${n}_${which}_$round.json" >>"$OUT/ab.log"
    done
  done
done <"$LIST"
rm -f "$OUT/one.log" "$OUT"/ab_*.json
cat "$OUT/ab.log"

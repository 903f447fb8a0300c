#!/bin/bash
# One call on the lent GPU machine (docs/PERFORMANCE.md, multi-tau): build clscope-cli without
# the GUI, run the multi-tau bench case checked against cpu, then the tunings in $TUNINGS
# (each "K=V[,K=V]") unchecked, and print each run's figures and labels. Outputs under $OUT.
set -u
OUT=${OUT:-/tmp/out}
B=${B:-/tmp/b}
mkdir -p "$OUT"
date -u
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,pcie.link.gen.current --format=csv
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCLSCOPE_BUILD_GUI=OFF >/dev/null &&
    cmake --build "$B" -j16 --target clscope-cli >"$OUT/build.log" 2>&1 || {
    tail -30 "$OUT/build.log"
    exit 1
}
echo built
CLI="$B/app/clscope-cli"
summary() {
    python3 - "$1" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["rows"]:
    print(f"  {r['throughput']:.0f} {r['unit']} wall {r['wall_median_ms']:.1f} kernel {r['median_ms']:.1f} maxdev {r.get('max_deviation')}")
    for k, v in sorted(r.get("labels_median_ms", {}).items()):
        print(f"     {k:45s} {v:9.2f}")
PY
}
run() { # name, extra args...
    local name=$1
    shift
    echo "== $name: $*"
    "$CLI" bench xpcs --size multitau --device ocl:H200 --variant multitau --json "$OUT/$name.json" "$@" 2>&1 | tail -2
    summary "$OUT/$name.json"
}
run default --repeat 5
for t in ${TUNINGS:-}; do
    args=()
    for kv in ${t//,/ }; do args+=(--tune "$kv"); done
    run "${t//[=,]/_}" --repeat 3 --no-check "${args[@]}"
done

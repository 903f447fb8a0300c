#!/usr/bin/env bash
# On the lent GPU machine (an x4 host; carry [".deps", ".peer"]): build and run
# scripts/gpu_azint_peer.list, then pyFAI's OpenCL CSR integrator on the same card (16M and 4M,
# scripts/pyfai_bench.py in the Python of scripts/pyfai_runtime.sh), then every azint variant on
# ocl:1 over pyFAI's 26 cases (scripts/azint_gpu_matrix.py). Logs under $OUT.
set -uo pipefail
export LINE_TIMEOUT=150 BUILD=/tmp/b
bash scripts/gpu_bench.sh scripts/gpu_azint_peer.list > $OUT/gpu_bench_stdout.log 2>&1
grep -E "^== |frames/s|wall|join|max dev|rc=" $OUT/bench.log | grep -v "^\s*$" | head -80
export PYTHONUNBUFFERED=1
for s in 16m 4m; do timeout 200 bash scripts/pyfai_on_device.sh scripts/pyfai_bench.py --size $s --repeat 50 2>&1 | grep -v Warning | tee -a $OUT/pyfai_peer.log; done
printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec /tmp/b/app/clscope-cli "$@"\n' "$PWD/.deps/sys/usr/lib/x86_64-linux-gnu" > /tmp/cli.sh; chmod +x /tmp/cli.sh
mkdir -p /tmp/azm; bash scripts/pyfai_on_device.sh tests/azint_reference.py /tmp/azm > /dev/null 2>&1
timeout 240 bash scripts/pyfai_on_device.sh scripts/azint_gpu_matrix.py /tmp/cli.sh /tmp/azm ocl:1 > $OUT/azint_matrix.log 2>&1; echo "matrix rc=$?"; grep -c -- "-> ok" $OUT/azint_matrix.log; grep -v -- "-> ok" $OUT/azint_matrix.log | tail -5

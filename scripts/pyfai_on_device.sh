#!/usr/bin/env bash
# On the lent GPU machine: unpack the Python 3.11 runtime with Debian's pyFAI 0.21.3 that
# scripts/pyfai_runtime.sh packed on the workstation (.peer/pyfai311.tar.xz; carry [".deps",
# ".peer"]) and run the Python script given with its arguments on it, e.g.
#   scripts/pyfai_on_device.sh scripts/pyfai_bench.py --size 16m
# pyopencl finds NVIDIA's OpenCL through the machine's ICD loader (registered here, as
# scripts/gpu_bench.sh does).
set -euo pipefail
ROOT=${PYFAI_ROOT:-/tmp/pyfai}
if [ ! -x "$ROOT/rt/run.sh" ]; then
  mkdir -p "$ROOT"
  tar xJf .peer/pyfai311.tar.xz -C "$ROOT"
fi
echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd 2>/dev/null || true
exec "$ROOT/rt/run.sh" "$@"

#!/usr/bin/env bash
# On the lent GPU machine: unpack Debian's pyFAI 0.21.3 and what it imports (the .deb files in
# .deps/pydebs, fetched on the workstation with `apt-get download python3-pyfai python3-silx
# python3-fabio python3-pyopencl python3-numexpr python3-pytools python3-platformdirs python3-mako
# python3-scipy python3-decorator python3-appdirs libblas3 liblapack3 libgfortran5 liblbfgsb0
# libquadmath0`; carry [".deps"]) and run scripts/pyfai_bench.py with the arguments given, on the
# machine's numpy and OpenCL (NVIDIA's ICD, registered by scripts/gpu_bench.sh).
set -euo pipefail
ROOT=${PYFAI_ROOT:-/tmp/pyfai}
mkdir -p "$ROOT"
for deb in .deps/pydebs/*.deb; do dpkg-deb -x "$deb" "$ROOT" 2>/dev/null || (cd "$ROOT" && ar p "$OLDPWD/$deb" data.tar.xz | tar xJ); done
LIB=$ROOT/usr/lib/x86_64-linux-gnu
export PYTHONPATH=$ROOT/usr/lib/python3/dist-packages
export LD_LIBRARY_PATH=$LIB:$LIB/blas:$LIB/lapack${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd 2>/dev/null || true
python3 scripts/pyfai_bench.py "$@"

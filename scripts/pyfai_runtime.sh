#!/usr/bin/env bash
# On the workstation (Debian bookworm, python3-pyfai and its imports installed): pack Debian's
# Python 3.11 with pyFAI 0.21.3, pyopencl, numpy, scipy, h5py, silx and fabio, and the shared
# libraries they need beyond the C/C++ runtime and the OpenCL loader, into
# .peer/pyfai311.tar.xz (~30 MB; `.peer/` is in .git/info/exclude). The lent GPU machine's own
# Python is 3.12 and cannot load Debian's 3.11 extensions, and nothing can be installed there:
# carry [".deps", ".peer"] and scripts/pyfai_on_device.sh unpacks and runs it.
set -euo pipefail
OUTDIR=${1:-.peer}
D=/usr/lib/python3/dist-packages
work=$(mktemp -d)
rt=$work/rt
mkdir -p "$rt/bin" "$rt/so" "$rt/lib/python3.11/site-packages"
cp /usr/bin/python3.11 "$rt/bin/"
# The standard library without its tests, GUI toolkits and build tools.
(cd /usr/lib/python3.11 && tar cf - --exclude=test --exclude=tests --exclude=__pycache__ \
  --exclude=idlelib --exclude=tkinter --exclude=turtledemo --exclude=ensurepip \
  --exclude=lib2to3 --exclude='config-3.11-*' --exclude=pydoc_data --exclude=distutils \
  --exclude='_tkinter*' --exclude='_dbm*' --exclude='_gdbm*' --exclude='_sqlite3*' .) |
  (cd "$rt/lib/python3.11" && tar xf -)
site=$rt/lib/python3.11/site-packages
for p in numpy scipy h5py pyFAI fabio silx pyopencl pytools pkg_resources platformdirs \
  _distutils_hack typing_extensions.py six.py appdirs.py; do
  cp -a "$D/$p" "$site/"
done
# What pyFAI's integrators never import (measured: `python3 -X importtime`); tests stay where a
# module imports them (numpy.testing, h5py's tests package).
rm -rf "$site"/scipy/{stats,signal,misc,integrate,cluster,fft,fftpack,io,odr,datasets} \
  "$site"/silx/gui "$site"/pyFAI/gui "$site"/numpy/{f2py,distutils,doc}
find "$site" -name __pycache__ -prune -exec rm -rf {} +
find "$site" -type d -name tests -not -path "*/h5py/*" -prune -exec rm -rf {} +
# Shared libraries: every dependency of the interpreter and the extensions but the C/C++ runtime
# and the OpenCL ICD loader, which the machine has (NVIDIA's ICD is registered there).
{ ldd "$rt/bin/python3.11"; find "$rt" -name '*.so*' -exec ldd {} \; 2>/dev/null; } |
  awk '/=>/ {print $3}' | sort -u |
  grep -v -E 'lib(c|m|pthread|dl|rt|stdc\+\+|gcc_s|OpenCL)\.so|ld-linux' |
  while read -r lib; do cp -L "$lib" "$rt/so/"; done
cat >"$rt/run.sh" <<'EOF'
#!/bin/bash
# The carried Python 3.11 (scripts/pyfai_runtime.sh): python3.11 with its own libraries.
here=$(cd "$(dirname "$0")" && pwd)
export PYTHONHOME=$here PYTHONPATH=$here/lib/python3.11/site-packages PYTHONNOUSERSITE=1
export PYTHONDONTWRITEBYTECODE=1 LD_LIBRARY_PATH=$here/so${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec "$here/bin/python3.11" "$@"
EOF
chmod +x "$rt/run.sh"
"$rt/run.sh" -c 'import pyFAI.azimuthalIntegrator, pyFAI.opencl.azim_csr, h5py; print("pyFAI", pyFAI.version)'
mkdir -p "$OUTDIR"
tar cJf "$OUTDIR/pyfai311.tar.xz" -C "$work" rt
rm -rf "$work"
ls -l "$OUTDIR/pyfai311.tar.xz"

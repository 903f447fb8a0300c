#!/usr/bin/env python3
"""Every azint variant on a device over pyFAI's case matrix (tests/azint_reference.py's 26 cases:
1D and cakes, four units, ranges, solid angle and polarisation, mask and pixel mask).

    azint_gpu_matrix.py CLI REFERENCE_DIR DEVICE [VARIANT ...]

REFERENCE_DIR holds what `tests/azint_reference.py DIR` writes (reference.h5, geometry.poni).
Each case runs `clscope-cli azint` with `--device cpu` (the reference: tst_azint checks it against
pyFAI in CI) and with each VARIANT (default csr, histogram, sorted, tiled) on DEVICE, with the
command line tst_azint's cliAgainstPyfai gives. A variant agrees when every bin's count equals
cpu's and every intensity, error and sum is within 1e-9 relative of cpu's (NaN where cpu's is
NaN); beside it, the fraction of non-empty bins within 1e-6 of pyFAI's intensity. One line a
case and variant, then a summary; exit status 1 when any variant disagreed.
"""
import json
import os
import subprocess
import sys

import h5py
import numpy

FIELDS = ("intensity", "error", "sum_signal", "sum_normalization")


def arguments(p):
    a = ["--unit", p["unit"], "--bins", str(p["bins"]), "--azimuth-bins", str(p["azimuth_bins"])]
    if not p["default_range"] and p["radial_range"] is not None:
        a += ["--radial-range", "%.17g,%.17g" % tuple(p["radial_range"])]
    if p["azimuth_range"] is not None:
        a += ["--azimuth-range", "%.17g,%.17g" % tuple(p["azimuth_range"])]
    if p["solid_angle"]:
        a.append("--solid-angle")
    if p["polarization"] is not None:
        a += ["--polarization", "%.17g" % p["polarization"]]
    return a


def run(cli, ref, poni, args, device, variant, out):
    command = [cli, "azint", ref, "--data", "/input/data", "--mask", ref + ":/input/mask",
               "--pixel-mask", ref + ":/input/pixel_mask", "--poni", poni, "--device", device,
               "--variant", variant, "-o", out] + args
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (variant, done.returncode, done.stderr.strip()))
    with h5py.File(out, "r") as f:
        return {k: f["/azint/" + k][()] for k in FIELDS + ("count",)}


def deviation(got, want):
    worst = 0.0
    for k in FIELDS:
        g, w = numpy.asarray(got[k], float), numpy.asarray(want[k], float)
        if g.shape != w.shape or not numpy.array_equal(numpy.isnan(g), numpy.isnan(w)):
            return float("inf")
        ok = ~numpy.isnan(w)
        scale = numpy.maximum(numpy.abs(w[ok]), 1e-300)
        if ok.any():
            worst = max(worst, float(numpy.max(numpy.abs(g[ok] - w[ok]) / scale)))
    return worst


def pyfai_fraction(got, case):
    want = case["intensity"][()]
    g = numpy.asarray(got["intensity"], float).reshape(want.shape)
    filled = ~numpy.isnan(want) & (numpy.asarray(case["count"][()]).reshape(want.shape) > 0)
    close = numpy.abs(g - want) <= 1e-6 * numpy.maximum(numpy.abs(want), 1e-300)
    return float(numpy.mean(close[filled])) if filled.any() else 1.0


def main():
    cli, folder, device = sys.argv[1:4]
    variants = sys.argv[4:] or ["csr", "histogram", "sorted", "tiled"]
    ref, poni = os.path.join(folder, "reference.h5"), os.path.join(folder, "geometry.poni")
    failures = 0
    with h5py.File(ref, "r") as reference:
        for name in sorted(reference["cases"]):
            case = reference["cases"][name]
            args = arguments(json.loads(case.attrs["params"]))
            cpu = run(cli, ref, poni, args, "cpu", "cpu", os.path.join(folder, "cpu.h5"))
            for v in variants:
                try:
                    got = run(cli, ref, poni, args, device, v, os.path.join(folder, v + ".h5"))
                except RuntimeError as error:
                    print("%-22s %-9s FAILED %s" % (name, v, error))
                    failures += 1
                    continue
                counts = numpy.array_equal(got["count"], cpu["count"])
                worst = deviation(got, cpu)
                good = counts and worst <= 1e-9
                failures += not good
                print("%-22s %-9s counts %s, max relative deviation from cpu %.3g, "
                      "pyFAI agreement %.2f %% -> %s" %
                      (name, v, "equal" if counts else "DIFFER", worst,
                       100 * pyfai_fraction(got, case), "ok" if good else "DISAGREES"))
    print("azint matrix on %s: %d case-variant runs disagreed" % (device, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

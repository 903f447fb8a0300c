#!/usr/bin/env python3
"""pyFAI's OpenCL CSR integrator on the lent GPU: the peer of `clscope-cli bench azint`.

Frames from host memory (numpy uint16, a few distinct frames cycled), 1D integration without
pixel splitting (pyFAI's method ("no", "csr", "opencl")), the same geometry and bins as clscope's
azint bench case named by --size. Prints one JSON line per measurement: the engine's own call
(integrate_ng: upload + kernels + download) and AzimuthalIntegrator.integrate1d (what a script
calls); pyFAI picks its default OpenCL device (on the lent machine, NVIDIA's alone). Run on the device by scripts/gpu_bench.sh's caller with pyFAI unpacked from Debian's
packages (docs/PERFORMANCE.md says how).
"""
import argparse
import json
import time

import numpy

SIZES = {"seed": (512, 512), "4m": (2048, 2048), "16m": (4096, 4096)}


def frames(shape, count, seed=1):
    rng = numpy.random.default_rng(seed)
    return [rng.poisson(20, shape).astype(numpy.uint16) for _ in range(count)]


def timed(call, images, repeat):
    call(images[0])  # builds and warms up
    start = time.perf_counter()
    for k in range(repeat):
        call(images[k % len(images)])
    return (time.perf_counter() - start) / repeat


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", default="16m", choices=sorted(SIZES))
    parser.add_argument("--bins", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=50)
    a = parser.parse_args()
    import pyFAI
    from pyFAI.azimuthalIntegrator import AzimuthalIntegrator

    h, w = SIZES[a.size]
    pixel = 75e-6
    ai = AzimuthalIntegrator(dist=0.2, poni1=h / 2 * pixel, poni2=w / 2 * pixel,
                             pixel1=pixel, pixel2=pixel, wavelength=1e-10)
    ai.detector.shape = ai.detector.max_shape = (h, w)
    images = frames((h, w), 4)
    kw = dict(unit="q_nm^-1", method=("no", "csr", "opencl"), correctSolidAngle=False)
    integrate = timed(lambda img: ai.integrate1d(img, a.bins, **kw), images, a.repeat)
    engine = ai.engines[list(ai.engines)[-1]].engine
    ng = timed(lambda img: engine.integrate_ng(img), images, a.repeat)
    device = getattr(engine, "ctx", None)
    name = device.devices[0].name if device is not None else "?"
    for what, seconds in (("integrate1d", integrate), ("engine integrate_ng", ng)):
        print(json.dumps({"peer": "pyFAI " + pyFAI.version, "call": what, "size": a.size,
                          "bins": a.bins, "device": name, "ms_per_frame": seconds * 1e3,
                          "frames_per_s": 1 / seconds}))


if __name__ == "__main__":
    main()

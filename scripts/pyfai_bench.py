#!/usr/bin/env python3
"""pyFAI's OpenCL CSR integrator on the lent GPU: the peer of `clscope-cli bench azint`.

Frames from host memory (numpy uint16, a few distinct frames cycled), 1D integration without
pixel splitting (pyFAI's method ("no", "csr", "opencl")), the geometry and bins of clscope's
azint bench (core/azint/powder.cpp: dist 0.1 m, 75 µm pixels, the beam at the centre, 1 Å;
1000 q bins in nm^-1; `16m` is the stream case's 4096 x 4096). Prints one JSON line per
measurement: the engine's own call (integrate_ng: upload + kernels + download) and
AzimuthalIntegrator.integrate1d (what a script calls); pyFAI picks its default OpenCL device (on
the lent machine, NVIDIA's alone). Run it there with scripts/pyfai_on_device.sh, which brings
its Python (scripts/pyfai_runtime.sh).
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


def profiled(engine, images, repeat):
    """The engine's OpenCL events (silx's profiling), ms a frame by step."""
    engine.set_profiling(True)
    engine.reset_log()
    for k in range(repeat):
        engine.integrate_ng(images[k % len(images)])
    steps = {}
    for e in engine.events:  # ProfileDescription (name, start, stop) or (name, event)
        start, stop = (e.start, e.stop) if hasattr(e, "stop") else (
            e.event.profile.start, e.event.profile.end)
        steps[e.name] = steps.get(e.name, 0.0) + (stop - start) * 1e-6 / repeat
    engine.set_profiling(False)
    return steps


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
    ai = AzimuthalIntegrator(dist=0.1, poni1=h / 2 * pixel, poni2=w / 2 * pixel,
                             pixel1=pixel, pixel2=pixel, wavelength=1e-10)
    ai.detector.shape = ai.detector.max_shape = (h, w)
    images = frames((h, w), 4)
    kw = dict(unit="q_nm^-1", method=("no", "csr", "opencl"), correctSolidAngle=False)
    integrate = timed(lambda img: ai.integrate1d(img, a.bins, **kw), images, a.repeat)
    engine = ai.engines[list(ai.engines)[-1]].engine
    ng = timed(lambda img: engine.integrate_ng(img), images, a.repeat)
    profile = profiled(engine, images, a.repeat)
    device = getattr(engine, "ctx", None)
    name = device.devices[0].name if device is not None else "?"
    for what, seconds in (("integrate1d", integrate), ("engine integrate_ng", ng)):
        print(json.dumps({"peer": "pyFAI " + pyFAI.version, "call": what, "size": a.size,
                          "bins": a.bins, "device": name, "ms_per_frame": seconds * 1e3,
                          "frames_per_s": 1 / seconds}))
    print(json.dumps({"peer": "pyFAI " + pyFAI.version, "call": "engine integrate_ng, profiled",
                      "size": a.size, "device": name, "ms_per_frame_by_step": profile}))


if __name__ == "__main__":
    main()

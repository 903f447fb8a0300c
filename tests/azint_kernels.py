#!/usr/bin/python3
"""Runs resources/kernels/azint.cl on the first OpenCL device pyopencl finds (PoCL here), for
tst_azint: python3 azint_kernels.py KERNEL.cl IN.h5 OUT.h5.

IN.h5: /frames (T,H,W) uint16, /bin_of_pixel (H*W) int32, /normalization (H*W) float64,
/row_start (bins+1) int64, /row_pixels int32 (the CSR matrix), /bins (scalar).
OUT.h5: /histogram/{sum_signal, sum_normalization, count} and /csr/{...}, (T, bins) each.
Exit status 77 without pyopencl, h5py or an OpenCL device with fp64 (the test skips).
"""
import sys

try:
    import h5py
    import numpy
    import pyopencl as cl
except ImportError as error:
    print(f"missing: {error}", file=sys.stderr)
    sys.exit(77)


def device():
    for platform in cl.get_platforms():
        for dev in platform.get_devices():
            if "cl_khr_fp64" in dev.extensions:
                return dev
    print("no OpenCL device with fp64", file=sys.stderr)
    sys.exit(77)


def run(program, queue, kernel, size, frames, pixels, bins, inputs):
    ctx = queue.context
    mf = cl.mem_flags
    outs = [numpy.zeros((frames, bins), dtype) for dtype in (numpy.float64, numpy.float64,
                                                             numpy.uint32)]
    out_bufs = [cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=o) for o in outs]
    in_bufs = [cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a) for a in inputs]
    getattr(program, kernel)(queue, (size, frames), None, *in_bufs, numpy.uint32(pixels),
                             numpy.uint32(bins), *out_bufs)
    for o, b in zip(outs, out_bufs):
        cl.enqueue_copy(queue, o, b)
    queue.finish()
    return dict(zip(("sum_signal", "sum_normalization", "count"), outs))


def main():
    kernel_file, in_file, out_file = sys.argv[1:4]
    with h5py.File(in_file, "r") as f:
        frames = numpy.ascontiguousarray(f["frames"][...], numpy.uint16)
        bin_of_pixel = f["bin_of_pixel"][...].astype(numpy.int32)
        normalization = f["normalization"][...].astype(numpy.float64)
        row_start = f["row_start"][...].astype(numpy.int64)
        row_pixels = f["row_pixels"][...].astype(numpy.int32)
        bins = int(f["bins"][()])
    ctx = cl.Context([device()])
    queue = cl.CommandQueue(ctx)
    with open(kernel_file) as f:
        program = cl.Program(ctx, f.read()).build(
            options=["-DDATA_T=ushort", "-DDATA_FLOAT=0", "-DVALID_LIMIT=65534"])
    count, pixels = frames.shape[0], frames.shape[1] * frames.shape[2]
    results = {
        "histogram": run(program, queue, "azint_histogram", pixels, count, pixels, bins,
                         [frames, bin_of_pixel, normalization]),
        "csr": run(program, queue, "azint_csr", bins, count, pixels, bins,
                   [frames, row_start, row_pixels, normalization]),
    }
    with h5py.File(out_file, "w") as out:
        for group, sums in results.items():
            for name, values in sums.items():
                out[f"{group}/{name}"] = values


if __name__ == "__main__":
    main()

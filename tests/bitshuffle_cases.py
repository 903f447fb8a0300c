#!/usr/bin/env python3
"""Frames compressed by bitshuffle's own HDF5 filter (Debian's bitshuffle), for tst_stream:
  bitshuffle_cases.py DIR
writes DIR/cases.txt ("NAME ELEMENT_SIZE" per line), DIR/NAME.raw (the frame's bytes) and
DIR/NAME.bslz4 (the filter's chunk as stored, i.e. as DECTRIS' bslz4 frames it) and, where
python3-lz4 is installed, DIR/NAME.lz4 (LZ4 blocks of 4096 bytes framed as the HDF5 LZ4 filter
frames them, a block that does not shrink stored). The sizes leave partial last blocks, bit
rows whose byte count is not a multiple of 8, and the < 8 trailing elements the filter copies
as they are; the contents are half compressible and half random, all zero or all random."""
import importlib.util
import os
import sys

import bitshuffle.h5
import h5py
import numpy as np
from hdf5_framing import lz4_hdf5

# name, dtype, element count, block size in elements (0: the filter's default, 8192 bytes),
# contents: half (the first half small values, the rest random), zero, random
CASES = [("u16_default", np.uint16, 37 * 51, 0, "half"),
         ("u16_blocks", np.uint16, 3 * 4096 + 15, 0, "half"),
         ("u16_block264", np.uint16, 1000, 264, "half"), ("u16_five", np.uint16, 5, 0, "half"),
         ("u8_default", np.uint8, 20000, 0, "half"), ("u32_default", np.uint32, 5003, 0, "half"),
         ("i64_default", np.int64, 777, 0, "half"), ("u8_7x13", np.uint8, 7 * 13, 0, "half"),
         ("u16_1x1", np.uint16, 1, 0, "random"), ("u32_1000x1001", np.uint32, 1000 * 1001, 0, "half"),
         ("u16_zero", np.uint16, 64 * 64, 0, "zero"), ("u16_random", np.uint16, 3 * 4096 + 200, 0, "random"),
         ("u8_partial", np.uint8, 2 * 8192 + 1000 + 5, 0, "half"),
         ("batch0", np.uint16, 37 * 51, 0, "half"), ("batch1", np.uint16, 37 * 51, 0, "zero"),
         ("batch2", np.uint16, 37 * 51, 0, "random")]


def contents(rng, dtype, count, fill):
    info = np.iinfo(dtype)
    data = rng.integers(info.min, info.max, count, dtype=dtype, endpoint=True)
    if fill == "zero":
        data[:] = 0
    elif fill == "half":
        data[: count // 2] %= 7  # half of it compressible, half every bit set at random
    return data


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(24)
    lines = []
    for name, dtype, count, block, fill in CASES:
        data = contents(rng, dtype, count, fill)
        path = os.path.join(out, name)
        with h5py.File(path + ".h5", "w") as f:
            f.create_dataset("d", data=data, chunks=data.shape, compression=bitshuffle.h5.H5FILTER,
                             compression_opts=(block, bitshuffle.h5.H5_COMPRESS_LZ4))
        with h5py.File(path + ".h5") as f:
            chunk = f["d"].id.read_direct_chunk((0,))[1]
        os.remove(path + ".h5")
        if importlib.util.find_spec("lz4"):
            open(path + ".lz4", "wb").write(lz4_hdf5(data.tobytes(), 4096))
        open(path + ".raw", "wb").write(data.tobytes())
        open(path + ".bslz4", "wb").write(bytes(chunk))
        lines.append(f"{name} {data.dtype.itemsize}\n")
    open(os.path.join(out, "cases.txt"), "w").writelines(lines)


if __name__ == "__main__":
    main()

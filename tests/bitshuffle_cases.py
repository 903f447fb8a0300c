#!/usr/bin/env python3
"""Frames compressed by bitshuffle's own HDF5 filter (Debian's bitshuffle), for tst_stream:
  bitshuffle_cases.py DIR
writes DIR/cases.txt ("NAME ELEMENT_SIZE" per line), DIR/NAME.raw (the frame's bytes) and
DIR/NAME.bslz4 (the filter's chunk as stored, i.e. as DECTRIS' bslz4 frames it). The sizes
leave partial last blocks, bit rows whose byte count is not a multiple of 8, and the < 8
trailing elements the filter copies as they are."""
import os
import sys

import bitshuffle.h5
import h5py
import numpy as np

# name, dtype, element count, block size in elements (0: the filter's default, 8192 bytes)
CASES = [("u16_default", np.uint16, 37 * 51, 0), ("u16_blocks", np.uint16, 3 * 4096 + 15, 0),
         ("u16_block264", np.uint16, 1000, 264), ("u16_five", np.uint16, 5, 0),
         ("u8_default", np.uint8, 20000, 0), ("u32_default", np.uint32, 5003, 0),
         ("i64_default", np.int64, 777, 0)]


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(24)
    lines = []
    for name, dtype, count, block in CASES:
        info = np.iinfo(dtype)
        data = rng.integers(info.min, info.max, count, dtype=dtype, endpoint=True)
        data[: count // 2] %= 7  # half of it compressible, half every bit set at random
        path = os.path.join(out, name)
        with h5py.File(path + ".h5", "w") as f:
            f.create_dataset("d", data=data, chunks=data.shape, compression=bitshuffle.h5.H5FILTER,
                             compression_opts=(block, bitshuffle.h5.H5_COMPRESS_LZ4))
        with h5py.File(path + ".h5") as f:
            chunk = f["d"].id.read_direct_chunk((0,))[1]
        os.remove(path + ".h5")
        open(path + ".raw", "wb").write(data.tobytes())
        open(path + ".bslz4", "wb").write(bytes(chunk))
        lines.append(f"{name} {data.dtype.itemsize}\n")
    open(os.path.join(out, "cases.txt"), "w").writelines(lines)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Write the small h5py fixtures of tests/tst_io.cpp (run once with Debian's python3-h5py,
python3-numpy and bitshuffle; the files are committed). Every value follows a formula that
the C++ test recomputes: pattern(t, y, x) = (t*31 + y*7 + x*3) % 251."""
import h5py
import numpy as np
import bitshuffle.h5

T, H, W = 4, 5, 6


def pattern(dtype, scale=1, offset=0):
    t, y, x = np.meshgrid(np.arange(T), np.arange(H), np.arange(W), indexing="ij")
    return ((t * 31 + y * 7 + x * 3) % 251 * scale + offset).astype(dtype)


with h5py.File("h5py_frames.h5", "w") as f:
    f.create_dataset("entry/data/data", data=pattern("uint16", 257), chunks=(1, H, W),
                     compression="gzip", shuffle=True)
    f["entry/data"].attrs["NX_class"] = "NXdata"
    f["u8"] = pattern("uint8")                      # values above 127 included
    f["u32"] = pattern("uint32", 17_000_000)
    f["i32"] = pattern("int32", 1, -100)
    f["f32"] = pattern("float32", 0.5)
    f["f64"] = pattern("float64")                   # not a frame type
    f["i16"] = pattern("int16")                     # not a frame type
    f["vector"] = np.arange(10, dtype="uint16")     # wrong rank
    f["text"] = "not numbers"
    y, x = np.ogrid[0:H, 0:W]
    f["entry/processing/qmask"] = ((x + y) // 3).astype(np.int64)  # h5py's default int64
    f["entry/instrument/detector/pixel_mask"] = np.broadcast_to((x == 0) * 4, (H, W)).astype(np.uint32)
    f["entry/instrument/detector/frame_time"] = 0.002
    f["bad_qmask_shape"] = np.zeros((H + 1, W), dtype=np.int32)
    f["float_qmask"] = np.zeros((H, W), dtype=np.float32)
    f["qmask_int16"] = np.broadcast_to((x + y) // 3 - 1, (H, W)).astype(np.int16)  # -1 = excluded

with h5py.File("h5py_bslz4.h5", "w") as f:
    f.create_dataset("entry/data/data", data=pattern("uint16", 257), chunks=(1, H, W),
                     compression=bitshuffle.h5.H5FILTER,
                     compression_opts=(0, bitshuffle.h5.H5_COMPRESS_LZ4))

# EIGER layout: a master file whose data_NNNNNN are external links to data files.
for i, frames in ((1, slice(0, 3)), (2, slice(3, 4))):
    with h5py.File(f"eiger_data_{i:06d}.h5", "w") as f:
        f.create_dataset("entry/data/data", data=pattern("uint16", 257)[frames], chunks=(1, H, W),
                         compression="gzip")
with h5py.File("eiger_master.h5", "w") as f:
    for i in (1, 2):
        f[f"entry/data/data_{i:06d}"] = h5py.ExternalLink(f"eiger_data_{i:06d}.h5", "entry/data/data")
    f["entry/instrument/detector/pixel_mask"] = np.zeros((H, W), dtype=np.uint32)
    f["entry/data/data_000003_missing"] = h5py.ExternalLink("no_such_file.h5", "entry/data/data")

with h5py.File("h5py_digis.h5", "w") as f:
    n = 12
    f["digis/module"] = (np.arange(n) // 4).astype(np.uint16)
    f["digis/x"] = (np.arange(n) * 13 % 160).astype(np.uint16)
    f["digis/y"] = (np.arange(n) * 37 % 416).astype(np.uint16)
    f["digis/adc"] = (np.arange(n) * 1000 + 500).astype(np.uint16)
    f["bad/module"] = np.zeros(3, dtype=np.uint16)
    f["bad/x"] = np.array([1, 200, 3], dtype=np.uint16)   # 200 is outside the module
    f["bad/y"] = np.zeros(3, dtype=np.uint16)
    f["bad/adc"] = np.zeros(3, dtype=np.uint16)

with h5py.File("h5py_particles.h5", "w") as f:
    n, m = 7, 5
    f["particles/sources"] = (np.arange(3 * n).reshape(n, 3) / 21.0).astype(np.float32)
    f["particles/targets"] = np.arange(3 * m).reshape(m, 3) / 15.0
    f["particles/weights"] = np.stack([np.arange(n) * 0.5, -np.arange(n) * 0.25], axis=1)

#!/usr/bin/env python3
"""Files in the sparse layouts of DESIGN.md §3, written with h5py as a user's script would, for
tests/tst_sparse.cpp. Exit 77 (skip) without h5py or numpy.

  sparse_files.py sparse DENSE OUT [group|frame_ptr]   the dense stack of DENSE as sparse frames
                                                      (shape attribute on the group or frame_ptr),
                                                      every other object of DENSE copied
  sparse_files.py events DENSE OUT DELTA_NS           the same stack as an event list: a pixel's
                                                      c counts in frame k are c events spread over
                                                      [k·Δ, (k+1)·Δ - 1], both edges included
  sparse_files.py edges OUT                           a hand-made event list (tst_sparse's
                                                      eventsBinAtEdges holds its frames)
  sparse_files.py uint32 DENSE_OUT SPARSE_OUT         uint32 counts near 2^32 - 1, dense and sparse
  sparse_files.py wide DENSE_OUT SPARSE_OUT           40 frames of 64x64 uint32, pixel 0 near
                                                      8·10^7 counts in each (n N_t passes 2^63 in
                                                      its bin; frames binned by 32 stay below
                                                      3,037,000,499), 0.2 % small counts beside
  sparse_files.py long OUT FRAMES [OCC]               FRAMES frames of 16x16 at occupancy OCC
                                                      (a fraction, default 0.03: 3 %)
  sparse_files.py photons OUT FRAMES HOT              FRAMES dense frames of 32x32 uint32 at
                                                      0.2 % occupancy, frame 0's pixel 0 HOT
                                                      counts more (mostly zero, large counts)
  sparse_files.py rigaku BIN DENSE [disorder]         a Rigaku 500k .bin file (boost_corr's
                                                      layout) and its frames as a dense stack
                                                      with 3 q bins;
                                                      disorder: a word of frame 0 after frame 2
  sparse_files.py bad CASE OUT                        a small sparse file with one defect
                                                      (or duplicate_sum: a pixel listed twice)
"""
import sys

try:
    import h5py
    import numpy as np
except ImportError as e:
    sys.stderr.write("no h5py/numpy: %s\n" % e)
    sys.exit(77)


def to_csr(d):
    t = d.shape[0]
    flat = d.reshape(t, -1)
    nz = flat != 0
    ptr = np.zeros(t + 1, dtype=np.int64)
    ptr[1:] = np.cumsum(nz.sum(axis=1))
    frame, pixel = np.nonzero(flat)  # row-major: frame by frame, pixels ascending
    return ptr, pixel.astype(np.int32), flat[frame, pixel]


def copy_all_but_frames(src, f):
    for name in src:
        if name != "entry":
            src.copy(name, f)
    for name in src["entry"]:
        if name != "data":
            src.copy("entry/" + name, f["/"].require_group("entry"))


def write_csr(f, ptr, pixel, count, shape, where="group"):
    g = f.require_group("/entry/data/sparse")
    g["frame_ptr"] = ptr
    g["pixel"] = pixel
    g["count"] = count
    (g if where == "group" else g["frame_ptr"]).attrs["shape"] = np.array(shape, dtype=np.int64)


def sparse(dense, out, where="group"):
    with h5py.File(dense, "r") as src, h5py.File(out, "w") as f:
        copy_all_but_frames(src, f)
        d = src["/entry/data/data"][()]
        ptr, pixel, count = to_csr(d)
        ctype = np.uint32 if d.dtype in (np.uint32, np.int32) else np.uint16
        write_csr(f, ptr, pixel, count.astype(ctype), d.shape, where)


def events(dense, out, delta):
    delta = int(delta)
    with h5py.File(dense, "r") as src, h5py.File(out, "w") as f:
        copy_all_but_frames(src, f)
        d = src["/entry/data/data"][()]
        t, h, w = d.shape
        times, pixels = [], []
        for k in range(t):
            flat = d[k].reshape(-1)
            for p in np.nonzero(flat)[0]:
                c = int(flat[p])
                for j in range(c):
                    step = (delta - 1) // max(c - 1, 1)
                    times.append(k * delta + (delta - 1 if j == c - 1 and c > 1 else j * step))
                    pixels.append(p)
        order = np.argsort(np.array(times, dtype=np.int64), kind="stable")
        g = f.require_group("/entry/data/events")
        g["time"] = np.array(times, dtype=np.int64)[order]
        g["pixel"] = np.array(pixels, dtype=np.int32)[order]
        g.attrs["shape"] = np.array([h, w], dtype=np.int64)


def edges(out):
    # Δ = 1 ms. (pixel, time ns): frame 0 holds t = 0 and 999999; frame 1 starts exactly at
    # 1000000; frame 2 is empty; the last event, exactly at 3·Δ, makes T = 4.
    ev = [(0, 0), (1, 999_999), (1, 1_000_000), (2, 1_000_000), (2, 1_999_999), (2, 1_999_999),
          (3, 3_000_000)]
    with h5py.File(out, "w") as f:
        g = f.create_group("/entry/data/events")
        g["pixel"] = np.array([p for p, _ in ev], dtype=np.int32)
        g["time"] = np.array([t for _, t in ev], dtype=np.int64)
        g.attrs["shape"] = np.array([2, 3], dtype=np.int64)


def labels(f, h, w):
    f["/entry/processing/qmask"] = (1 + (np.arange(h * w) % 3)).reshape(h, w).astype(np.int32)


def uint32(dense_out, sparse_out):
    top = np.iinfo(np.uint32).max
    rng = np.random.default_rng(7)
    d = np.zeros((12, 4, 5), dtype=np.uint32)
    mask = rng.random(d.shape) < 0.3
    d[mask] = top - rng.integers(0, 3, size=int(mask.sum())).astype(np.uint32)
    d[:, 0, 0] = top
    d[::2, 1, 1] = top - 1
    d[1, 2, 3] = 1
    dense_and_sparse(d, dense_out, sparse_out)


def dense_and_sparse(d, dense_out, sparse_out):
    """uint32 frames d as a dense stack and as CSR (uint32 counts), each with labels()."""
    for path, write in ((dense_out, "dense"), (sparse_out, "sparse")):
        with h5py.File(path, "w") as f:
            labels(f, d.shape[1], d.shape[2])
            if write == "dense":
                f["/entry/data/data"] = d
            else:
                ptr, pixel, count = to_csr(d)
                write_csr(f, ptr, pixel, count.astype(np.uint32), d.shape)


def wide(dense_out, sparse_out):
    rng = np.random.default_rng(23)
    d = ((rng.random((40, 64, 64)) < 0.002) * rng.integers(1, 4, size=(40, 64, 64))).astype(
        np.uint32)
    d[:, 0, 0] = 80_000_000 - 1_000 * np.arange(40, dtype=np.uint32)
    d[::3, 0, 3] = 10_000_000  # the same bin
    dense_and_sparse(d, dense_out, sparse_out)


def long(out, frames, occupancy="0.03"):
    frames = int(frames)
    rng = np.random.default_rng(11)
    ptrs, pixels, counts = [np.zeros(1, dtype=np.int64)], [], []
    for first in range(0, frames, 50_000):  # 50,000 frames at a time: bounded memory here too
        n = min(50_000, frames - first)
        occupied = rng.random((n, 256)) < float(occupancy)
        ptr, pixel, count = to_csr((rng.integers(1, 4, size=(n, 256)) * occupied).reshape(n, 16, 16))
        ptrs.append(ptr[1:] + ptrs[-1][-1])
        pixels.append(pixel)
        counts.append(count)
    with h5py.File(out, "w") as f:
        labels(f, 16, 16)
        write_csr(f, np.concatenate(ptrs), np.concatenate(pixels),
                  np.concatenate(counts).astype(np.uint16), (frames, 16, 16))


def rising(out):
    """320 dense 32x32 frames, 0.5 % of the pixels occupied in the first 160 and 12 % after:
    the sparse rings' upper levels start list-held and turn to values halfway, their ring slots
    reused (stale values) before and after."""
    rng = np.random.default_rng(23)
    share = np.where(np.arange(320) < 160, 0.005, 0.12)[:, None, None]
    occupied = rng.random((320, 32, 32)) < share
    d = (occupied * rng.integers(1, 4, size=(320, 32, 32))).astype(np.uint16)
    with h5py.File(out, "w") as f:
        labels(f, 32, 32)
        f["/entry/data/data"] = d


def photons(out, frames, hot):
    frames = int(frames)
    rng = np.random.default_rng(17)
    occupied = rng.random((frames, 32, 32)) < 0.002
    d = (occupied * rng.integers(1, 3, size=(frames, 32, 32))).astype(np.uint32)
    d[0, 0, 0] += np.uint32(int(hot))
    with h5py.File(out, "w") as f:
        labels(f, 32, 32)
        f["/entry/data/data"] = d


def rigaku(out_bin, out_dense, disorder=None):
    # One little-endian uint64 per non-zero pixel: frame << 40 | pixel << 16 | count (12 bits);
    # bits 12-15 and 37-39 carry nothing (boost_corr masks them off): junk is set there.
    rng = np.random.default_rng(5)
    t, h, w = 5, 512, 1024
    d = np.zeros((t, h * w), dtype=np.uint16)
    for k in (0, 2, 3, 4):  # frame 1 is empty
        p = rng.choice(h * w, size=300, replace=False)
        d[k, p] = rng.integers(1, 4096, size=300)
    d[4, h * w - 1] = 4095
    frame, pixel = np.nonzero(d)
    words = (frame.astype(np.uint64) << np.uint64(40)) | (pixel.astype(np.uint64) << np.uint64(16)) \
        | d[frame, pixel].astype(np.uint64)
    junk = rng.random(words.size) < 0.5
    words[junk] |= np.uint64(0xF000) | (np.uint64(0x7) << np.uint64(37))
    if disorder:
        words = np.concatenate([words, words[:1]])
    words.astype("<u8").tofile(out_bin)
    with h5py.File(out_dense, "w") as f:
        f.create_dataset("/entry/data/data", data=d.reshape(t, h, w), compression="gzip")
        labels(f, h, w)  # the .bin has none: its runs take them from here (--mask)


def scattered(dense, dense_out, sparse_out):
    # The dense stack with 3 bins and a masked pixel, and its CSR as a writer that does not
    # tidy up would store it: counts >= 2 split over two entries of the frame, zero counts
    # listed, each frame's entries in random order.
    rng = np.random.default_rng(13)
    with h5py.File(dense, "r") as src:
        d = src["/entry/data/data"][()]
        frame_time = src["/entry/instrument/detector/frame_time"][()]
    t, h, w = d.shape
    qmask = (1 + (np.arange(h * w) % 3)).reshape(h, w).astype(np.int32)
    qmask[0, :3] = 0
    pixel_mask = np.zeros((h, w), dtype=np.uint32)
    pixel_mask[h // 2, w // 2] = 1
    flat = d.reshape(t, -1)
    ptr, pixel, count = [0], [], []
    for k in range(t):
        entries = []
        for p in np.nonzero(flat[k])[0]:
            c = int(flat[k, p])
            entries += [(p, 1), (p, c - 1)] if c >= 2 else [(p, c)]
        entries += [(int(p), 0) for p in rng.choice(h * w, size=3, replace=False)]
        entries = [entries[i] for i in rng.permutation(len(entries))]
        pixel += [p for p, _ in entries]
        count += [c for _, c in entries]
        ptr.append(len(pixel))
    for path, write in ((dense_out, "dense"), (sparse_out, "sparse")):
        with h5py.File(path, "w") as f:
            f["/entry/processing/qmask"] = qmask
            f["/entry/instrument/detector/pixel_mask"] = pixel_mask
            f["/entry/instrument/detector/frame_time"] = frame_time
            if write == "dense":
                f["/entry/data/data"] = d
            else:
                write_csr(f, np.array(ptr, dtype=np.int64), np.array(pixel, dtype=np.int32),
                          np.array(count, dtype=d.dtype), d.shape)


def bad(case, out):
    # 3 frames of 2x4: frame 0 {1: 2, 5: 1}, frame 1 {}, frame 2 {7: 3}
    ptr = np.array([0, 2, 2, 3], dtype=np.int64)
    pixel = np.array([1, 5, 7], dtype=np.int32)
    count = np.array([2, 1, 3], dtype=np.uint16)
    shape = np.array([3, 2, 4], dtype=np.int64)
    with h5py.File(out, "w") as f:
        labels(f, 2, 4)
        if case.startswith("events"):
            g = f.create_group("/entry/data/events")
            time = np.array([0, 5, 10], dtype=np.int64)
            if case == "events_time_decreasing":
                time = np.array([0, 10, 5], dtype=np.int64)
            if case == "events_time_negative":
                time = np.array([-5, -1, -1], dtype=np.int64)
            g["pixel"] = pixel
            g["time"] = time
            if case != "events_shape_missing":
                g.attrs["shape"] = np.array([2, 4], dtype=np.int64)
            return
        if case == "frame_ptr_decreasing":
            ptr = np.array([0, 2, 1, 3], dtype=np.int64)
        if case == "frame_ptr_end":
            ptr = np.array([0, 2, 2, 2], dtype=np.int64)
        if case == "frame_ptr_start":
            ptr = np.array([1, 2, 2, 3], dtype=np.int64)
        if case == "frame_ptr_length":
            ptr = np.array([0, 2, 3], dtype=np.int64)
        if case == "pixel_negative":
            pixel = np.array([1, -1, 7], dtype=np.int32)
        if case == "pixel_too_large":
            pixel = np.array([1, 5, 8], dtype=np.int32)
        if case == "pixel_float":
            pixel = pixel.astype(np.float32)
        if case == "count_float":
            count = count.astype(np.float32)
        if case == "count_int8":
            count = count.astype(np.int8)
        if case == "count_length":
            count = np.array([2, 1], dtype=np.uint16)
        if case == "duplicate_overflow":
            pixel = np.array([1, 1, 7], dtype=np.int32)
            count = np.array([40000, 40000, 3], dtype=np.uint16)
        if case == "duplicate_overflow_late":  # frame 2's pixel 7 listed twice
            ptr = np.array([0, 2, 2, 4], dtype=np.int64)
            pixel = np.array([1, 5, 7, 7], dtype=np.int32)
            count = np.array([2, 1, 40000, 40000], dtype=np.uint16)
        if case == "duplicate_sum":  # not a defect: pixel 1 of frame 0 holds 2 + 5
            pixel = np.array([1, 1, 7], dtype=np.int32)
            count = np.array([2, 5, 3], dtype=np.uint16)
        if case == "shape_rank":
            shape = np.array([2, 4], dtype=np.int64)
        g = f.create_group("/entry/data/sparse")
        if case != "frame_ptr_missing":
            g["frame_ptr"] = ptr
        g["pixel"] = pixel
        g["count"] = count
        if case != "shape_missing":
            g.attrs["shape"] = shape


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"sparse": sparse, "events": events, "edges": edges, "uint32": uint32, "wide": wide,
     "long": long,
     "photons": photons, "rising": rising,
     "rigaku": rigaku, "scattered": scattered, "bad": bad}[cmd](*args)

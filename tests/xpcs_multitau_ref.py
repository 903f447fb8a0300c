#!/usr/bin/env python3
"""Independent numpy multi-tau g2 (docs/DESIGN.md §5) for tst_xpcs_multitau.

  xpcs_multitau_ref.py series OUT.h5 --frames T [--seed S]
      writes a decaying-speckle series (uint16, /entry/data/data) and q-bin labels
      (/entry/processing/qmask): bins with different decay rates, a faint bin whose frame sums
      are often 0 and a bin that is always 0 (NaN rules).
  xpcs_multitau_ref.py long OUT.h5 --frames T
      writes T random 8x8 uint8 frames (one bin), block by block.
  xpcs_multitau_ref.py reference IN.h5 OUT.h5 --channels C
      writes /ref/g2, /ref/g2_err (B, L), /ref/lag_frames, /ref/level (L) as §5 defines them.
"""
import argparse

import h5py
import numpy as np


def series(path, frames, seed):
    rng = np.random.default_rng(seed)
    h, w = 6, 10
    labels = np.zeros((h, w), np.int32)
    labels[0:2, :] = 1   # fast decay
    labels[2:4, :] = 2   # slow decay
    labels[4, :5] = 3    # faint: many frames with S_t = 0
    labels[4, 5:] = 4    # always 0
    labels[5, :3] = 7    # slow, few pixels
    rho = {1: 0.9, 2: 0.995, 3: 0.99, 4: 0.5, 7: 0.999}
    mean = {1: 40.0, 2: 20.0, 3: 0.02, 4: 0.0, 7: 200.0}
    r = np.zeros((h, w))
    m = np.zeros((h, w))
    for lab in rho:
        r[labels == lab] = rho[lab]
        m[labels == lab] = mean[lab]
    field = (rng.normal(size=(h, w)) + 1j * rng.normal(size=(h, w))) / np.sqrt(2)
    out = np.zeros((frames, h, w), np.uint16)
    for t in range(frames):
        noise = (rng.normal(size=(h, w)) + 1j * rng.normal(size=(h, w))) / np.sqrt(2)
        field = r * field + np.sqrt(1 - r * r) * noise
        out[t] = rng.poisson(m * np.abs(field) ** 2)
    with h5py.File(path, "w") as f:
        f.create_dataset("/entry/data/data", data=out)
        f.create_dataset("/entry/processing/qmask", data=labels)


def long_series(path, frames, seed):
    """A long series of tiny uint8 frames (8x8, one bin), unchunked along nothing large."""
    rng = np.random.default_rng(seed)
    labels = np.ones((8, 8), np.int32)
    labels[0, :4] = 0
    with h5py.File(path, "w") as f:
        d = f.create_dataset("/entry/data/data", (frames, 8, 8), np.uint8,
                             chunks=(min(frames, 16384), 8, 8))
        for first in range(0, frames, 262144):
            n = min(262144, frames - first)
            d[first:first + n] = rng.integers(0, 8, size=(n, 8, 8), dtype=np.uint8)
        f.create_dataset("/entry/processing/qmask", data=labels)


def lag_statistics(J, n, m):
    """g2 and g2_err of binned frames J (T_k, n) at lag m, the dense definition of §5."""
    now, then = J[m:], J[: len(J) - m]
    N = np.array([int(x) for x in (now * then).sum(axis=1)], dtype=object)
    S = np.array([int(x) for x in now.sum(axis=1)], dtype=object)
    Sp = np.array([int(x) for x in then.sum(axis=1)], dtype=object)
    D = S * Sp
    num, den = n * N.sum(), D.sum()
    g2 = float(num) / float(den) if den != 0 else np.nan
    keep = D != 0
    if den == 0 or not keep.any():
        return g2, np.nan
    ratio = np.array([float(n * a) / float(d) for a, d in zip(N[keep], D[keep])])
    return g2, ratio.std() / np.sqrt(len(ratio))


def reference(inp, out, channels):
    with h5py.File(inp, "r") as f:
        frames = f["/entry/data/data"][()].astype(np.int64)
        labels = f["/entry/processing/qmask"][()]
    bins = sorted(int(b) for b in np.unique(labels) if b > 0)
    T = frames.shape[0]
    g2, err, lags, levels = [], [], [], []
    k = 0
    while True:
        Tk = T >> k
        if k > 0 and Tk <= channels // 2:
            break
        first = 0 if k == 0 else channels // 2
        for m in range(first, channels):
            if m >= Tk:
                break
            lags.append(m << k)
            levels.append(k)
        k += 1
    for b in bins:
        pix = frames[:, labels == b]
        n = pix.shape[1]
        row_g2, row_err = [], []
        for lag, level in zip(lags, levels):
            size = 1 << level
            Tk = T // size
            J = pix[: Tk * size].reshape(Tk, size, n).sum(axis=1)
            a, e = lag_statistics(J, n, lag >> level)
            row_g2.append(a)
            row_err.append(e)
        g2.append(row_g2)
        err.append(row_err)
    with h5py.File(out, "w") as f:
        f["/ref/g2"] = np.array(g2)
        f["/ref/g2_err"] = np.array(err)
        f["/ref/lag_frames"] = np.array(lags, np.int64)
        f["/ref/level"] = np.array(levels, np.int32)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["series", "long", "reference"])
    p.add_argument("paths", nargs="+")
    p.add_argument("--frames", type=int, default=3000)
    p.add_argument("--seed", type=int, default=22)
    p.add_argument("--channels", type=int, default=16)
    a = p.parse_args()
    if a.mode == "series":
        series(a.paths[0], a.frames, a.seed)
    elif a.mode == "long":
        long_series(a.paths[0], a.frames, a.seed)
    else:
        reference(a.paths[0], a.paths[1], a.channels)


if __name__ == "__main__":
    main()

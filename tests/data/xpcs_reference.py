#!/usr/bin/env python3
"""Independent numpy implementation of xpcs (DESIGN.md §5), in the manner of dynamix's
MatMulCorrelator: per bin, the Gram matrix X X^T of the (T, n) pixel values, then its
diagonals. Used once to make the fixture xpcs_small_numpy.h5 that tst_xpcs compares with:

    clscope-cli generate xpcs --frames 100 --height 51 --width 61 --ring-width 6 -o xpcs_small.h5
    python3 xpcs_reference.py xpcs_small.h5 xpcs_small_numpy.h5
"""
import sys

import h5py
import numpy as np


def correlate(frames, qmask):
    frames = frames.reshape(frames.shape[0], -1).astype(np.float64)
    qmask = qmask.ravel()
    labels = np.unique(qmask[qmask > 0])
    nframes = frames.shape[0]
    g2 = np.empty((labels.size, nframes))
    g2_err = np.empty((labels.size, nframes))
    for b, label in enumerate(labels):
        x = frames[:, qmask == label]  # (T, n)
        n = x.shape[1]
        gram = x @ x.T  # N(t1, t2), exact: integer sums far below 2**53
        sums = x.sum(axis=1)
        outer = np.outer(sums, sums) / n**2  # D(t1, t2)
        for tau in range(nframes):
            dia_n = np.diagonal(gram, -tau)
            dia_d = np.diagonal(outer, -tau)
            total_d = dia_d.sum()
            g2[b, tau] = dia_n.sum() / (n * total_d) if total_d != 0 else np.nan
            keep = dia_d != 0
            if total_d == 0 or not keep.any():
                g2_err[b, tau] = np.nan
                continue
            ratio = dia_n[keep] / (n * dia_d[keep])
            g2_err[b, tau] = np.std(ratio) / np.sqrt(ratio.size)
    return labels, g2, g2_err


def main(source, target):
    with h5py.File(source, "r") as f:
        frames = f["/entry/data/data"][()]
        qmask = f["/entry/processing/qmask"][()]
    labels, g2, g2_err = correlate(frames, qmask)
    with h5py.File(target, "w") as f:
        f["labels"] = labels.astype(np.int32)
        f["g2"] = g2
        f["g2_err"] = g2_err


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

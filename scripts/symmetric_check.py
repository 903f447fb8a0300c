#!/usr/bin/env python3
"""The symmetric g2 of correlate outputs against boost_corr's formula in float64 (numpy).

    scripts/symmetric_check.py FRAMES.h5 OUT1.h5 [OUT2.h5 ...]

FRAMES.h5 holds /entry/data/data and /entry/processing/qmask (clscope-cli generate xpcs); each
OUT is `correlate FRAMES.h5 --g2-normalisation symmetric [--multitau] -o OUT`. Per bin and lag m
at level k (frames summed 2^k at a time): G2, IP, IF are each pixel's means over the T_k - m
pairs, g2 = mean_p G2 / (mean_p IP * mean_p IF). Prints each file's largest relative deviation.
"""
import sys

import h5py
import numpy as np


def reference(frames, labels, out):
    g2 = out["/xpcs/g2"][()]
    if "/xpcs/lag_frames" in out:
        lags, levels = out["/xpcs/lag_frames"][()], out["/xpcs/level"][()]
    else:
        lags, levels = np.arange(g2.shape[1]), np.zeros(g2.shape[1], dtype=int)
    ref = np.full(g2.shape, np.nan)
    total = frames.shape[0]
    for b, label in enumerate(out["/xpcs/labels"][()]):
        pixels = frames[:, labels == label]
        for j, (lag, level) in enumerate(zip(lags, levels)):
            width = 1 << int(level)
            m, tk = int(lag) // width, total // width
            if m >= tk:
                continue
            binned = pixels[: tk * width].reshape(tk, width, -1).sum(1)
            later, earlier = binned[m:], binned[: tk - m]
            pairs = tk - m
            g = (later * earlier).sum(0) / pairs
            ip, if_ = later.sum(0) / pairs, earlier.sum(0) / pairs
            ref[b, j] = g.mean() / (ip.mean() * if_.mean())
    return g2, ref


def main():
    with h5py.File(sys.argv[1], "r") as f:
        frames = f["/entry/data/data"][()].astype(np.float64)
        labels = f["/entry/processing/qmask"][()]
    for path in sys.argv[2:]:
        with h5py.File(path, "r") as out:
            g2, ref = reference(frames, labels, out)
        ok = np.isfinite(g2) & np.isfinite(ref)
        dev = np.max(np.abs(g2[ok] - ref[ok]) / np.abs(ref[ok]))
        print(f"{path}: {g2.shape[0]} bins x {g2.shape[1]} lags, max relative deviation {dev:.2e}")


if __name__ == "__main__":
    main()

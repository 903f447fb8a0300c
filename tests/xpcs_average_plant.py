#!/usr/bin/env python3
"""Bad series for tst_xpcs_average, planted with h5py in copies of a synthetic run or result.

  jump IN OUT FIRST COUNT FACTOR  frames FIRST..FIRST+COUNT-1 of IN, the second half times
                                  FACTOR (uint16): an intensity jump in the middle
  shuffle IN OUT FIRST COUNT SEED those frames in a random order: a decorrelated series
  relabel IN OUT                  IN with its largest label merged into the one below: another
                                  q partition
  scale RESULT OUT FACTOR         a correlate result with g2, g2_err and sums/sum_N times
                                  FACTOR: a series whose g2 (and baseline) is FACTOR times
"""
import shutil
import sys

try:
    import h5py
    import numpy as np
except ImportError as e:  # exit 77: the suite skips
    print(f"no numpy/h5py: {e}", file=sys.stderr)
    sys.exit(77)

FRAMES = "/entry/data/data"


def copy_without_frames(src, out, frames):
    with h5py.File(src, "r") as f, h5py.File(out, "w") as g:
        for name in ("entry/processing", "entry/instrument"):
            if name in f:
                f.copy(f[name], g, name)
        g.create_dataset(FRAMES, data=frames)
        for key, value in f[FRAMES].attrs.items():
            g[FRAMES].attrs[key] = value


def series(src, first, count):
    with h5py.File(src, "r") as f:
        return f[FRAMES][first : first + count]


def main(argv):
    kind = argv[1]
    if kind == "jump":
        frames = series(argv[2], int(argv[4]), int(argv[5])).astype(np.float64)
        frames[len(frames) // 2 :] *= float(argv[6])
        copy_without_frames(argv[2], argv[3], np.rint(frames).astype(np.uint16))
    elif kind == "shuffle":
        frames = series(argv[2], int(argv[4]), int(argv[5]))
        order = np.random.default_rng(int(argv[6])).permutation(len(frames))
        copy_without_frames(argv[2], argv[3], frames[order])
    elif kind == "relabel":
        shutil.copyfile(argv[2], argv[3])
        with h5py.File(argv[3], "r+") as f:
            q = f["/entry/processing/qmask"]
            labels = q[()]
            top = labels.max()
            labels[labels == top] = top - 1
            q[...] = labels
    elif kind == "scale":
        shutil.copyfile(argv[2], argv[3])
        with h5py.File(argv[3], "r+") as f:
            for name in ("/xpcs/g2", "/xpcs/g2_err", "/xpcs/sums/sum_N"):
                f[name][...] = f[name][()] * float(argv[4])
    else:
        sys.exit(f"unknown kind {kind}")


if __name__ == "__main__":
    main(sys.argv)

#!/usr/bin/env python3
"""spots --layout dials read back by DIALS: the reference check of tst_spots_cli.

usage: check_dials_table.py STRONG.refl OWN.h5 INPUT.h5

STRONG.refl is loaded with flex.reflection_table.from_file, as dials.index loads it; every
column is compared with clscope's own layout of the same run (OWN.h5, /spots/*): exact for
integers, 1e-12 for floats. xyzobs.px.variance is DIALS' centroid mean-square error
(dials/model/data/shoebox.h, extract_centroid_object: the unbiased variance over the spot's
pixels / Σv + 1/12 per axis), computed here from INPUT.h5's frames over each spot's pixels
(OWN.h5's /spots/signal, 4-connected within a frame, as 2-D spots are). Prints "dials table ok"
and the rows; exit 77 when DIALS is missing (the test skips), 1 on a difference.
"""
import sys

COLUMNS = {"id", "panel", "flags", "bbox", "xyzobs.px.value", "xyzobs.px.variance",
           "intensity.sum.value", "intensity.sum.variance", "n_signal"}


def close(a, b):
    return abs(a - b) <= 1e-12 * max(1.0, abs(b))


def variance(frame, labels, lab):
    """DIALS' mean_sq_error of the pixels labelled lab (x, y, z; one frame: z is 1/12)."""
    import numpy
    rows, cols = numpy.nonzero(labels == lab)
    w = frame[rows, cols].astype(numpy.float64)
    sw, sww = w.sum(), (w * w).sum()
    out = []
    for c in (cols + 0.5, rows + 0.5):
        m = (w * c).sum() / sw
        delta = (w * (c - m) ** 2).sum()
        out.append(delta * sw / (sw * sw - sww) / sw + 1.0 / 12.0)
    return out + [1.0 / 12.0]


def expected_variances(own, frames, spot_frame, bbox):
    """Each spot's variance, its pixels the 4-connected signal component of its bbox."""
    from scipy import ndimage
    signal = own["/spots/signal"][()]
    out = []
    for f, (x0, y0, x1, y1) in zip(spot_frame, bbox):
        labels, _ = ndimage.label(signal[f])
        found = ndimage.find_objects(labels)
        lab = next(i + 1 for i, s in enumerate(found)
                   if s and (s[1].start, s[0].start, s[1].stop, s[0].stop) == (x0, y0, x1, y1))
        out.append(variance(frames[f], labels, lab))
    return out


def check(table, own, frames):
    problems = []
    n = len(own["/spots/frame"])
    frame, npix = own["/spots/frame"][()], own["/spots/npix"][()]
    x, y, intensity = own["/spots/x"][()], own["/spots/y"][()], own["/spots/intensity"][()]
    bbox = own["/spots/bbox"][()]
    if table.size() != n or set(table.keys()) != COLUMNS:
        return [f"rows {table.size()} (clscope {n}), columns {sorted(table.keys())}"]
    if table.get_flags(table.flags.strong).count(True) != n:
        problems.append("not every row is flagged strong")
    var = expected_variances(own, frames, frame, bbox)
    for i in range(n):
        x0, y0, x1, y1 = (int(v) for v in bbox[i])
        f = int(frame[i])
        want_int = {"id": 0, "panel": 0, "flags": 32, "n_signal": int(npix[i]),
                    "bbox": (x0, x1, y0, y1, f, f + 1)}
        for name, want in want_int.items():
            got = tuple(table[name][i]) if name == "bbox" else table[name][i]
            if got != want:
                problems.append(f"row {i} {name}: {got} != {want}")
        want_float = {"xyzobs.px.value": (x[i], y[i], f + 0.5), "xyzobs.px.variance": var[i],
                      "intensity.sum.value": (intensity[i],),
                      "intensity.sum.variance": (intensity[i],)}
        for name, want in want_float.items():
            got = table[name][i]
            got = tuple(got) if isinstance(got, tuple) or hasattr(got, "__len__") else (got,)
            if len(got) != len(want) or not all(close(a, b) for a, b in zip(got, want)):
                problems.append(f"row {i} {name}: {got} != {tuple(want)}")
    return problems


def main():
    try:
        from dials.array_family import flex
    except ImportError as error:
        print(f"DIALS missing: {error}", file=sys.stderr)
        sys.exit(77)
    import h5py
    refl, own_path, input_path = sys.argv[1:4]
    table = flex.reflection_table.from_file(refl)
    with h5py.File(own_path, "r") as own, h5py.File(input_path, "r") as data:
        problems = check(table, own, data["/entry/data/data"][()])
    for p in problems[:20]:
        print(p)
    if problems:
        sys.exit(1)
    print(f"dials table ok: {table.size()} rows, columns {', '.join(sorted(table.keys()))}")


if __name__ == "__main__":
    main()

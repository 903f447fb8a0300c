#!/usr/bin/env python3
"""boost_corr's own result beside clscope's, on the same frames (issue 57).

Writes what boost_corr (APS 8-ID-I, https://github.com/AZjk/boost_corr) reads: the frames at
/entry/data/data (clscope's generated file itself), a NeXus metadata file `*_metadata.hdf` beside
it (boost_corr copies it into its result: frame time, pixel size, energy, the viewers' mark) and a
q-map file (/qmap/dynamic_roi_map = clscope's labels, static = dynamic, one φ); runs boost_corr's
CLI on the CPU (torch) and clscope-cli correlate --multitau --g2-normalisation symmetric --layout aps
on the same frames and labels, and prints both files' g2 at their common delays.

boost_corr is run with its frame normalisation off (-nf 0: its default divides each frame by its
mean, which is not the symmetric g2) and without its cropped path (--crop-ratio-threshold 1.01:
with the mask covering 98 % of a 96x96 detector, its cropped path gave per-pixel IP that match no
pixel's mean of the frames). Its level structure differs from clscope's (dpl 4: level 0 lags
1..8, level k lags 5..8 of the stack binned by 2^k; clscope's C = 16: 0..15, then 8..15), so only
delays that both compute at the same binning compare like for like: the level-0 delays 1..8 and
16, 32, 64, ... (lag 8 of a level in both).

    scripts/boost_corr_beside.py CLSCOPE_CLI BOOST_CORR_SRC WORKDIR [--frames N] [--size H W]

BOOST_CORR_SRC is the folder holding the package `boost_corr` (its src/); it needs python3-torch,
python3-h5py, python3-hdf5plugin (Debian 12). Exit 0 when the delays of the same binning agree
to --tolerance (relative) in every bin.
"""
import argparse
import os
import subprocess
import sys

import h5py
import numpy as np


def run(cmd, **kw):
    print("$", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kw)


def write_inputs(gen, work):
    """The metadata and q-map files boost_corr looks for beside the raw file."""
    with h5py.File(gen, "r") as f:
        labels = f["/entry/processing/qmask"][()].astype(np.int32)
        ids = f["/entry/processing/qmask_label_ids"][()]
        q_nm = f["/entry/processing/qmask_q"][()]
        geo = {k: float(f["/entry/processing/geometry/" + k][()])
               for k in ("beam_center_x", "beam_center_y", "distance", "pixel_size_x",
                         "wavelength")}
        frame_time = float(f["/entry/instrument/detector/frame_time"][()])
    # boost_corr's bins are 1..B in the map; clscope's labels ascend, so map label -> index + 1.
    dq = np.zeros_like(labels)
    for i, label in enumerate(ids):
        dq[labels == label] = i + 1
    bins = len(ids)
    energy_kev = 12.398419843320026 / (geo["wavelength"] * 1e10)
    with h5py.File(os.path.join(work, "run01_metadata.hdf"), "w") as m:
        m["/entry/schema_version"] = "1.0"
        m["/entry/start_time"] = "2026-11-27T00:00:00Z"
        m.create_group("/entry/instrument/bluesky/metadata")
        det = "/entry/instrument/detector_1/"
        m[det + "frame_time"] = frame_time
        m[det + "count_time"] = frame_time
        m[det + "x_pixel_size"] = geo["pixel_size_x"]
        m[det + "y_pixel_size"] = geo["pixel_size_x"]
        m[det + "distance"] = geo["distance"]
        m["/entry/instrument/incident_beam/incident_energy"] = energy_kev
    with h5py.File(os.path.join(work, "qmap.hdf"), "w") as q:
        for kind in ("dynamic", "static"):
            q[f"/qmap/{kind}_roi_map"] = dq
            q[f"/qmap/{kind}_v_list_dim0"] = q_nm / 10.0  # 1/Å
            q[f"/qmap/{kind}_v_list_dim1"] = np.zeros(1)
            q[f"/qmap/{kind}_num_pts"] = np.array([bins, 1], dtype=np.int64)
            q[f"/qmap/{kind}_index_mapping"] = np.arange(bins, dtype=np.int64)
        q["/qmap/mask"] = (dq > 0).astype(np.int32)
        q["/qmap/beam_center_x"] = geo["beam_center_x"]
        q["/qmap/beam_center_y"] = geo["beam_center_y"]
        q["/qmap/detector_distance"] = geo["distance"]
        q["/qmap/pixel_size"] = geo["pixel_size_x"]
        q["/qmap/energy"] = energy_kev
        q["/qmap/map_names"] = [b"q", b"phi"]
        q["/qmap/map_units"] = [b"1/A", b"deg"]


def g2_of(path):
    with h5py.File(path, "r") as f:
        return (f["/xpcs/multitau/delay_list"][()].ravel(),
                f["/xpcs/multitau/normalized_g2"][()].astype(np.float64),
                f["/xpcs/multitau/normalized_g2_err"][()].astype(np.float64))


def main():
    a = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    a.add_argument("cli")
    a.add_argument("boost_corr_src")
    a.add_argument("work")
    a.add_argument("--frames", type=int, default=2000)
    a.add_argument("--size", type=int, nargs=2, default=[128, 128])
    a.add_argument("--tolerance", type=float, default=1e-3)
    o = a.parse_args()
    os.makedirs(o.work, exist_ok=True)
    gen = os.path.join(o.work, "frames.h5")
    run([o.cli, "generate", "xpcs", "-o", gen, "--frames", str(o.frames), "--height",
         str(o.size[0]), "--width", str(o.size[1]), "--ring-width", "8", "--frame-time",
         "0.001", "--compression", "none", "--intensity", "20"])
    write_inputs(gen, o.work)
    out = os.path.join(o.work, "boost_corr")
    env = dict(os.environ, PYTHONPATH=o.boost_corr_src, HOME=o.work)
    run([sys.executable, "-m", "boost_corr.cli", "-r", gen, "-q",
         os.path.join(o.work, "qmap.hdf"), "-o", out, "-i", "-1", "-w", "-nf", "0",
         "--crop-ratio-threshold", "1.01"], env=env)
    theirs = [os.path.join(out, n) for n in os.listdir(out) if n.endswith("_results.hdf")]
    ours = os.path.join(o.work, "clscope_aps.hdf")
    run([o.cli, "correlate", gen, "-o", ours, "--device", "cpu", "--multitau",
         "--g2-normalisation", "symmetric", "--layout", "aps"])
    td, tg, te = g2_of(theirs[0])
    od, og, oe = g2_of(ours)
    common = sorted(set(td.tolist()) & set(od.tolist()))
    ti = [td.tolist().index(d) for d in common]
    oi = [od.tolist().index(d) for d in common]
    print(f"boost_corr: {theirs[0]}\nclscope:    {ours}")
    print("delay  max relative deviation over the bins: g2  g2_err")
    worst = 0.0
    for d, i, j in zip(common, ti, oi):
        g2_dev = np.max(np.abs(tg[i] - og[j]) / np.abs(og[j]))
        err_dev = np.nanmax(np.abs(te[i] - oe[j]) / np.abs(oe[j]))
        alike = d <= 8 or (d & (d - 1) == 0)  # the same binning in both
        worst = max(worst, g2_dev) if alike else worst
        print(f"{d:5d}  {g2_dev:.2e}  {err_dev:.2e}{'' if alike else '  (other binning)'}")
    print(f"largest g2 deviation at the delays of the same binning: {worst:.2e}")
    return 0 if worst <= o.tolerance else 1


if __name__ == "__main__":
    sys.exit(main())

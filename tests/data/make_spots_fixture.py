#!/usr/bin/env python3
"""Make tests/data/spots_dials.h5: DIALS' own dispersion / dispersion_extended masks.

Run once with Debian's python3-dials (offline) and python3-h5py:
    python3 tests/data/make_spots_fixture.py tests/data/spots_dials.h5

Each /caseN holds a small uint16 image (masked block, EIGER sentinels, spots on the edges),
/caseN/mask (1 = bad, NXmx polarity), /caseN/params = [kx, ky, gain, sigma_b, sigma_s,
min_local, global_threshold], and DIALS' masks (1 = signal):
  dispersion        DispersionThreshold (threshold / threshold_w_gain when gain != 1)
  extended_legacy   DispersionExtendedThreshold of this DIALS build (older than the 2025 rule
                    that counts masked pixels as dispersive)
  dials_spots       DIALS' spots of the dispersion mask: rows of x, y (centroid), intensity,
                    npix, x0, y0, x1, y1
  auto_threshold    DIALS' global_threshold = auto estimate of the image (as int)
  far_from_invalid  pixels the 2025 rule cannot change (Chebyshev distance to any invalid
                    pixel > erosion + max(kx, ky) + 2)
DIALS' valid-pixel mask is pixel mask 0 and value < 2^16 - 2. DIALS kernel_size is (ky, kx):
its first element is the slow (row) direction.
"""
import sys

import h5py
import numpy as np
from dials.extensions.dispersion_spotfinder_threshold_ext import estimate_global_threshold
from dials.model.data import PixelList, PixelListLabeller
from dials.algorithms.image.threshold import (
    DispersionExtendedThreshold,
    DispersionThreshold,
)
from dials.array_family import flex


def make_image(rng, h, w, background, blobs):
    img = rng.poisson(background, size=(h, w)).astype(np.float64)
    jj, ii = np.mgrid[0:h, 0:w]
    centres = [(0.0, rng.integers(h)), (w - 1.0, h - 1.0)] + [
        (rng.integers(w), rng.integers(h)) for _ in range(blobs)
    ]
    for cx, cy in centres:
        peak, sigma = 20 + rng.integers(300), 0.6 + rng.integers(10) / 10
        r2 = (ii - cx) ** 2 + (jj - cy) ** 2
        img += np.where(r2 < 25, np.floor(peak * np.exp(-r2 / (2 * sigma * sigma))), 0)
    img = np.minimum(img, 65000).astype(np.uint16)
    img.flat[7], img.flat[h * w // 2], img.flat[11] = 65535, 65534, 65533
    return img


def dials_masks(img, bad, kx, ky, gain, sigma_b, sigma_s, min_local, threshold):
    h, w = img.shape
    valid = (bad == 0) & (img < 65534)
    image = flex.double(img.astype(np.float64))
    mask = flex.bool(flex.grid(h, w), True)
    mask.as_1d().set_selected(flex.size_t(np.flatnonzero(~valid).tolist()), False)
    out = {}
    for name, cls in (("dispersion", DispersionThreshold), ("extended_legacy", DispersionExtendedThreshold)):
        algo = cls((h, w), (ky, kx), sigma_b, sigma_s, threshold, min_local)
        dst = flex.bool(flex.grid(h, w))
        if gain != 1.0:
            algo(image, mask, flex.double(flex.grid(h, w), gain), dst)
        else:
            algo(image, mask, dst)
        out[name] = np.array(dst.as_numpy_array(), dtype=np.uint8).reshape(h, w)
    return valid, out


def dials_spots(img, signal):
    """DIALS' 2D spots (min 3, max 1000 pixels) of a signal mask, as dials.find_spots makes them."""
    h, w = img.shape
    mask = flex.bool(flex.grid(h, w), False)
    mask.as_1d().set_selected(flex.size_t(np.flatnonzero(signal).tolist()), True)
    labeller = PixelListLabeller()
    labeller.add(PixelList(0, flex.double(img.astype(np.float64)), mask))
    boxes = flex.PixelListShoeboxCreator(labeller, 0, 0, True, 3, 1000, False).result()
    boxes = boxes.select(boxes.is_allocated())
    centroid, intensity = boxes.centroid_valid(), boxes.summed_intensity()
    rows = []
    for k in range(len(boxes)):
        x0, x1, y0, y1, _, _ = boxes[k].bbox
        x, y, _ = centroid[k].px.position
        npix = boxes[k].mask.count(5)  # valid | foreground
        rows.append((x, y, intensity[k].observed.value, npix, x0, y0, x1, y1))
    return np.array(rows, np.float64).reshape(-1, 8)


def far_from(valid, radius):
    h, w = valid.shape
    near = np.zeros_like(valid)
    for j, i in zip(*np.nonzero(~valid)):
        near[max(0, j - radius): j + radius + 1, max(0, i - radius): i + radius + 1] = True
    return (~near).astype(np.uint8)


CASES = [
    # h, w, background, blobs, kx, ky, gain, sigma_b, sigma_s, min_local, threshold
    (64, 80, 2.0, 12, 3, 3, 1.0, 6.0, 3.0, 2, 0.0),
    (50, 70, 5.0, 10, 1, 3, 1.0, 6.0, 3.0, 2, 0.0),
    (57, 61, 30.0, 10, 2, 2, 2.0, 4.0, 2.5, 5, 3.0),
    (40, 45, 1.0, 6, 5, 4, 1.0, 3.0, 2.0, 0, 1.0),
]


def main(path):
    rng = np.random.default_rng(2024)
    with h5py.File(path, "w") as f:
        f["cases"] = len(CASES)
        for n, (h, w, bg, blobs, kx, ky, gain, sb, ss, ml, thr) in enumerate(CASES):
            img = make_image(rng, h, w, bg, blobs)
            bad = np.zeros((h, w), np.uint8)
            bad[h // 3: h // 3 + 4, w // 4: w // 4 + 6] = 1
            bad[:, w - 9: w - 7] = 1  # a module gap with spots beside it
            valid, masks = dials_masks(img, bad, kx, ky, gain, sb, ss, ml, thr)
            g = f.create_group(f"case{n}")
            g.create_dataset("image", data=img, compression="gzip")
            g.create_dataset("mask", data=bad, compression="gzip")
            g["params"] = np.array([kx, ky, gain, sb, ss, ml, thr], np.float64)
            for name, m in masks.items():
                g.create_dataset(name, data=m, compression="gzip")
            far = far_from(valid, min(kx, ky) + max(kx, ky) + 2)
            g.create_dataset("far_from_invalid", data=far, compression="gzip")
            g["auto_threshold"] = float(int(estimate_global_threshold(flex.double(img.astype(np.float64)))))
            g.create_dataset("dials_spots", data=dials_spots(img, masks["dispersion"]))
            print(f"case{n}: {h}x{w}, dispersion {masks['dispersion'].sum()} px,"
                  f" extended {masks['extended_legacy'].sum()} px")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "spots_dials.h5")

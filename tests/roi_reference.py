"""ROI time series reference for tst_roi (independent of clscope: h5py and numpy only).

roi_reference.py write FRAMES.h5 DTYPE   -- frames (6, 40, 52) of DTYPE under /entry/data/data
    (units attribute "counts"), values near the type's top for integers, a pixel mask under
    /entry/instrument/detector/pixel_mask (a 3x3 block and one row masked), a 3x3 one under
    /entry/small_mask
roi_reference.py check FRAMES.h5 OUT.h5 RECTS RINGS [MASK]  -- OUT.h5's /roi equal to numpy's
    sums over the pixels whose centre lies in each region (masked pixels left out when MASK=1):
    integer sums exactly, float sums to 1e-12 relative; exit 1 naming the first difference.
"""
import sys

try:
    import h5py
    import numpy as np
except ImportError as e:
    print("no h5py/numpy: %s" % e, file=sys.stderr)
    sys.exit(77)


def write(path, dtype):
    rng = np.random.default_rng(5)
    dt = np.dtype(dtype)
    top = np.iinfo(dt).max if dt.kind in "iu" else 1e30
    frames = rng.integers(0, 1000, size=(6, 40, 52)).astype(dt)
    frames[:, 5:9, 5:9] = top  # near the type's top
    if dt.kind == "f":
        frames = (frames * np.float32(0.37)).astype(dt)
    mask = np.zeros((40, 52), np.uint32)
    mask[10:13, 20:23] = 1
    mask[30, :] = 4
    with h5py.File(path, "w") as f:
        d = f.create_dataset("/entry/data/data", data=frames)
        d.attrs["units"] = "counts"
        f.create_dataset("/entry/instrument/detector/pixel_mask", data=mask)
        f.create_dataset("/entry/small_mask", data=np.zeros((3, 3), np.uint8))


def regions(text):
    return [list(map(float, e.split(","))) for e in text.split(";") if e.strip()]


def check(frames_path, out_path, rects, rings, use_mask):
    with h5py.File(frames_path, "r") as f:
        x = f["/entry/data/data"][()]
        mask = f["/entry/instrument/detector/pixel_mask"][()] != 0
    T, H, W = x.shape
    yy, xx = np.mgrid[0:H, 0:W] + 0.5
    want = []
    for x0, y0, x1, y1 in regions(rects):
        want.append((xx >= x0) & (xx < x1) & (yy >= y0) & (yy < y1))
    for cx, cy, r0, r1 in regions(rings):
        d = np.hypot(xx - cx, yy - cy)
        want.append((d >= r0) & (d < r1))
    with h5py.File(out_path, "r") as f:
        sums, means, pixels = f["/roi/sum"][()], f["/roi/mean"][()], f["/roi/pixels"][()]
    if sums.shape != (len(want), T):
        print("shape %s, expected %s" % (sums.shape, (len(want), T)))
        return 1
    for r, m in enumerate(want):
        if use_mask:
            m = m & ~mask
        if pixels[r] != m.sum():
            print("region %d: %d pixels, expected %d" % (r, pixels[r], m.sum()))
            return 1
        if x.dtype.kind in "iu":
            ref = x[:, m].astype(np.int64).sum(axis=1).astype(np.float64)
            ok = np.array_equal(sums[r], ref)
        else:
            ref = x[:, m].astype(np.float64).sum(axis=1)
            ok = np.allclose(sums[r], ref, rtol=1e-12, atol=0)
        if not ok:
            print("region %d: sums %s, expected %s" % (r, sums[r], ref))
            return 1
        ref_mean = ref / m.sum() if m.sum() else np.full(T, np.nan)
        if not np.allclose(means[r], ref_mean, rtol=1e-12, equal_nan=True):
            print("region %d: means %s, expected %s" % (r, means[r], ref_mean))
            return 1
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3])
        sys.exit(0)
    sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5],
                   len(sys.argv) > 6 and sys.argv[6] == "1"))

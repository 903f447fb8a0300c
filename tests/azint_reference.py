#!/usr/bin/python3
"""pyFAI's integrate1d / integrate2d (no pixel splitting, histogram, cython) on a small synthetic
image, for tst_azint: python3 azint_reference.py OUT_DIR.

Writes into OUT_DIR:
  geometry.poni  the geometry as pyFAI itself writes it (AzimuthalIntegrator.write)
  geometry.expt  the same geometry as a DIALS experiment list written by dxtbx (not without it)
  reference.h5   /input/data (H,W) uint16 with EIGER sentinels, /input/mask, /input/pixel_mask;
                 /pixels/* pyFAI's per-pixel arrays (internal units: q nm^-1, 2th rad, r m,
                 chi rad, solid angle, polarisation 0.95); /dxtbx/two_theta (rad) at pixel
                 centres from dxtbx's panel; /cases/<name>/{radial, azimuthal, intensity,
                 sigma, sum_signal, sum_normalization, count} with attribute `params` (JSON:
                 unit, bins, azimuth_bins, radial_range, azimuth_range, solid_angle,
                 polarization, default_range). Masked pixels (mask, pixel mask, sentinels
                 >= 2^16 - 2) are passed to pyFAI as its mask.

Exit status 77 when pyFAI or h5py is missing (the test skips).
"""
import json
import os
import sys

try:
    import h5py
    import numpy
    from pyFAI.azimuthalIntegrator import AzimuthalIntegrator
    from pyFAI.detectors import Detector
except ImportError as error:  # the C++ test skips
    print(f"missing: {error}", file=sys.stderr)
    sys.exit(77)

HEIGHT, WIDTH = 200, 240
PIXEL1, PIXEL2 = 75e-6, 80e-6  # slow (rows), fast (columns), metres
GEOMETRY = dict(dist=0.1, poni1=0.0061, poni2=0.0093, rot1=0.05, rot2=-0.03, rot3=0.1,
                wavelength=1.0e-10)
METHOD = ("no", "histogram", "cython")
POLARIZATION = 0.95


def integrator():
    detector = Detector(pixel1=PIXEL1, pixel2=PIXEL2, max_shape=(HEIGHT, WIDTH))
    return AzimuthalIntegrator(detector=detector, **GEOMETRY)


def image_and_masks():
    rng = numpy.random.default_rng(53)
    rows, cols = numpy.mgrid[0:HEIGHT, 0:WIDTH]
    data = rng.poisson(200 + 50 * numpy.sin(rows / 7.0) + 30 * numpy.cos(cols / 5.0))
    data = data.astype(numpy.uint16)
    data[rng.random((HEIGHT, WIDTH)) < 0.01] = 65535  # EIGER sentinels
    data[rng.random((HEIGHT, WIDTH)) < 0.005] = 65534
    mask = numpy.zeros((HEIGHT, WIDTH), numpy.uint8)
    mask[:, :6] = 1  # a masked band on the left
    mask[120:150, 60:90] = 1  # a beam stop
    pixel_mask = numpy.zeros((HEIGHT, WIDTH), numpy.int32)
    pixel_mask[:, 100] = 1  # a dead column
    pixel_mask[HEIGHT - 1, WIDTH - 1] = 8  # the corner: the largest radius, masked
    return data, mask, pixel_mask


def internal_positions(ai, unit):
    return ai.array_from_unit((HEIGHT, WIDTH), "center", unit, scale=False)


def case_list():
    """(name, params): every unit, 1D and 2D, with and without corrections; two with fine bins."""
    cases = []
    for unit in ("q_nm^-1", "q_A^-1", "2th_deg", "r_mm"):
        for dim in (1, 2):
            for corr in ("none", "solid", "solid_pol"):
                params = dict(unit=unit, bins=97, azimuth_bins=36 if dim == 2 else 0,
                              solid_angle=corr != "none",
                              polarization=POLARIZATION if corr == "solid_pol" else None,
                              default_range=corr != "solid", radial_range=None,
                              azimuth_range=[-180.0, 180.0])
                if corr == "solid":
                    params["azimuth_range"] = [-90.0, 120.0]
                cases.append((f"{unit}_{dim}d_{corr}", params))
    # Fine bins: many more pixels near a bin edge (float32 against float64 positions).
    for unit, dim, bins in (("q_nm^-1", 1, 2000), ("2th_deg", 2, 500)):
        cases.append((f"{unit}_{dim}d_fine", dict(
            unit=unit, bins=bins, azimuth_bins=72 if dim == 2 else 0, solid_angle=True,
            polarization=POLARIZATION, default_range=True, radial_range=None,
            azimuth_range=[-180.0, 180.0])))
    return cases


SCALES = {"q_nm^-1": 1.0, "q_A^-1": 0.1, "2th_deg": 180.0 / numpy.pi, "r_mm": 1000.0}


def radial_range(ai, params, masked):
    """The range the case asks (scaled unit): the min..max of the pixels the mask and the pixel
    mask leave (clscope's default, DESIGN.md; pyFAI's own would include the masked pixels), else
    a sub-range."""
    pos = internal_positions(ai, params["unit"])
    scale = SCALES[params["unit"]]
    lo, hi = pos[~masked].min(), pos[~masked].max()
    if params["default_range"]:
        return [lo * scale, hi * scale]
    return [(lo + 0.1 * (hi - lo)) * scale, (lo + 0.8 * (hi - lo)) * scale]


def integrate(ai, data, bad, params):
    common = dict(method=METHOD, unit=params["unit"], mask=bad.astype(numpy.int8),
                  correctSolidAngle=params["solid_angle"], error_model="poisson",
                  polarization_factor=params["polarization"],
                  radial_range=params["radial_range"], azimuth_range=params["azimuth_range"])
    if params["azimuth_bins"]:
        return ai.integrate2d(data, params["bins"], params["azimuth_bins"], **common)
    return ai.integrate1d(data, params["bins"], **common)


def write_case(group, result, params):
    group.attrs["params"] = json.dumps(params)
    group["radial"] = numpy.asarray(result.radial, numpy.float64)
    if params["azimuth_bins"]:
        group["azimuthal"] = numpy.asarray(result.azimuthal, numpy.float64)
    shape = numpy.shape(result.intensity)
    for name in ("intensity", "sigma", "sum_signal", "sum_normalization", "count"):
        values = numpy.asarray(getattr(result, name), numpy.float64)
        if values.shape != shape:  # pyFAI 0.21.3's integrate2d gives sigma as (radial, azimuthal)
            values = values.T
        group[name] = values


def write_pixels(group, ai):
    shape = (HEIGHT, WIDTH)
    group["q_nm^-1"] = ai.qArray(shape)
    group["2th_rad"] = ai.twoThetaArray(shape)
    group["r_m"] = ai.rArray(shape)
    group["chi_rad"] = ai.chiArray(shape)
    group["solid_angle"] = ai.solidAngleArray(shape)
    group["polarization"] = ai.polarization(shape, POLARIZATION)


def lab_from_pyfai(ai, d1, d2):
    """DIALS lab coordinates (mm) of detector point (d1, d2) (pixel units, centre = +0.5): pyFAI's
    (t1, t2, t3) axes are DIALS' (0,-1,0), (1,0,0), (0,0,-1) (the beam along -z, DIALS' frame)."""
    t3, t1, t2 = ai.calc_pos_zyx(d1=numpy.array([d1 - 0.5]), d2=numpy.array([d2 - 0.5]))
    return numpy.array([t2[0], -t1[0], -t3[0]]) * 1000.0


def write_expt(ai, path):
    """The geometry as a dxtbx experiment list; returns dxtbx's 2theta at the pixel centres."""
    from dxtbx.model import Beam, Detector as DxDetector, Experiment
    from dxtbx.model.experiment_list import ExperimentList

    origin = lab_from_pyfai(ai, 0.0, 0.0)
    fast = lab_from_pyfai(ai, 0.0, 1.0) - origin
    slow = lab_from_pyfai(ai, 1.0, 0.0) - origin
    detector = DxDetector()
    panel = detector.add_panel()
    panel.set_frame(tuple(fast / numpy.linalg.norm(fast)), tuple(slow / numpy.linalg.norm(slow)),
                    tuple(origin))
    panel.set_pixel_size((PIXEL2 * 1000.0, PIXEL1 * 1000.0))
    panel.set_image_size((WIDTH, HEIGHT))
    panel.set_trusted_range((0, 65533))
    beam = Beam((0.0, 0.0, 1.0), GEOMETRY["wavelength"] * 1e10)
    experiments = ExperimentList()
    experiments.append(Experiment(beam=beam, detector=detector))
    experiments.as_file(path)
    s0 = beam.get_s0()
    two_theta = numpy.empty((HEIGHT, WIDTH))
    for j in range(HEIGHT):
        for i in range(WIDTH):
            two_theta[j, i] = panel.get_two_theta_at_pixel(s0, (i + 0.5, j + 0.5))
    return two_theta


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    ai = integrator()
    ai.write(os.path.join(out_dir, "geometry.poni"))
    data, mask, pixel_mask = image_and_masks()
    masked = (mask != 0) | (pixel_mask != 0)
    bad = masked | (data >= 65534)
    with h5py.File(os.path.join(out_dir, "reference.h5"), "w") as out:
        out["input/data"] = data
        out["input/mask"] = mask
        out["input/pixel_mask"] = pixel_mask
        write_pixels(out.create_group("pixels"), ai)
        try:
            out["dxtbx/two_theta"] = write_expt(ai, os.path.join(out_dir, "geometry.expt"))
        except ImportError as error:  # the .expt test skips, the others run
            print(f"no geometry.expt, dxtbx missing: {error}", file=sys.stderr)
        for name, params in case_list():
            params["radial_range"] = radial_range(ai, params, masked)
            write_case(out.create_group(f"cases/{name}"), integrate(ai, data, bad, params),
                       params)


if __name__ == "__main__":
    main()

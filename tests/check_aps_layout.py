#!/usr/bin/env python3
"""Reads an APS 8-ID-I result file (clscope-cli correlate --layout aps) with h5py the way
pyXpcsViewer and XPCS-Toolkit do (their key maps, restated here) and compares it with
clscope's own layout of the same run and with the q table of its input.
Usage: check_aps_layout.py APS.h5 OWN.h5 INPUT.h5"""
import sys

import h5py
import numpy as np

QMAP = ["mask", "dynamic_roi_map", "static_roi_map", "dynamic_v_list_dim0",
        "static_v_list_dim0", "dynamic_v_list_dim1", "static_v_list_dim1", "beam_center_x",
        "beam_center_y", "detector_distance", "pixel_size", "static_index_mapping",
        "dynamic_index_mapping", "static_num_pts", "dynamic_num_pts", "map_names", "map_units"]


def scalar(f, path):
    value = f[path][()]
    if isinstance(value, np.ndarray) and value.shape == (1, 1):
        value = value.item()
    return value


def input_q(input_name, labels):
    """q (1/A) of each label from the input's table (nm^-1, pyFAI's unit)."""
    with h5py.File(input_name, "r") as f:
        ids = list(f["/entry/processing/qmask_label_ids"][()])
        q = f["/entry/processing/qmask_q"][()]
    return np.array([q[ids.index(label)] / 10 for label in labels])


def main(aps_name, own_name, input_name):
    with h5py.File(aps_name, "r") as f, h5py.File(own_name, "r") as own:
        assert "/entry/instrument/bluesky/metadata/" in f, "not detected as a nexus result"
        assert "/xpcs/Version" not in f, "would be taken for a legacy file"
        qmap = {key: f["/xpcs/qmap/" + key][()] for key in QMAP}
        assert len(QMAP) == 17
        names = [n.decode("utf-8") for n in qmap["map_names"]]
        units = [u.decode("utf-8") for u in qmap["map_units"]]
        assert names == ["q", "phi"], names
        energy = scalar(f, "/entry/instrument/incident_beam/incident_energy")
        k0 = 2 * np.pi / (12.398 / energy)
        assert np.isfinite(k0) and k0 > 0
        assert "hash" in f["/xpcs/qmap"].attrs
        start = f["/entry/start_time"][()]
        start = start.decode() if isinstance(start, bytes) else start
        assert start.endswith("Z"), start

        g2 = f["/xpcs/multitau/normalized_g2"][()]
        g2_err = f["/xpcs/multitau/normalized_g2_err"][()]
        tau = f["/xpcs/multitau/delay_list"][()]
        t0 = scalar(f, "/entry/instrument/detector_1/frame_time")
        t0 = t0 * scalar(f, "/xpcs/multitau/config/stride_frame") * \
            scalar(f, "/xpcs/multitau/config/avg_frame")
        t_el = tau * t0
        assert np.allclose(t_el, own["/xpcs/tau"][1:], rtol=1e-12, atol=0)
        assert np.array_equal(g2, own["/xpcs/g2"][()][:, 1:].T)
        assert np.array_equal(g2_err, own["/xpcs/g2_err"][()][:, 1:].T)
        assert np.allclose(qmap["dynamic_v_list_dim0"], input_q(input_name, own["/xpcs/labels"]),
                           rtol=1e-12, atol=0)
        # q bin labels as the viewer builds them: one per dynamic bin
        num = qmap["dynamic_num_pts"]
        assert num[1] == 1 and num[0] == g2.shape[1]
        labels = ["q=%.5f %s" % (q, units[0]) for q in qmap["dynamic_v_list_dim0"]]
        assert len(labels) == g2.shape[1]

        saxs_1d = f["/xpcs/temporal_mean/scattering_1d"][()]
        assert saxs_1d.size // qmap["static_index_mapping"].size == 1
        segments = f["/xpcs/temporal_mean/scattering_1d_segments"][()]
        assert segments.size % qmap["static_index_mapping"].size == 0
        saxs_2d = f["/xpcs/temporal_mean/scattering_2d"][()]
        assert saxs_2d.ndim == 3 and saxs_2d[0].shape == qmap["mask"].shape
        int_t = f["/xpcs/spatial_mean/intensity_vs_time"][()]
        assert int_t.shape[0] == 2

        if "/xpcs/twotime/correlation_map" in f:
            for key in ["/xpcs/twotime/normalized_g2", "/xpcs/twotime/normalized_g2_segments",
                        "/xpcs/twotime/processed_bins", "/xpcs/twotime/config/stride_frame",
                        "/xpcs/twotime/config/avg_frame"]:
                assert key in f, key
            for index, name in enumerate(sorted(f["/xpcs/twotime/correlation_map"])):
                half = f["/xpcs/twotime/correlation_map/" + name][()]
                c2 = half + half.T
                c2[np.diag_indices(half.shape[0])] /= 2
                roi = f["/xpcs/twotime/processed_bins"][index]
                label = own["/xpcs/labels"][roi - 1]
                assert np.array_equal(c2, own["/xpcs/twotime/%d" % label][()], equal_nan=True), name
    print("aps layout ok: %d delays x %d bins" % g2.shape)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])

#!/usr/bin/env python3
"""DIALS' per-image analysis of given spots: the reference of tst_spots_per_image.

usage: spots_per_image_reference.py SPOTS.json GEOMETRY.expt IMAGES OUT.json

SPOTS.json: {"x": [...], "y": [...], "z": [...], "intensity": [...]} (pixels; z the frame
centroid, frame + 0.5 for 2-D spots). The experiment list is read by dxtbx
(ExperimentListFactory.from_json_file, no image files); a scan of IMAGES images is given to it
when it has none. The spots become a DIALS reflection table as dials.find_spots writes it
(xyzobs.px.value, intensity.sum.value and .variance = Σv, panel 0, id 0), mapped to reciprocal
space as dials.find_spots' per-image statistics map it (centroid_px_to_mm,
map_centroids_to_reciprocal_space), then per_image_analysis.stats_per_image. OUT.json: its
n_spots_total, n_spots_no_ice, n_spots_4A, total_intensity and estimated_d_min, one value an
image. Exit 77 when DIALS is missing (the test skips).
"""
import json
import sys


def main():
    try:
        from dials.algorithms.spot_finding import per_image_analysis
        from dials.array_family import flex
        from dxtbx.model import ScanFactory
        from dxtbx.model.experiment_list import ExperimentListFactory
    except ImportError as error:
        print(f"DIALS missing: {error}", file=sys.stderr)
        sys.exit(77)
    spots_path, expt_path, images, out_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    with open(spots_path) as f:
        spots = json.load(f)
    experiments = ExperimentListFactory.from_json_file(expt_path, check_format=False)
    experiment = experiments[0]
    if experiment.scan is None:
        experiment.scan = ScanFactory.make_scan(
            (1, images), 1.0, (0.0, 0.1), list(range(images)), deg=True
        )
    n = len(spots["x"])
    table = flex.reflection_table()
    table["id"] = flex.int(n, 0)
    table["panel"] = flex.size_t(n, 0)
    table["xyzobs.px.value"] = flex.vec3_double(
        list(zip(spots["x"], spots["y"], spots["z"]))
    )
    table["xyzobs.px.variance"] = flex.vec3_double(n, (1.0, 1.0, 1.0))
    table["intensity.sum.value"] = flex.double(spots["intensity"])
    table["intensity.sum.variance"] = flex.double(spots["intensity"])
    table.centroid_px_to_mm(experiments)
    table.map_centroids_to_reciprocal_space(experiments)
    stats = per_image_analysis.stats_per_image(experiment, table)
    keys = ["n_spots_total", "n_spots_no_ice", "n_spots_4A", "total_intensity", "estimated_d_min"]
    with open(out_path, "w") as f:
        json.dump({k: list(getattr(stats, k)) for k in keys}, f)


if __name__ == "__main__":
    main()

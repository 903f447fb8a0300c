// A DIALS experiment list of one flat panel, as dxtbx writes it (beam along +z, the slow axis
// along -y), for the suites that need a detector geometry (per-image analysis, live curves).
#pragma once
#include <array>
#include <cstddef>
#include <cstdio>
#include <string>

namespace clscope::test {

struct ExptPanel {
    std::array<double, 3> fastAxis{1.0, 0.0, 0.0};
    std::array<double, 3> origin{0.0, 0.0, 0.0}; // mm
    double pixelMm = 0.075;
    std::size_t width = 0, height = 0; // image_size [fast, slow]
    double wavelength = 1.0;           // Å
    // A grid scan (dials.import grid_size=COLUMNS,ROWS): an ImageGrid imageset of
    // columns × rows images; none when 0.
    std::size_t gridColumns = 0, gridRows = 0;
};

// The imageset entry of a grid scan, "" without one.
inline std::string exptGridText(const ExptPanel& p) {
    if (p.gridColumns == 0) return {};
    std::string images;
    for (std::size_t i = 0; i < p.gridColumns * p.gridRows; ++i)
        images += (i ? ", \"/data/grid_" : "\"/data/grid_") + std::to_string(i + 1) + ".cbf\"";
    return R"(,
  "imageset": [{"__id__": "ImageGrid", "images": [)" +
           images + "], \"grid_size\": [" + std::to_string(p.gridColumns) + ", " +
           std::to_string(p.gridRows) + "]}]";
}

inline std::string exptText(const ExptPanel& p) {
    char text[2048];
    std::snprintf(text, sizeof text,
                  R"({"__id__": "ExperimentList",
  "experiment": [{"__id__": "Experiment", "beam": 0, "detector": 0%s}],
  "beam": [{"direction": [0.0, 0.0, 1.0], "wavelength": %.17g}],
  "detector": [{"panels": [{"name": "p", "type": "SENSOR_PAD",
    "fast_axis": [%.17g, %.17g, %.17g], "slow_axis": [0.0, -1.0, 0.0],
    "origin": [%.17g, %.17g, %.17g], "pixel_size": [%.17g, %.17g], "image_size": [%zu, %zu],
    "trusted_range": [0, 65533], "thickness": 0.0, "material": "", "mu": 0.0,
    "identifier": "", "mask": [], "gain": 1.0, "pedestal": 0.0,
    "px_mm_strategy": {"type": "SimplePxMmStrategy"}, "raw_image_offset": [0, 0]}],
    "hierarchy": {"name": "", "type": "", "fast_axis": [1, 0, 0], "slow_axis": [0, 1, 0],
      "origin": [0, 0, 0], "raw_image_offset": [0, 0], "image_size": [0, 0],
      "children": [{"panel": 0}]}}])",
                  p.gridColumns ? ", \"imageset\": 0" : "", p.wavelength, p.fastAxis[0],
                  p.fastAxis[1], p.fastAxis[2], p.origin[0], p.origin[1], p.origin[2], p.pixelMm,
                  p.pixelMm, p.width, p.height);
    return text + exptGridText(p) + "}";
}

} // namespace clscope::test

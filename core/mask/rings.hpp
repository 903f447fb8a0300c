// Resolution rings: where a Bragg spacing d falls on the detector (the pixels of q = 2π/d),
// as a closed polyline in image pixel coordinates (the convention of geometry.hpp), and a few
// round d values that fall on an image of a given size.
#pragma once
#include "core/data.hpp"
#include "core/mask/geometry.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace clscope::mask {

// `points` points (x, y) at evenly spaced angles about the beam centre where q reaches
// q(d) = 2π/d, found along each ray from the beam centre (q grows along it; with a rotated
// detector the ring is found where the ray reaches it). Empty when 2θ of d is not below 90°
// (d < λ/√2). dAngstrom > 0.
std::vector<std::pair<double, double>> resolutionRing(const Geometry& g, double dAngstrom,
                                                      std::size_t points = 180);

// Up to `count` values from the round spacings 50, 20, 10, 7, 5, 4, 3, 2.5, 2, 1.5, 1.2, 1, 0.8
// Å whose ring crosses the image along the x or y axis through the beam centre, spread over
// those that do (largest d first).
std::vector<double> ringSpacings(const Geometry& g, std::size_t height, std::size_t width,
                                 std::size_t count = 5);

// Radius of each pixel from the image centre ((h-1)/2, (w-1)/2), as numpy.ogrid[-c:c+1] gives.
std::vector<double> centreRadii(std::size_t height, std::size_t width);

// Labels floor(r / ringWidth) about the centre of a height x width image: rings ringWidth
// pixels wide, as synthetic q-bin labels.
LabelMask ringLabels(std::size_t height, std::size_t width, double ringWidth);

} // namespace clscope::mask

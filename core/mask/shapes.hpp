// Mask shapes kept as editable vectors and rasterised to pixel sets when needed.
//
// Rasterisation rule: pixel (row j, column i) belongs to a shape when its centre
// (i + 0.5, j + 0.5) lies inside the shape. Coordinates are pixels, x along columns, y along
// rows. Boundaries:
//   rectangle  half-open: x0 <= x < x1 and y0 <= y < y1, so adjacent rectangles tile;
//   polygon    even-odd rule, half-open like the rectangle (a centre on a low-x / low-y edge is
//              in, on a high-x / high-y edge out); self-intersecting polygons follow even-odd;
//   ellipse    closed: ((u / rx)^2 + (v / ry)^2 <= 1 in the ellipse's rotated frame;
//   brush      closed: within `radius` of the polyline through the dabs (a lone dab is a disc).
#pragma once
#include "core/array.hpp"

#include <cstdint>
#include <variant>
#include <vector>

namespace clscope::mask {

struct Point {
    double x = 0.0, y = 0.0;
};

// Axis-aligned rectangle given by two opposite corners (in any order).
struct RectShape {
    Point corner0, corner1;
};
// Ellipse with semi-axes radiusX, radiusY rotated by angle degrees (from +x towards +y).
struct EllipseShape {
    Point center;
    double radiusX = 0.0, radiusY = 0.0;
    double angle = 0.0;
};
struct PolygonShape {
    std::vector<Point> vertices; // closed implicitly; fewer than 3 vertices cover nothing
};
// A brush stroke: dabs of one radius (pixels), joined by straight segments.
struct BrushStroke {
    double radius = 1.0;
    std::vector<Point> dabs;
};

using MaskShape = std::variant<RectShape, EllipseShape, PolygonShape, BrushStroke>;

// Sorted, distinct row-major pixel indices (j * width + i).
using PixelSet = std::vector<std::uint32_t>;

// Whether a point lies inside a shape, by the rule above.
bool contains(const MaskShape& shape, Point p);

// The pixels of a (height, width) image whose centres lie inside the shape.
// Throws UsageError when height * width does not fit 32-bit pixel indices.
PixelSet rasterize(const MaskShape& shape, std::size_t height, std::size_t width);

// Pixels of an image selected by value. Below: v < low; Above: v > high;
// Between: low <= v <= high; NotANumber: v is NaN. NaN never passes the other tests.
struct Threshold {
    enum Mode { Below, Between, Above, NotANumber } mode = Below;
    double low = 0.0, high = 0.0;
};
// image: (H,W) of any dtype. Throws InputError on another rank.
PixelSet thresholdPixels(const Array& image, const Threshold& threshold);

// Every pixel of [0, pixelCount) that is not in the set.
PixelSet complement(const PixelSet& pixels, std::size_t pixelCount);
// All pixels of an image.
PixelSet allPixels(std::size_t pixelCount);

// Checks that an image of this size can be indexed by PixelSet (UsageError otherwise).
void checkPixelCount(std::size_t height, std::size_t width);

} // namespace clscope::mask

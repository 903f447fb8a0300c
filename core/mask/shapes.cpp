#include "core/mask/shapes.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace clscope::mask {

namespace {

struct Box {
    double x0, y0, x1, y1; // closed bounds of the shape
};

template <class... F> struct Overloaded : F... { using F::operator()...; };
template <class... F> Overloaded(F...) -> Overloaded<F...>;

bool inRect(const RectShape& r, Point p) {
    const double x0 = std::min(r.corner0.x, r.corner1.x), x1 = std::max(r.corner0.x, r.corner1.x);
    const double y0 = std::min(r.corner0.y, r.corner1.y), y1 = std::max(r.corner0.y, r.corner1.y);
    return p.x >= x0 && p.x < x1 && p.y >= y0 && p.y < y1;
}

bool inEllipse(const EllipseShape& e, Point p) {
    if (!(e.radiusX > 0) || !(e.radiusY > 0)) return false;
    const double a = e.angle * std::numbers::pi / 180.0;
    const double dx = p.x - e.center.x, dy = p.y - e.center.y;
    const double u = (dx * std::cos(a) + dy * std::sin(a)) / e.radiusX;
    const double v = (-dx * std::sin(a) + dy * std::cos(a)) / e.radiusY;
    return u * u + v * v <= 1.0;
}

// Even-odd crossing test; edges count on [low y, high y) and left of the crossing point.
bool inPolygon(const PolygonShape& poly, Point p) {
    const auto& v = poly.vertices;
    if (v.size() < 3) return false;
    bool inside = false;
    for (std::size_t a = 0, b = v.size() - 1; a < v.size(); b = a++) {
        if ((v[a].y > p.y) == (v[b].y > p.y)) continue;
        const double xCross = v[a].x + (v[b].x - v[a].x) * (p.y - v[a].y) / (v[b].y - v[a].y);
        if (p.x < xCross) inside = !inside;
    }
    return inside;
}

// Squared distance from p to the segment [a, b].
double segmentDistance2(Point p, Point a, Point b) {
    const double dx = b.x - a.x, dy = b.y - a.y;
    const double len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const double ex = p.x - (a.x + t * dx), ey = p.y - (a.y + t * dy);
    return ex * ex + ey * ey;
}

bool inCapsule(Point a, Point b, double radius, Point p) {
    return radius >= 0 && segmentDistance2(p, a, b) <= radius * radius;
}

// A stroke of n dabs has n - 1 segments; a lone dab is one segment of length 0.
std::size_t segmentCount(const BrushStroke& s) {
    return s.dabs.size() <= 1 ? s.dabs.size() : s.dabs.size() - 1;
}
Point segmentEnd(const BrushStroke& s, std::size_t k) {
    return s.dabs[std::min(k + 1, s.dabs.size() - 1)];
}

bool inBrush(const BrushStroke& s, Point p) {
    for (std::size_t k = 0; k < segmentCount(s); ++k)
        if (inCapsule(s.dabs[k], segmentEnd(s, k), s.radius, p)) return true;
    return false;
}

Box pointsBox(const std::vector<Point>& points, double margin) {
    Box b{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
          -std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    for (const Point& p : points) {
        b = {std::min(b.x0, p.x - margin), std::min(b.y0, p.y - margin),
             std::max(b.x1, p.x + margin), std::max(b.y1, p.y + margin)};
    }
    return b;
}

Box ellipseBox(const EllipseShape& e) {
    const double a = e.angle * std::numbers::pi / 180.0, c = std::cos(a), s = std::sin(a);
    const double hx = std::hypot(e.radiusX * c, e.radiusY * s);
    const double hy = std::hypot(e.radiusX * s, e.radiusY * c);
    return {e.center.x - hx, e.center.y - hy, e.center.x + hx, e.center.y + hy};
}

// Appends the pixels of the box whose centres pass the test, in row-major order.
template <class Inside>
void collect(const Box& box, std::size_t height, std::size_t width, PixelSet& out, Inside inside) {
    if (!(box.x1 >= box.x0) || !(box.y1 >= box.y0) || height == 0 || width == 0) return;
    // Pixel i has its centre in [x0, x1] when ceil(x0 - 0.5) <= i <= floor(x1 - 0.5).
    const auto first = [](double lo) { return std::max(0.0, std::ceil(lo - 0.5)); };
    const auto last = [](double hi, std::size_t n) {
        return std::min(static_cast<double>(n) - 1, std::floor(hi - 0.5));
    };
    const double i0 = first(box.x0), i1 = last(box.x1, width);
    const double j0 = first(box.y0), j1 = last(box.y1, height);
    for (double j = j0; j <= j1; ++j)
        for (double i = i0; i <= i1; ++i)
            if (inside(Point{i + 0.5, j + 0.5}))
                out.push_back(static_cast<std::uint32_t>(static_cast<std::size_t>(j) * width +
                                                         static_cast<std::size_t>(i)));
}

void sortUnique(PixelSet& pixels) {
    std::sort(pixels.begin(), pixels.end());
    pixels.erase(std::unique(pixels.begin(), pixels.end()), pixels.end());
}

// A stroke rasterised segment by segment, each within its own box.
PixelSet rasterizeBrush(const BrushStroke& s, std::size_t height, std::size_t width) {
    PixelSet out;
    for (std::size_t k = 0; k < segmentCount(s); ++k) {
        const Point a = s.dabs[k], b = segmentEnd(s, k);
        collect(pointsBox({a, b}, s.radius), height, width, out,
                [&](Point p) { return inCapsule(a, b, s.radius, p); });
    }
    sortUnique(out);
    return out;
}

} // namespace

void checkPixelCount(std::size_t height, std::size_t width) {
    if (width != 0 && height > std::numeric_limits<std::uint32_t>::max() / width)
        throw UsageError("mask: " + std::to_string(height) + " x " + std::to_string(width) +
                         " pixels do not fit 32-bit pixel indices");
}

bool contains(const MaskShape& shape, Point p) {
    return std::visit(Overloaded{[&](const RectShape& r) { return inRect(r, p); },
                                 [&](const EllipseShape& e) { return inEllipse(e, p); },
                                 [&](const PolygonShape& g) { return inPolygon(g, p); },
                                 [&](const BrushStroke& s) { return inBrush(s, p); }},
                      shape);
}

PixelSet rasterize(const MaskShape& shape, std::size_t height, std::size_t width) {
    checkPixelCount(height, width);
    if (const auto* stroke = std::get_if<BrushStroke>(&shape))
        return rasterizeBrush(*stroke, height, width);
    const Box box =
        std::visit(Overloaded{[](const RectShape& r) {
                                  return pointsBox({r.corner0, r.corner1}, 0.0);
                              },
                              [](const EllipseShape& e) { return ellipseBox(e); },
                              [](const PolygonShape& g) { return pointsBox(g.vertices, 0.0); },
                              [](const BrushStroke&) {
                                  return Box{0, 0, -1, -1};
                              }},
                   shape);
    PixelSet out;
    collect(box, height, width, out, [&](Point p) { return contains(shape, p); });
    return out;
}

PixelSet thresholdPixels(const Array& image, const Threshold& t) {
    if (image.rank() != 2)
        throw InputError("threshold: expected an (H,W) image, found shape " +
                         shapeString(image.shape()));
    checkPixelCount(image.height(), image.width());
    const auto selected = [&t](double v) {
        switch (t.mode) {
        case Threshold::Below:
            return v < t.low;
        case Threshold::Above:
            return v > t.high;
        case Threshold::Between:
            return v >= t.low && v <= t.high;
        case Threshold::NotANumber:
            break;
        }
        return std::isnan(v);
    };
    PixelSet out;
    visitArray(image, [&](auto values) {
        for (std::size_t i = 0; i < values.size(); ++i)
            if (selected(static_cast<double>(values[i])))
                out.push_back(static_cast<std::uint32_t>(i));
    });
    return out;
}

PixelSet complement(const PixelSet& pixels, std::size_t pixelCount) {
    PixelSet out;
    out.reserve(pixelCount - std::min(pixelCount, pixels.size()));
    std::size_t k = 0;
    for (std::size_t i = 0; i < pixelCount; ++i) {
        while (k < pixels.size() && pixels[k] < i)
            ++k;
        if (k == pixels.size() || pixels[k] != i) out.push_back(static_cast<std::uint32_t>(i));
    }
    return out;
}

PixelSet allPixels(std::size_t pixelCount) {
    PixelSet out(pixelCount);
    for (std::size_t i = 0; i < pixelCount; ++i)
        out[i] = static_cast<std::uint32_t>(i);
    return out;
}

} // namespace clscope::mask

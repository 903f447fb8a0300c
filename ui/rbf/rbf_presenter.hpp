// The rbf panel's presenter (Qt-free, no widgets): one run on the seed's three n x n planes
// (xy, xz, yz of the unit cube) turned into what the views draw — each plane's values in the
// chosen display (value; for complex results magnitude, real, imaginary or phase), ONE colour
// range shared by the three planes (linear or log), the colour bar's label, the axis names of
// each plane, the sources projected onto each plane with their |weight|, a line profile through
// a plane, and the |f − f_ref| maps of two runs for the Compare dock.
#pragma once
#include "core/rbf/rbf.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace clscope::ui {

// What the colour maps show: Value for real results; the other four for complex ones.
enum class RbfDisplay { Value, Magnitude, Real, Imag, Phase };
enum class RbfScale { Linear, Log };
std::string displayName(RbfDisplay display); // "value", "magnitude", "real", "imaginary", "phase"
std::optional<RbfDisplay> displayNamed(const std::string& name); // none of that name: none

struct RbfRange {
    double lower = 0, upper = 1;
};

// A source seen on one plane: its two in-plane coordinates and |c|.
struct RbfMarker {
    double u = 0, v = 0, weight = 0;
};

// Values along one grid line of a plane: `coordinate` on the axis the line runs along.
struct RbfProfile {
    std::string axis; // "x", "y" or "z"
    std::string fixedAxis;
    double fixedCoordinate = 0;
    std::vector<double> coordinate, value;
};

// "Gaussian, σ = 0.1", "Laplace 1/(4πr)", "Helmholtz e^{ikr}/(4πr), k = 10".
std::string kernelText(const rbf::Params& params);
// n with 3 n² == count (the seed's plane layout), or nothing.
std::optional<std::size_t> planeGridSize(std::size_t count);
// Plane p's horizontal and vertical axis names: xy, xz, yz.
std::array<std::string, 2> planeAxes(std::size_t plane);
// "xy plane (z = 0)", ...
std::string planeTitle(std::size_t plane);

class RbfPresenter {
  public:
    // A run on plane targets: result.count() must be 3 n² with n = problem.targets.planes;
    // InputError otherwise. The problem's sources and weights give the markers.
    void setRun(const rbf::Problem& problem, const rbf::Result& result, const rbf::Params& params);
    bool empty() const { return n_ == 0; }
    std::size_t gridSize() const { return n_; }
    bool isComplex() const { return result_.complex; }
    const rbf::Result& result() const { return result_; }
    const rbf::Params& params() const { return params_; }

    // The displays that make sense for this result (Value, or the four complex ones).
    std::vector<RbfDisplay> displays() const;
    // Setting a display the result does not have picks the first one it has.
    void setDisplay(RbfDisplay display);
    RbfDisplay display() const { return display_; }
    void setScale(RbfScale scale) { scale_ = scale; }
    RbfScale scale() const { return scale_; }

    // The displayed value at grid index (a, b) of plane p: a along the horizontal axis, b
    // along the vertical one (target p·n² + a·n + b). Log scale: NaN where the value is ≤ 0.
    double value(std::size_t plane, std::size_t a, std::size_t b) const;
    // Plane p's displayed values, index a·n + b.
    std::vector<double> planeValues(std::size_t plane) const;
    // The colour range over all three planes (phase: [−π, π]; log: the positive values).
    RbfRange colourRange() const;
    // The colour bar's label, short enough for the bar: e.g. "|f| (Helmholtz k = 10)".
    std::string colourLabel() const;
    // Why some points are not coloured (log scale and values ≤ 0), or empty.
    std::string note() const;

    // The sources projected onto plane p (orthogonal projection: the third coordinate dropped).
    std::vector<RbfMarker> markers(std::size_t plane) const;
    double largestWeight() const;
    // Along the horizontal axis at vertical index `index` (alongHorizontal), else along the
    // vertical axis at horizontal index `index`. InputError outside the grid.
    RbfProfile profile(std::size_t plane, bool alongHorizontal, std::size_t index) const;

  private:
    double displayed(std::size_t target) const;
    rbf::Problem sources_;
    rbf::Result result_;
    rbf::Params params_;
    std::size_t n_ = 0;
    RbfDisplay display_ = RbfDisplay::Value;
    RbfScale scale_ = RbfScale::Linear;
};

// |f − f_ref| on each plane (complex: the modulus of the difference) of two runs on the same
// planes; InputError when they are not on the same plane grid or only one is complex.
struct RbfDifference {
    std::size_t n = 0;
    std::array<std::vector<double>, 3> planes; // index a·n + b
    double largest = 0;                        // max over the three planes
    double largestReference = 0;               // max |f_ref|
};
RbfDifference planeDifference(const rbf::Result& a, const rbf::Result& reference);

} // namespace clscope::ui

#include "ui/rbf/rbf_presenter.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace clscope::ui {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

} // namespace

std::string kernelText(const rbf::Params& p) {
    switch (p.kernel) {
    case rbf::Kernel::Laplace:
        return "Laplace 1/(4πr)";
    case rbf::Kernel::Helmholtz:
        return "Helmholtz e^{ikr}/(4πr), k = " + number(p.wavenumber);
    default:
        return "Gaussian, σ = " + number(p.sigma);
    }
}

std::optional<RbfDisplay> displayNamed(const std::string& name) {
    for (RbfDisplay d : {RbfDisplay::Value, RbfDisplay::Magnitude, RbfDisplay::Real,
                         RbfDisplay::Imag, RbfDisplay::Phase})
        if (displayName(d) == name) return d;
    return std::nullopt;
}

std::string displayName(RbfDisplay display) {
    switch (display) {
    case RbfDisplay::Magnitude:
        return "magnitude";
    case RbfDisplay::Real:
        return "real";
    case RbfDisplay::Imag:
        return "imaginary";
    case RbfDisplay::Phase:
        return "phase";
    default:
        return "value";
    }
}

std::optional<std::size_t> planeGridSize(std::size_t count) {
    if (count == 0 || count % 3) return std::nullopt;
    const auto n = static_cast<std::size_t>(std::llround(std::sqrt(double(count / 3))));
    if (n * n * 3 != count) return std::nullopt;
    return n;
}

std::array<std::string, 2> planeAxes(std::size_t plane) {
    if (plane == 0) return {"x", "y"};
    if (plane == 1) return {"x", "z"};
    return {"y", "z"};
}

std::string planeTitle(std::size_t plane) {
    static const char* titles[] = {"xy plane (z = 0)", "xz plane (y = 0)", "yz plane (x = 0)"};
    return titles[std::min<std::size_t>(plane, 2)];
}

void RbfPresenter::setRun(const rbf::Problem& problem, const rbf::Result& result,
                          const rbf::Params& params) {
    const std::size_t n = problem.targets.planes;
    if (!n || result.count() != 3 * n * n)
        throw InputError("rbf view: the result is not on the three plane grids (" +
                         std::to_string(result.count()) + " targets)");
    sources_ = problem;
    sources_.targets.points.clear();
    result_ = result;
    params_ = params;
    n_ = n;
    setDisplay(display_);
}

std::vector<RbfDisplay> RbfPresenter::displays() const {
    if (!result_.complex) return {RbfDisplay::Value};
    return {RbfDisplay::Magnitude, RbfDisplay::Real, RbfDisplay::Imag, RbfDisplay::Phase};
}

void RbfPresenter::setDisplay(RbfDisplay display) {
    const auto modes = displays();
    display_ =
        std::find(modes.begin(), modes.end(), display) != modes.end() ? display : modes.front();
}

double RbfPresenter::displayed(std::size_t target) const {
    double v = 0;
    if (!result_.complex) {
        v = result_.potential[target];
    } else {
        const double re = result_.potential[2 * target], im = result_.potential[2 * target + 1];
        v = display_ == RbfDisplay::Real    ? re
            : display_ == RbfDisplay::Imag  ? im
            : display_ == RbfDisplay::Phase ? std::atan2(im, re)
                                            : std::hypot(re, im);
    }
    const bool logScale = scale_ == RbfScale::Log && display_ != RbfDisplay::Phase;
    return logScale && !(v > 0) ? nan : v;
}

double RbfPresenter::value(std::size_t plane, std::size_t a, std::size_t b) const {
    if (plane > 2 || a >= n_ || b >= n_)
        throw InputError("rbf view: grid index outside the " + std::to_string(n_) + "² planes");
    return displayed(plane * n_ * n_ + a * n_ + b);
}

std::vector<double> RbfPresenter::planeValues(std::size_t plane) const {
    std::vector<double> out(n_ * n_);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = displayed(plane * n_ * n_ + i);
    return out;
}

RbfRange RbfPresenter::colourRange() const {
    if (display_ == RbfDisplay::Phase) return {-M_PI, M_PI};
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::size_t t = 0; t < 3 * n_ * n_; ++t) {
        const double v = displayed(t);
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    }
    if (!(lo <= hi)) return scale_ == RbfScale::Log ? RbfRange{1e-3, 1} : RbfRange{0, 1};
    if (hi > lo) return {lo, hi};
    const double pad = lo == 0 ? 1 : std::abs(lo) * 0.5; // a constant field still shows
    return scale_ == RbfScale::Log ? RbfRange{lo * 0.5, lo * 2} : RbfRange{lo - pad, lo + pad};
}

std::string RbfPresenter::colourLabel() const {
    static const std::string names[] = {"f", "|f|", "Re f", "Im f", "arg f [rad]"};
    const std::string kernel = params_.kernel == rbf::Kernel::Gaussian    ? "Gaussian σ = "
                               : params_.kernel == rbf::Kernel::Helmholtz ? "Helmholtz k = "
                                                                          : "Laplace";
    const std::string value = params_.kernel == rbf::Kernel::Gaussian ? number(params_.sigma)
                              : params_.kernel == rbf::Kernel::Helmholtz
                                  ? number(params_.wavenumber)
                                  : "";
    return names[static_cast<int>(display_)] + " (" + kernel + value + ")";
}

std::string RbfPresenter::note() const {
    if (scale_ != RbfScale::Log || display_ == RbfDisplay::Phase) return {};
    std::size_t hidden = 0;
    for (std::size_t t = 0; t < 3 * n_ * n_; ++t)
        hidden += std::isnan(displayed(t));
    if (!hidden) return {};
    return std::to_string(hidden) + " of " + std::to_string(3 * n_ * n_) +
           " targets ≤ 0 are not coloured on the log scale";
}

std::vector<RbfMarker> RbfPresenter::markers(std::size_t plane) const {
    const std::size_t u = plane == 2 ? 1 : 0, v = plane == 0 ? 1 : 2;
    std::vector<RbfMarker> out;
    for (std::size_t j = 0; j < sources_.sourceCount(); ++j) {
        const double* s = &sources_.sources[3 * j];
        const double w = sources_.complexWeights
                             ? std::hypot(sources_.weights[2 * j], sources_.weights[2 * j + 1])
                             : std::abs(sources_.weights[j]);
        out.push_back({s[u], s[v], w});
    }
    return out;
}

double RbfPresenter::largestWeight() const {
    double most = 0;
    for (const RbfMarker& m : markers(0))
        most = std::max(most, m.weight);
    return most;
}

RbfProfile RbfPresenter::profile(std::size_t plane, bool alongHorizontal, std::size_t index) const {
    if (plane > 2 || index >= n_)
        throw InputError("rbf profile: index " + std::to_string(index) + " outside the " +
                         std::to_string(n_) + "-point grid");
    const auto axes = planeAxes(plane);
    RbfProfile p;
    p.axis = axes[alongHorizontal ? 0 : 1];
    p.fixedAxis = axes[alongHorizontal ? 1 : 0];
    p.fixedCoordinate = rbf::planeCoordinate(index, n_);
    for (std::size_t i = 0; i < n_; ++i) {
        p.coordinate.push_back(rbf::planeCoordinate(i, n_));
        p.value.push_back(alongHorizontal ? value(plane, i, index) : value(plane, index, i));
    }
    return p;
}

RbfDifference planeDifference(const rbf::Result& a, const rbf::Result& reference) {
    const auto n = planeGridSize(reference.count());
    if (!n || a.count() != reference.count())
        throw InputError("rbf difference: the two runs are not on the same plane grids (" +
                         std::to_string(a.count()) + " and " + std::to_string(reference.count()) +
                         " targets)");
    if (a.complex != reference.complex)
        throw InputError("rbf difference: one result is complex, the other real");
    RbfDifference d;
    d.n = *n;
    const std::size_t area = *n * *n, width = a.complex ? 2 : 1;
    for (std::size_t t = 0; t < 3 * area; ++t) {
        const double* x = &a.potential[width * t];
        const double* y = &reference.potential[width * t];
        const double diff =
            a.complex ? std::hypot(x[0] - y[0], x[1] - y[1]) : std::abs(x[0] - y[0]);
        const double ref = a.complex ? std::hypot(y[0], y[1]) : std::abs(y[0]);
        d.planes[t / area].push_back(diff);
        d.largest = std::max(d.largest, diff);
        d.largestReference = std::max(d.largestReference, ref);
    }
    return d;
}

} // namespace clscope::ui

#include "core/azint/bin_axis.hpp"

#include <algorithm>
#include <cmath>

namespace clscope::azint {

namespace {

constexpr double eps32 = 1.0 + 1.0 / 8388608.0; // 1 + float32 epsilon (2^-23)

double upperBound(double x) {
    return x > 0 ? x * eps32 : x / eps32;
}

} // namespace

BinAxis::BinAxis(double lo, double hi, int bins, Rounding rounding)
    : min_(std::min(lo, hi)), max_(upperBound(std::max(lo, hi))),
      delta_((max_ - min_) / static_cast<double>(bins)), bins_(bins), rounding_(rounding) {}

std::int32_t BinAxis::binOf(double x) const {
    const double f = (x - min_) / delta_;
    if (!(f > -1.0 && f < bins_)) return -1; // NaN and far values too
    const double b = rounding_ == Rounding::Floor ? std::floor(f) : std::trunc(f);
    return b < 0 ? -1 : static_cast<std::int32_t>(b);
}

std::vector<double> BinAxis::centres(double scale) const {
    const double first = min_ + 0.5 * delta_, last = max_ - 0.5 * delta_;
    std::vector<double> out(bins_);
    const double step = bins_ > 1 ? (last - first) / (bins_ - 1) : 0.0;
    for (int b = 0; b < bins_; ++b)
        out[b] = (b + 1 == bins_ && bins_ > 1 ? last : first + b * step) * scale;
    return out;
}

} // namespace clscope::azint

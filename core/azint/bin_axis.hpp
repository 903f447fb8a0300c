// One binned axis as pyFAI's histogram engines lay it out (ext/regrid_common.pxi): N equal bins
// from min to upper(max), upper(x) = x (1 + 2^-23) for x > 0, x / (1 + 2^-23) otherwise, so
// that the largest value falls in the last bin. A value's bin is (x - min) / delta, truncated:
// towards zero on a 1D radial axis (pyFAI's integrate1d: values up to one bin below min land in
// bin 0), down (floor) on the axes of a 2D cake.
#pragma once
#include <cstdint>
#include <vector>

namespace clscope::azint {

enum class Rounding { TowardZero, Floor };

class BinAxis {
  public:
    BinAxis(double lo, double hi, int bins, Rounding rounding);

    int bins() const { return bins_; }
    // The bin of x, or -1 outside.
    std::int32_t binOf(double x) const;
    // Bin centres as pyFAI gives them: numpy.linspace(min + delta/2, max - delta/2, N) * scale.
    std::vector<double> centres(double scale) const;

  private:
    double min_, max_, delta_;
    int bins_;
    Rounding rounding_;
};

} // namespace clscope::azint

// What the Azint panel's views show of one azint result (Qt-free): the radial profile I(q) of a
// frame or of a range of frames, the waterfall I(frame, q) and the cake I(χ, q) of a frame. A
// profile over azimuthal bins or frames is pyFAI's integration of their sum: Σ signal / Σ
// normalization per radial bin, error √(Σ signal) / Σ normalization (NaN where nothing fell).
#pragma once
#include "core/azint/azint.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace clscope::ui {

struct AzintProfile {
    std::vector<double> radial, intensity, error; // N each
};

// A rows × cols map, row-major, NaN where empty.
struct AzintMap {
    std::size_t rows = 0, cols = 0;
    std::vector<double> values;
};

class AzintPresenter {
  public:
    void setResult(azint::Result result);
    bool empty() const { return result_.bins == 0; }
    const azint::Result& result() const { return result_; }
    std::size_t frames() const { return result_.frames; }
    // The radial axis title with its unit, e.g. "q (nm⁻¹)", "2θ (°)".
    std::string radialTitle() const;
    // Frames first..last (inclusive, clamped to the result's), every azimuthal bin.
    AzintProfile profile(std::size_t first, std::size_t last) const;
    AzintProfile profile(std::size_t frame) const { return profile(frame, frame); }
    // frames × N: each frame's profile.
    AzintMap waterfall() const;
    // M × N of one frame (the cake; one row for a 1D result).
    AzintMap cake(std::size_t frame) const;
    // radial, then I_f<frame> and err_f<frame> per frame; one header row (the unit's name).
    std::string csv() const;

  private:
    azint::Result result_;
};

} // namespace clscope::ui

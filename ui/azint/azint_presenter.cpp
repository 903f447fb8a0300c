#include "ui/azint/azint_presenter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace clscope::ui {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

} // namespace

void AzintPresenter::setResult(azint::Result result) {
    result_ = std::move(result);
}

std::string AzintPresenter::radialTitle() const {
    switch (result_.unit) {
    case azint::Unit::QNm:
        return "q (nm⁻¹)";
    case azint::Unit::QAngstrom:
        return "q (Å⁻¹)";
    case azint::Unit::TwoThetaDeg:
        return "2θ (°)";
    case azint::Unit::RMm:
        return "r (mm)";
    }
    return azint::unitName(result_.unit);
}

AzintProfile AzintPresenter::profile(std::size_t first, std::size_t last) const {
    const azint::Result& r = result_;
    AzintProfile p;
    p.radial = r.radial;
    if (empty() || r.frames == 0) return p;
    last = std::min(last, r.frames - 1);
    first = std::min(first, last);
    std::vector<double> signal(r.bins, 0.0), norm(r.bins, 0.0);
    for (std::size_t f = first; f <= last; ++f)
        for (std::size_t m = 0; m < r.azimuthBins; ++m) {
            const std::size_t row = (f * r.azimuthBins + m) * r.bins;
            for (std::size_t n = 0; n < r.bins; ++n) {
                signal[n] += r.sumSignal[row + n];
                norm[n] += r.sumNormalization[row + n];
            }
        }
    for (std::size_t n = 0; n < r.bins; ++n) {
        p.intensity.push_back(norm[n] != 0 ? signal[n] / norm[n] : nan);
        p.error.push_back(norm[n] != 0 ? std::sqrt(signal[n]) / norm[n] : nan);
    }
    return p;
}

AzintMap AzintPresenter::waterfall() const {
    AzintMap map{result_.frames, result_.bins, {}};
    for (std::size_t f = 0; f < result_.frames; ++f) {
        const AzintProfile p = profile(f);
        map.values.insert(map.values.end(), p.intensity.begin(), p.intensity.end());
    }
    return map;
}

AzintMap AzintPresenter::cake(std::size_t frame) const {
    const azint::Result& r = result_;
    AzintMap map{r.azimuthBins, r.bins, {}};
    if (frame >= r.frames) return {};
    const auto from = r.intensity.begin() + std::ptrdiff_t(frame * r.azimuthBins * r.bins);
    map.values.assign(from, from + std::ptrdiff_t(r.azimuthBins * r.bins));
    return map;
}

std::string AzintPresenter::csv() const {
    std::ostringstream out;
    out.precision(17);
    out << azint::unitName(result_.unit);
    for (std::size_t f = 0; f < result_.frames; ++f)
        out << ",I_f" << f << ",err_f" << f;
    out << '\n';
    std::vector<AzintProfile> profiles;
    for (std::size_t f = 0; f < result_.frames; ++f)
        profiles.push_back(profile(f));
    for (std::size_t n = 0; n < result_.bins; ++n) {
        out << result_.radial[n];
        for (const AzintProfile& p : profiles)
            out << ',' << p.intensity[n] << ',' << p.error[n];
        out << '\n';
    }
    return out.str();
}

} // namespace clscope::ui

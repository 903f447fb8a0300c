#include "ui/spots/spots_presenter.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

namespace clscope::ui {

const std::vector<SpotsImage>& spotsImages() {
    static const std::vector<SpotsImage> all{
        SpotsImage::Frame,  SpotsImage::Mean,   SpotsImage::Variance, SpotsImage::Dispersion,
        SpotsImage::SigmaB, SpotsImage::SigmaS, SpotsImage::Global,   SpotsImage::Final};
    return all;
}

std::optional<SpotsImage> spotsImageNamed(const std::string& name) {
    for (SpotsImage image : spotsImages())
        if (spotsImageName(image) == name) return image;
    return std::nullopt;
}

std::string spotsImageName(SpotsImage image) {
    switch (image) {
    case SpotsImage::Frame:
        return "frame";
    case SpotsImage::Mean:
        return "mean";
    case SpotsImage::Variance:
        return "variance";
    case SpotsImage::Dispersion:
        return "index of dispersion";
    case SpotsImage::SigmaB:
        return "σ_b test";
    case SpotsImage::SigmaS:
        return "σ_s test";
    case SpotsImage::Global:
        return "global test";
    case SpotsImage::Final:
        return "final mask";
    }
    return "?";
}

std::vector<double> debugValues(const spots::DebugImages& d, SpotsImage image) {
    const auto flags = [](const std::vector<std::uint8_t>& v) {
        return std::vector<double>(v.begin(), v.end());
    };
    switch (image) {
    case SpotsImage::Frame:
        return {};
    case SpotsImage::Mean:
        return d.mean;
    case SpotsImage::Variance:
        return d.variance;
    case SpotsImage::Dispersion:
        return d.dispersion;
    case SpotsImage::SigmaB:
        return flags(d.sigmaB);
    case SpotsImage::SigmaS:
        return flags(d.sigmaS);
    case SpotsImage::Global:
        return flags(d.global);
    case SpotsImage::Final:
        return flags(d.final);
    }
    return {};
}

std::string spotColumnTitle(SpotColumn column) {
    switch (column) {
    case SpotColumn::Index:
        return "#";
    case SpotColumn::Frame:
        return "frame";
    case SpotColumn::X:
        return "x (px)";
    case SpotColumn::Y:
        return "y (px)";
    case SpotColumn::Intensity:
        return "I";
    case SpotColumn::Pixels:
        return "npix";
    case SpotColumn::Width:
        return "w (px)";
    case SpotColumn::Height:
        return "h (px)";
    }
    return "?";
}

double spotColumnValue(const spots::Spot& s, std::size_t index, SpotColumn column) {
    switch (column) {
    case SpotColumn::Index:
        return double(index);
    case SpotColumn::Frame:
        return s.frame;
    case SpotColumn::X:
        return s.x;
    case SpotColumn::Y:
        return s.y;
    case SpotColumn::Intensity:
        return s.intensity;
    case SpotColumn::Pixels:
        return s.npix;
    case SpotColumn::Width:
        return s.x1 - s.x0;
    case SpotColumn::Height:
        return s.y1 - s.y0;
    }
    return 0;
}

void SpotsPresenter::setRun(spots::Result result, std::string label) {
    run_ = std::move(result);
    runLabel_ = std::move(label);
    order_.resize(run_->spots.size());
    std::iota(order_.begin(), order_.end(), std::size_t(0));
    selected_.reset();
}

std::vector<std::int32_t> SpotsPresenter::signalLabels() const {
    if (!frame_) return {};
    return {frame_->signal.begin(), frame_->signal.end()};
}

// Stable, so rows of equal value keep the run's order (frame, then first pixel).
void SpotsPresenter::sortBy(SpotColumn column, bool ascending) {
    if (!run_) return;
    const auto& all = run_->spots;
    std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
        const double va = spotColumnValue(all[a], a, column),
                     vb = spotColumnValue(all[b], b, column);
        return ascending ? va < vb : vb < va;
    });
}

const spots::Spot& SpotsPresenter::spotAtRow(std::size_t row) const {
    return run_->spots.at(order_.at(row));
}

std::size_t SpotsPresenter::rowNearest(double x, double y) const {
    std::size_t best = 0;
    double closest = INFINITY;
    for (std::size_t row = 0; row < rowCount(); ++row) {
        const spots::Spot& s = spotAtRow(row);
        const double d = std::hypot(s.x - x, s.y - y);
        if (d < closest) closest = d, best = row;
    }
    return best;
}

double SpotsPresenter::cellValue(std::size_t row, SpotColumn column) const {
    return spotColumnValue(spotAtRow(row), order_.at(row), column);
}

void SpotsPresenter::selectRow(std::size_t row) {
    selected_ = row < order_.size() ? std::optional<std::size_t>(order_[row]) : std::nullopt;
}

std::optional<SpotsViewTarget> SpotsPresenter::selectedTarget() const {
    if (!selected_ || !run_) return std::nullopt;
    const spots::Spot& s = run_->spots.at(*selected_);
    return SpotsViewTarget{static_cast<std::size_t>(s.peakFrame), s.x, s.y};
}

SpotsPresenter::PerFrame SpotsPresenter::perFrame() const {
    PerFrame out;
    if (!run_) return out;
    const std::size_t frames = run_->strongPerFrame.size();
    out.spots.assign(frames, 0.0);
    for (const spots::Spot& s : run_->spots)
        if (s.frame >= 0 && std::size_t(s.frame) < frames) out.spots[s.frame] += 1;
    for (std::size_t t = 0; t < frames; ++t) {
        out.frame.push_back(double(t));
        out.strong.push_back(double(run_->strongPerFrame[t]));
    }
    return out;
}

std::string SpotsPresenter::perFrameCsv() const {
    const PerFrame p = perFrame();
    std::ostringstream s;
    s << "frame,signal_pixels,spots\n";
    for (std::size_t t = 0; t < p.frame.size(); ++t)
        s << t << ',' << p.strong[t] << ',' << p.spots[t] << '\n';
    return s.str();
}

} // namespace clscope::ui

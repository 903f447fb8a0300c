#include "core/xpcs/layout_run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace clscope::xpcs {

std::vector<std::string> LayoutRun::missing(bool needQ) const {
    std::vector<std::string> out;
    const std::vector<double> q = binQ();
    const bool allQ =
        !q.empty() && std::none_of(q.begin(), q.end(), [](double v) { return std::isnan(v); });
    if (needQ && !allQ)
        out.push_back("the q of every bin (/entry/processing/qmask_q and qmask_label_ids in the "
                      "labels' file)");
    if (!frameTime) out.push_back("a frame time (the input's frame_time or --frame-time)");
    if (!geometry)
        out.push_back("the detector geometry (/entry/processing/geometry in the labels' file: "
                      "beam centre, distance, pixel size, wavelength)");
    return out;
}

std::vector<std::size_t> LayoutRun::delays() const {
    std::vector<std::size_t> out;
    for (std::size_t j = 0; j < result->frames; ++j)
        if ((result->multitau ? result->lagFrames[j] : std::int64_t(j)) > 0) out.push_back(j);
    return out;
}

std::vector<std::int64_t> LayoutRun::delayFrames() const {
    std::vector<std::int64_t> out;
    for (std::size_t j : delays())
        out.push_back(result->multitau ? result->lagFrames[j] : std::int64_t(j));
    return out;
}

Array LayoutRun::byDelays(const std::vector<double>& binMajor) const {
    const std::vector<std::size_t> lags = delays();
    const std::size_t bins = result->binCount();
    std::vector<double> out(lags.size() * bins);
    for (std::size_t i = 0; i < lags.size(); ++i)
        for (std::size_t b = 0; b < bins; ++b)
            out[i * bins + b] = binMajor[b * result->frames + lags[i]];
    return makeArray<double>({lags.size(), bins}, out);
}

Array LayoutRun::roiMap() const {
    std::vector<std::int32_t> map(labels.labels.size(), 0);
    for (std::size_t p = 0; p < map.size(); ++p) {
        const auto it =
            std::lower_bound(result->labels.begin(), result->labels.end(), labels.labels[p]);
        if (labels.labels[p] > 0 && it != result->labels.end() && *it == labels.labels[p])
            map[p] = static_cast<std::int32_t>(it - result->labels.begin()) + 1;
    }
    return makeArray<std::int32_t>({labels.height, labels.width}, map);
}

std::vector<double> LayoutRun::binQ() const {
    if (qByLabel.empty()) return {};
    std::vector<double> out;
    for (std::int32_t l : labels.bins()) {
        const auto it = qByLabel.find(l);
        out.push_back(it == qByLabel.end() ? std::numeric_limits<double>::quiet_NaN() : it->second);
    }
    return out;
}

std::vector<std::int32_t> LayoutRun::twotimeRois() const {
    std::vector<std::int32_t> out;
    for (const auto& [label, map] : result->twotime) {
        const auto it = std::lower_bound(result->labels.begin(), result->labels.end(), label);
        out.push_back(static_cast<std::int32_t>(it - result->labels.begin()) + 1);
    }
    return out;
}

std::size_t LayoutRun::twotimeSide() const {
    if (result->twotime.empty()) return 0;
    const double cells = static_cast<double>(result->twotime.begin()->second.size());
    return static_cast<std::size_t>(std::llround(std::sqrt(cells)));
}

double LayoutRun::energyKeV() const {
    return mask::energyFromWavelength(geometry->wavelength);
}

std::vector<double> diagonalAverage(const std::vector<float>& map, std::size_t side,
                                    std::size_t first, std::size_t n) {
    std::vector<double> out(n, std::numeric_limits<double>::quiet_NaN());
    for (std::size_t d = 0; d < n; ++d) {
        double sum = 0;
        std::size_t count = 0;
        for (std::size_t t = first; t + d < first + n; ++t) {
            const float c = map[t * side + t + d];
            if (!std::isnan(c)) sum += c, ++count;
        }
        if (count) out[d] = sum / static_cast<double>(count);
    }
    return out;
}

} // namespace clscope::xpcs

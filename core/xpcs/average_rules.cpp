#include "core/xpcs/average_rules.hpp"

#include <algorithm>
#include <cmath>

namespace clscope::xpcs {

namespace {

ParamSpec rule(const std::string& name, double value, double min, double max,
               const std::string& help) {
    ParamSpec spec = makeParam(name, ParamSpec::Type::Double, value, help);
    spec.min = min, spec.max = max;
    spec.flag = "--" + name;
    std::replace(spec.flag.begin(), spec.flag.end(), '_', '-');
    return spec;
}

// Mean of the finite g2 over the bins and the lags [first, last).
double meanG2(const Result& r, std::size_t first, std::size_t last) {
    double sum = 0;
    std::size_t count = 0;
    for (std::size_t b = 0; b < r.binCount(); ++b)
        for (std::size_t j = first; j < last; ++j)
            if (std::isfinite(r.g2At(b, j))) sum += r.g2At(b, j), ++count;
    return count ? sum / static_cast<double>(count) : std::nan("");
}

double baseline(const Result& r, std::size_t lags, double fraction) {
    const auto tail = static_cast<std::size_t>(std::llround(static_cast<double>(lags) * fraction));
    return meanG2(r, lags - std::clamp<std::size_t>(tail, 1, lags), lags);
}

// Prefix sums of the mean counts per labelled pixel of each frame (all bins together).
std::vector<double> intensityPrefix(const AverageRun& run) {
    const ResultSums& s = run.sums;
    std::vector<double> prefix(s.frames + 1, 0.0);
    double pixels = 0;
    for (std::int64_t n : run.result.pixels)
        pixels += static_cast<double>(n);
    for (std::size_t t = 0; t < s.frames; ++t) {
        double total = 0;
        for (std::size_t b = 0; b < s.binCount(); ++b)
            total += s.intensity[b * s.frames + t] * static_cast<double>(run.result.pixels[b]);
        prefix[t + 1] = prefix[t] + total / pixels;
    }
    return prefix;
}

struct IntensityChange {
    double jump = 0, drift = 0;
};

// The largest change between adjacent windows of w frames and between the first and the last
// window, over the run's mean intensity.
IntensityChange intensityChange(const AverageRun& run, double window) {
    const std::vector<double> p = intensityPrefix(run);
    const std::size_t frames = p.size() - 1;
    if (frames < 2 || p.back() == 0.0) return {};
    const auto w = std::clamp<std::size_t>(
        static_cast<std::size_t>(static_cast<double>(frames) * window), 1, frames / 2);
    const double mean = p.back() / static_cast<double>(frames), width = static_cast<double>(w);
    const auto windowMean = [&](std::size_t first) { return (p[first + w] - p[first]) / width; };
    IntensityChange c;
    for (std::size_t t = w; t + w <= frames; ++t)
        c.jump = std::max(c.jump, std::abs(windowMean(t) - windowMean(t - w)) / mean);
    c.drift = std::abs(windowMean(frames - w) - windowMean(0)) / mean;
    return c;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t h = v.size() / 2;
    return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// The robust z-score of each value above the values' median: 0.6745 (v − median) / MAD (MAD
// the median absolute deviation); empty where the MAD is 0.
std::vector<double> robustZ(std::vector<double> values) {
    const double centre = median(values);
    std::vector<double> deviations;
    for (double v : values)
        deviations.push_back(std::abs(v - centre));
    const double mad = median(deviations);
    if (!(mad > 0)) return {};
    for (double& v : values)
        v = 0.6745 * (v - centre) / mad;
    return values;
}

// Each run's distance from the runs' median g2: the root mean square over the bins and shared
// lags (where every run's g2 is finite) of g2 − the runs' median g2 there.
std::vector<double> distances(const std::vector<AverageRun>& runs, std::size_t lags) {
    std::vector<double> squares(runs.size(), 0.0), g(runs.size());
    std::size_t cells = 0;
    for (std::size_t b = 0; b < runs.front().result.binCount(); ++b)
        for (std::size_t j = 0; j < lags; ++j) {
            for (std::size_t i = 0; i < runs.size(); ++i)
                g[i] = runs[i].result.g2At(b, j);
            if (!std::all_of(g.begin(), g.end(), [](double v) { return std::isfinite(v); }))
                continue;
            const double centre = median(g);
            for (std::size_t i = 0; i < runs.size(); ++i)
                squares[i] += (g[i] - centre) * (g[i] - centre);
            ++cells;
        }
    for (double& s : squares)
        s = cells ? std::sqrt(s / static_cast<double>(cells)) : 0.0;
    return squares;
}

// The robust z-score of each run's distance (empty with fewer than 3 runs or a MAD of 0).
std::vector<double> runZ(const std::vector<AverageRun>& runs, std::size_t lags) {
    if (runs.size() < 3) return {};
    return robustZ(distances(runs, lags));
}

} // namespace

std::vector<ParamSpec> rejectionParamSpecs() {
    return {
        rule("baseline_min", 0.95, 0, 1e9, "Reject a run whose g2 baseline is below this"),
        rule("baseline_max", 1.05, 0, 1e9, "Reject a run whose g2 baseline is above this"),
        rule("baseline_fraction", 0.1, 1e-9, 1,
             "The baseline: mean g2 over this fraction of the last lags"),
        rule("intensity_window", 0.1, 1e-9, 0.5,
             "Intensity windows compared for jumps and drift, as a fraction of the frames"),
        rule("intensity_jump_max", 0.1, 0, 1e9,
             "Reject a run whose intensity jumps by more than this fraction of its mean"),
        rule("intensity_drift_max", 0.1, 0, 1e9,
             "Reject a run whose intensity drifts by more than this fraction of its mean"),
        rule("zscore_max", 3.5, 0, 1e9,
             "Reject a run whose g2 lies beyond this robust z-score of the runs' median"),
    };
}

RejectionRules rejectionRules(const ParamSet& p) {
    RejectionRules r;
    r.baselineMin = p.number("baseline_min"), r.baselineMax = p.number("baseline_max");
    r.baselineFraction = p.number("baseline_fraction");
    r.intensityWindow = p.number("intensity_window");
    r.jumpMax = p.number("intensity_jump_max"), r.driftMax = p.number("intensity_drift_max");
    r.zscoreMax = p.number("zscore_max");
    return r;
}

std::vector<Rejection> rejectedRuns(const std::vector<AverageRun>& runs, std::size_t lags,
                                    const RejectionRules& rules) {
    const std::vector<double> z = runZ(runs, lags);
    std::vector<Rejection> out;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const double base = baseline(runs[i].result, lags, rules.baselineFraction);
        const IntensityChange change = intensityChange(runs[i], rules.intensityWindow);
        if (!(base >= rules.baselineMin && base <= rules.baselineMax))
            out.push_back({i, "baseline", base});
        else if (change.jump > rules.jumpMax)
            out.push_back({i, "intensity_jump", change.jump});
        else if (change.drift > rules.driftMax)
            out.push_back({i, "intensity_drift", change.drift});
        else if (!z.empty() && z[i] > rules.zscoreMax)
            out.push_back({i, "zscore", z[i]});
    }
    return out;
}

} // namespace clscope::xpcs

#include "core/xpcs/average.hpp"

#include "core/errors.hpp"

#include <cmath>

namespace clscope::xpcs {

Weights weightsNamed(const std::string& name) {
    if (name == "equal") return Weights::Equal;
    if (name == "frames") return Weights::Frames;
    if (name == "inverse-variance") return Weights::InverseVariance;
    throw UsageError("weights '" + name + "': expected equal, frames or inverse-variance");
}

ParamSpec weightsParamSpec() {
    ParamSpec spec = makeParam("weights", ParamSpec::Type::Choice, "equal",
                               "How the runs are weighted: equal (each run once), frames (by its "
                               "frames: the sums added) or inverse-variance (by 1/g2_err²)");
    spec.choices = {"equal", "frames", "inverse-variance"};
    spec.flag = "--weights";
    return spec;
}

namespace {

// One run's part of one bin and lag.
struct Part {
    LagSums sums;
    double numerator = 0, g2 = 0, err = 0;
};

std::vector<Part> partsAt(const std::vector<const AverageRun*>& runs, std::size_t b,
                          std::size_t j) {
    std::vector<Part> parts;
    for (const AverageRun* run : runs) {
        const std::size_t i = b * run->result.frames + j;
        parts.push_back({run->sums.pairSums[i], run->sums.numerator[i], run->result.g2[i],
                         run->result.g2Err[i]});
    }
    return parts;
}

// c_i = ω_i / P_i of each part.
std::vector<double> scales(const std::vector<Part>& parts, Weights weights) {
    bool inverse = weights == Weights::InverseVariance;
    for (const Part& p : parts)
        inverse = inverse && std::isfinite(p.err) && p.err > 0;
    std::vector<double> c;
    for (const Part& p : parts) {
        const double omega = weights == Weights::Frames ? p.sums.pairs
                             : inverse                  ? 1.0 / (p.err * p.err)
                                                        : 1.0;
        c.push_back(p.sums.pairs > 0 ? omega / p.sums.pairs : 0.0);
    }
    return c;
}

struct Cell {
    LagSums sums;
    double numerator = 0, g2 = 0, err = 0;
};

Cell combine(const std::vector<Part>& parts, const std::vector<double>& c, double pixels,
             Normalisation n) {
    Cell cell;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const LagSums& s = parts[i].sums;
        cell.sums.pairs += c[i] * s.pairs, cell.sums.later += c[i] * s.later;
        cell.sums.earlier += c[i] * s.earlier, cell.sums.products += c[i] * s.products;
        cell.numerator += c[i] * parts[i].numerator;
    }
    cell.g2 = g2FromSums(cell.sums, cell.numerator, pixels, n);
    double variance = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const double g2i = g2FromSums(parts[i].sums, parts[i].numerator, pixels, n);
        const double share = cell.numerator != 0 ? c[i] * parts[i].numerator / cell.numerator : 0.0;
        const double alpha = g2i != 0 && std::isfinite(g2i) ? cell.g2 * share / g2i : 0.0;
        variance += alpha * alpha * parts[i].err * parts[i].err;
    }
    cell.err = std::sqrt(variance);
    return cell;
}

// The first run's bins and first `lags` lags, g2 to be filled in.
Result skeleton(const Result& first, std::size_t lags) {
    Result r;
    r.labels = first.labels, r.pixels = first.pixels;
    r.frames = lags;
    r.tau.assign(first.tau.begin(), first.tau.begin() + static_cast<std::ptrdiff_t>(lags));
    r.tauInSeconds = first.tauInSeconds, r.multitau = first.multitau;
    if (r.multitau) {
        r.lagFrames.assign(first.lagFrames.begin(), first.lagFrames.begin() + std::ptrdiff_t(lags));
        r.levels.assign(first.levels.begin(), first.levels.begin() + std::ptrdiff_t(lags));
    }
    r.normalisation = first.normalisation;
    r.device = "host", r.variant = "average";
    r.g2.assign(r.binCount() * lags, 0.0), r.g2Err.assign(r.binCount() * lags, 0.0);
    return r;
}

// The runs' intensity against time one after the other (B, Σ T).
void joinIntensity(const std::vector<const AverageRun*>& runs, ResultSums& out) {
    out.frames = 0;
    for (const AverageRun* run : runs)
        out.frames += run->sums.frames;
    for (std::size_t b = 0; b < out.binCount(); ++b)
        for (const AverageRun* run : runs) {
            const auto row =
                run->sums.intensity.begin() + static_cast<std::ptrdiff_t>(b * run->sums.frames);
            out.intensity.insert(out.intensity.end(), row,
                                 row + static_cast<std::ptrdiff_t>(run->sums.frames));
        }
}

} // namespace

Averaged averageRuns(const std::vector<const AverageRun*>& runs, std::size_t lags,
                     Weights weights) {
    if (runs.empty()) throw InputError("average: no run left to average");
    Averaged out{skeleton(runs.front()->result, lags), {}};
    Result& r = out.result;
    out.sums.lags = lags;
    for (std::size_t b = 0; b < r.binCount(); ++b)
        for (std::size_t j = 0; j < lags; ++j) {
            const std::vector<Part> parts = partsAt(runs, b, j);
            const Cell cell = combine(parts, scales(parts, weights),
                                      static_cast<double>(r.pixels[b]), r.normalisation);
            r.g2[b * lags + j] = cell.g2, r.g2Err[b * lags + j] = cell.err;
            out.sums.pairSums.push_back(cell.sums);
            out.sums.numerator.push_back(cell.numerator);
        }
    joinIntensity(runs, out.sums);
    return out;
}

} // namespace clscope::xpcs

#include "core/spots/resolution_estimate.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace clscope::spots {

namespace {

using Indices = std::vector<std::size_t>;

double asD(double dStarSq) { // uctbx.d_star_sq_as_d
    return 1.0 / std::sqrt(dStarSq);
}

// scitbx::math::linear_regression (epsilon 1e-15): slope and intercept, both 0 when undefined.
struct Line {
    double slope = 0, intercept = 0;
};

Line linearRegression(const std::vector<double>& x, const std::vector<double>& y) {
    if (x.empty()) return {};
    double minX = x[0], maxX = x[0], minY = y[0], maxY = y[0];
    double sx = x[0], sx2 = x[0] * x[0], sy = y[0], sxy = x[0] * y[0];
    for (std::size_t i = 1; i < x.size(); ++i) {
        minX = std::min(minX, x[i]), maxX = std::max(maxX, x[i]);
        minY = std::min(minY, y[i]), maxY = std::max(maxY, y[i]);
        sx += x[i], sx2 += x[i] * x[i], sy += y[i], sxy += x[i] * y[i];
    }
    const double n = static_cast<double>(x.size());
    if (minX == maxX) return {};
    if (minY == maxY) return {0.0, minY};
    const double dx = std::max(std::abs(minX - sx / n), std::abs(maxX - sx / n));
    const double dy = std::max(std::abs(minY - sy / n), std::abs(maxY - sy / n));
    if (dx == 0) return {};
    if (dy == 0) return {0.0, sy / n};
    if (dx < dy * 1e-15) return {};
    const double d = n * sx2 - sx * sx;
    if (d == 0) return {};
    return {(n * sxy - sx * sy) / d, (sx2 * sy - sx * sxy) / d};
}

// wilson_outliers: amplitudes normalised by the mean non-ice intensity at or above
// sqrt(-ln 0.01), again over the inliers until none is left; one flag per index of `subset`.
std::vector<bool> wilsonOutliers(const std::vector<SpotReflection>& spots,
                                 const std::vector<bool>& ice, const Indices& subset) {
    double sum = 0;
    std::size_t count = 0;
    for (const std::size_t i : subset)
        if (!ice[i]) sum += spots[i].intensity, ++count;
    std::vector<bool> outliers(subset.size(), false);
    if (count == 0) return outliers; // not reached: the bins hold non-ice spots
    const double sigma = sum / static_cast<double>(count);
    const double cutoff = std::sqrt(-std::log(1e-2));
    Indices inliers;
    std::vector<std::size_t> at;
    for (std::size_t j = 0; j < subset.size(); ++j) {
        outliers[j] = std::sqrt(spots[subset[j]].intensity) / std::sqrt(sigma) >= cutoff;
        if (!outliers[j]) inliers.push_back(subset[j]), at.push_back(j);
    }
    if (inliers.size() == subset.size()) return outliers;
    const std::vector<bool> again = wilsonOutliers(spots, ice, inliers);
    for (std::size_t j = 0; j < at.size(); ++j)
        outliers[at[j]] = again[j];
    return outliers;
}

// binner_equal_population(d*^2, 20, max 20, min 5): the (d_min, d_max) of each bin.
std::vector<std::pair<double, double>> equalPopulationBins(const std::vector<double>& dStarSq) {
    const std::size_t n = dStarSq.size();
    const std::size_t slots = std::max<std::size_t>(std::min<std::size_t>(n / 20, 20), 5);
    const double perBin = static_cast<double>(n) / static_cast<double>(slots);
    std::vector<double> sorted = dStarSq;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::pair<double, double>> bins;
    double dMax = asD(sorted[0]);
    for (std::size_t i = 0; i < slots; ++i) {
        const auto k = static_cast<std::size_t>(std::floor((i + 1) * perBin + 0.5)) - 1;
        const double dMin = asD(sorted[k]);
        bins.emplace_back(dMin, dMax);
        dMax = dMin;
    }
    return bins;
}

// points_below_line: the sign of (p - (0, c)) . (-((m + c) - c), 1), negative (or -0) below.
bool belowLine(double x, double y, const Line& line) {
    const double diff = (line.slope * 1 + line.intercept) - line.intercept;
    const double side = (x - 0) * -diff + (y - line.intercept) * 1;
    return std::signbit(side);
}

// The percentile points of every bin, and the Wilson outliers over all spots.
struct Percentiles {
    std::vector<double> lowerX, lowerY, upperX, upperY;
    std::vector<bool> outliers;
};

void addBin(const std::vector<SpotReflection>& spots, const std::vector<bool>& ice,
            const std::vector<double>& logIOverSigma, const Indices& inBin, Percentiles& p) {
    const std::vector<bool> outliers = wilsonOutliers(spots, ice, inBin);
    Indices kept;
    for (std::size_t j = 0; j < inBin.size(); ++j) {
        p.outliers[inBin[j]] = outliers[j];
        if (!outliers[j] && !ice[inBin[j]]) kept.push_back(inBin[j]);
    }
    std::stable_sort(kept.begin(), kept.end(), [&](std::size_t a, std::size_t b) {
        return logIOverSigma[a] < logIOverSigma[b];
    });
    const double low = 0.1, high = 1 - low;
    const double n = static_cast<double>(kept.size());
    const std::size_t lower = kept[static_cast<std::size_t>(std::floor(low * n))];
    const std::size_t upper = kept[static_cast<std::size_t>(std::floor(high * n))];
    // DIALS pairs the upper line's x with the lower percentile's spot, and the reverse.
    p.lowerY.push_back(logIOverSigma[lower]), p.upperY.push_back(logIOverSigma[upper]);
    p.upperX.push_back(spots[lower].dStarSq), p.lowerX.push_back(spots[upper].dStarSq);
}

Percentiles percentiles(const std::vector<SpotReflection>& spots, const std::vector<bool>& ice,
                        const std::vector<double>& logIOverSigma) {
    std::vector<double> dStarSq(spots.size()), d(spots.size());
    for (std::size_t i = 0; i < spots.size(); ++i)
        dStarSq[i] = spots[i].dStarSq, d[i] = asD(dStarSq[i]);
    Percentiles p;
    p.outliers.assign(spots.size(), false);
    for (const auto& [dMin, dMax] : equalPopulationBins(dStarSq)) {
        Indices inBin;
        bool anyClear = false;
        for (std::size_t i = 0; i < spots.size(); ++i)
            if (d[i] < dMax && d[i] >= dMin) inBin.push_back(i), anyClear = anyClear || !ice[i];
        if (anyClear) addBin(spots, ice, logIOverSigma, inBin, p);
    }
    return p;
}

} // namespace

double estimateResolutionLimit(const std::vector<SpotReflection>& spots,
                               const std::vector<bool>& ice) {
    std::vector<double> logIOverSigma(spots.size());
    for (std::size_t i = 0; i < spots.size(); ++i) {
        const double v = spots[i].intensity; // the variance
        if (!(v > 0)) throw InputError("per-image analysis: a spot of intensity <= 0");
        logIOverSigma[i] = std::log(spots[i].intensity / std::sqrt(v));
    }
    const Percentiles p = percentiles(spots, ice, logIOverSigma);
    const Line upper = linearRegression(p.upperX, p.upperY);
    const Line lower = linearRegression(p.lowerX, p.lowerY);
    if (upper.slope == lower.slope) return -1;
    double best = -1;
    for (std::size_t i = 0; i < spots.size(); ++i)
        if (belowLine(spots[i].dStarSq, logIOverSigma[i], upper) && !p.outliers[i] && !ice[i])
            best = std::max(best, spots[i].dStarSq);
    return best < 0 ? -1 : asD(best);
}

} // namespace clscope::spots

#include "ui/spots/spots_frame.hpp"

#include "core/spots/tests.hpp"

#include <algorithm>
#include <type_traits>

namespace clscope::ui {

namespace {

using spots::Params;

// Values of one frame as int64 with the pixels DIALS counts: valid (mask 0, below the EIGER
// sentinels) and, of those, the ones below 2^24 that enter the window sums.
struct Pixels {
    std::vector<std::int64_t> value;
    std::vector<std::uint8_t> valid, inSum;
};

Pixels integerPixels(const SpotsFrameInput& in) {
    const std::size_t n = in.frame.frameSize();
    Pixels px{std::vector<std::int64_t>(n), std::vector<std::uint8_t>(n),
              std::vector<std::uint8_t>(n)};
    const std::uint64_t limit = validLimit(in.frame.dtype());
    visitArray(in.frame, [&](auto values) {
        using T = typename decltype(values)::element_type;
        if constexpr (std::is_integral_v<T>) {
            for (std::size_t k = 0; k < n; ++k) {
                bool ok = in.mask.bad.empty() || !in.mask.bad[k];
                if constexpr (std::is_unsigned_v<T>) ok = ok && std::uint64_t(values[k]) < limit;
                px.value[k] = static_cast<std::int64_t>(values[k]);
                px.valid[k] = ok;
                px.inSum[k] = ok && px.value[k] < spots::sumLimit && px.value[k] > -spots::sumLimit;
            }
        }
    });
    return px;
}

// Sliding sum over [i-k, i+k] clipped to [0, n) along one line of a row-major image.
void slideLine(const std::int64_t* in, std::int64_t* out, int n, std::size_t stride, int k) {
    std::int64_t sum = 0;
    for (int i = 0; i <= std::min(k, n - 1); ++i)
        sum += in[i * stride];
    for (int i = 0; i < n; ++i) {
        out[i * stride] = sum;
        if (i + k + 1 < n) sum += in[(i + k + 1) * stride];
        if (i - k >= 0) sum -= in[(i - k) * stride];
    }
}

// Box sum over (2kx+1) x (2ky+1) clipped at the edges, exact in int64, as double.
std::vector<double> boxSum(const std::vector<std::int64_t>& a, int h, int w, int kx, int ky) {
    std::vector<std::int64_t> rows(a.size()), both(a.size());
    for (int r = 0; r < h; ++r)
        slideLine(a.data() + std::size_t(r) * w, rows.data() + std::size_t(r) * w, w, 1, kx);
    for (int c = 0; c < w; ++c)
        slideLine(rows.data() + c, both.data() + c, h, std::size_t(w), ky);
    return {both.begin(), both.end()};
}

spots::Input frameInput(const SpotsFrameInput& in) {
    return {in.frame, in.mask};
}

void allocateDebug(spots::DebugImages& d, std::size_t n) {
    for (auto* image : {&d.mean, &d.variance, &d.dispersion})
        image->assign(n, 0.0);
    for (auto* image : {&d.sigmaB, &d.sigmaS, &d.global, &d.final})
        image->assign(n, 0);
}

// Window statistics of the debug images: mean, sample variance, index of dispersion.
void windowStats(spots::DebugImages& d, std::size_t k, double m, double x, double y) {
    const double mean = m > 0 ? x / m : 0;
    const double variance = m > 1 ? (m * y - x * x) / (m * (m - 1)) : 0;
    d.mean[k] = mean, d.variance[k] = variance, d.dispersion[k] = mean > 0 ? variance / mean : 0;
}

} // namespace

bool cachedThresholdApplies(const Array& frame, const Params& p) {
    return p.method == spots::Method::Dispersion && dtypeIsInteger(frame.dtype());
}

const SpotsFrameCache::Sums&
SpotsFrameCache::sumsFor(const std::shared_ptr<const SpotsFrameInput>& input, int kx, int ky) {
    if (input == input_ && kx == kx_ && ky == ky_) return sums_;
    const Pixels px = integerPixels(*input);
    const int h = static_cast<int>(input->frame.height()),
              w = static_cast<int>(input->frame.width());
    std::vector<std::int64_t> count(px.value.size()), x(px.value.size()), y(px.value.size());
    for (std::size_t k = 0; k < px.value.size(); ++k)
        if (px.inSum[k]) count[k] = 1, x[k] = px.value[k], y[k] = px.value[k] * px.value[k];
    sums_ = {boxSum(count, h, w, kx, ky), boxSum(x, h, w, kx, ky), boxSum(y, h, w, kx, ky)};
    input_ = input, kx_ = kx, ky_ = ky;
    ++sumsComputed_;
    return sums_;
}

SpotsFrameResult SpotsFrameCache::threshold(const std::shared_ptr<const SpotsFrameInput>& input,
                                            const Params& p, bool debug) {
    spots::checkParams(p);
    const spots::Input whole = frameInput(*input);
    spots::checkInput(whole);
    SpotsFrameResult r;
    r.frame = input->index;
    r.height = input->frame.height(), r.width = input->frame.width();
    r.threshold = p.globalAuto ? spots::autoGlobalThreshold(whole) : p.globalThreshold;
    if (debug) r.debug.emplace();
    if (!cachedThresholdApplies(input->frame, p)) {
        r.signal = spots::thresholdCpu(whole, p, {}, debug ? &*r.debug : nullptr);
    } else {
        r.cachedSums = input == input_ && p.kernelX == kx_ && p.kernelY == ky_;
        const Sums& s = sumsFor(input, p.kernelX, p.kernelY);
        const Pixels px = integerPixels(*input);
        const std::size_t n = px.value.size();
        const bool useGain = p.gain != 1.0;
        const int minM = spots::minCount(p);
        r.signal.assign(n, 0);
        if (debug) allocateDebug(*r.debug, n);
        for (std::size_t k = 0; k < n; ++k) {
            const double m = s.m[k], x = s.x[k], y = s.y[k], v = double(px.value[k]);
            const bool counted = m >= minM && x >= 0, above = v > r.threshold;
            const bool dispersive =
                counted && spots::backgroundTest(m, x, y, p.gain, p.sigmaBackground, useGain);
            const bool strong =
                counted && spots::strongTest(m, x, v, p.gain, p.sigmaStrong, useGain);
            r.signal[k] = px.valid[k] && above && dispersive && strong;
            if (!debug) continue;
            windowStats(*r.debug, k, m, x, y);
            spots::DebugImages& d = *r.debug;
            d.sigmaB[k] = px.valid[k] && dispersive, d.sigmaS[k] = px.valid[k] && strong;
            d.global[k] = px.valid[k] && above, d.final[k] = r.signal[k];
        }
    }
    spots::Params flat = p;
    flat.threeD = false;
    r.spots = spots::findSpots(input->frame, r.signal, flat);
    for (spots::Spot& s : r.spots) {
        const int at = static_cast<int>(input->index);
        s.frame += at, s.frameEnd += at, s.peakFrame += at, s.z += at;
    }
    r.strong = std::count(r.signal.begin(), r.signal.end(), std::uint8_t(1));
    return r;
}

} // namespace clscope::ui

// The `cpu` variant: DIALS dispersion and dispersion_extended on the host, exact integer window
// sums (separable box sums, clipped at the image edge) and DIALS' tests in double.
#include "core/spots/parallel.hpp"
#include "core/spots/spots.hpp"
#include "core/spots/tests.hpp"

#include <algorithm>
#include <thread>
#include <type_traits>

namespace clscope::spots {

namespace {

// Window sums of one frame: count, sum and sum of squares of the pixels with use[k] set.
template <class S> struct WindowSums {
    std::vector<std::int32_t> m;
    std::vector<S> x, y;
};

// Box sums over (2kx+1) x (2ky+1), clipped at the edges: a row pass, then a column pass.
template <class S>
WindowSums<S> boxSums(const std::vector<S>& v, const std::vector<std::uint8_t>& use, int h, int w,
                      int kx, int ky) {
    const std::size_t n = std::size_t(h) * w;
    WindowSums<S> rows{std::vector<std::int32_t>(n), std::vector<S>(n), std::vector<S>(n)};
    parallelRanges(h, 64, [&](std::size_t r0, std::size_t r1) {
        for (std::size_t j = r0; j < r1; ++j)
            for (int i = 0; i < w; ++i) {
                std::int32_t m = 0;
                S x = 0, y = 0;
                for (int ii = std::max(0, i - kx); ii <= std::min(w - 1, i + kx); ++ii) {
                    const std::size_t k = j * w + ii;
                    if (!use[k]) continue;
                    m += 1, x += v[k], y += v[k] * v[k];
                }
                rows.m[j * w + i] = m, rows.x[j * w + i] = x, rows.y[j * w + i] = y;
            }
    });
    WindowSums<S> out{std::vector<std::int32_t>(n), std::vector<S>(n), std::vector<S>(n)};
    parallelRanges(h, 64, [&](std::size_t r0, std::size_t r1) {
        for (std::size_t j = r0; j < r1; ++j)
            for (int i = 0; i < w; ++i) {
                std::int32_t m = 0;
                S x = 0, y = 0;
                const int jj0 = std::max(0, int(j) - ky), jj1 = std::min(h - 1, int(j) + ky);
                for (int jj = jj0; jj <= jj1; ++jj) {
                    const std::size_t k = std::size_t(jj) * w + i;
                    m += rows.m[k], x += rows.x[k], y += rows.y[k];
                }
                out.m[j * w + i] = m, out.x[j * w + i] = x, out.y[j * w + i] = y;
            }
    });
    return out;
}

// DIALS' chebyshev_distance (two passes, 8 neighbours, outside = far) to pixels with !set[k].
std::vector<int> chebyshevDistance(const std::vector<std::uint8_t>& set, int h, int w) {
    std::vector<int> d(std::size_t(h) * w);
    const int far = h + w;
    auto at = [&](int j, int i) { return d[std::size_t(j) * w + i]; };
    for (int j = 0; j < h; ++j)
        for (int i = 0; i < w; ++i) {
            const int n = j > 0 ? at(j - 1, i) : far, wv = i > 0 ? at(j, i - 1) : far;
            const int nw = (j > 0 && i > 0) ? at(j - 1, i - 1) : far;
            const int ne = (j > 0 && i < w - 1) ? at(j - 1, i + 1) : far;
            d[std::size_t(j) * w + i] =
                !set[std::size_t(j) * w + i] ? 0 : 1 + std::min(std::min(n, wv), std::min(ne, nw));
        }
    for (int j = h; j > 0; --j)
        for (int i = w; i > 0; --i) {
            const int s = j < h ? at(j, i - 1) : far, e = i < w ? at(j - 1, i) : far;
            const int sw = (j < h && i > 1) ? at(j, i - 2) : far;
            const int se = (j < h && i < w) ? at(j, i) : far;
            const int other = std::min(std::min(s, e), std::min(se, sw));
            int& here = d[std::size_t(j - 1) * w + (i - 1)];
            if (other < here) here = 1 + other;
        }
    return d;
}

// One frame's values (as the sum type), valid pixels and pixels that enter the sums.
template <class S> struct FrameData {
    std::vector<S> v;
    std::vector<std::uint8_t> valid, inSum;
};

template <class T, class S>
FrameData<S> frameData(const T* data, const std::uint8_t* bad, std::size_t n, std::uint64_t limit) {
    FrameData<S> f{std::vector<S>(n), std::vector<std::uint8_t>(n), std::vector<std::uint8_t>(n)};
    for (std::size_t k = 0; k < n; ++k) {
        const T value = data[k];
        bool ok = !(bad && bad[k]);
        if constexpr (std::is_unsigned_v<T>) ok = ok && std::uint64_t(value) < limit;
        f.v[k] = static_cast<S>(value);
        f.valid[k] = ok;
        f.inSum[k] = ok && f.v[k] < static_cast<S>(sumLimit) && f.v[k] > -static_cast<S>(sumLimit);
    }
    return f;
}

// Where one frame's debug values go (null: none asked).
struct FrameDebug {
    DebugImages* images = nullptr;
    std::size_t offset = 0;
    void stats(std::size_t k, double m, double x, double y) const {
        const double mean = m > 0 ? x / m : 0,
                     variance = m > 1 ? (m * y - x * x) / (m * (m - 1)) : 0;
        images->mean[offset + k] = mean, images->variance[offset + k] = variance;
        images->dispersion[offset + k] = mean > 0 ? variance / mean : 0;
    }
    void tests(std::size_t k, bool valid, bool sigmaB, bool sigmaS, bool global, bool final) const {
        images->sigmaB[offset + k] = valid && sigmaB, images->sigmaS[offset + k] = valid && sigmaS;
        images->global[offset + k] = valid && global, images->final[offset + k] = final;
    }
};

template <class S>
void dispersionFrame(const FrameData<S>& f, int h, int w, const Params& p, double threshold,
                     std::uint8_t* out, const FrameDebug& debug) {
    const WindowSums<S> s = boxSums(f.v, f.inSum, h, w, p.kernelX, p.kernelY);
    const bool useGain = p.gain != 1.0;
    const int minM = minCount(p);
    for (std::size_t k = 0; k < f.v.size(); ++k) {
        const double m = s.m[k], x = static_cast<double>(s.x[k]), y = static_cast<double>(s.y[k]);
        const double v = static_cast<double>(f.v[k]);
        out[k] = f.valid[k] && m >= minM && x >= 0 && v > threshold &&
                 backgroundTest(m, x, y, p.gain, p.sigmaBackground, useGain) &&
                 strongTest(m, x, v, p.gain, p.sigmaStrong, useGain);
        if (!debug.images) continue;
        const bool counted = m >= minM && x >= 0;
        debug.stats(k, m, x, y);
        debug.tests(
            k, f.valid[k], counted && backgroundTest(m, x, y, p.gain, p.sigmaBackground, useGain),
            counted && strongTest(m, x, v, p.gain, p.sigmaStrong, useGain), v > threshold, out[k]);
    }
}

template <class S>
void extendedFrame(const FrameData<S>& f, int h, int w, const Params& p, double threshold,
                   std::uint8_t* out, const FrameDebug& debug) {
    const std::size_t n = f.v.size();
    const bool useGain = p.gain != 1.0;
    const int minM = minCount(p);
    // Dispersive pixels (masked ones too, DIALS >= 2025), eroded by the Chebyshev distance.
    WindowSums<S> s = boxSums(f.v, f.inSum, h, w, p.kernelX, p.kernelY);
    std::vector<std::uint8_t> dispersive(n);
    for (std::size_t k = 0; k < n; ++k) {
        const double m = s.m[k], x = static_cast<double>(s.x[k]), y = static_cast<double>(s.y[k]);
        dispersive[k] = !f.valid[k]
                            ? !p.legacyMaskedBackground
                            : m >= minM && x >= 0 &&
                                  backgroundTest(m, x, y, p.gain, p.sigmaBackground, useGain);
        if (debug.images) debug.stats(k, m, x, y);
    }
    const std::vector<int> distance = chebyshevDistance(dispersive, h, w);
    std::vector<std::uint8_t> core(n), background(n);
    for (std::size_t k = 0; k < n; ++k) {
        core[k] = f.valid[k] && dispersive[k] && distance[k] >= erosionDistance(p);
        background[k] = f.valid[k] && !core[k] && f.inSum[k];
    }
    // Background mean over a window widened by 2, then the strong test.
    s = boxSums(f.v, background, h, w, p.kernelX + 2, p.kernelY + 2);
    for (std::size_t k = 0; k < n; ++k) {
        const double m = s.m[k], x = static_cast<double>(s.x[k]), v = static_cast<double>(f.v[k]);
        out[k] = f.valid[k] && x >= 0 && core[k] && v > threshold &&
                 extendedStrongTest(m, x, v, p.gain, p.sigmaStrong, useGain);
        if (!debug.images) continue;
        debug.images->mean[debug.offset + k] = m >= 2 ? x / m : 0;
        debug.tests(k, f.valid[k], dispersive[k],
                    extendedStrongTest(m, x, v, p.gain, p.sigmaStrong, useGain), v > threshold,
                    out[k]);
    }
}

} // namespace

std::vector<std::uint8_t> thresholdCpu(const Input& in, const Params& p, const Progress& progress,
                                       DebugImages* debug) {
    checkInput(in);
    checkParams(p);
    const Array& a = in.frames;
    const int h = static_cast<int>(a.height()), w = static_cast<int>(a.width());
    const std::size_t plane = a.frameSize();
    const double threshold = p.globalAuto ? autoGlobalThreshold(in) : p.globalThreshold;
    const std::uint8_t* bad = in.mask.bad.empty() ? nullptr : in.mask.bad.data();
    std::vector<std::uint8_t> signal(a.size(), 0);
    if (debug) {
        for (auto* image : {&debug->mean, &debug->variance, &debug->dispersion})
            image->assign(a.size(), 0.0);
        for (auto* image : {&debug->sigmaB, &debug->sigmaS, &debug->global, &debug->final})
            image->assign(a.size(), 0);
    }
    visitArray(a, [&](auto values) {
        using T = typename decltype(values)::element_type;
        using S = std::conditional_t<std::is_floating_point_v<T>, double, std::int64_t>;
        for (std::size_t t = 0; t < a.frameCount(); ++t) {
            const auto f =
                frameData<T, S>(values.data() + t * plane, bad, plane, validLimit(a.dtype()));
            const FrameDebug frameDebug{debug, t * plane};
            if (p.method == Method::Dispersion)
                dispersionFrame(f, h, w, p, threshold, signal.data() + t * plane, frameDebug);
            else
                extendedFrame(f, h, w, p, threshold, signal.data() + t * plane, frameDebug);
            progress.report(double(t + 1) / double(a.frameCount()));
            progress.checkCancel();
        }
    });
    return signal;
}

} // namespace clscope::spots

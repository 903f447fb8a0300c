// spots: parameters, input checks, spots from a signal mask.
#include "core/spots/spots.hpp"
#include "core/spots/parallel.hpp"
#include "core/spots/radix_sort.hpp"

#include "core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace clscope::spots {

std::string methodName(Method method) {
    return method == Method::Dispersion ? "dispersion" : "dispersion_extended";
}

Method methodFromName(const std::string& name) {
    if (name == "dispersion") return Method::Dispersion;
    if (name == "dispersion_extended") return Method::DispersionExtended;
    throw UsageError("spots: unknown algorithm '" + name + "' (dispersion, dispersion_extended)");
}

int minCount(const Params& p) {
    const int window = (2 * p.kernelX + 1) * (2 * p.kernelY + 1);
    return p.minLocal <= 0 ? window : p.minLocal;
}

void checkParams(const Params& p) {
    auto fail = [](const std::string& what) { throw UsageError("spots: " + what); };
    if (p.kernelX < 1 || p.kernelY < 1 || p.kernelX > 64 || p.kernelY > 64)
        fail("kernel_size must be 1..64 in each direction");
    if (!(p.gain > 0)) fail("gain must be > 0");
    if (!(p.sigmaBackground >= 0) || !(p.sigmaStrong >= 0))
        fail("sigma_background and sigma_strong must be >= 0");
    if (!p.globalAuto && !(p.globalThreshold >= 0)) fail("global_threshold must be >= 0");
    const int window = (2 * p.kernelX + 1) * (2 * p.kernelY + 1);
    if (p.minLocal > 0 && (p.minLocal > window || p.minLocal < 2))
        fail("min_local must be 2.." + std::to_string(window) +
             " for this kernel_size (or <= 0: the window)");
    if (p.minSpotSize < 0 || p.maxSpotSize < 0) fail("min/max_spot_size must be >= 0");
    if (!(p.maxSeparation >= 0)) fail("max_separation must be >= 0");
}

void checkInput(const Input& in) {
    const Array& a = in.frames;
    if (a.rank() != 2 && a.rank() != 3)
        throw InputError("spots: frames must be (T,H,W) or (H,W), got " + shapeString(a.shape()));
    if (a.dtype() == DType::Int64 || a.dtype() == DType::Float64)
        throw InputError("spots: frames of " + dtypeName(a.dtype()) +
                         " are not supported (uint8, uint16, uint32, int32, float32)");
    if (a.height() == 0 || a.width() == 0)
        throw InputError("spots: frames are empty (" + shapeString(a.shape()) + ")");
    if (!in.mask.bad.empty() && (in.mask.height != a.height() || in.mask.width != a.width()))
        throw InputError("spots: pixel mask is " + std::to_string(in.mask.height) + "x" +
                         std::to_string(in.mask.width) + " but frames are " +
                         std::to_string(a.height()) + "x" + std::to_string(a.width()));
}

namespace {

// DIALS' mean-square error of a centroid along one axis from the weights' sum sv, their
// squares' svv, and the weighted sums of the coordinate svc and of its square svcc: the
// unbiased variance Σv (c − mean)² Σv / ((Σv)² − Σv²), over Σv, plus 1/12 (1/12 alone where
// (Σv)² <= Σv², as DIALS falls back).
double meanSqError(double sv, double svv, double svc, double svcc) {
    const double denominator = sv * sv - svv;
    if (!(denominator > 0)) return 1.0 / 12.0;
    const double spread = std::max(0.0, svcc - svc * svc / sv);
    return spread * sv / denominator / sv + 1.0 / 12.0;
}

// One growing spot: value-weighted sums (first and second moments) and extents; key = first
// pixel in scan order.
struct Accumulator {
    double sv = 0, svx = 0, svy = 0, svz = 0, sx = 0, sy = 0, sz = 0;
    double svv = 0, svxx = 0, svyy = 0, svzz = 0;
    int n = 0, x0 = 0, y0 = 0, x1 = 0, y1 = 0, z0 = 0, z1 = 0;
    std::int64_t key = 0;
    float peak = 0; // brightest value (as float, like DIALS' shoeboxes), first in scan order
    int px = 0, py = 0, pz = 0;
    std::int64_t peakKey = 0;
    void add(int i, int j, int t, double v, std::int64_t k) {
        if (n == 0) x0 = i, y0 = j, z0 = t, x1 = i + 1, y1 = j + 1, z1 = t + 1, key = k;
        // Pixels arrive in scan order, so a strictly brighter one is the only new peak.
        if (n == 0 || float(v) > peak) peak = float(v), px = i, py = j, pz = t, peakKey = k;
        x0 = std::min(x0, i), x1 = std::max(x1, i + 1), y0 = std::min(y0, j),
        y1 = std::max(y1, j + 1);
        z0 = std::min(z0, t), z1 = std::max(z1, t + 1);
        ++n, sv += v, svx += v * (i + 0.5), svy += v * (j + 0.5), svz += v * (t + 0.5);
        sx += i + 0.5, sy += j + 0.5, sz += t + 0.5;
        svv += v * v, svxx += v * (i + 0.5) * (i + 0.5), svyy += v * (j + 0.5) * (j + 0.5);
        svzz += v * (t + 0.5) * (t + 0.5);
    }
    void merge(const Accumulator& o) {
        if (o.peak > peak || (o.peak == peak && o.peakKey < peakKey))
            peak = o.peak, px = o.px, py = o.py, pz = o.pz, peakKey = o.peakKey;
        x0 = std::min(x0, o.x0), x1 = std::max(x1, o.x1), y0 = std::min(y0, o.y0),
        y1 = std::max(y1, o.y1);
        z0 = std::min(z0, o.z0), z1 = std::max(z1, o.z1), key = std::min(key, o.key);
        n += o.n, sv += o.sv, svx += o.svx, svy += o.svy, svz += o.svz, sx += o.sx, sy += o.sy,
            sz += o.sz;
        svv += o.svv, svxx += o.svxx, svyy += o.svyy, svzz += o.svzz;
    }
    Spot spot() const {
        const bool weighted = sv > 0; // signal values exceed a threshold >= 0, so this holds
        Spot s;
        s.frame = z0, s.frameEnd = z1, s.npix = n, s.intensity = sv;
        s.x = weighted ? svx / sv : sx / n, s.y = weighted ? svy / sv : sy / n;
        s.z = weighted ? svz / sv : sz / n;
        s.x0 = x0, s.y0 = y0, s.x1 = x1, s.y1 = y1, s.firstPixel = key;
        s.peakX = px, s.peakY = py, s.peakFrame = pz;
        s.centroidVariance = {meanSqError(sv, svv, svx, svxx), meanSqError(sv, svv, svy, svyy),
                              z1 - z0 > 1 ? meanSqError(sv, svv, svz, svzz) : 1.0 / 12.0};
        return s;
    }
};

// Union-find over component ids with an accumulator per root.
struct Components {
    std::vector<int> parent;
    std::vector<Accumulator> acc;
    int make() {
        parent.push_back(static_cast<int>(parent.size()));
        acc.emplace_back();
        return parent.back();
    }
    int find(int a) {
        while (parent[a] != a)
            a = parent[a] = parent[parent[a]];
        return a;
    }
    int unite(int a, int b) {
        a = find(a), b = find(b);
        if (a == b) return a;
        if (acc[a].key > acc[b].key) std::swap(a, b);
        parent[b] = a;
        acc[a].merge(acc[b]);
        return a;
    }
};

} // namespace

double peakSeparation(const Spot& s) {
    // A spot within one frame has its centroid on that frame: dz = 0 exactly (so a run split
    // into frame ranges gives the same spots).
    const double dz = s.frameEnd - s.frame > 1 ? s.peakFrame + 0.5 - s.z : 0.0;
    const double dx = s.peakX + 0.5 - s.x, dy = s.peakY + 0.5 - s.y;
    return std::sqrt(dx * dx + dy * dy + dz * dz);
}

FramePixels signalPixels(const std::vector<std::uint8_t>& signal, std::size_t plane) {
    FramePixels out(plane ? signal.size() / plane : 0);
    for (std::size_t t = 0; t < out.size(); ++t)
        for (std::size_t k = 0; k < plane; ++k)
            if (signal[t * plane + k]) out[t].push_back(static_cast<std::uint32_t>(k));
    return out;
}

std::vector<Spot> findSpots(const Array& frames, const std::vector<std::uint8_t>& signal,
                            const Params& p) {
    return findSpots(frames, signalPixels(signal, frames.frameSize()), p);
}

// Pixels visited in scan order (frame, row, column) as a dense scan would: left and upper
// neighbours in this frame and the same pixel in the previous frame (threeD) are found by
// pointers that only move forward through the sorted lists.
namespace {

// Spots of frames [t0, t1) (all frames for threeD); value(t, n, g): the value of pixel n of
// frame t's list, g its flat index.
template <class Values>
std::vector<Spot> groupFrames(std::size_t w, std::size_t plane, const FramePixels& pixels,
                              const Params& p, std::size_t t0, std::size_t t1,
                              const Values& value) {
    Components c;
    std::vector<int> previous, current, active, still;
    std::vector<Spot> spots;
    auto emit = [&](const Accumulator& a) {
        if (a.n < p.minSpotSize || a.n > p.maxSpotSize) return;
        const Spot s = a.spot();
        if (peakSeparation(s) <= p.maxSeparation) spots.push_back(s);
    };
    static const std::vector<std::uint32_t> none;
    for (int t = static_cast<int>(t0); t < static_cast<int>(t1); ++t) {
        const std::vector<std::uint32_t>& cur = pixels[t];
        const std::vector<std::uint32_t>& prev = t > 0 && p.threeD ? pixels[t - 1] : none;
        current.assign(cur.size(), -1);
        std::size_t up = 0, back = 0;
        for (std::size_t n = 0; n < cur.size(); ++n) {
            const std::size_t k = cur[n], g = t * plane + k;
            const int i = static_cast<int>(k % w), j = static_cast<int>(k / w);
            int id = -1;
            if (i > 0 && n > 0 && cur[n - 1] == k - 1) id = c.find(current[n - 1]);
            if (j > 0) {
                while (cur[up] < k - w)
                    ++up;
                if (up < n && cur[up] == k - w)
                    id = id < 0 ? c.find(current[up]) : c.unite(id, current[up]);
            }
            while (back < prev.size() && prev[back] < k)
                ++back;
            if (back < prev.size() && prev[back] == k)
                id = id < 0 ? c.find(previous[back]) : c.unite(id, previous[back]);
            if (id < 0) active.push_back(id = c.make());
            c.acc[c.find(id)].add(i, j, t, value(t, n, g), static_cast<std::int64_t>(g));
            current[n] = id;
        }
        // Roots without a pixel in this frame are complete (in 2D: every root).
        still.clear();
        for (int id : active) {
            if (c.find(id) != id) continue;
            if (p.threeD && c.acc[id].z1 == t + 1)
                still.push_back(id);
            else
                emit(c.acc[id]);
        }
        active.swap(still);
        std::swap(previous, current);
        if (!p.threeD && active.empty()) c.parent.clear(), c.acc.clear();
    }
    for (int id : active)
        emit(c.acc[id]);
    std::sort(spots.begin(), spots.end(),
              [](const Spot& a, const Spot& b) { return a.firstPixel < b.firstPixel; });
    return spots;
}

// A frame's signal pixels in index order (lists sorted already are only checked).
void sortPixels(std::vector<std::uint32_t>& list) {
    if (!std::is_sorted(list.begin(), list.end()))
        radixSort(list, [](std::uint32_t k) { return k; });
}

std::vector<Spot> groupFrames(const Array& frames, const FramePixels& pixels, const Params& p,
                              std::size_t t0, std::size_t t1) {
    return groupFrames(frames.width(), frames.frameSize(), pixels, p, t0, t1,
                       [&](std::size_t, std::size_t, std::size_t g) { return frames.valueAt(g); });
}

} // namespace

std::vector<Spot> findSpotsSparse(std::size_t width, std::size_t plane, const FramePixels& pixels,
                                  const std::vector<std::vector<double>>& values, const Params& p,
                                  std::size_t t0, std::size_t t1) {
    return groupFrames(
        width, plane, pixels, p, t0, t1,
        [&](std::size_t t, std::size_t n, std::size_t) { return values[t - t0][n]; });
}

std::vector<Spot> findSpots(const Array& frames, const FramePixels& pixels, const Params& p) {
    if (p.threeD) return groupFrames(frames, pixels, p, 0, pixels.size());
    // 2-D: frames are independent; ranges of frames on several threads, joined in frame order
    // (which is first-pixel order).
    std::vector<std::vector<Spot>> parts(pixels.size());
    parallelRanges(pixels.size(), 2, [&](std::size_t t0, std::size_t t1) {
        parts[t0] = groupFrames(frames, pixels, p, t0, t1);
    });
    std::vector<Spot> spots;
    for (const std::vector<Spot>& part : parts)
        spots.insert(spots.end(), part.begin(), part.end());
    return spots;
}

std::vector<Spot> findSpotsInFrames(const Array& frames, FramePixels& pixels, const Params& p,
                                    std::size_t t0, std::size_t t1) {
    for (std::size_t t = t0; t < t1; ++t)
        sortPixels(pixels[t]);
    return groupFrames(frames, pixels, p, t0, t1);
}

Result finishResult(const Input& in, std::vector<std::uint8_t> signal, const Params& p) {
    FramePixels pixels = signalPixels(signal, in.frames.frameSize());
    return finishResult(in, std::move(signal), std::move(pixels), p);
}

Result finishResult(const Input& in, std::vector<std::uint8_t> signal, FramePixels pixels,
                    const Params& p, std::optional<std::vector<Spot>> grouped) {
    Result r;
    r.shape = in.frames.shape();
    r.thresholdUsed = p.globalAuto ? autoGlobalThreshold(in) : p.globalThreshold;
    parallelRanges(pixels.size(), 2, [&](std::size_t t0, std::size_t t1) {
        for (std::size_t t = t0; t < t1; ++t)
            sortPixels(pixels[t]);
    });
    for (const std::vector<std::uint32_t>& frame : pixels)
        r.strongPerFrame.push_back(static_cast<std::int64_t>(frame.size()));
    r.spots = grouped ? std::move(*grouped) : findSpots(in.frames, pixels, p);
    r.signal = std::move(signal);
    r.pixels = std::move(pixels);
    return r;
}

std::vector<std::uint8_t> denseSignal(const Result& r) {
    if (!r.signal.empty()) return r.signal;
    const std::size_t plane =
        r.shape.size() >= 2 ? r.shape[r.shape.size() - 1] * r.shape[r.shape.size() - 2] : 1;
    std::vector<std::uint8_t> dense(plane * r.pixels.size(), 0);
    for (std::size_t t = 0; t < r.pixels.size(); ++t)
        for (const std::uint32_t k : r.pixels[t])
            dense[t * plane + k] = 1;
    return dense;
}

Result runCpu(const Input& in, const Params& p, const Progress& progress) {
    return finishResult(in, thresholdCpu(in, p, progress), p);
}

} // namespace clscope::spots

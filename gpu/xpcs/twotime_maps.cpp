// Host results of an xpcs device run from its downloaded Gram matrices (see runner.hpp): two-time
// maps, and every statistic of a run of value planes.
#include "gpu/xpcs/runner.hpp"

#include <cstring>

namespace clscope::xpcs {

namespace {

// 64-bit sums (ulong, long or double as the dtype says) as doubles.
std::vector<double> sumsAsDouble(const std::vector<std::uint64_t>& raw, DType d) {
    std::vector<double> out(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        if (d == DType::Float32)
            std::memcpy(&out[i], &raw[i], 8);
        else if (d == DType::Int32)
            out[i] = static_cast<double>(static_cast<std::int64_t>(raw[i]));
        else
            out[i] = static_cast<double>(raw[i]);
    }
    return out;
}

// Bin b's Gram matrix of a run of value planes (framePad^2, slots summed): the slots share the
// bin's pixels, so every sum stays below n 2^32 < 2^63, exact in 64 bits.
std::vector<std::int64_t> binGram(DeviceRun& run, std::size_t binCount, std::size_t b) {
    const std::size_t plane = std::size_t(run.framePad) * std::size_t(run.framePad);
    std::vector<std::int64_t> gram(plane, 0), part(plane);
    for (std::size_t slot = 0; slot < std::size_t(run.slots); ++slot) {
        const std::size_t offset = (slot * binCount + b) * plane * sumBytes;
        run.session.queue().enqueueReadBuffer(run.gram, CL_TRUE, offset, plane * sumBytes,
                                              part.data());
        for (std::size_t i = 0; i < plane; ++i)
            gram[i] += part[i];
    }
    return gram;
}

} // namespace

void planeStatistics(DeviceRun& run, const Bins& bins, Result& result) {
    const std::size_t planes = run.frames, frames = planes / 2, pad = run.framePad;
    std::vector<std::int64_t> sums(bins.count() * planes); // below 2^63: n 2^16 at most
    run.session.download(run.sums, sums.data(), sums.size() * 8, "copy D->H frame sums");
    const Int128 high = static_cast<Int128>(1) << run.planeShift;
    std::vector<Int128> gram(frames * frames), binSums(frames);
    for (std::size_t b = 0; b < bins.count(); ++b) {
        const std::vector<std::int64_t> g = binGram(run, bins.count(), b);
        const auto at = [&](std::size_t a, std::size_t c) { return Int128(g[a * pad + c]); };
        const std::int64_t* s = &sums[b * planes];
        for (std::size_t t1 = 0; t1 < frames; ++t1) {
            binSums[t1] = high * s[t1] + s[frames + t1];
            for (std::size_t t2 = 0; t2 <= t1; ++t2)
                gram[t1 * frames + t2] = planeGram(frames, run.planeShift, t1, t2, at);
        }
        finishBinExact(bins, b, binSums, gram, result);
    }
}

void twotimeMaps(DeviceRun& run, const Bins& bins, DType d, Result& result) {
    if (result.twotime.empty()) return;
    const std::size_t frames = run.frames, pad = run.framePad, plane = pad * pad;
    std::vector<std::uint64_t> raw(bins.count() * frames);
    run.session.download(run.sums, raw.data(), raw.size() * 8, "copy D->H frame sums");
    const std::vector<double> allSums = sumsAsDouble(raw, d);
    for (auto& [label, map] : result.twotime) {
        const std::size_t b = static_cast<std::size_t>(bins.find(label));
        std::vector<double> gram(plane, 0.0);
        for (int slot = 0; slot < run.slots; ++slot) {
            const std::size_t element = run.gramElement; // 4: uint (GRAM_T, exact)
            const std::size_t offset = (slot * bins.count() + b) * plane * element;
            if (element == 4) {
                std::vector<std::uint32_t> narrow(plane);
                run.session.queue().enqueueReadBuffer(run.gram, CL_TRUE, offset, plane * 4,
                                                      narrow.data());
                raw.assign(narrow.begin(), narrow.end());
            } else {
                raw.resize(plane);
                run.session.queue().enqueueReadBuffer(run.gram, CL_TRUE, offset, plane * 8,
                                                      raw.data());
            }
            const std::vector<double> part = sumsAsDouble(raw, d);
            for (std::size_t i = 0; i < plane; ++i)
                gram[i] += part[i];
        }
        const std::vector<double> sums(allSums.begin() + b * frames,
                                       allSums.begin() + (b + 1) * frames);
        map = twotimeMap(frames, bins.pixelCounts[b], sums,
                         [&](std::size_t t1, std::size_t t2) { return gram[t1 * pad + t2]; });
    }
}

} // namespace clscope::xpcs

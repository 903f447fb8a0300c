// Two-time maps of an xpcs device run, from its downloaded Gram matrices (see runner.hpp).
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

} // namespace

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

// xpcs on a CPU device (PoCL): the bins in groups whose Gram matrices fit the host budget,
// one run each, results joined in label order; other devices run every bin at once.
#include "gpu/xpcs/runner.hpp"

#include <algorithm>
#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace clscope::xpcs {

namespace {

// Consecutive bins in groups whose Gram matrices (perBin bytes each) fit budget.
std::vector<std::pair<std::int32_t, std::int32_t>> binGroups(const Bins& bins, std::uint64_t perBin,
                                                             std::uint64_t budget) {
    std::vector<std::pair<std::int32_t, std::int32_t>> groups; // first and last label
    std::uint64_t held = 0;
    for (std::int32_t label : bins.labels) {
        if (groups.empty() || held + perBin > budget) groups.push_back({label, label}), held = 0;
        groups.back().second = label, held += perBin;
    }
    return groups;
}

// Bins [first, last] of mask only (the others unlabelled), with their two-time labels.
std::pair<LabelMask, Params> onlyBins(const LabelMask& mask, const Params& params,
                                      std::int32_t first, std::int32_t last) {
    LabelMask part = mask;
    for (std::int32_t& l : part.labels)
        if (l < first || l > last) l = 0;
    Params p = params;
    std::erase_if(p.twotimeLabels, [&](std::int32_t l) { return l < first || l > last; });
    return {std::move(part), std::move(p)};
}

// A CPU device's buffers are host heap memory: give what is free back to the system (glibc
// keeps freed memory below the heap's top and in the threads' arenas resident), so that the
// next group's buffers do not come on top of it (issue 13: peak RSS <= 1.5x the frames).
// Per group, not once: with one trim before the first group only, the second group's buffers
// came on top of the first's (PoCL, 669 -> 731 MB); the price is ~0.8 s of page faults.
// Not under AddressSanitizer: its allocator replaces glibc's, whose arenas malloc_trim would
// walk uninitialised (SEGV in mtrim, tst_scale in the sanitizer build).
#if defined(__SANITIZE_ADDRESS__)
#define CLSCOPE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CLSCOPE_ASAN 1
#endif
#endif
void releaseFreeHeap() {
#if defined(__GLIBC__) && !defined(CLSCOPE_ASAN)
    malloc_trim(0);
#endif
}

template <class T> void concat(std::vector<T>& to, const std::vector<T>& from) {
    to.insert(to.end(), from.begin(), from.end());
}

// Results of consecutive groups of bins, joined in label order.
void append(Result& all, Result&& part) {
    if (all.labels.empty()) return void(all = std::move(part));
    concat(all.g2, part.g2), concat(all.g2Err, part.g2Err);
    concat(all.labels, part.labels), concat(all.pixels, part.pixels);
    all.twotime.merge(part.twotime);
    all.timings.merge(part.timings);
    all.kernelMs += part.kernelMs;
}

} // namespace

Result runOnDevice(const DeviceInfo& device, const GpuVariant& variant, const Array& frames,
                   const LabelMask& mask, const Params& params, const Progress& progress,
                   const ProgramOverrides& programs) {
    if (device.type != "CPU")
        return runBins(device, variant, frames, mask, params, progress, programs);
    releaseFreeHeap();
    checkInputs(frames, mask, params);
    const Bins bins = makeBins(mask);
    // Gram bytes of one bin, with the most slots a variant takes (as many as compute units).
    const std::uint64_t pad = roundUp(frames.frameCount(), 64);
    const std::uint64_t perBin =
        std::max<std::uint64_t>(1, device.computeUnits) * pad * pad * sumBytes;
    const auto groups = binGroups(bins, perBin, 2 * hostBudget(frames));
    if (groups.size() == 1)
        return runBins(device, variant, frames, mask, params, progress, programs);
    Result all;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const auto [part, p] = onlyBins(mask, params, groups[g].first, groups[g].second);
        const double n = static_cast<double>(groups.size()), at = static_cast<double>(g);
        const Progress sub([&](double f) { progress.report((at + f) / n); }, progress.cancelFlag());
        append(all, runBins(device, variant, frames, part, p, sub, programs));
        releaseFreeHeap(); // the group's buffers, before the next group's
    }
    return all;
}

} // namespace clscope::xpcs

// What xpcs runs hold in memory before anything is read (runWithinBudget's Algorithm::streamsFor
// and Algorithm::holdsBeside): a sparse file's stored entries that dense lags and sparse-pairs'
// multi-tau hold whole, and the one bin's Gram matrix of the host references' dense lags; and
// readFor, which streams the entries where they are held.
#include "gpu/xpcs/algorithm.hpp"

#include "core/errors.hpp"
#include "core/input/frame_reading.hpp"
#include "gpu/scale/passes.hpp"
#include "gpu/xpcs/multitau.hpp"
#include "gpu/xpcs/xpcs_gpu.hpp"

#include <numeric>

namespace clscope::xpcs {

namespace {

// Bytes a dense-lag run over stored entries holds per entry (core/xpcs/lags_sparse.hpp).
constexpr std::uint64_t heldEntryBytes = 16;

// The stored entries of the frames at `where` that a run holds whole: dense lags (every frame
// pair meeting) or sparse-pairs' multi-tau (the whole series pixel-major): what runWithinBudget
// checks against the budget.
Algorithm::Held heldEntries(const std::string& where, const std::vector<std::uint64_t>& perFrame,
                            bool multitau) {
    const std::uint64_t n = std::accumulate(perFrame.begin(), perFrame.end(), std::uint64_t(0));
    const std::string what =
        (multitau ? "xpcs multi-tau (sparse-pairs) on " : "xpcs dense lags on ") + where +
        ": its " + std::to_string(n) + " stored entries (" + std::to_string(heldEntryBytes) +
        " bytes each, held for every lag)";
    return {what, budgetBytes(n, heldEntryBytes, what),
            multitau ? "correlate a window of frames (--frames a:b), or take sparse or sparse-cpu, "
                       "which run multi-tau in bounded memory"
                     : "correlate a window of frames (--frames a:b) or multi-tau lags (--multitau: "
                       "sparse-cpu and sparse run them in bounded memory)"};
}

// Bytes an element of a host reference's Gram matrix: 128-bit sums from stored entries
// (sparse-cpu), else double or 64-bit sums for frames of up to 16 bits and 128-bit ones beyond
// (cpu: core/xpcs/reference.cpp exactSums, whose choice also depends on the values).
std::uint64_t gramElementBytes(const Modes& modes, DType dtype) {
    return modes.entries || dtypeSize(dtype) > 2 ? 16 : 8;
}

} // namespace

std::optional<Algorithm::Held> Algorithm::streamsFor(const InputSources& s, const ParamSet& params,
                                                     const std::string& variant) const {
    const auto* v = variantSet().get(variant);
    const bool multitau = params.boolean("multitau");
    if (!v || s.live || !(multitau ? v->traits.multitauHeld : v->traits.entries))
        return std::nullopt;
    const std::shared_ptr<FrameStream> frames = openFrames(s, role("frames"));
    const auto perFrame = frames->entriesPerFrame();
    if (!perFrame) return std::nullopt;
    return heldEntries(frames->where(), *perFrame, multitau);
}

std::optional<Algorithm::Held> Algorithm::holdsBeside(const InputSources& s, const ParamSet& params,
                                                      const std::string& variant) const {
    const auto* v = variantSet().get(variant);
    const InputRole stack = role("frames");
    if (!v || s.live || s.inMemory(stack) || params.boolean("multitau") || !v->traits.hostGram)
        return std::nullopt;
    const std::shared_ptr<FrameStream> frames = openFrames(s, stack);
    const std::uint64_t t = frames->frameCount(),
                        element = gramElementBytes(v->traits, frames->dtype());
    const std::string what = "xpcs dense lags (" + variant + ") on " + frames->where() +
                             ": one bin's " + std::to_string(t) + " x " + std::to_string(t) +
                             " Gram matrix (" + std::to_string(element) + " bytes an element)";
    return Held{what, budgetBytes(budgetBytes(t, t, what), element, what),
                "correlate a window of frames (--frames a:b) or multi-tau lags (--multitau)"};
}

std::shared_ptr<const AlgorithmInput> Algorithm::readFor(const InputSources& s,
                                                         const ParamSet& params,
                                                         const std::string& variant) const {
    return streamsFor(s, params, variant) ? readStreamed(s) : read(s, params);
}

} // namespace clscope::xpcs

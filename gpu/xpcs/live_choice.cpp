#include "gpu/xpcs/live_choice.hpp"

#include "core/xpcs/multitau_sparse.hpp"
#include "gpu/xpcs/sparse_rings.hpp"

#include <algorithm>

namespace clscope::xpcs {

LiveChoice liveChoice(double occupancy, std::uint64_t most, std::size_t total,
                      const std::string& counted) {
    const bool pays = occupancy < liveSparseCrossover, fits = SparseRings::fits(most, total);
    LiveChoice c;
    c.sparse = pays && fits;
    c.note = std::string("xpcs multi-tau: variant ") + (c.sparse ? "sparse" : "multitau") + ": " +
             occupancyText(occupancy) + " of the labelled pixels non-zero " + counted + ", " +
             (pays ? "below" : "not below") + " the crossover " +
             occupancyText(liveSparseCrossover) + " where the dense multitau wins" +
             (pays && !fits ? ", but frames of " + std::to_string(most) + " counts binned over " +
                                  std::to_string(total) +
                                  " frames could exceed the sparse variant's 64-bit products"
                            : std::string()) +
             " (--variant to choose)";
    return c;
}

namespace {

template <class T>
void countFrames(const Array& frames, const LabelMask& labels, std::uint64_t& nonZero,
                 std::uint64_t& most, std::uint64_t& positions) {
    const T* v = frames.as<T>().data();
    const std::size_t size = frames.frameSize();
    positions = static_cast<std::uint64_t>(
        std::count_if(labels.labels.begin(), labels.labels.end(), [](auto l) { return l > 0; }));
    for (std::size_t f = 0; f < frames.frameCount(); ++f) {
        std::uint64_t total = 0;
        for (std::size_t i = 0; i < size; ++i)
            if (labels.labels[i] > 0 && v[f * size + i] != 0)
                ++nonZero, total += static_cast<std::uint64_t>(v[f * size + i]);
        most = std::max(most, total);
    }
}

} // namespace

LiveChoice liveChoiceOf(const Array& frames, const LabelMask& labels) {
    std::uint64_t nonZero = 0, most = 0, positions = 0;
    switch (frames.dtype()) {
    case DType::UInt8:
        countFrames<std::uint8_t>(frames, labels, nonZero, most, positions);
        break;
    case DType::UInt16:
        countFrames<std::uint16_t>(frames, labels, nonZero, most, positions);
        break;
    case DType::UInt32:
        countFrames<std::uint32_t>(frames, labels, nonZero, most, positions);
        break;
    default:
        return {false, "xpcs multi-tau: variant multitau: " + dtypeName(frames.dtype()) +
                           " frames are not counts the sparse variant takes"};
    }
    const double cells = double(frames.frameCount()) * double(positions);
    const double occupancy = cells > 0 ? double(nonZero) / cells : 1.0;
    return liveChoice(occupancy, most, frames.frameCount(),
                      "in the " + std::to_string(frames.frameCount()) + " frames received");
}

} // namespace clscope::xpcs

// Which multi-tau path a live run takes (issue 55 step 3): a stream's run through the pipeline
// (MultitauStreamStage, its first batch counted on the device) and the GUI's live g2 over the
// frames received so far (counted on the host) decide by the same rule and say it the same way.
#pragma once
#include "core/array.hpp"
#include "core/xpcs/xpcs.hpp"

#include <cstdint>
#include <string>

namespace clscope::xpcs {

struct LiveChoice {
    bool sparse = false; // `sparse`, else the dense `multitau`
    std::string note;    // the rule's sentence: the variant, the occupancy, the crossover
};

// Frames whose labelled pixels are `occupancy` non-zero (a fraction; `counted` says over what:
// "in the first 512 frames"), the largest frame `most` counts, over a run of `total` frames:
// `sparse` below xpcs::liveSparseCrossover where frames of `most` counts binned over `total` stay
// within the sparse rings' 64-bit products (SparseRings::fits), else `multitau`.
LiveChoice liveChoice(double occupancy, std::uint64_t most, std::size_t total,
                      const std::string& counted);

// The same counted on the host over dense frames in memory (uint8, uint16 or uint32 counts:
// other types stay dense), the run being those frames.
LiveChoice liveChoiceOf(const Array& frames, const LabelMask& labels);

} // namespace clscope::xpcs

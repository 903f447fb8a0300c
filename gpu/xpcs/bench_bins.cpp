#include "gpu/xpcs/bench_bins.hpp"

#include <algorithm>

namespace clscope::xpcs {

LabelMask threeBins(const LabelMask& labels) {
    LabelMask subset = labels;
    const std::vector<std::int32_t> all = labels.bins();
    const std::vector<std::int32_t> keep{all.front(), all[all.size() / 2], all.back()};
    for (std::int32_t& l : subset.labels)
        if (std::find(keep.begin(), keep.end(), l) == keep.end()) l = 0;
    return subset;
}

} // namespace clscope::xpcs

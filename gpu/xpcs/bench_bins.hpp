// The bins the cpu reference of a large bench case checks (the reference is too slow for all).
#pragma once
#include "core/data.hpp"

namespace clscope::xpcs {

// Three spread-out bins of the labels: the first, the middle and the last; the rest set to 0.
LabelMask threeBins(const LabelMask& labels);

} // namespace clscope::xpcs

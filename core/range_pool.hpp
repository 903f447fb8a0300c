// Ranges of a loop on threads kept for the process: parallelRanges(n, parts, f) calls
// f(begin, end) for `parts` contiguous pieces of [0, n), one on the calling thread, the others
// on the pool's workers, and returns when every piece is done. Threads made per call cost
// tens of microseconds each, serially: with 16 of them more than the work of a multi-tau fold.
#pragma once
#include <cstddef>
#include <functional>

namespace clscope {

void parallelRanges(std::size_t n, std::size_t parts,
                    const std::function<void(std::size_t, std::size_t)>& f);

} // namespace clscope

// Where a pipeline of blocks stands in its session's events (ClSession::pendingCount): the
// events recorded up to the end of the block before the last and of the last block queued. Once
// the block before the last has run (its sums waited for), its events are timed then, a block at
// a time, not all at the run's end (the dense and sparse multi-tau rings).
#pragma once
#include "gpu/runtime/session.hpp"

#include <algorithm>
#include <cstddef>

namespace clscope {

class BlockMarks {
  public:
    // A block is queued: its events are those recorded so far.
    void queued(const ClSession& s) { previous_ = inflight_, inflight_ = s.pendingCount(); }
    // The block before the last has run: its events (and every one before) timed.
    void settlePrevious(ClSession& s) {
        s.settle(previous_);
        inflight_ -= std::min(inflight_, previous_), previous_ = 0;
    }
    // Every event is left to the session's finish().
    void reset() { previous_ = inflight_ = 0; }

  private:
    std::size_t previous_ = 0, inflight_ = 0;
};

} // namespace clscope

// The spots of a run found batch by batch (a streaming run's stage, gpu/spots/stream_stage),
// kept in the order the batches were joined, and the spots of the same run's other devices'
// batches put among them by frame when the run's spots are taken.
#pragma once
#include "core/spots/spots.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace clscope::spots {

class BatchSpots {
  public:
    // The spots of the batch whose first frame is `firstFrame`, after the batches added so far
    // (a later batch: a larger first frame).
    void add(std::size_t firstFrame, const std::vector<Spot>& spots);
    // `other`'s batches (frames none of these has), kept to be merged by take(); `other` is
    // left empty.
    void absorb(BatchSpots& other);
    // Every batch's spots in order of the batches' first frames, within a batch as added: each
    // spot copied once however many were absorbed (none where nothing was).
    std::vector<Spot> take();

  private:
    std::vector<Spot> spots_;
    // Batch k: its first frame, and where its spots begin in spots_.
    std::vector<std::pair<std::size_t, std::size_t>> batches_;
    std::vector<BatchSpots> absorbed_;
};

} // namespace clscope::spots

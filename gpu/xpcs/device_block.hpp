// A sparse block whose entries are on the device already (SparseRings::add(DeviceBlock)).
#pragma once
#include "gpu/runtime/opencl.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace clscope::xpcs {

// A block's entries already on the device (FrameCompaction: a live stream's frames compacted
// where they were decoded): frame_ptr (frames + 1 int64), pixel (int32) and count (uint32) as a
// SparseBlock holds them, and what the host's checks need of each frame: its entries and the
// sum of its counts.
struct DeviceBlock {
    cl::Buffer ptr, pixel, count;
    std::vector<std::uint64_t> entries, totals; // of each frame
    std::size_t first = 0;                      // the run's index of frame 0 of the block
    std::string where;                          // in messages
    std::size_t frames() const { return entries.size(); }
};

} // namespace clscope::xpcs

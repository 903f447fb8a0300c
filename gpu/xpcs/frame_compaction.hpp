// Dense frames on the device as a sparse block's entries there (xpcs_sparse_compact.cl: sp_count
// and sp_compact): each frame's labelled pixels that are not zero, as (frame_ptr, pixel, count) in
// device buffers that SparseRings::add(DeviceBlock) takes as they are: a live stream's frames,
// decoded on the device, never come back. Only each frame's entries and the sum of its counts
// come back (a few bytes a frame): the rings' checks and the live rule's occupancy need them.
#pragma once
#include "core/xpcs/xpcs.hpp"
#include "gpu/recipe.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/xpcs/device_block.hpp"

#include <vector>

namespace clscope::xpcs {

class FrameCompaction {
  public:
    // Frames of frameSize values of `dtype` (uint8, uint16, uint32), the bins' labelled pixels.
    FrameCompaction(ClSession& s, const Bins& bins, DType dtype, std::size_t frameSize,
                    const ProgramOverrides& overrides);

    // Frames first .. first + count - 1 of `frames` counted (waits for them): the block's
    // entries and totals of each frame; its buffers not yet made.
    DeviceBlock count(const cl::Buffer& frames, std::size_t first, std::size_t count);
    // The block's frames (counted by count()) as entries in its buffers, queued. They stay the
    // block's until the next compact() (queued after what reads them).
    void compact(const cl::Buffer& frames, std::size_t first, DeviceBlock& block);
    // The labelled pixels a frame holds.
    std::size_t positions() const { return positions_; }

  private:
    void reserve(std::size_t frames); // the per-frame buffers for blocks of `frames`
    void launch(cl::Kernel& kernel, const std::string& label, std::size_t frames);

    ClSession& s_;
    std::size_t positions_, frameSize_, wg_ = 64, run_ = 8, capacity_ = 0, frames_ = 0;
    cl::Kernel count_, compact_;
    cl::Buffer pixelOf_, entries_, totals_, cursor_, ptr_, pixel_, counts_;
};

} // namespace clscope::xpcs

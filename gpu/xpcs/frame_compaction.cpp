#include "gpu/xpcs/frame_compaction.hpp"

#include "gpu/kernel_source.hpp"
#include "gpu/xpcs/recipes.hpp"
#include "gpu/xpcs/runner.hpp"

#include <algorithm>

namespace clscope::xpcs {

FrameCompaction::FrameCompaction(ClSession& s, const Bins& bins, DType dtype, std::size_t frameSize,
                                 const ProgramOverrides& overrides)
    : s_(s), positions_(bins.pixelIndex.size()), frameSize_(frameSize) {
    const ProgramRecipe recipe = overrides.apply(declared(programs::sparse));
    const TunableValues values = overrides.over({{"DATA_T", clTypeName(dtype)}});
    if (const auto given = integers(values); given.count("SP_RUN"))
        run_ = std::size_t(std::max(1, given.at("SP_RUN")));
    wg_ = s.info().type == "CPU" ? 64 : 256;
    count_ = s.kernel(recipe, values, "sp_count");
    compact_ = s.kernel(recipe, values, "sp_compact");
    // The pixel of each labelled position, in the bin order of the rings' positions.
    pixelOf_ = s.allocate(std::max<std::size_t>(positions_, 1) * 4, "sparse compaction pixels",
                          CL_MEM_READ_ONLY);
    s.upload(pixelOf_, bins.pixelIndex.data(), positions_ * 4, "sparse compaction pixels");
}

void FrameCompaction::reserve(std::size_t frames) {
    if (frames <= frames_) return;
    frames_ = frames;
    entries_ = s_.allocate(frames * 4, "sparse compaction entries");
    totals_ = s_.allocate(frames * 8, "sparse compaction totals");
    cursor_ = s_.allocate(frames * 4, "sparse compaction cursors");
    ptr_ = s_.allocate((frames + 1) * 8, "sparse compaction frame_ptr", CL_MEM_READ_ONLY);
}

void FrameCompaction::launch(cl::Kernel& kernel, const std::string& label, std::size_t frames) {
    const std::size_t stretch = run_ * wg_, stretches = (positions_ + stretch - 1) / stretch;
    s_.launch(kernel, label, {{std::max<std::size_t>(stretches, 1) * wg_, frames}, {wg_, 1}});
}

DeviceBlock FrameCompaction::count(const cl::Buffer& frames, std::size_t first, std::size_t count) {
    DeviceBlock block;
    if (count == 0) return block;
    reserve(count);
    s_.fill(entries_, count * 4, "sparse compaction entries");
    s_.fill(totals_, count * 8, "sparse compaction totals");
    setArgs(count_, frames, cl_long(frameSize_), cl_long(first), pixelOf_, int(positions_),
            entries_, totals_);
    launch(count_, "xpcs sparse count", count);
    std::vector<std::int32_t> entries(count);
    std::vector<std::int64_t> totals(count);
    s_.download(entries_, entries.data(), count * 4, "copy D->H sparse frame entries");
    s_.download(totals_, totals.data(), count * 8, "copy D->H sparse frame totals");
    block.entries.assign(entries.begin(), entries.end());
    block.totals.assign(totals.begin(), totals.end());
    return block;
}

void FrameCompaction::compact(const cl::Buffer& frames, std::size_t first, DeviceBlock& block) {
    const std::size_t count = block.frames();
    if (count == 0) return;
    std::vector<std::int64_t> ptr(count + 1, 0);
    for (std::size_t f = 0; f < count; ++f)
        ptr[f + 1] = ptr[f] + std::int64_t(block.entries[f]);
    // Buffers of the most entries so far (at least one: a block of empty frames), grown by
    // half again: earlier blocks' kernels keep the buffers they were given.
    const auto entries = std::max<std::size_t>(std::size_t(ptr.back()), 1);
    if (entries > capacity_) {
        capacity_ = std::max(entries, capacity_ + capacity_ / 2);
        pixel_ = s_.allocate(capacity_ * 4, "sparse pixels");
        counts_ = s_.allocate(capacity_ * 4, "sparse counts");
    }
    s_.upload(ptr_, ptr.data(), ptr.size() * 8, "copy H->D sparse frame_ptr");
    s_.fill(cursor_, count * 4, "sparse compaction cursors");
    setArgs(compact_, frames, cl_long(frameSize_), cl_long(first), pixelOf_, int(positions_), ptr_,
            cursor_, pixel_, counts_);
    launch(compact_, "xpcs sparse compaction", count);
    block.ptr = ptr_, block.pixel = pixel_, block.count = counts_;
}

} // namespace clscope::xpcs

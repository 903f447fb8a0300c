// A series' labelled entries pixel-major, as sparse-pairs uploads them (gpu/xpcs/
// lags_sparse_device.cpp): each position in bin order (Bins::pixelIndex) with its frames
// ascending, a pixel's counts of a frame summed, zeros and unlabelled pixels left out. Built
// straight from the blocks' stored entries (no rows sorted frame by frame), with the same
// refusal as SparseRows::row where a pixel's counts of a frame sum beyond the count type.
#pragma once
#include "core/default_init.hpp"
#include "core/xpcs/sparse_blocks.hpp"

#include <cstdint>
#include <vector>

namespace clscope::xpcs {

// Position p's entries are [first[p], first[p + 1]), frames ascending (vectors whose memory
// the threads that fill them fault in: core/default_init.hpp).
struct PixelMajor {
    DefaultInitVector<std::int64_t> first; // positions + 1
    DefaultInitVector<std::int32_t> frame;
    DefaultInitVector<std::uint32_t> count;
    std::uint64_t largest = 0; // of the counts
    std::uint64_t read = 0;    // entries read (stored entries of a file, unlabelled ones too)
    double readMs = 0, sortMs = 0;
};

// Every frame of `frames` read once, in order (progress: the fraction read), its labelled
// entries counting-sorted by position and a frame's same-pixel entries summed. InputError as
// SparseRows::row gives for the first frame where a pixel's counts sum beyond the dtype. The
// entries read are cut into pixelMajorPieces pieces, looked up and grouped by ranges of
// positions on `threads` of the process's pool (core/range_pool.hpp; 0: every core), then each
// range sorted: the same result on any number of threads.
PixelMajor pixelMajorOf(const Bins& bins, const FrameBlocks& frames, const Progress& progress,
                        std::size_t threads = 0);
// The pieces pixelMajorOf cuts `entries` entries read into (about 16,384 each, at most 64).
std::size_t pixelMajorPieces(std::size_t entries);

} // namespace clscope::xpcs

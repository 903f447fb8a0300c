// The sparse correlators' view of a frame stack (DESIGN.md §5 "Sparse correlation"): its
// blocks as stored entries (a CSR file's, an event list's, a Rigaku file's) or, for a dense
// stack, its non-zero pixels; and each frame's labelled entries as a row of level 0: positions
// in bin order (Bins::pixelIndex), ascending, a pixel's counts summed, zeros left out.
#pragma once
#include "core/sparse/sparse_block.hpp"
#include "core/xpcs/multitau.hpp"

#include <functional>
#include <memory>
#include <span>

namespace clscope::xpcs {

// Frames [first, first + count) of `frames` as entries.
SparseBlock sparseBlockOf(const FrameBlocks& frames, std::size_t first, std::size_t count);
// The same into `out` (its memory reused where the reader can).
void sparseBlockInto(const FrameBlocks& frames, std::size_t first, std::size_t count,
                     SparseBlock& out);

// A stack of `frames` frames cycling through a pool of sparse frames in host memory (frame t =
// pool frame t % K; bench), read as entries or densified.
std::shared_ptr<const FrameBlocks> blocksSparseRepeating(std::shared_ptr<const SparseBlock> pool,
                                                         std::size_t height, std::size_t width,
                                                         DType dtype, std::size_t frames);

// Every frame of `frames` as entries, in order: fn(block) for blocks of about 2^16 entries (a
// dense stack's within its dense block size), `block` reused (progress: the fraction of the
// frames read). Returns the entries read.
std::uint64_t forEachSparseBlock(const FrameBlocks& frames, const Progress& progress,
                                 const std::function<void(const SparseBlock&)>& fn);

// Each pixel's position in bin order (Bins::pixelIndex), -1 where unlabelled (frameSize).
std::vector<std::int32_t> positionsOf(const Bins& bins, std::size_t frameSize);
// Each position's bin (bins.pixelIndex.size()).
std::vector<std::int32_t> binOfPositions(const Bins& bins);

// One labelled entry of a row: position in bin order, value.
struct SparseEntry {
    std::int32_t position;
    std::int64_t value;
};

// fn(a entry, b entry) for each position in both rows (each sorted by position, a position
// once): the merge that gives the product Σ a(p)·b(p) of two rows.
template <class Fn>
void forCommonPositions(std::span<const SparseEntry> a, std::span<const SparseEntry> b, Fn&& fn) {
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].position < b[j].position) {
            ++i;
        } else if (b[j].position < a[i].position) {
            ++j;
        } else {
            fn(a[i], b[j]);
            ++i, ++j;
        }
    }
}

class SparseRows {
  public:
    // Rows of frames of frameSize pixels whose counts are of `dtype`.
    SparseRows(const Bins& bins, std::size_t frameSize, DType dtype);
    // Frame f of `block` as a row (InputError where a pixel's counts sum beyond the dtype).
    void row(const SparseBlock& block, std::size_t f, std::vector<SparseEntry>& out) const;
    // Each labelled pixel's position in bin order, -1 elsewhere (frameSize entries).
    const std::vector<std::int32_t>& positions() const { return position_; }

    // Every frame of `frames` as a row, in order: fn(row), the entries read in blocks of about
    // 2^16 entries (progress: the fraction of the frames read). Returns the entries read.
    std::uint64_t forEach(const FrameBlocks& frames, const Progress& progress,
                          const std::function<void(const std::vector<SparseEntry>&)>& fn) const;

  private:
    std::vector<std::int32_t> position_, pixel_; // pixel -> position, position -> pixel
    DType dtype_;
    std::uint64_t largest_;
};

} // namespace clscope::xpcs

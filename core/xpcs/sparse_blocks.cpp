#include "core/xpcs/sparse_blocks.hpp"

#include "core/errors.hpp"
#include "core/range_pool.hpp"

#include <algorithm>

namespace clscope::xpcs {

namespace {

class SparseMemoryBlocks : public FrameBlocks {
  public:
    SparseMemoryBlocks(std::shared_ptr<const SparseBlock> pool, std::size_t height,
                       std::size_t width, DType dtype, std::size_t frames)
        : pool_(std::move(pool)), height_(height), width_(width), dtype_(dtype), frames_(frames) {}
    std::size_t frameCount() const override { return frames_; }
    std::size_t height() const override { return height_; }
    std::size_t width() const override { return width_; }
    DType dtype() const override { return dtype_; }
    Array read(std::size_t first, std::size_t count) const override {
        return denseOf(*readSparse(first, count), height_, width_, dtype_);
    }
    std::optional<SparseBlock> readSparse(std::size_t first, std::size_t count) const override {
        SparseBlock out;
        readSparseInto(first, count, out);
        return out;
    }
    bool viewSparse(std::size_t first, std::size_t count, SparseView& out) const override {
        checkRange(first, count);
        const SparseBlock& p = *pool_;
        out.first = first, out.where = p.where;
        out.ptr.resize(count + 1), out.pixel.resize(count), out.count.resize(count);
        out.ptr[0] = 0;
        for (std::size_t f = 0; f < count; ++f) {
            const std::size_t k = (first + f) % p.frames();
            out.ptr[f + 1] = out.ptr[f] + (p.ptr[k + 1] - p.ptr[k]);
            out.pixel[f] = p.pixel.data() + p.ptr[k], out.count[f] = p.count.data() + p.ptr[k];
        }
        return true;
    }
    // The view's frames copied (on up to 4 threads where the block is large: one thread's copy
    // bounded the read of 1 % frames, H200 host: 477 ms of a 512 ms run).
    bool readSparseInto(std::size_t first, std::size_t count, SparseBlock& out) const override {
        SparseView v;
        viewSparse(first, count, v);
        out.first = v.first, out.where = v.where, out.ptr = v.ptr;
        const std::size_t entries = v.entries();
        out.pixel.resize(entries), out.count.resize(entries);
        parallelRanges(
            count, entries > (std::size_t(1) << 20) ? 4 : 1, [&](std::size_t f0, std::size_t f1) {
                for (std::size_t f = f0; f < f1; ++f) {
                    const auto at = std::size_t(v.ptr[f]), n = std::size_t(v.ptr[f + 1]) - at;
                    std::copy_n(v.pixel[f], n, out.pixel.begin() + std::ptrdiff_t(at));
                    std::copy_n(v.count[f], n, out.count.begin() + std::ptrdiff_t(at));
                }
            });
        return true;
    }

  private:
    void checkRange(std::size_t first, std::size_t count) const {
        if (count > frames_ || first > frames_ - count)
            throw InputError("sparse frames in memory: frames " + std::to_string(first) + ".." +
                             std::to_string(first + count) + " out of range");
    }
    std::shared_ptr<const SparseBlock> pool_;
    std::size_t height_, width_;
    DType dtype_;
    std::size_t frames_;
};

} // namespace

SparseBlock sparseBlockOf(const FrameBlocks& frames, std::size_t first, std::size_t count) {
    SparseBlock out;
    sparseBlockInto(frames, first, count, out);
    return out;
}

void sparseBlockInto(const FrameBlocks& frames, std::size_t first, std::size_t count,
                     SparseBlock& out) {
    if (!frames.readSparseInto(first, count, out))
        out = sparseOf(frames.read(first, count), first, "the frame stack");
}

std::shared_ptr<const FrameBlocks> blocksSparseRepeating(std::shared_ptr<const SparseBlock> pool,
                                                         std::size_t height, std::size_t width,
                                                         DType dtype, std::size_t frames) {
    if (pool->frames() == 0) throw InputError("sparse frames in memory: an empty pool");
    return std::make_shared<SparseMemoryBlocks>(std::move(pool), height, width, dtype, frames);
}

std::vector<std::int32_t> positionsOf(const Bins& bins, std::size_t frameSize) {
    std::vector<std::int32_t> position(frameSize, -1);
    for (std::size_t i = 0; i < bins.pixelIndex.size(); ++i)
        position[std::size_t(bins.pixelIndex[i])] = static_cast<std::int32_t>(i);
    return position;
}

std::vector<std::int32_t> binOfPositions(const Bins& bins) {
    std::vector<std::int32_t> binOf(bins.pixelIndex.size());
    for (std::size_t b = 0; b < bins.count(); ++b)
        for (auto i = bins.offsets[b]; i < bins.offsets[b + 1]; ++i)
            binOf[std::size_t(i)] = static_cast<std::int32_t>(b);
    return binOf;
}

SparseRows::SparseRows(const Bins& bins, std::size_t frameSize, DType dtype)
    : position_(positionsOf(bins, frameSize)), pixel_(bins.pixelIndex), dtype_(dtype),
      largest_(dtypeLargest(dtype)) {}

void SparseRows::row(const SparseBlock& block, std::size_t f, std::vector<SparseEntry>& out) const {
    out.clear();
    for (auto i = std::size_t(block.ptr[f]); i < std::size_t(block.ptr[f + 1]); ++i) {
        const std::int32_t at = position_[std::size_t(block.pixel[i])];
        if (at >= 0 && block.count[i] != 0) out.push_back({at, std::int64_t(block.count[i])});
    }
    std::sort(out.begin(), out.end(),
              [](const SparseEntry& a, const SparseEntry& b) { return a.position < b.position; });
    std::size_t n = 0; // duplicates summed in place
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (n > 0 && out[n - 1].position == out[i].position) {
            out[n - 1].value += out[i].value;
            if (std::uint64_t(out[n - 1].value) > largest_)
                throw InputError(
                    sumBeyondType(block.where, pixel_[std::size_t(out[n - 1].position)],
                                  block.first + f, std::uint64_t(out[n - 1].value), dtype_));
        } else {
            out[n++] = out[i];
        }
    }
    out.resize(n);
}

std::uint64_t forEachSparseBlock(const FrameBlocks& frames, const Progress& progress,
                                 const std::function<void(const SparseBlock&)>& fn) {
    const std::size_t total = frames.frameCount();
    // Blocks of about blockEntries entries: the frames of the next block from the last one's
    // entries a frame; a dense stack's within its dense block size (it is read densely).
    constexpr std::size_t blockEntries = std::size_t(1) << 16;
    const std::size_t most =
        frames.readSparse(0, 1)
            ? 65536
            : blockFrames(frames.height() * frames.width() * dtypeSize(frames.dtype()));
    std::size_t step = std::min<std::size_t>(most, 64);
    std::uint64_t entries = 0;
    SparseBlock block;
    for (std::size_t first = 0; first < total;) {
        sparseBlockInto(frames, first, std::min(step, total - first), block);
        first += block.frames();
        entries += block.entries();
        fn(block);
        progress.report(double(first) / double(total));
        progress.checkCancel();
        const std::size_t perFrame = block.entries() / block.frames() + 1;
        step = std::clamp<std::size_t>(blockEntries / perFrame, 1, most);
    }
    return entries;
}

std::uint64_t
SparseRows::forEach(const FrameBlocks& frames, const Progress& progress,
                    const std::function<void(const std::vector<SparseEntry>&)>& fn) const {
    std::vector<SparseEntry> out;
    return forEachSparseBlock(frames, progress, [&](const SparseBlock& block) {
        for (std::size_t f = 0; f < block.frames(); ++f) {
            row(block, f, out);
            fn(out);
        }
    });
}

} // namespace clscope::xpcs

// Frames stored sparsely, densified on demand: for each frame t the entries
// [frame_ptr[t], frame_ptr[t+1]) of a pixel column (row-major index into H×W) and, for the CSR
// layout, a count column (an event list counts one per entry). Reading frames [a, b) reads only
// those entries (a hyperslab of each column), so a series of any length runs in the memory of
// the frames read at once. DESIGN.md §3 "Sparse frames"; docs/SPARSE.md.
#pragma once
#include "core/array.hpp"
#include "core/hdf5.hpp"
#include "core/sparse/sparse_block.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clscope {

class CsrFrames {
  public:
    // The CSR layout at `group` (frame_ptr, pixel, count, attribute shape = (T, H, W) on the
    // group or on frame_ptr), checked; InputError naming the dataset otherwise. `file` must
    // outlive this.
    static CsrFrames openSparse(const H5Reader& file, const std::string& group);
    // The event list at `group` (pixel, time in ns, attribute shape = (H, W) on the group or on
    // pixel) binned into frames of `frameNs` nanoseconds: frame k holds the events with
    // k·Δ ≤ time < (k+1)·Δ. The time column is read once here, in blocks, to find each frame's
    // first event (and checked: non-negative, non-decreasing).
    // The scan is kept for the process (the file's path, group and Δ, checked against its size
    // and modification time): the automatic variant choice and the run that follows, or a
    // second run on the same file, read the time column once.
    static CsrFrames openEvents(const H5Reader& file, const std::string& group,
                                std::uint64_t frameNs);
    // Scans of a time column this process has made (tests: a second open is not one).
    static std::uint64_t eventScans();

    std::size_t frameCount() const { return ptr_.size() - 1; }
    std::size_t height() const { return height_; }
    std::size_t width() const { return width_; }
    DType dtype() const { return dtype_; } // the count column's type (uint32 for events)
    std::uint64_t entries() const { return static_cast<std::uint64_t>(ptr_.back()); }
    const std::string& group() const { return group_; }
    // Frame t's entries are [framePtr()[t], framePtr()[t + 1]) (T + 1 values, read on open).
    const std::vector<std::int64_t>& framePtr() const { return ptr_; }
    // Frames [first, first + count) as a dense (count, H, W) array: a pixel listed more than
    // once in a frame holds the sum of its counts (as scipy's csr toarray gives it). InputError
    // naming the dataset for a pixel outside [0, H·W), or a sum beyond the type.
    Array read(std::size_t first, std::size_t count) const;
    // The same frames' entries as stored (sparse_block.hpp): the pixel column checked as read()
    // checks it; duplicates not summed (the correlators check their sums).
    SparseBlock readSparse(std::size_t first, std::size_t count) const;

  private:
    CsrFrames(const H5Reader& file, std::string group) : file_(&file), group_(std::move(group)) {}
    // (H, W) or (T, H, W) from the attribute `shape` of the group, else of `dataset`.
    std::vector<std::int64_t> readShape(const std::string& dataset, std::size_t rank);
    // A 1-D integer column of the layout (InputError naming it otherwise): its length.
    std::uint64_t checkColumn(const std::string& name) const;
    void checkFramePtr(std::uint64_t entries) const;
    void checkRange(std::size_t first, std::size_t count) const;
    [[noreturn]] void throwOutside(std::int64_t pixel, std::int64_t index, std::size_t frame) const;
    DType countType() const;
    std::string where(const std::string& name) const { return file_->where(group_ + "/" + name); }
    template <class T>
    void densify(const Array& pixels, const Array* counts, std::size_t first, std::size_t count,
                 Array& out) const;

    const H5Reader* file_;
    std::string group_;
    std::string countName_; // "count"; empty for an event list (each entry counts one)
    std::vector<std::int64_t> ptr_{0};
    std::size_t height_ = 0, width_ = 0;
    DType dtype_ = DType::UInt32;
};

} // namespace clscope

// Dense frames written as the CSR layout of DESIGN.md §3 "Sparse frames" (frame_ptr, pixel,
// count, attribute shape = (T, H, W)), fed a block of frames at a time so that the dense stack is
// never held whole: `clscope-cli convert --to sparse` and `generate xpcs --sparse` write through
// this one writer. docs/SPARSE.md.
#pragma once
#include "core/array.hpp"
#include "core/hdf5.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace clscope {

class CsrWriter {
  public:
    // Where the layout is written by default.
    static const std::string group;

    // Frames of `frames` type and height × width pixels. Sparse counts are unsigned integers:
    // uint8 and uint16 frames give uint16 counts, uint32 and non-negative int32 frames uint32
    // counts; InputError naming `where` for other types and for more pixels than an int32 index.
    CsrWriter(DType frames, std::size_t height, std::size_t width, std::string where);
    // The next frames, a (count, H, W) block of the declared type; InputError naming `where`,
    // the frame and pixel for a negative value.
    void add(const Array& frames);
    // The columns and the shape attribute at `at`; a one-line summary (entries, occupancy,
    // count type).
    std::string write(H5Writer& out, const std::string& at = group) const;

    std::size_t frameCount() const { return ptr_.size() - 1; }
    std::size_t entries() const { return pixel_.size(); }

  private:
    template <class T> void append(std::span<const T> values);

    DType countType_;
    std::size_t height_, width_;
    std::string where_;
    std::vector<std::int64_t> ptr_{0};
    std::vector<std::int32_t> pixel_;
    std::vector<std::uint32_t> count_;
};

} // namespace clscope

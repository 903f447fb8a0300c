// Rigaku 500k binary event files (.bin) as APS 8-ID-I writes them and boost_corr reads them
// (boost_corr/help_functions.py convert_sparse, xpcs_aps_8idi/rigaku_handler.py): one
// little-endian uint64 word per non-zero pixel of a frame, frames in order,
//   frame = w >> 40,  pixel = (w >> 16) & (2^21 - 1) (row-major in 512×1024),  count = w & 0xFFF,
// and T = the last word's frame + 1. Read as a uint16 frame stack (the 12-bit counts kept whole;
// boost_corr keeps their low 8 bits), only the words of the frames read. docs/SPARSE.md.
#pragma once
#include "core/array.hpp"
#include "core/file_ranges.hpp"
#include "core/hdf5.hpp"
#include "core/sparse/sparse_block.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clscope {

class RigakuFrames {
  public:
    static constexpr std::size_t height = 512, width = 1024; // the Rigaku 500k's pixels

    // Whether a file is read as this format: its name ends in .bin.
    static bool named(const std::string& fileName);
    // What the roles besides the frames (labels, pixel mask, frame time) find in a .bin file:
    // nothing (it holds frames alone), as an empty HDF5 file image under its name, so that a
    // run reads them from the files its options name or goes without (rigaku_roles.cpp).
    static std::shared_ptr<H5Reader> rolesFile(const std::string& fileName);
    // The file's words scanned once, in blocks, for each frame's first word (frames in order,
    // pixels within the detector); InputError naming the file and the word otherwise. The scan
    // of the last file opened is reused while its size and modification time stay.
    explicit RigakuFrames(const std::string& fileName);

    std::size_t frameCount() const { return ptr_.size() - 1; }
    // Frames [first, first + count) as a dense (count, 512, 1024) uint16 array; a pixel listed
    // twice in a frame holds the sum of its counts.
    Array read(std::size_t first, std::size_t count) const;
    // The same frames' words as entries (sparse_block.hpp), duplicates not summed.
    SparseBlock readSparse(std::size_t first, std::size_t count) const;
    const std::string& fileName() const { return file_->name(); }
    // Frame t's words are [framePtr()[t], framePtr()[t + 1]) (T + 1 values, found on open).
    const std::vector<std::uint64_t>& framePtr() const { return ptr_; }

  private:
    std::vector<std::uint64_t> words(std::uint64_t first, std::uint64_t count) const;
    void scan(std::uint64_t words); // fills ptr_ from the file's `words` words
    std::string where(std::uint64_t word) const;
    void checkRange(std::size_t first, std::size_t count) const;

    std::unique_ptr<ReadOnlyFile> file_;
    std::vector<std::uint64_t> ptr_{0}; // first word of each frame, then the word count
};

} // namespace clscope

// A (T,H,W) frame stack stored in chunks of whole frames (any number a chunk) compressed with
// deflate (after HDF5's byte shuffle or not: what h5py, pyFAI and clscope write as gzip) or with
// bitshuffle-LZ4 (EIGER / NXmx files, decoded without HDF5's plugin), in the native type: the
// chunks are read raw where libhdf5's chunk index puts them (pread on several threads, outside
// its lock, about 64 MiB at a time, the next batch read while one is decoded) and decoded on a
// pool of threads straight into the frames,
// where libhdf5 reads and decodes them one by one under its lock. Part of the
// input module (DESIGN.md §1).
#pragma once
#include "core/array.hpp"
#include "core/file_ranges.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace clscope {

namespace h5 {
struct Holder;
}

class ChunkedFrames {
  public:
    // The stack at fileName:path when it is stored so, else null (libhdf5 reads it); InputError
    // when one decoded chunk would not fit the host memory (CLSCOPE_MEMORY_LIMIT): a file may
    // declare chunks of thousands of frames over a stack of one.
    static std::unique_ptr<ChunkedFrames> open(const std::string& fileName,
                                               const std::string& path);
    ~ChunkedFrames();
    ChunkedFrames(const ChunkedFrames&) = delete;
    ChunkedFrames& operator=(const ChunkedFrames&) = delete;

    std::size_t frameCount() const { return frames_; }
    std::size_t frameBytes() const { return frameBytes_; }
    DType dtype() const { return dtype_; }

    // Frames [first, first + count) into `to` (count * frameBytes() bytes) on `threads`
    // threads (0: one per core); false when a chunk is unwritten or does not decode (then let
    // libhdf5 read them, to say what is wrong). A bitshuffle-LZ4 chunk whose header or blocks
    // are not the frames' is an InputError naming the frame, as the device decoder's.
    bool read(std::size_t first, std::size_t count, std::byte* to, unsigned threads = 0) const;
    // Compressed bytes read at once (at least one chunk): 64 MiB; two such batches are held
    // while one is decoded and the next read. Smaller in tests, for several batches.
    void setBatchBytes(std::uint64_t bytes) { batchBytes_ = bytes; }

  private:
    ChunkedFrames() = default;
    struct Batch;
    // A worker's room for one decoded chunk, allocated when first needed and never filled
    // beforehand: a chunk that fails to decode at its first bytes touches none of it.
    using Scratch = std::unique_ptr<std::byte[]>;
    // Chunk c of the batch decoded, its frames within [first, end) into `to` (frame `first`
    // at its start); false when it does not decode.
    bool decode(const Batch& batch, std::size_t c, std::size_t first, std::size_t end,
                std::byte* to, Scratch& scratch) const;
    // Every chunk of the batch decoded on up to `threads` threads; false when one did not, the
    // InputError of the first refused chunk rethrown.
    bool decodeBatch(const Batch& batch, std::size_t first, std::size_t end, std::byte* to,
                     unsigned threads) const;
    // Chunks from `firstChunk` on up to `endChunk` (about 64 MiB of them, at least one), or
    // none when one is unwritten or cannot be read.
    std::unique_ptr<Batch> readChunks(std::size_t firstChunk, std::size_t endChunk) const;
    std::int64_t file_ = -1, dataset_ = -1;
    std::unique_ptr<ReadOnlyFile> data_; // the file holding the dataset (an external link's)
    std::unique_ptr<h5::Holder> holder_; // that file: its name, user block and size
    std::string where_;                  // FILE:PATH, in messages
    std::size_t frames_ = 0, frameBytes_ = 0, chunkFrames_ = 0;
    std::uint64_t batchBytes_ = std::uint64_t(64) << 20;
    DType dtype_ = DType::UInt8;
    bool shuffled_ = false; // filter 0 is the byte shuffle, filter 1 deflate
    bool bslz4_ = false;    // the one filter is bitshuffle with LZ4
};

} // namespace clscope

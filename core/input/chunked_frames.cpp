#include "core/input/chunked_frames.hpp"

#include "core/errors.hpp"
#include "core/file_ranges.hpp"
#include "core/hdf5_util.hpp"
#include "core/limits.hpp"
#if defined(CLSCOPE_HAVE_DECOMPRESS)
#include "core/stream/compression.hpp"
#endif

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <filesystem>
#include <future>
#include <thread>
#include <vector>
#include <zlib.h>

namespace clscope {

using h5::Handle;

// Raw (still compressed) chunks, read under the HDF5 lock, back to back in one allocation: large
// enough for glibc to map it on its own and unmap it on release, where a vector per chunk (each
// under malloc's mmap threshold) left ~128 MB of freed heap resident beside the frames (issue
// 13: peak RSS of correlate <= 1.5x the frames).
struct ChunkedFrames::Batch {
    std::size_t firstChunk = 0; // its chunk 0 among the dataset's chunks
    std::unique_ptr<std::byte[]> bytes;
    std::vector<std::size_t> offsets{0};    // chunk c is bytes [offsets[c], offsets[c + 1])
    std::vector<std::uint32_t> filterMasks; // bit i set: filter i skipped for that chunk
    std::size_t count() const { return offsets.size() - 1; }
    const std::byte* chunk(std::size_t c) const { return bytes.get() + offsets[c]; }
    std::size_t size(std::size_t c) const { return offsets[c + 1] - offsets[c]; }
};

namespace {

// Undo HDF5's byte shuffle for elements [from, from + count) of a chunk of `total` elements:
// byte j of element i was stored at j * total + i.
void unshuffle(const std::byte* in, std::size_t total, std::size_t element, std::size_t from,
               std::size_t count, std::byte* out) {
    for (std::size_t j = 0; j < element; ++j)
        for (std::size_t i = 0; i < count; ++i)
            out[i * element + j] = in[j * total + from + i];
}

bool inflateChunk(const std::byte* data, std::size_t inBytes, std::byte* to, std::size_t full) {
    uLongf length = static_cast<uLongf>(full);
    return uncompress(reinterpret_cast<Bytef*>(to), &length, reinterpret_cast<const Bytef*>(data),
                      static_cast<uLong>(inBytes)) == Z_OK &&
           length == full;
}

// A bitshuffle-LZ4 chunk decoded as the device decoder decodes it (stream::planBlocks reads its
// header): InputError when its header or blocks are not those of `full` bytes of `element`.
// libhdf5's plugin is not asked again: it takes another size in the header for the chunk's
// and truncates or pads the frames (issue 52: 42 spots on `cpu` where OpenCL refused).
bool decodeBslz4(const std::byte* data, std::size_t inBytes, std::size_t element, std::byte* to,
                 std::size_t full) {
#if defined(CLSCOPE_HAVE_DECOMPRESS)
    stream::decompress("bslz4", element, {data, inBytes}, {to, full});
    return true;
#else
    (void)data, (void)inBytes, (void)element, (void)to, (void)full;
    return false;
#endif
}

} // namespace

std::unique_ptr<ChunkedFrames> ChunkedFrames::open(const std::string& fileName,
                                                   const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(fileName, ec)) return nullptr;
    std::lock_guard lock(h5::mutex());
    std::optional<h5::OpenDataset> opened = h5::openDataset(fileName, path);
    if (!opened) return nullptr;
    Handle& dset = opened->dataset;
    const Handle dcpl(H5Dget_create_plist(dset.get()), H5Pclose);
    // Filters: deflate, or byte shuffle then deflate, or bitshuffle-LZ4 alone.
    const int filters = H5Pget_nfilters(dcpl.get());
    std::vector<H5Z_filter_t> ids;
    for (int i = 0; i < filters; ++i) {
        unsigned flags = 0, config = 0, values[8];
        std::size_t count = 8;
        char name[64];
        ids.push_back(H5Pget_filter2(dcpl.get(), static_cast<unsigned>(i), &flags, &count, values,
                                     sizeof name, name, &config));
    }
    const bool deflateOnly = ids == std::vector<H5Z_filter_t>{H5Z_FILTER_DEFLATE};
    const bool shuffled = ids == std::vector<H5Z_filter_t>{H5Z_FILTER_SHUFFLE, H5Z_FILTER_DEFLATE};
    const bool bslz4 = h5::bitshuffleLz4Only(dcpl.get());
    const std::optional<h5::FrameChunks> stack = h5::frameChunks(dset.get());
    if (!stack || !(deflateOnly || shuffled || bslz4)) return nullptr;
    // A chunk is decoded whole: the memory must hold one, however few frames the stack has.
    h5::checkChunkFits({stack->chunkFrames, stack->height, stack->width}, dtypeSize(stack->dtype),
                       fileName + ":" + path);
    // The chunks are read from the file that holds the dataset (an external link's target).
    const std::optional<h5::Holder> holder = h5::holderOf(dset.get());
    if (!holder) return nullptr;
    std::unique_ptr<ChunkedFrames> out(new ChunkedFrames);
    out->data_ = std::make_unique<ReadOnlyFile>(holder->file);
    out->holder_ = std::make_unique<h5::Holder>(*holder);
    out->file_ = opened->file.release(), out->dataset_ = dset.release();
    out->frames_ = stack->frames, out->chunkFrames_ = stack->chunkFrames;
    out->frameBytes_ = stack->height * stack->width * dtypeSize(stack->dtype);
    out->dtype_ = stack->dtype;
    out->shuffled_ = shuffled, out->bslz4_ = bslz4;
    out->where_ = fileName + ":" + path;
    return out;
}

ChunkedFrames::~ChunkedFrames() {
    std::lock_guard lock(h5::mutex());
    if (dataset_ >= 0) H5Dclose(dataset_);
    if (file_ >= 0) H5Fclose(file_);
}

std::unique_ptr<ChunkedFrames::Batch> ChunkedFrames::readChunks(std::size_t firstChunk,
                                                                std::size_t endChunk) const {
    auto batch = std::make_unique<Batch>();
    batch->firstChunk = firstChunk;
    std::vector<std::uint64_t> places; // each chunk's first byte in the file
    {
        // The batch's places and sizes from libhdf5's chunk index, under its lock.
        std::lock_guard lock(h5::mutex());
        for (std::size_t c = firstChunk; c < endChunk && batch->offsets.back() < batchBytes_; ++c) {
            const hsize_t offset[3] = {c * chunkFrames_, 0, 0};
            // Unwritten chunk (its fill value is HDF5's business) or beyond the file's end.
            const std::optional<h5::ChunkPlace> chunk = h5::chunkPlace(dataset_, offset, *holder_);
            if (!chunk) return nullptr;
            places.push_back(chunk->at);
            batch->offsets.push_back(batch->offsets.back() + chunk->bytes);
            batch->filterMasks.push_back(chunk->filterMask);
        }
    }
    // Then the chunks into one allocation, on several threads, outside the lock.
    batch->bytes = std::make_unique_for_overwrite<std::byte[]>(batch->offsets.back());
    std::vector<FileRange> ranges;
    for (std::size_t c = 0; c < batch->count(); ++c)
        ranges.push_back({places[c], batch->size(c), batch->bytes.get() + batch->offsets[c]});
    try {
        data_->read(ranges);
    } catch (const InputError&) {
        return nullptr; // libhdf5 then says what is wrong
    }
    return batch;
}

bool ChunkedFrames::decode(const Batch& batch, std::size_t c, std::size_t first, std::size_t end,
                           std::byte* to, Scratch& scratch) const {
    const std::size_t element = dtypeSize(dtype_), full = chunkFrames_ * frameBytes_;
    const std::size_t at = (batch.firstChunk + c) * chunkFrames_;
    const std::size_t lo = std::max(at, first), hi = std::min(at + chunkFrames_, end);
    std::byte* target = to + (lo - first) * frameBytes_;
    const std::size_t skip = (lo - at) * frameBytes_, have = (hi - lo) * frameBytes_;
    const std::uint32_t mask = batch.filterMasks[c]; // bit i set: filter i skipped
    const bool compressed = !(mask & (shuffled_ ? 2u : 1u));
    const bool unshuffleIt = shuffled_ && !(mask & 1u) && element > 1;
    const std::byte* data = batch.chunk(c);
    const std::size_t inBytes = batch.size(c);
    if (compressed) {
        // Straight into the frames when the chunk lies inside them and nothing follows.
        const bool direct = lo == at && hi == at + chunkFrames_ && !unshuffleIt;
        if (!direct && !scratch) scratch = std::make_unique_for_overwrite<std::byte[]>(full);
        std::byte* dest = direct ? target : scratch.get();
        try {
            if (!(bslz4_ ? decodeBslz4(data, inBytes, element, dest, full)
                         : inflateChunk(data, inBytes, dest, full)))
                return false;
        } catch (const InputError& e) {
            throw InputError(where_ + ": frame " + std::to_string(at) + ": " + e.what());
        }
        if (direct) return true;
        data = dest;
    } else if (inBytes < full) {
        return false;
    }
    if (unshuffleIt)
        unshuffle(data, full / element, element, skip / element, have / element, target);
    else
        std::memcpy(target, data + skip, have);
    return true;
}

bool ChunkedFrames::decodeBatch(const Batch& batch, std::size_t first, std::size_t end,
                                std::byte* to, unsigned threads) const {
    std::atomic<std::size_t> taken{0};
    std::atomic<bool> failed{false};
    std::vector<std::exception_ptr> refused(batch.count()); // a chunk's InputError
    auto worker = [&] {
        Scratch scratch;
        for (std::size_t c; (c = taken++) < batch.count();)
            try {
                if (!decode(batch, c, first, end, to, scratch)) failed = true;
            } catch (const InputError&) {
                refused[c] = std::current_exception();
            }
    };
    {
        std::vector<std::jthread> pool;
        for (unsigned w = 1; w < std::min<std::size_t>(threads, batch.count()); ++w)
            pool.emplace_back(worker);
        worker();
    }
    for (const std::exception_ptr& e : refused) // the first chunk's, whatever thread ran it
        if (e) std::rethrow_exception(e);
    return !failed;
}

bool ChunkedFrames::read(std::size_t first, std::size_t count, std::byte* to,
                         unsigned threads) const {
    if (count == 0) return true;
    if (first > frames_ || count > frames_ - first) return false;
    if (!threads) threads = std::max(1u, std::thread::hardware_concurrency());
    // A worker may hold a decoded chunk: no more workers than the memory holds such chunks.
    const std::uint64_t chunkBytes = std::uint64_t(chunkFrames_) * frameBytes_;
    threads = unsigned(std::clamp<std::uint64_t>(
        availableHostMemory() / std::max<std::uint64_t>(chunkBytes, 1), 1, threads));
    const std::size_t end = first + count;
    const std::size_t endChunk = (end + chunkFrames_ - 1) / chunkFrames_;
    // The next batch is read from the file while this one is decoded.
    const auto readFrom = [this, endChunk](std::size_t chunk) {
        return std::async(std::launch::async,
                          [this, chunk, endChunk] { return readChunks(chunk, endChunk); });
    };
    std::future<std::unique_ptr<Batch>> coming = readFrom(first / chunkFrames_);
    for (;;) {
        const std::unique_ptr<Batch> batch = coming.get();
        if (!batch) return false;
        const std::size_t after = batch->firstChunk + batch->count();
        if (after < endChunk) coming = readFrom(after);
        if (!decodeBatch(*batch, first, end, to, threads))
            return false; // a batch still being read is waited for (~future)
        if (after >= endChunk) break;
    }
    return true;
}

} // namespace clscope

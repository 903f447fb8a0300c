#include "core/xpcs/frames_read.hpp"

#include "core/errors.hpp"
#include "core/hdf5_util.hpp"
#include "core/io.hpp"
#include "core/limits.hpp"
#if defined(CLSCOPE_HAVE_DECOMPRESS)
#include "core/stream/compression.hpp"
#endif

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <thread>
#include <vector>
#include <zlib.h>

namespace clscope::xpcs {

namespace {

using h5::Handle;

// Raw (still compressed) chunks of whole frames, read under the HDF5 lock, back to back in one
// allocation: large enough for glibc to map it on its own and unmap it on release, where a
// vector per chunk (each under malloc's mmap threshold) left ~128 MB of freed heap resident
// beside the frames (issue 13: peak RSS of correlate <= 1.5x the frames).
struct RawChunks {
    std::size_t chunkFrames = 0;
    std::size_t firstChunk = 0; // index of chunk 0 among the dataset's chunks
    std::unique_ptr<unsigned char[]> bytes;
    std::vector<std::size_t> offsets{0};    // chunk c is bytes [offsets[c], offsets[c + 1])
    std::vector<std::uint32_t> filterMasks; // bit i set: filter i skipped for that chunk
    bool shuffled = false;                  // filter 0 is the byte shuffle
    bool bslz4 = false; // the one filter is bitshuffle with LZ4 (EIGER / NXmx files)
    std::size_t count() const { return offsets.size() - 1; }
    const unsigned char* chunk(std::size_t c) const { return bytes.get() + offsets[c]; }
    std::size_t size(std::size_t c) const { return offsets[c + 1] - offsets[c]; }
};

// Undo HDF5's byte shuffle: byte j of element i was stored at j * count + i.
void unshuffle(const unsigned char* in, std::size_t bytes, std::size_t element, std::byte* out) {
    const std::size_t count = bytes / element;
    for (std::size_t j = 0; j < element; ++j)
        for (std::size_t i = 0; i < count; ++i)
            out[i * element + j] = static_cast<std::byte>(in[j * count + i]);
}

// Compressed data held at once: the chunks are read and inflated batch by batch, so that the
// peak stays near the frames' size (issue 13: peak RSS <= 1.5x the frames).
constexpr std::uint64_t batchBytes = 64 << 20;

// Chunks firstChunk, firstChunk+1, ... of a deflate-only dataset of whole-frame chunks, about
// batchBytes of them (at least one), or nothing (then fall back).
std::optional<RawChunks> readRawChunks(const std::string& fileName, const std::string& path,
                                       const DatasetInfo& info, std::size_t firstChunk) {
    std::error_code ec;
    const std::uint64_t fileBytes = std::filesystem::file_size(fileName, ec);
    if (ec) return std::nullopt;
    std::lock_guard lock(h5::mutex());
    Handle file(H5Fopen(fileName.c_str(), H5F_ACC_RDONLY, h5::readAccessList().get()), H5Fclose);
    if (!file.valid()) return std::nullopt;
    Handle dset(H5Dopen2(file.get(), path.c_str(), H5P_DEFAULT), H5Dclose);
    if (!dset.valid()) return std::nullopt;
    Handle dcpl(H5Dget_create_plist(dset.get()), H5Pclose);
    Handle type(H5Dget_type(dset.get()), H5Tclose);
    hsize_t chunk[3] = {0, 0, 0};
    // Filters: deflate, or byte shuffle then deflate (what H5Writer and h5py write).
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
    if (H5Pget_layout(dcpl.get()) != H5D_CHUNKED || !(deflateOnly || shuffled || bslz4) ||
        H5Tequal(type.get(), h5::nativeType(*info.dtype)) <= 0 ||
        H5Pget_chunk(dcpl.get(), 3, chunk) != 3 || chunk[0] == 0 || chunk[1] != info.shape[1] ||
        chunk[2] != info.shape[2])
        return std::nullopt;
    RawChunks raw;
    raw.chunkFrames = chunk[0];
    raw.firstChunk = firstChunk;
    raw.shuffled = shuffled;
    raw.bslz4 = bslz4;
    // The batch's sizes first, then its chunks into one allocation.
    for (hsize_t first = firstChunk * chunk[0];
         first < info.shape[0] && raw.offsets.back() < batchBytes; first += chunk[0]) {
        hsize_t offset[3] = {first, 0, 0}, bytes = 0;
        // Unwritten chunk (its fill value is HDF5's business) or a size the file cannot hold.
        if (H5Dget_chunk_storage_size(dset.get(), offset, &bytes) < 0 || bytes == 0 ||
            bytes > fileBytes)
            return std::nullopt;
        raw.offsets.push_back(raw.offsets.back() + bytes);
    }
    raw.bytes = std::make_unique_for_overwrite<unsigned char[]>(raw.offsets.back());
    for (std::size_t c = 0; c < raw.count(); ++c) {
        hsize_t offset[3] = {(firstChunk + c) * chunk[0], 0, 0};
        std::uint32_t mask = 0;
        if (H5Dread_chunk(dset.get(), H5P_DEFAULT, offset, &mask,
                          raw.bytes.get() + raw.offsets[c]) < 0)
            return std::nullopt;
        raw.filterMasks.push_back(mask);
    }
    return raw;
}

// A bslz4 chunk of `full` bytes into `to` (its first `have` bytes: the last chunk may reach
// past the stack); false when it is corrupt.
bool decodeBslz4(const unsigned char* data, std::size_t inBytes, std::size_t element, std::byte* to,
                 std::size_t full, std::size_t have, std::vector<unsigned char>& scratch) {
#if defined(CLSCOPE_HAVE_DECOMPRESS)
    const bool direct = have == full;
    if (!direct && scratch.size() < full) scratch.resize(full);
    std::byte* dest = direct ? to : reinterpret_cast<std::byte*>(scratch.data());
    try {
        stream::decompress("bslz4", element, {reinterpret_cast<const std::byte*>(data), inBytes},
                           {dest, full});
    } catch (const InputError&) {
        return false;
    }
    if (!direct) std::memcpy(to, scratch.data(), have);
    return true;
#else
    (void)data, (void)inBytes, (void)element, (void)to, (void)full, (void)have, (void)scratch;
    return false;
#endif
}

// Inflate (and unshuffle) chunk c into its frames of out; false when the chunk is corrupt.
// scratch: the worker's buffer, reused from chunk to chunk.
bool inflateChunk(const RawChunks& raw, std::size_t c, std::size_t frameBytes, Array& out,
                  std::vector<unsigned char>& scratch) {
    const std::size_t frames = out.frameCount(), first = (raw.firstChunk + c) * raw.chunkFrames;
    const std::size_t full = raw.chunkFrames * frameBytes;
    const std::size_t have = (std::min(first + raw.chunkFrames, frames) - first) * frameBytes;
    const std::size_t element = dtypeSize(out.dtype());
    const unsigned deflateBit = raw.shuffled ? 2u : 1u;
    const bool unshuffleIt = raw.shuffled && !(raw.filterMasks[c] & 1u) && element > 1;
    std::byte* to = out.bytes() + first * frameBytes;
    const unsigned char* data = raw.chunk(c);
    const std::size_t inBytes = raw.size(c);
    if (raw.bslz4 && !(raw.filterMasks[c] & 1u))
        return decodeBslz4(data, inBytes, element, to, full, have, scratch);
    if (!(raw.filterMasks[c] & deflateBit)) {
        // Straight into the frames when nothing is left to do, else through scratch.
        const bool direct = !unshuffleIt && have == full;
        if (!direct && scratch.size() < full) scratch.resize(full);
        auto* dest = direct ? reinterpret_cast<Bytef*>(to) : scratch.data();
        uLongf length = static_cast<uLongf>(full);
        if (uncompress(dest, &length, data, static_cast<uLong>(inBytes)) != Z_OK || length != full)
            return false;
        if (direct) return true;
        data = scratch.data();
    } else if (inBytes < full) {
        return false;
    }
    if (!unshuffleIt) {
        std::memcpy(to, data, have);
    } else if (have == full) {
        unshuffle(data, full, element, to);
    } else {
        std::vector<std::byte> whole(full);
        unshuffle(data, full, element, whole.data());
        std::memcpy(to, whole.data(), have);
    }
    return true;
}

} // namespace

namespace {

// Inflate one batch of chunks on `threads` workers; false when a chunk is corrupt.
bool inflateBatch(const RawChunks& raw, std::size_t frameBytes, Array& out, unsigned threads) {
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    auto worker = [&] {
        std::vector<unsigned char> scratch;
        for (std::size_t c; (c = next++) < raw.count();)
            if (!inflateChunk(raw, c, frameBytes, out, scratch)) failed = true;
    };
    std::vector<std::thread> pool;
    for (unsigned w = 1; w < std::min<std::size_t>(threads, raw.count()); ++w)
        pool.emplace_back(worker);
    worker();
    for (auto& t : pool)
        t.join();
    return !failed;
}

} // namespace

Array readFramesParallel(const H5Reader& file, const std::string& fileName, const std::string& path,
                         unsigned threads) {
    const std::vector<std::string> parts = frameDatasets(file, path);
    if (parts.size() != 1 || !file.hasDataset(parts[0])) return readFrames(file, path);
    const DatasetInfo info = file.info(parts[0]);
    if (!info.dtype || info.shape.size() != 3 || info.shape[0] == 0) return readFrames(file, path);
    std::optional<RawChunks> raw = readRawChunks(fileName, parts[0], info, 0);
    if (!raw) return readFrames(file, path);
    const std::optional<std::uint64_t> bytes = checkedBytes(info.shape, dtypeSize(*info.dtype));
    if (!bytes)
        throw InputError(file.where(path) + ": shape " + shapeString(info.shape) + " overflows");
    checkHostMemory(*bytes, file.where(path) + " " + shapeString(info.shape) + " " +
                                dtypeName(*info.dtype));
    Array out(*info.dtype, info.shape);
    const std::size_t frameBytes = out.frameSize() * dtypeSize(out.dtype());
    if (!threads) threads = std::max(1u, std::thread::hardware_concurrency());
    while (raw && inflateBatch(*raw, frameBytes, out, threads)) {
        const std::size_t next = raw->firstChunk + raw->count();
        if (next * raw->chunkFrames >= info.shape[0]) return out;
        raw.reset(); // one batch held at a time
        raw = readRawChunks(fileName, parts[0], info, next);
    }
    out = Array(); // let HDF5 report what is wrong, without holding two stacks
    return readFrames(file, path);
}

} // namespace clscope::xpcs

#include "core/sparse/rigaku_frames.hpp"

#include "core/errors.hpp"
#include "core/limits.hpp"

#include <algorithm>
#include <bit>
#include <filesystem>
#include <mutex>

namespace clscope {

namespace {

std::uint64_t frameOf(std::uint64_t w) {
    return w >> 40;
}
std::uint64_t pixelOf(std::uint64_t w) {
    return (w >> 16) & ((std::uint64_t(1) << 21) - 1);
}
std::uint64_t countOf(std::uint64_t w) {
    return w & 0xFFF;
}

} // namespace

bool RigakuFrames::named(const std::string& fileName) {
    return fileName.size() > 4 && fileName.compare(fileName.size() - 4, 4, ".bin") == 0;
}

std::string RigakuFrames::where(std::uint64_t word) const {
    return file_->name() + ": word " + std::to_string(word) + " (byte " + std::to_string(word * 8) +
           ")";
}

std::vector<std::uint64_t> RigakuFrames::words(std::uint64_t first, std::uint64_t count) const {
    checkHostMemory(count * 8, file_->name() + ": " + std::to_string(count) + " words");
    std::vector<std::uint64_t> w(count);
    const FileRange range{first * 8, count * 8, reinterpret_cast<std::byte*>(w.data())};
    if (count > 0) file_->read({&range, 1}, 1);
    if constexpr (std::endian::native == std::endian::big)
        for (std::uint64_t& v : w)
            v = __builtin_bswap64(v);
    return w;
}

namespace {

// The last file scanned and its frames' first words, reused while its size and modification
// time stay: the GUI opens one file's frames several times (Data panel, image view, each run).
struct RigakuScan {
    std::string path;
    std::uint64_t bytes = 0;
    std::filesystem::file_time_type modified;
    std::vector<std::uint64_t> ptr;
};
std::mutex lastRigakuScanMutex;
RigakuScan lastRigakuScan;

} // namespace

RigakuFrames::RigakuFrames(const std::string& fileName)
    : file_(std::make_unique<ReadOnlyFile>(fileName)) {
    std::error_code ec;
    const std::uint64_t bytes = std::filesystem::file_size(fileName, ec);
    if (ec || bytes == 0 || bytes % 8 != 0)
        throw InputError(fileName + ": " + (ec ? ec.message() : std::to_string(bytes) + " bytes") +
                         ", expected a Rigaku .bin file of 64-bit words (at least one)");
    std::error_code pathError, timeError;
    const std::string path = std::filesystem::absolute(fileName, pathError).string();
    const auto modified = std::filesystem::last_write_time(fileName, timeError);
    const bool known = !pathError && !timeError; // else scanned every time
    {
        std::lock_guard lock(lastRigakuScanMutex);
        const RigakuScan& last = lastRigakuScan;
        if (known && last.path == path && last.bytes == bytes && last.modified == modified) {
            ptr_ = last.ptr;
            return;
        }
    }
    scan(bytes / 8);
    if (!known) return;
    std::lock_guard lock(lastRigakuScanMutex);
    lastRigakuScan = {path, bytes, modified, ptr_};
}

void RigakuFrames::scan(std::uint64_t n) {
    const std::string& fileName = file_->name();
    const std::uint64_t frames = frameOf(words(n - 1, 1)[0]) + 1;
    checkHostMemory((frames + 1) * 8,
                    fileName + ": the first word of each of " + std::to_string(frames) + " frames");
    ptr_.reserve(frames + 1);
    constexpr std::uint64_t block = std::uint64_t(1) << 20; // words read at once
    for (std::uint64_t at = 0; at < n; at += block) {
        const std::vector<std::uint64_t> w = words(at, std::min(block, n - at));
        for (std::uint64_t i = 0; i < w.size(); ++i) {
            const std::uint64_t k = frameOf(w[i]);
            // Frames in order: a word of an earlier frame, or one past the last word's frame.
            if (k + 1 < ptr_.size())
                throw InputError(where(at + i) + ": frame " + std::to_string(k) + " after frame " +
                                 std::to_string(ptr_.size() - 1) + " (frames must not decrease)");
            if (k >= frames)
                throw InputError(where(at + i) + ": frame " + std::to_string(k) +
                                 " after the last word's frame " + std::to_string(frames - 1) +
                                 " (frames must not decrease)");
            if (pixelOf(w[i]) >= height * width)
                throw InputError(where(at + i) + ": pixel " + std::to_string(pixelOf(w[i])) +
                                 " outside the 512×1024 detector");
            while (ptr_.size() <= k)
                ptr_.push_back(at + i);
        }
    }
    ptr_.push_back(n);
}

void RigakuFrames::checkRange(std::size_t first, std::size_t count) const {
    if (count > frameCount() || first > frameCount() - count)
        throw InputError(file_->name() + ": frames " + std::to_string(first) + ".." +
                         std::to_string(first + count) + " out of range");
}

SparseBlock RigakuFrames::readSparse(std::size_t first, std::size_t count) const {
    checkRange(first, count);
    const std::vector<std::uint64_t> w = words(ptr_[first], ptr_[first + count] - ptr_[first]);
    SparseBlock out;
    out.first = first, out.where = file_->name();
    out.ptr.resize(count + 1);
    for (std::size_t f = 0; f <= count; ++f)
        out.ptr[f] = static_cast<std::int64_t>(ptr_[first + f] - ptr_[first]);
    out.pixel.resize(w.size());
    out.count.resize(w.size());
    for (std::size_t i = 0; i < w.size(); ++i) { // pixels checked when the file was opened
        out.pixel[i] = static_cast<std::int32_t>(pixelOf(w[i]));
        out.count[i] = static_cast<std::uint32_t>(countOf(w[i]));
    }
    return out;
}

Array RigakuFrames::read(std::size_t first, std::size_t count) const {
    checkRange(first, count);
    const Shape shape{count, height, width};
    checkHostMemory(count * height * width * 2, file_->name() + " densified " + shapeString(shape));
    const std::vector<std::uint64_t> w = words(ptr_[first], ptr_[first + count] - ptr_[first]);
    Array out(DType::UInt16, shape);
    const std::span<std::uint16_t> v = out.as<std::uint16_t>();
    for (std::size_t i = 0; i < w.size(); ++i) {
        const std::size_t at = (frameOf(w[i]) - first) * height * width + pixelOf(w[i]);
        const std::uint64_t sum = v[at] + countOf(w[i]);
        if (sum > 65535)
            throw InputError(sumBeyondType(where(ptr_[first] + i),
                                           static_cast<std::int64_t>(pixelOf(w[i])), frameOf(w[i]),
                                           sum, DType::UInt16));
        v[at] = static_cast<std::uint16_t>(sum);
    }
    return out;
}

} // namespace clscope

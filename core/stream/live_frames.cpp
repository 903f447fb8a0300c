#include "core/stream/live_frames.hpp"

#include "core/errors.hpp"
#include "core/hdf5.hpp"
#include "core/io.hpp"
#include "core/temp_file.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

namespace clscope::stream {

bool isStreamEndpoint(const std::string& input) {
    return input.starts_with("tcp://");
}

void writeStartDatasets(H5Writer& out, const StartMessage& start) {
    if (start.pixelMask.size()) out.write(paths::pixelMask, start.pixelMask);
    if (start.frameTime > 0) {
        out.writeScalar(paths::frameTime, start.frameTime);
        out.setAttribute(paths::frameTime, "units", "s");
    }
}
namespace {

std::string secondsText(double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", s);
    return text;
}

// The bytes of an HDF5 file holding the start message's pixel mask and frame time.
std::vector<std::byte> startFileImage(const StartMessage& start) {
    namespace fs = std::filesystem;
    const std::string path = temporaryNameFor((fs::temp_directory_path() / "start.h5").string());
    {
        H5Writer out(path);
        writeStartDatasets(out, start);
        out.commit();
    }
    std::ifstream in(path, std::ios::binary);
    std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
    fs::remove(path);
    std::vector<std::byte> image(bytes.size());
    std::memcpy(image.data(), bytes.data(), bytes.size());
    return image;
}

constexpr std::size_t MaxSpares = 2;      // arrays kept for reuse (a pass and the next)
constexpr std::size_t MaxCopyThreads = 8; // a few threads reach the host's copy bandwidth

// Frames [from, from + count) of `frames` copied one after the other to `to`, split over
// threads by frames (decoding threads are idle while the reader waits for this copy).
void copyFrames(const std::deque<Array>& frames, std::size_t from, std::size_t count,
                std::byte* to) {
    if (count == 0) return;
    const std::size_t bytes = frames[from].byteSize();
    const std::size_t threads = std::min(
        {count, MaxCopyThreads, std::max<std::size_t>(std::thread::hardware_concurrency(), 1)});
    auto copy = [&](std::size_t t) {
        for (std::size_t i = t; i < count; i += threads)
            std::memcpy(to + i * bytes, frames[from + i].bytes(), bytes);
    };
    std::vector<std::jthread> helpers;
    for (std::size_t t = 1; t < threads; ++t)
        helpers.emplace_back(copy, t);
    copy(0);
}

} // namespace

LiveFrames::LiveFrames(SourceOptions options) : options_(options), source_(options) {
    const std::uint64_t announced = source_.start().numberOfImages;
    if (!announced && !options_.maxFrames)
        throw UsageError(source_.describe() +
                         ": the start message gives no number_of_images; give --max-frames N");
    count_ = static_cast<std::size_t>(announced && options_.maxFrames
                                          ? std::min(announced, options_.maxFrames)
                                          : std::max(announced, options_.maxFrames));
    image_ = startFileImage(source_.start());
}

bool LiveFrames::pull(std::size_t first, std::size_t upTo) const {
    auto letGo = [&] { // frames before `first` are never asked for again
        for (; heldFirst_ < first && !held_.empty(); ++heldFirst_) {
            source_.recycle(std::move(held_.front()));
            held_.pop_front();
        }
    };
    letGo();
    while (heldFirst_ + held_.size() < upTo) {
        std::vector<Array> got = source_.takeFrames(upTo - heldFirst_ - held_.size());
        if (got.empty()) {
            ended_ = heldFirst_ + held_.size();
            return false;
        }
        for (Array& frame : got)
            held_.push_back(std::move(frame));
        letGo();
    }
    return true;
}

Array LiveFrames::output(std::size_t count) const {
    const Shape shape{count, height(), width()};
    for (auto it = spare_.begin(); it != spare_.end(); ++it)
        if (it->shape() == shape) {
            Array out = std::move(*it);
            spare_.erase(it);
            return out;
        }
    return Array(dtype(), shape);
}

void LiveFrames::recycle(Array&& frames) const {
    std::lock_guard lock(mutex_);
    if (frames.dtype() == dtype() && frames.rank() == 3 && spare_.size() < MaxSpares)
        spare_.push_back(std::move(frames));
}

Array LiveFrames::read(std::size_t first, std::size_t count) const {
    std::lock_guard lock(mutex_);
    if (first < heldFirst_ || count > count_ || first > count_ - count)
        throw InputError(source_.describe() + ": frames " + std::to_string(first) + ".." +
                         std::to_string(first + count) +
                         " asked for; a stream is read once, in order, from frame " +
                         std::to_string(heldFirst_));
    if (!pull(first, first + count)) {
        // A series that ended early is the file of the frames that came, where the run reads
        // the series at once; a run that read parts of it already planned for all of them.
        if (first != 0 || count != count_ || *ended_ == 0)
            throw InputError(source_.describe() + ": " + endText() +
                             "; this run reads the series in parts planned for all of them "
                             "(a file of the frames that came, or a larger memory budget, runs)");
        count = *ended_;
    }
    Array out = output(count);
    copyFrames(held_, first - heldFirst_, count, out.bytes());
    handedOut_ = std::max(handedOut_, first + count);
    return out;
}

std::vector<ReceivedFrame> LiveFrames::takeNext(std::size_t maxCount) const {
    std::lock_guard lock(mutex_);
    std::vector<ReceivedFrame> out;
    const std::size_t first = taken_; // read() may have held (and handed out) frames after it
    if (first >= count_ || maxCount == 0) return out;
    maxCount = std::min(maxCount, count_ - first);
    for (; heldFirst_ < first && !held_.empty(); ++heldFirst_) { // read() held them
        source_.recycle(std::move(held_.front()));
        held_.pop_front();
    }
    while (!held_.empty() && out.size() < maxCount) {
        out.push_back({std::move(held_.front()), {}});
        held_.pop_front(), ++heldFirst_;
    }
    if (out.empty()) {
        out = source_.takeReceived(maxCount);
        heldFirst_ += out.size();
        if (out.empty()) ended_ = first;
    }
    taken_ += out.size();
    handedOut_ = std::max(handedOut_, taken_);
    return out;
}

std::string LiveFrames::endText() const {
    const bool announced = source_.start().numberOfImages == count_;
    return std::to_string(*ended_) + " of " + std::to_string(count_) + " frames received (" +
           (announced ? "announced" : "asked for") + "; the series ended early: " +
           (source_.timedOut() ? "no message in " + secondsText(options_.timeoutSeconds) + " s"
                               : std::string("its end message")) +
           ")";
}

std::string LiveFrames::absent(const std::string& what) const {
    const std::string& detail = source_.start().headerDetail;
    return "no " + what + " in the start message (header_detail " +
           (detail.empty() ? std::string("not sent") : detail) + "): none used";
}

std::shared_ptr<H5Reader> LiveFrames::startFile() const {
    std::lock_guard lock(mutex_);
    if (!startFile_)
        startFile_ = std::make_shared<H5Reader>(endpoint(), image_.data(), image_.size(),
                                                H5Reader::Image::WrittenHere);
    return startFile_;
}

std::string LiveFrames::report() const {
    std::lock_guard lock(mutex_);
    std::string r = source_.describe() + ": " + std::to_string(source_.framesReceived()) +
                    (ended_ ? "" : " of " + std::to_string(count_)) + " frames received, " +
                    std::to_string(handedOut_) + " processed";
    if (ended_) r += "; " + endText() + ": the output holds those " + std::to_string(*ended_);
    if (const std::uint64_t waits = source_.queueFullWaits())
        r += "; processing fell behind: the queue of " + std::to_string(source_.queueFrames()) +
             " frames was full " + std::to_string(waits) +
             " times (the sender was held back, no frame dropped)";
    return r;
}

} // namespace clscope::stream

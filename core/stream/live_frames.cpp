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
    const std::size_t frame = height() * width() * dtypeSize(dtype());
    while (heldFirst_ + heldCount_ < upTo) {
        const std::size_t got = source_.append(held_, upTo - heldFirst_ - heldCount_);
        if (!got) {
            ended_ = heldFirst_ + heldCount_;
            return false;
        }
        heldCount_ += got;
        const std::size_t drop = std::min(heldCount_, first > heldFirst_ ? first - heldFirst_ : 0);
        held_.erase(held_.begin(), held_.begin() + static_cast<std::ptrdiff_t>(drop * frame));
        heldFirst_ += drop, heldCount_ -= drop;
    }
    return true;
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
    const std::size_t frame = height() * width() * dtypeSize(dtype());
    Array out(dtype(), {count, height(), width()});
    std::memcpy(out.bytes(), held_.data() + (first - heldFirst_) * frame, count * frame);
    // Frames before this read are never asked for again.
    held_.erase(held_.begin(),
                held_.begin() + static_cast<std::ptrdiff_t>((first - heldFirst_) * frame));
    heldCount_ -= first - heldFirst_, heldFirst_ = first;
    handedOut_ = std::max(handedOut_, first + count);
    return out;
}

std::string LiveFrames::endText() const {
    return "the series ended after " + std::to_string(*ended_) + " of the " +
           std::to_string(count_) + " frames " +
           (source_.start().numberOfImages == count_ ? "announced" : "asked for") + " (" +
           (source_.timedOut() ? "no message in " + secondsText(options_.timeoutSeconds) + " s"
                               : std::string("its end message")) +
           ")";
}

std::string LiveFrames::report() const {
    std::lock_guard lock(mutex_);
    std::string r = source_.describe() + ": " + std::to_string(source_.framesReceived()) +
                    " frames received, " + std::to_string(handedOut_) + " processed";
    if (ended_) r += "; " + endText() + ": the output holds those " + std::to_string(*ended_);
    if (const std::uint64_t waits = source_.queueFullWaits())
        r += "; processing fell behind: the queue of " + std::to_string(source_.queueFrames()) +
             " frames was full " + std::to_string(waits) +
             " times (the sender was held back, no frame dropped)";
    return r;
}

} // namespace clscope::stream

#include "gpu/pipeline/batch_writer.hpp"

#include "core/errors.hpp"
#include "core/stream/compression.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/runtime/staging.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace clscope::pipeline {

namespace {

// Whether frames are decoded on the device: CLSCOPE_STREAM_DECODE=host says no.
bool decodeOnDevice() {
    const char* env = std::getenv("CLSCOPE_STREAM_DECODE");
    return !(env && std::string(env) == "host");
}

} // namespace

BatchWriter::BatchWriter(ClSession& session, const FrameFormat& format)
    : session_(session), format_(format), decoder_(session), onDevice_(decodeOnDevice()) {
    if (!onDevice_) hostReason_ = "CLSCOPE_STREAM_DECODE=host";
}

void BatchWriter::write(std::vector<stream::ReceivedFrame>& frames, const cl::Buffer& out) {
    if (onDevice_) try {
            for (std::size_t i = 0; i < frames.size();)
                i = frames[i].packed.empty() ? uploadAsReceived(frames, i, out)
                                             : decodeRun(frames, i, out);
            return;
        } catch (const DeviceError& e) { // e.g. blocks beyond its local memory
            onDevice_ = false, hostReason_ = e.what();
            onDevice = doneBefore_, asReceived = receivedBefore_;
        }
    upload(frames, out);
}

std::optional<std::size_t> BatchWriter::prepare(const std::vector<stream::ReceivedFrame>& frames) {
    if (!onDevice_ || frames.empty()) return std::nullopt;
    std::vector<decode::CompressedFrame> packed;
    for (const auto& f : frames) {
        if (f.packed.empty()) return std::nullopt;
        packed.push_back({f.packed.algorithm, f.packed.elemSize, f.packed.bytes});
    }
    try {
        return decoder_.prepare(packed, format_.frameBytes());
    } catch (const DeviceError& e) { // e.g. no pinned memory
        onDevice_ = false, hostReason_ = e.what();
        return std::nullopt;
    }
}

void BatchWriter::enqueue(std::size_t batch, std::vector<stream::ReceivedFrame>& frames,
                          const cl::Buffer& out) {
    if (onDevice_) try {
            decoder_.enqueue(batch, out);
            onDevice += frames.size();
            return;
        } catch (const DeviceError& e) {
            onDevice_ = false, hostReason_ = e.what();
        }
    upload(frames, out);
}

void BatchWriter::writeStack(const Array& stack, const cl::Buffer& out) {
    cl::Event event;
    session_.queue().enqueueWriteBuffer(out, CL_FALSE, 0, stack.byteSize(), stack.bytes(), nullptr,
                                        &event);
    session_.record(event, "copy H->D frames");
    asReceived += stack.shape()[0];
}

std::string BatchWriter::note() const {
    std::string n;
    if (onDevice) n += std::to_string(onDevice) + " frames decoded on the device";
    if (onHost)
        n += (n.empty() ? "" : ", ") + std::to_string(onHost) + " decoded on the host" +
             (hostReason_.empty() ? "" : " (" + hostReason_ + ")");
    if (asReceived)
        n += (n.empty() ? "" : ", ") + std::to_string(asReceived) +
             " uploaded as received (not compressed)";
    return n;
}

// The compressed frames from frames[i] on, decoded on the device; the next frame's index.
std::size_t BatchWriter::decodeRun(const std::vector<stream::ReceivedFrame>& frames, std::size_t i,
                                   const cl::Buffer& out) {
    std::vector<decode::CompressedFrame> run;
    for (std::size_t j = i; j < frames.size() && !frames[j].packed.empty(); ++j)
        run.push_back(
            {frames[j].packed.algorithm, frames[j].packed.elemSize, frames[j].packed.bytes});
    decoder_.decode(run, format_.frameBytes(), out, {}, i * format_.frameBytes());
    onDevice += run.size();
    return i + run.size();
}

// frames[i], a frame received decoded (or read before), uploaded as it is.
std::size_t BatchWriter::uploadAsReceived(const std::vector<stream::ReceivedFrame>& frames,
                                          std::size_t i, const cl::Buffer& out) {
    const std::size_t bytes = format_.frameBytes();
    cl::Event event;
    session_.queue().enqueueWriteBuffer(out, CL_TRUE, i * bytes, bytes, frames[i].frame.bytes(),
                                        nullptr, &event);
    session_.record(event, "copy H->D frames");
    ++asReceived;
    return i + 1;
}

// The CPU decoder (the reference) into host memory, several threads, then one upload.
void BatchWriter::upload(std::vector<stream::ReceivedFrame>& frames, const cl::Buffer& out) {
    const std::size_t bytes = format_.frameBytes(), n = frames.size();
    if (host_.size() < n * bytes) host_.resize(n * bytes);
    const std::size_t threads = std::min<std::size_t>(
        n, std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16));
    auto work = [&](std::size_t t) {
        for (std::size_t i = t; i < n; i += threads) {
            std::byte* to = host_.data() + i * bytes;
            const stream::PackedImage& p = frames[i].packed;
            if (p.empty())
                std::memcpy(to, frames[i].frame.bytes(), bytes);
            else
                stream::decompress(p.algorithm, p.elemSize, p.bytes, {to, bytes});
        }
    };
    {
        std::vector<std::jthread> helpers;
        for (std::size_t t = 1; t < threads; ++t)
            helpers.emplace_back(work, t);
        work(0);
    }
    for (const auto& f : frames)
        ++(f.packed.empty() ? asReceived : onHost);
    session_.upload(out, host_.data(), n * bytes, "copy H->D frames");
}

// Up to `batch` frames, waiting until that many came or the series ended. A stacked feed's
// array lands in pinned memory of a GPU (pinnedInputScope), so its upload is one DMA.
Taken takeBatch(FrameFeed& feed, std::size_t batch, const DeviceInfo& device) {
    Taken taken;
    if (feed.stacked()) {
        const auto pinned = pinnedInputScope({device});
        taken.stack = feed.takeStack(batch);
        return taken;
    }
    while (taken.frames.size() < batch) {
        std::vector<stream::ReceivedFrame> got = feed.takeNext(batch - taken.frames.size());
        if (got.empty()) break;
        for (auto& f : got)
            taken.frames.push_back(std::move(f));
    }
    return taken;
}

// "stream tcp://…: image I: WHY" for the decoder's "frame K...: WHY" about frame K of a batch
// whose first frame is image `first`.
std::string imageError(const FrameFeed& feed, std::size_t first, const std::string& what) {
    std::size_t k = 0;
    int used = 0;
    if (std::sscanf(what.c_str(), "frame %zu%n", &k, &used) != 1) return what;
    return feed.name() + ": image " + std::to_string(first + k) + what.substr(std::size_t(used));
}

void writeTaken(BatchWriter& writer, Taken& taken, const cl::Buffer& out, const FrameFeed& feed,
                std::size_t first) {
    try {
        if (!taken.stack.shape().empty())
            writer.writeStack(taken.stack, out);
        else if (taken.prepared)
            writer.enqueue(*taken.prepared, taken.frames, out);
        else
            writer.write(taken.frames, out);
    } catch (const InputError& e) {
        throw InputError(imageError(feed, first, e.what()));
    }
}

} // namespace clscope::pipeline

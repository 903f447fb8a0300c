#include "gpu/runtime/staging.hpp"
#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/range_pool.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace clscope {

namespace {

// Host threads kept for the process (core/range_pool.hpp): starting 15 threads per 36 MB frame
// cost about as much as the copy. A copy is cut into slices of about sliceBytes that the threads
// (the caller too) take in turn, so a thread delayed by other work (a stream's grouping) holds up
// one slice, not a fixed share. At most 8 threads: memory bandwidth is spent by then, and cores
// stay free. One copy at a time (concurrent runs on several devices take turns).
constexpr std::size_t sliceBytes = std::size_t(1) << 20;

RangePool& copyPool() {
    // CLSCOPE_COPY_THREADS: another count (bench experiments).
    static RangePool pool([] {
        const char* env = std::getenv("CLSCOPE_COPY_THREADS");
        return env ? std::clamp<std::size_t>(std::strtoul(env, nullptr, 10), 1, 64)
                   : std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
    }());
    return pool;
}

} // namespace

void parallelCopy(void* to, const void* from, std::size_t bytes) {
    if (bytes < 4 * sliceBytes) {
        std::memcpy(to, from, bytes);
        return;
    }
    auto* out = static_cast<char*>(to);
    const auto* in = static_cast<const char*>(from);
    copyPool().run(bytes, (bytes + sliceBytes - 1) / sliceBytes,
                   [&](std::size_t begin, std::size_t end) {
                       std::memcpy(out + begin, in + begin, end - begin);
                   });
}

StreamUpload::StreamUpload(ClSession& session, std::size_t chunkBytes, const std::string& what,
                           std::size_t depth)
    : session_(session), bytes_(std::max<std::size_t>(chunkBytes, 4096)) {
    depth = std::max<std::size_t>(depth, 2);
    pinned_.resize(depth), uploaded_.resize(depth), released_.resize(depth);
    pieces_.resize(depth), label_.resize(depth);
    try {
        transfer_ = cl::CommandQueue(session.context(), session.device().device(),
                                     CL_QUEUE_PROFILING_ENABLE);
        for (std::size_t i = 0; i < depth; ++i)
            device_.push_back(session.allocate(bytes_, what));
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "allocating stream buffers", session.info());
    }
}

StreamUpload::~StreamUpload() {
    try {
        transfer_.finish(); // every DMA has read its staging block
        for (std::size_t slot = 0; slot < depth(); ++slot)
            timeUpload(slot);
    } catch (const cl::Error&) {
    }
}

// Wait for slot's DMAs and add their times to the session's timings (NVIDIA gives an event's
// profiling only once the host has waited for it, not when another queue did).
void StreamUpload::timeUpload(std::size_t slot) {
    for (cl::Event& event : pieces_[slot]) {
        event.wait();
        const auto start = event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
        const auto end = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
        session_.timed(label_[slot], start, end);
    }
    pieces_[slot].clear();
    uploaded_[slot] = cl::Event();
}

// The slot's pinned staging, made at its first use (pinning costs tens of ms; the device keeps
// the block for the process).
void* StreamUpload::stagingBlock(std::size_t slot) {
    if (!pinned_[slot]) {
        const auto start = std::chrono::steady_clock::now();
        try {
            pinned_[slot] = session_.device().pinned(bytes_, transfer_);
        } catch (const cl::Error& e) {
            rethrowDeviceError(e, "allocating pinned staging memory", session_.info());
        }
        session_.timings().add("pinned staging (host, kept between runs)", msSince(start));
    }
    return pinned_[slot]->host;
}

void StreamUpload::send(std::size_t index, const void* data, std::size_t bytes,
                        const std::string& label) {
    enqueue(index, data, bytes, label, false);
}

void StreamUpload::sendInPlace(std::size_t index, const void* data, std::size_t bytes,
                               const std::string& label) {
    enqueue(index, data, bytes, label, true);
}

void StreamUpload::enqueue(std::size_t index, const void* data, std::size_t bytes,
                           const std::string& label, bool inPlace) {
    if (bytes > bytes_) throw UsageError("stream upload: chunk larger than its buffers");
    const std::size_t slot = index % depth();
    try {
        timeUpload(slot); // chunk i - depth's DMA has read the block
        label_[slot] = label;
        const auto start = std::chrono::steady_clock::now();
        const bool direct = session_.device().dmaReads(data, bytes);
        // Through staging in pieces: the DMA of one runs while the host copies the next; from
        // pinned memory in one (each DMA command costs a gap on the link).
        const std::size_t piece = direct ? std::max<std::size_t>(bytes, 1) : pieceBytes;
        for (std::size_t at = 0; at < bytes; at += piece) {
            const std::size_t n = std::min(piece, bytes - at);
            const char* from = static_cast<const char*>(data) + at;
            const char* host = from;
            if (!direct) {
                char* staging = static_cast<char*>(stagingBlock(slot)) + at;
                parallelCopy(staging, from, n);
                host = staging;
            }
            if (at == 0) waitReleased(slot);
            cl::Event& event = pieces_[slot].emplace_back();
            transfer_.enqueueWriteBuffer(device_[slot], CL_FALSE, at, n, host, nullptr, &event);
            transfer_.flush();
            uploaded_[slot] = event; // the transfer queue is in order: the last piece is last
        }
        if (direct && !inPlace) uploaded_[slot].wait(); // data is reusable when send returns
        session_.timings().add(!direct   ? "copy to pinned staging (host)"
                               : inPlace ? "upload from pinned memory (host, queued)"
                                         : "upload from pinned memory (host waits)",
                               msSince(start));
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, label, session_.info());
    }
}

void StreamUpload::sendRows(std::size_t index, const void* data, Rows rows,
                            const std::string& label, bool inPlace) {
    if (rows.pitch == rows.bytes)
        return enqueue(index, data, rows.count * rows.bytes, label, inPlace);
    if (rows.count * rows.bytes > bytes_)
        throw UsageError("stream upload: chunk larger than its buffers");
    const std::size_t slot = index % depth();
    try {
        timeUpload(slot); // chunk i - depth's DMA has read the block
        label_[slot] = label;
        const auto start = std::chrono::steady_clock::now();
        const std::size_t span = rows.count ? (rows.count - 1) * rows.pitch + rows.bytes : 0;
        if (!session_.device().dmaReads(data, span)) {
            stageRows(slot, data, rows);
            session_.timings().add("copy to pinned staging (host)", msSince(start));
            return;
        }
        waitReleased(slot);
        cl::Event& event = pieces_[slot].emplace_back();
        transfer_.enqueueWriteBufferRect(device_[slot], CL_FALSE, {0, 0, 0}, {0, 0, 0},
                                         {rows.bytes, rows.count, 1}, rows.bytes, 0, rows.pitch, 0,
                                         data, nullptr, &event);
        transfer_.flush();
        uploaded_[slot] = event;
        if (!inPlace) event.wait(); // data is reusable when this returns
        session_.timings().add(inPlace ? "upload from pinned memory (host, queued)"
                                       : "upload from pinned memory (host waits)",
                               msSince(start));
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, label, session_.info());
    }
}

// Rows into the slot's staging in pieces of about pieceBytes, each piece's DMA queued while
// the host copies the next (the rows of a piece over the copy pool).
void StreamUpload::stageRows(std::size_t slot, const void* data, Rows rows) {
    const std::size_t per =
        std::max<std::size_t>(1, pieceBytes / std::max<std::size_t>(rows.bytes, 1));
    auto* staging = static_cast<char*>(stagingBlock(slot));
    const auto* from = static_cast<const char*>(data);
    for (std::size_t r = 0; r < rows.count; r += per) {
        const std::size_t n = std::min(per, rows.count - r);
        const std::size_t pieces = std::max<std::size_t>(1, n * rows.bytes / sliceBytes);
        copyPool().run(n, pieces, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = r + begin; i < r + end; ++i)
                std::memcpy(staging + i * rows.bytes, from + i * rows.pitch, rows.bytes);
        });
        if (r == 0) waitReleased(slot);
        cl::Event& event = pieces_[slot].emplace_back();
        transfer_.enqueueWriteBuffer(device_[slot], CL_FALSE, r * rows.bytes, n * rows.bytes,
                                     staging + r * rows.bytes, nullptr, &event);
        transfer_.flush();
        uploaded_[slot] = event;
    }
}

void* StreamUpload::staging(std::size_t index) {
    try {
        timeUpload(index % depth()); // chunk i - depth's DMA has read the block
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, label_[index % depth()], session_.info());
    }
    return stagingBlock(index % depth());
}

void StreamUpload::sendStaged(std::size_t index, std::size_t bytes, const std::string& label) {
    if (bytes > bytes_) throw UsageError("stream upload: chunk larger than its buffers");
    const std::size_t slot = index % depth();
    label_[slot] = label;
    try {
        waitReleased(slot);
        cl::Event& event = pieces_[slot].emplace_back();
        transfer_.enqueueWriteBuffer(device_[slot], CL_FALSE, 0, bytes, stagingBlock(slot), nullptr,
                                     &event);
        transfer_.flush();
        uploaded_[slot] = event;
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, label, session_.info());
    }
}

// The host waits until the session's queue has let go of the slot's buffer, then queues the DMA
// without a wait list: NVIDIA starts a DMA that waits for another queue's event only at the
// host's next call on its queue (0.1-0.4 ms late each chunk, measured on an H100), not when the
// event ends. With the ring deep enough (uploadDepth) the buffer is free by then.
void StreamUpload::waitReleased(std::size_t slot) {
    if (!released_[slot]()) return;
    released_[slot].wait();
    released_[slot] = cl::Event();
}

const cl::Buffer& StreamUpload::acquire(std::size_t index) {
    const std::size_t slot = index % depth();
    try {
        // Skipped where the upload is known to have ended (the same late start as above).
        if (uploaded_[slot]() &&
            uploaded_[slot].getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() == CL_COMPLETE)
            return device_[slot];
        const std::vector<cl::Event> upload{uploaded_[slot]};
        session_.queue().enqueueBarrierWithWaitList(&upload);
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, label_[slot], session_.info());
    }
    return device_[slot];
}

void StreamUpload::release(std::size_t index) {
    try {
        session_.queue().enqueueMarkerWithWaitList(nullptr, &released_[index % depth()]);
        session_.queue().flush();
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "stream marker", session_.info());
    }
}

void streamChunks(StreamUpload& upload, std::size_t count,
                  const std::function<void(std::size_t)>& send,
                  const std::function<void(std::size_t, const cl::Buffer&)>& enqueue,
                  const std::function<void(std::size_t)>& drain, std::size_t sent) {
    const std::size_t ahead = upload.ahead();
    for (std::size_t i = sent; i < std::min(ahead, count); ++i)
        send(i);
    for (std::size_t i = 0; i < count; ++i) {
        enqueue(i, upload.acquire(i));
        upload.release(i);
        if (i + ahead < count && i + ahead >= sent) send(i + ahead);
        drain(i);
    }
}

std::size_t uploadDepth(ClSession& session, const void* data, std::size_t bytes) {
    return session.device().dmaReads(data, bytes) ? 4 : 2;
}

HostAllocator pinnedAllocator(const DeviceInfo& info) {
    auto device = ClDevice::get(info);
    std::shared_ptr<cl::CommandQueue> queue;
    try {
        queue = std::make_shared<cl::CommandQueue>(device->context(), device->device());
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "creating a queue for pinned host memory", info);
    }
    // Past what one buffer may hold, or when pinning fails: the heap (uploads copy into staging).
    return [device, queue, limit = info.maxAllocBytes](std::size_t bytes) -> HostBlock {
        if (bytes > limit) return {};
        try {
            std::shared_ptr<PinnedBlock> block = device->pinned(bytes, *queue);
            auto* data = static_cast<std::byte*>(block->host);
            return {data, std::move(block)};
        } catch (const cl::Error&) {
            return {};
        }
    };
}

std::unique_ptr<HostAllocatorScope> pinnedInputScope(const std::vector<DeviceInfo>& devices,
                                                     std::size_t minBytes) {
    const char* env = std::getenv("CLSCOPE_PINNED_INPUT");
    if (devices.empty() || devices.front().type != "GPU" || (env && std::string(env) == "0"))
        return nullptr;
    return std::make_unique<HostAllocatorScope>(pinnedAllocator(devices.front()), minBytes);
}

} // namespace clscope

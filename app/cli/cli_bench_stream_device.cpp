// bench stream's lines on an OpenCL device: what a run there is bounded by.
#include "app/cli/bench_stream_case.hpp"
#include "gpu/decode/decoder.hpp"
#include "gpu/runtime/devices.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/runtime/staging.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#if defined(CLSCOPE_HAVE_DECOMPRESS)
namespace clscope::cli::bench_stream {
namespace {

// Frames per device batch: up to 512 MiB of decoded frames, at most 64.
std::size_t deviceBatch(const Case& c) {
    return std::clamp<std::size_t>((std::size_t(512) << 20) / c.frameBytes(), 1, 64);
}

// Sum of the session's records labelled `label` (ms).
double recordedMs(ClSession& session, const std::string& label) {
    double ms = 0;
    for (const TimingRecord& r : session.timings().records())
        if (r.label == label) ms += r.totalMs;
    return ms;
}

// Decoding on the device from memory: the compressed frames uploaded as they are, in batches,
// and decoded by bslz4.cl into one device buffer (gpu/decode), as a live run on the device
// would take them; one batch first builds the program (not timed).
Line decodeOnDevice(const Case& c, const DeviceInfo& device) {
    ClSession session(device);
    const std::size_t batch = std::min(deviceBatch(c), c.frames);
    const cl::Buffer out = session.allocate(batch * c.frameBytes(), "decoded frames");
    std::vector<decode::CompressedFrame> frames;
    for (std::size_t i = 0; i < batch; ++i)
        frames.push_back({"bslz4", 2, c.packed[i % c.packed.size()]});
    decode::FrameDecoder decoder(session);
    decoder.decode(frames, c.frameBytes(), out); // build, first use
    session.finish();
    session.timings().clear();
    const auto start = Clock::now();
    for (std::size_t done = 0; done < c.frames; done += batch) {
        const std::size_t n = std::min(batch, c.frames - done);
        decoder.decode(std::span(frames).first(n), c.frameBytes(), out);
    }
    session.finish();
    Line l{"decode on the device (" + device.spec + ", from memory)", 0};
    l.seconds = secondsSince(start);
    l.framesPerSecond = double(c.frames) / l.seconds;
    l.decodeMsPerFrame = recordedMs(session, "decode") / double(c.frames);
    char text[200];
    std::snprintf(text, sizeof text,
                  "batches of %zu; kernels %.1f ms, compressed bytes up %.1f ms (%s)", batch,
                  recordedMs(session, "decode"), recordedMs(session, "upload compressed"),
                  device.name.c_str());
    l.note = text;
    return l;
}

// The decoded frames' upload alone, as a run on the device sends frames from host memory
// (StreamUpload: host copy into pinned staging, DMA on its own queue), in batches.
Line uploadOnly(const Case& c, const DeviceInfo& device) {
    ClSession session(device);
    const std::size_t batch = std::min(deviceBatch(c), c.frames);
    std::vector<std::byte> host(batch * c.frameBytes());
    for (std::size_t i = 0; i < batch; ++i)
        std::memcpy(host.data() + i * c.frameBytes(), c.raw[i % c.raw.size()].bytes(),
                    c.frameBytes());
    const auto start = Clock::now();
    {
        StreamUpload upload(session, host.size(), "bench stream upload");
        std::size_t index = 0;
        for (std::size_t done = 0; done < c.frames; done += batch, ++index) {
            const std::size_t n = std::min(batch, c.frames - done);
            upload.send(index, host.data(), n * c.frameBytes(), "copy H->D frames");
            (void)upload.acquire(index);
            upload.release(index);
        }
        session.finish();
    }
    Line l{"upload only (" + device.spec + ", decoded frames)", 0};
    l.seconds = secondsSince(start);
    l.framesPerSecond = double(c.frames) / l.seconds;
    l.note = "batches of " + std::to_string(batch) + " (" + device.name + ")";
    return l;
}

} // namespace

std::vector<Line> deviceLines(const Case& c, const DeviceInfo& device) {
    return {decodeOnDevice(c, device), uploadOnly(c, device)};
}

} // namespace clscope::cli::bench_stream
#endif

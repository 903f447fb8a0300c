#include "gpu/decode/decoder.hpp"

#include "core/clock.hpp"
#include "core/errors.hpp"
#include "core/stream/block_plan.hpp"
#include "gpu/runtime/session.hpp"
#include "gpu/runtime/staging.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <thread>
#include <vector>

namespace clscope::decode {
namespace {

constexpr std::uint32_t LocalStep = 8192; // MAX_BLOCK in steps of the bitshuffle default block

// What the kernel's error codes mean (resources/kernels/bslz4.cl).
std::string errorText(int code) {
    switch (code) {
    case 1:
        return "a literal run or match beyond the block's bytes (truncated)";
    case 2:
        return "a match reaching before the block's start";
    case 3:
        return "more bytes than the block decodes to";
    case 4:
        return "fewer bytes than the block decodes to";
    case 5:
        return "the block lies beyond the buffers";
    case 6:
        return "a block larger than the decoder's local memory";
    default:
        return "error code " + std::to_string(code);
    }
}

} // namespace

const ProgramRecipe& decodeRecipe() {
    static const ProgramRecipe recipe =
        ProgramRecipe("bslz4", {"bslz4"},
                      {integerTunable("WG", 64, 1, 1024, "work-items decoding one block"),
                       fromInput(integerTunable("MAX_BLOCK", LocalStep, LocalStep, 1 << 20,
                                                "local bytes for a bitshuffled block"))})
            .launch("decode_blocks", {{"WG"}, {"1"}});
    return recipe;
}

struct FrameDecoder::Planned {
    std::vector<cl_ulong> entries;       // 4 per block, the kernel's layout
    std::vector<std::size_t> firstBlock; // per frame, then the total
    std::vector<std::string> algorithms; // per frame, for the error message
    std::uint32_t maxBlock = 0;          // the largest bitshuffled block, in bytes
    std::size_t bytes = 0, end = 0;      // compressed bytes; the end of the frames in `out`
    cl::Buffer error = {};               // the kernel's flag: code, block
    cl_int flagged[2] = {0, 0};
    cl::Event read = {};
};

FrameDecoder::FrameDecoder(ClSession& session) : session_(session) {
    planned_.push_back(std::make_unique<Planned>());
    planned_.push_back(std::make_unique<Planned>());
}

FrameDecoder::~FrameDecoder() = default; // StreamUpload's destructor waits for its DMAs

namespace {

// Frame f's blocks in the kernel's layout (4 words each), its bytes at `src` of the batch's and
// its frame at `dst` of the output; the largest bitshuffled block into maxBlock.
std::vector<cl_ulong> frameEntries(const CompressedFrame& frame, std::size_t f,
                                   std::size_t frameBytes, std::uint64_t src, std::uint64_t dst,
                                   std::uint32_t& maxBlock) {
    stream::FramePlan plan;
    try {
        plan = stream::planBlocks(frame.algorithm, frame.elemSize, frame.bytes, frameBytes);
    } catch (const InputError& e) {
        throw InputError("frame " + std::to_string(f) + ": " + e.what());
    }
    std::vector<cl_ulong> entries;
    entries.reserve(plan.blocks.size() * 4);
    maxBlock = 0;
    for (const stream::Block& b : plan.blocks) {
        entries.insert(entries.end(),
                       {src + b.src, dst + b.dst, b.srcBytes | (cl_ulong(b.dstBytes) << 32),
                        plan.elemSize | (cl_ulong(b.kind) << 32)});
        if (b.kind == stream::BlockKind::Bitshuffled) maxBlock = std::max(maxBlock, b.dstBytes);
    }
    return entries;
}

// work(f) for f in [0, count) on up to `threads` host threads (the caller's one of them); the
// first exception thrown, after every thread is done.
template <class Work> void forEachFrame(std::size_t count, std::size_t threads, Work&& work) {
    threads = std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(count, 1));
    std::vector<std::exception_ptr> failed(count);
    auto run = [&](std::size_t t) {
        for (std::size_t f = t; f < count; f += threads)
            try {
                work(f);
            } catch (...) {
                failed[f] = std::current_exception();
            }
    };
    {
        std::vector<std::jthread> helpers;
        for (std::size_t t = 1; t < threads; ++t)
            helpers.emplace_back(run, t);
        run(0);
    }
    for (const auto& e : failed)
        if (e) std::rethrow_exception(e);
}

// Host threads planning and copying a batch's frames: CLSCOPE_STAGE_THREADS, else up to 8.
std::size_t stagingThreads() {
    static const std::size_t threads = [] {
        const char* env = std::getenv("CLSCOPE_STAGE_THREADS");
        return env ? std::clamp<std::size_t>(std::strtoul(env, nullptr, 10), 1, 64)
                   : std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 8);
    }();
    return threads;
}

} // namespace

std::size_t FrameDecoder::prepare(std::span<const CompressedFrame> frames, std::size_t frameBytes,
                                  std::size_t outOffset) {
    const std::size_t batch = batches_++, n = frames.size();
    Planned& p = *planned_[batch % 2];
    std::vector<std::uint64_t> at(n + 1, 0); // each frame's first byte in the staging
    for (std::size_t f = 0; f < n; ++f)
        at[f + 1] = at[f] + frames[f].bytes.size();
    p.bytes = std::size_t(at[n]), p.end = outOffset + n * frameBytes;
    if (p.bytes > 0 && (!upload_ || uploadCapacity_ < p.bytes)) {
        upload_.reset(); // waits for its DMAs; buffers queued kernels read stay alive
        uploadCapacity_ = std::max(p.bytes + p.bytes / 4, uploadCapacity_ * 2);
        upload_ = std::make_unique<StreamUpload>(session_, uploadCapacity_, "compressed");
    }
    // Each frame planned from its headers and copied into the pinned staging on a thread of
    // its own (a frame's blocks are independent of the others').
    auto* staging = p.bytes > 0 ? static_cast<std::byte*>(upload_->staging(batch)) : nullptr;
    std::vector<std::vector<cl_ulong>> entries(n);
    std::vector<std::uint32_t> maxBlock(n, 0);
    const auto start = std::chrono::steady_clock::now();
    forEachFrame(n, stagingThreads(), [&](std::size_t f) {
        entries[f] = frameEntries(frames[f], f, frameBytes, at[f],
                                  outOffset + std::uint64_t(f) * frameBytes, maxBlock[f]);
        std::memcpy(staging + at[f], frames[f].bytes.data(), frames[f].bytes.size());
    });
    session_.timings().add("plan blocks, copy to pinned staging (host)", msSince(start));
    p.entries.clear(), p.firstBlock.clear(), p.algorithms.clear(), p.maxBlock = 0;
    for (std::size_t f = 0; f < n; ++f) {
        p.firstBlock.push_back(p.entries.size() / 4);
        p.algorithms.push_back(frames[f].algorithm);
        p.entries.insert(p.entries.end(), entries[f].begin(), entries[f].end());
        p.maxBlock = std::max(p.maxBlock, maxBlock[f]);
    }
    p.firstBlock.push_back(p.entries.size() / 4);
    if (p.bytes > 0) upload_->sendStaged(batch, p.bytes, "upload compressed");
    return batch;
}

// "frame F, block B of N": block `block` of the batch, and that frame.
std::string FrameDecoder::blockName(const Planned& p, std::size_t block, std::size_t& frame) const {
    const auto next = std::upper_bound(p.firstBlock.begin(), p.firstBlock.end(), block) - 1;
    frame = std::size_t(next - p.firstBlock.begin());
    return "frame " + std::to_string(frame) + ", block " + std::to_string(block - *next) + " of " +
           std::to_string(*(next + 1) - *next);
}

void FrameDecoder::reserve(cl::Buffer& buffer, std::size_t& capacity, std::size_t bytes,
                           const char* what) {
    if (capacity >= bytes && capacity > 0) return;
    capacity = std::max<std::size_t>(bytes, 1);
    buffer = session_.allocate(capacity, what);
}

void FrameDecoder::enqueue(std::size_t batch, const cl::Buffer& out, const TunableValues& values) {
    Planned& p = *planned_[batch % 2];
    const std::size_t blocks = p.entries.size() / 4;
    p.flagged[0] = p.flagged[1] = 0, p.read = cl::Event();
    if (blocks == 0) return;
    const std::uint32_t local =
        std::max(LocalStep, (p.maxBlock + LocalStep - 1) / LocalStep * LocalStep);
    if (local > session_.info().localMemBytes)
        throw DeviceError(session_.info().name + ": bslz4 blocks of " + std::to_string(p.maxBlock) +
                          " bytes exceed its " + std::to_string(session_.info().localMemBytes) +
                          " bytes of local memory (decode them on the CPU)");
    TunableValues v = values;
    v["MAX_BLOCK"] = std::to_string(local);
    const ProgramRecipe& recipe = decodeRecipe();
    const TunableValues resolved = recipe.resolve(v);
    cl::Kernel k = session_.kernel(recipe, resolved, "decode_blocks");
    reserve(table_, tableCapacity_, p.entries.size() * sizeof(cl_ulong), "blocks");
    if (!p.error()) p.error = session_.allocate(2 * sizeof(cl_int), "decode error");
    cl::CommandQueue& queue = session_.queue();
    try {
        cl::Event event; // p.entries and p.flagged stay until the batch after next
        queue.enqueueWriteBuffer(table_, CL_FALSE, 0, p.entries.size() * sizeof(cl_ulong),
                                 p.entries.data(), nullptr, &event);
        session_.record(event, "upload blocks");
        queue.enqueueWriteBuffer(p.error, CL_FALSE, 0, sizeof p.flagged, p.flagged, nullptr,
                                 &event);
        session_.record(event, "upload decode error");
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "upload blocks", session_.info());
    }
    const cl::Buffer& src = upload_->acquire(batch);
    k.setArg(0, src), k.setArg(1, cl_ulong(p.bytes)), k.setArg(2, table_);
    k.setArg(3, out), k.setArg(4, cl_ulong(p.end)), k.setArg(5, p.error);
    const std::size_t wg = std::stoul(resolved.at("WG"));
    session_.launch(k, "decode", recipe.shape("decode_blocks", resolved, {blocks * wg}));
    upload_->release(batch);
    try {
        queue.enqueueReadBuffer(p.error, CL_FALSE, 0, sizeof p.flagged, p.flagged, nullptr,
                                &p.read);
        queue.flush();
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "download decode error", session_.info());
    }
    session_.record(p.read, "download decode error");
}

void FrameDecoder::check(std::size_t batch) {
    Planned& p = *planned_[batch % 2];
    if (!p.read()) return;
    try {
        p.read.wait();
    } catch (const cl::Error& e) {
        rethrowDeviceError(e, "decode", session_.info());
    }
    if (!p.flagged[0]) return;
    std::size_t frame = 0;
    const std::string where = blockName(p, std::size_t(p.flagged[1]), frame);
    throw InputError(where + ": corrupt " + p.algorithms[frame] +
                     " data: " + errorText(p.flagged[0]));
}

void FrameDecoder::decode(std::span<const CompressedFrame> frames, std::size_t frameBytes,
                          const cl::Buffer& out, const TunableValues& values,
                          std::size_t outOffset) {
    const std::size_t batch = prepare(frames, frameBytes, outOffset);
    enqueue(batch, out, values);
    check(batch);
}

void decodeFrames(ClSession& session, std::span<const CompressedFrame> frames,
                  std::size_t frameBytes, const cl::Buffer& out, const TunableValues& values) {
    FrameDecoder(session).decode(frames, frameBytes, out, values);
}

} // namespace clscope::decode

#include "gpu/decode/decoder.hpp"

#include "core/errors.hpp"
#include "core/stream/block_plan.hpp"
#include "gpu/cl_device.hpp"
#include "gpu/session.hpp"
#include "gpu/staging.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
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

std::size_t FrameDecoder::plan(std::span<const CompressedFrame> frames, std::size_t frameBytes,
                               std::size_t outOffset) {
    entries_.clear(), firstBlock_.clear(), maxBlock_ = 0;
    std::vector<std::uint64_t> at; // each frame's first byte in bytes_
    std::uint64_t total = 0;
    for (std::size_t f = 0; f < frames.size(); ++f) {
        const CompressedFrame& frame = frames[f];
        stream::FramePlan plan;
        try {
            plan = stream::planBlocks(frame.algorithm, frame.elemSize, frame.bytes, frameBytes);
        } catch (const InputError& e) {
            throw InputError("frame " + std::to_string(f) + ": " + e.what());
        }
        const std::uint64_t dst = outOffset + std::uint64_t(f) * frameBytes;
        firstBlock_.push_back(entries_.size() / 4);
        for (const stream::Block& b : plan.blocks) {
            entries_.insert(entries_.end(),
                            {total + b.src, dst + b.dst, b.srcBytes | (cl_ulong(b.dstBytes) << 32),
                             plan.elemSize | (cl_ulong(b.kind) << 32)});
            if (b.kind == stream::BlockKind::Bitshuffled)
                maxBlock_ = std::max(maxBlock_, b.dstBytes);
        }
        at.push_back(total);
        total += frame.bytes.size();
    }
    firstBlock_.push_back(entries_.size() / 4);
    std::byte* host = hostBytes(std::size_t(total));
    for (std::size_t f = 0; f < frames.size(); ++f)
        parallelCopy(host + at[f], frames[f].bytes.data(), frames[f].bytes.size());
    return std::size_t(total);
}

std::byte* FrameDecoder::hostBytes(std::size_t bytes) {
    if (pinned_ && pinned_->bytes >= bytes) return static_cast<std::byte*>(pinned_->host);
    if (bytes_.empty() && bytes <= session_.info().maxAllocBytes) {
        pinned_.reset(); // kept: pinning costs ms, a larger block is taken in steps of 2x
        try {
            pinned_ = session_.device().pinned(std::bit_ceil(std::max<std::size_t>(bytes, 1 << 20)),
                                               session_.queue());
            return static_cast<std::byte*>(pinned_->host);
        } catch (const std::exception&) { // pinning failed: the heap from now on
            pinned_.reset();
        }
    }
    if (bytes_.size() < bytes) bytes_.resize(bytes); // kept: no page faults after the first
    return bytes_.data();
}

// "frame F, block B of N": block `block` of the batch, and that frame.
std::string FrameDecoder::blockName(std::size_t block, std::size_t& frame) const {
    const auto next = std::upper_bound(firstBlock_.begin(), firstBlock_.end(), block) - 1;
    frame = std::size_t(next - firstBlock_.begin());
    return "frame " + std::to_string(frame) + ", block " + std::to_string(block - *next) + " of " +
           std::to_string(*(next + 1) - *next);
}

void FrameDecoder::reserve(cl::Buffer& buffer, std::size_t& capacity, std::size_t bytes,
                           const char* what) {
    if (capacity >= bytes && capacity > 0) return;
    capacity = std::max<std::size_t>(bytes, 1);
    buffer = session_.allocate(capacity, what);
}

void FrameDecoder::decode(std::span<const CompressedFrame> frames, std::size_t frameBytes,
                          const cl::Buffer& out, const TunableValues& values,
                          std::size_t outOffset) {
    const std::size_t byteCount = plan(frames, frameBytes, outOffset);
    const std::size_t blocks = entries_.size() / 4;
    if (blocks == 0) return;
    const std::uint32_t local =
        std::max(LocalStep, (maxBlock_ + LocalStep - 1) / LocalStep * LocalStep);
    if (local > session_.info().localMemBytes)
        throw DeviceError(session_.info().name + ": bslz4 blocks of " + std::to_string(maxBlock_) +
                          " bytes exceed its " + std::to_string(session_.info().localMemBytes) +
                          " bytes of local memory (decode them on the CPU)");
    TunableValues v = values;
    v["MAX_BLOCK"] = std::to_string(local);
    const ProgramRecipe& recipe = decodeRecipe();
    const TunableValues resolved = recipe.resolve(v);
    reserve(src_, srcCapacity_, byteCount, "compressed");
    reserve(table_, tableCapacity_, entries_.size() * sizeof(cl_ulong), "blocks");
    if (!error_()) error_ = session_.allocate(2 * sizeof(cl_int), "decode error");
    if (byteCount > 0) session_.upload(src_, hostBytes(byteCount), byteCount, "upload compressed");
    session_.upload(table_, entries_.data(), entries_.size() * sizeof(cl_ulong), "upload blocks");
    const cl_int zero[2] = {0, 0};
    session_.upload(error_, zero, sizeof zero, "upload decode error");
    cl::Kernel k = session_.kernel(recipe, resolved, "decode_blocks");
    k.setArg(0, src_), k.setArg(1, cl_ulong(byteCount)), k.setArg(2, table_);
    k.setArg(3, out), k.setArg(4, cl_ulong(outOffset + frames.size() * frameBytes)),
        k.setArg(5, error_);
    const std::size_t wg = std::stoul(resolved.at("WG"));
    session_.launch(k, "decode", recipe.shape("decode_blocks", resolved, {blocks * wg}));
    cl_int flagged[2] = {0, 0};
    session_.download(error_, flagged, sizeof flagged, "download decode error");
    if (!flagged[0]) return;
    std::size_t frame = 0;
    const std::string where = blockName(std::size_t(flagged[1]), frame);
    throw InputError(where + ": corrupt " + frames[frame].algorithm +
                     " data: " + errorText(flagged[0]));
}

void decodeFrames(ClSession& session, std::span<const CompressedFrame> frames,
                  std::size_t frameBytes, const cl::Buffer& out, const TunableValues& values) {
    FrameDecoder(session).decode(frames, frameBytes, out, values);
}

} // namespace clscope::decode
